//! The form editor: the scenario as fields, in sync with the YAML text.
//!
//! The form shows the scenario the core loaded from the text; a change edits a copy of that scenario and
//! writes the whole text anew with the core's `yaml_out::scenario_to_yaml`, which then flows through the
//! normal path (undo, re-plan, share link). So there is one source of truth, the text, and the form is
//! derived from it. Values are parsed with the core's own parsers (durations, times, kubectl selectors);
//! a value they refuse is not applied, and the reason is shown next to the field, as are the core's
//! diagnostics about that field. When the text stops loading, the form keeps showing the last scenario
//! that did.
//!
//! `widgets` holds the shared pieces; each kind's sections live in their own module beside it.

mod fleet;
pub mod gke;
pub mod rolling;
pub mod staged;
pub mod widgets;

use std::sync::Arc;

use fleetplan::model::{Scenario, Strategy};
use fleetplan::plan::Plan;
use fleetplan::yaml_out;
use fleetplan::Diagnostic;
use leptos::prelude::*;

use widgets::{Apply, Form, FORM_LEVEL};

use crate::dom::{mount_view, Mounted};

/// What the form needs from the planner around it (see [`ScenarioForm`]).
#[derive(Clone, Copy)]
pub struct FormArgs {
    /// The analysis of the committed text: its scenario, plan, staleness and the diagnostics the form
    /// shows by their fields.
    pub analysis: Memo<crate::analysis::Analysis>,
    pub apply: Callback<String>,
}

/// The form as an on-demand part: its code loads when the Form tab is first opened.
#[derive(Clone, Copy)]
pub struct FormKit {
    /// Mounts the form into the parent, before the node: a Leptos view, so the renderer comes with
    /// this part.
    pub mount: fn(&web_sys::Element, Option<&web_sys::Node>, FormArgs) -> Mounted,
}

crate::on_demand! {
    pub fn form_kit() -> FormKit {
        FormKit {
            mount: |parent, before, a| {
                let apply = a.apply;
                mount_view(parent, before, move || {
                    // Made here, in the form's part, not by the workbench: a memo or a signal of
                    // another value type is another copy of Leptos' code, and these only the form
                    // reads.
                    let analysis = a.analysis;
                    let diagnostics =
                        Memo::new(move |_| Arc::new(analysis.with(|a| a.diagnostics.clone())));
                    let scenario = Signal::derive(move || analysis.with(|a| a.scenario.clone()));
                    let plan = Signal::derive(move || analysis.with(|a| a.plan.clone()));
                    let stale = Signal::derive(move || analysis.with(|a| a.stale));
                    view! {
                        <ScenarioForm
                            scenario=scenario
                            plan=plan
                            diagnostics=diagnostics
                            stale=stale
                            apply=move |t| apply.run(t)
                        />
                    }
                })
            },
        }
    }
}

/// The form. `scenario`: the last scenario the text loaded to (`None`: it never loaded); `stale`: the
/// current text does not load, so the form shows an earlier version. `apply`: replaces the editor's
/// text (and so commits it).
#[component]
pub fn ScenarioForm(
    #[prop(into)] scenario: Signal<Option<Arc<Scenario>>>,
    #[prop(into)] plan: Signal<Option<Arc<Plan>>>,
    #[prop(into)] diagnostics: Signal<Arc<Vec<Diagnostic>>>,
    #[prop(into)] stale: Signal<bool>,
    apply: impl Fn(String) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let refused: RwSignal<Vec<(String, String)>> = RwSignal::new(Vec::new());
    let apply: Apply = Arc::new(move |f: &dyn Fn(&mut Scenario) -> Result<(), String>| {
        let Some(current) = scenario.get_untracked() else {
            return Err("the text does not load yet".into());
        };
        let mut s = (*current).clone();
        f(&mut s)?;
        apply(yaml_out::scenario_to_yaml(&s));
        Ok(())
    });
    let form = Form {
        apply,
        refused,
        diagnostics,
    };
    // The bulk generator's inputs live here so they survive the form being redrawn after each edit.
    let bulk = fleet::Bulk::new();

    let f = form.clone();
    let body = move || {
        let Some(s) = scenario.get() else {
            return view! {
                <p class="form-wait">"The text does not load yet; fix the errors listed under the YAML tab and the form appears."</p>
            }
            .into_any();
        };
        let plan = plan.get();
        let plan = plan.as_deref();
        let f = &f;
        match &s.strategy {
            Strategy::GkeRolloutSequence(_) | Strategy::GkeFleetSequence(_) => view! {
                <div class="form-body">
                    <fieldset class="form-group"><legend>"Start"</legend>{widgets::start_field(f, &s)}</fieldset>
                    {gke::sequence_view(f, &s, plan)}
                    {gke::versions_view(f, &s)}
                    {gke::clusters_view(f, &s)}
                </div>
            }
            .into_any(),
            Strategy::KubefleetRolling(_) => view! {
                <div class="form-body">
                    <fieldset class="form-group"><legend>"Start"</legend>{widgets::start_field(f, &s)}</fieldset>
                    {rolling::rolling_view(f, &s, plan)}
                    {fleet::clusters_view(f, &s, bulk)}
                </div>
            }
            .into_any(),
            Strategy::KubefleetStaged(_) => view! {
                <div class="form-body">
                    {staged::assumptions_view(f, &s)}
                    {staged::stages_view(f, &s, plan)}
                    {fleet::clusters_view(f, &s, bulk)}
                </div>
            }
            .into_any(),
        }
    };
    let general = move || {
        refused.with(|r| {
            r.iter()
                .find(|(k, _)| k == FORM_LEVEL)
                .map(|(_, m)| view! { <p class="form-problem" role="alert">{m.clone()}</p> })
        })
    };

    view! {
        <div class="scenario-form" data-testid="form">
            <p class="hint">"Changes here rewrite the YAML in fleetplan's scenario format (comments are not kept)."</p>
            <Show when=move || stale.get() && scenario.with(|s| s.is_some())>
                <p class="form-stale" role="status" data-testid="form-stale">
                    "The text has errors that stop it loading (listed under the editor). The form shows the last version that loaded; a change here replaces the text with that version."
                </p>
            </Show>
            {general}
            {body}
        </div>
    }
}
