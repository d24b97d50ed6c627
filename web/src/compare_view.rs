//! Side by side: the current scenario against another plan of the user's choosing — its staged ↔
//! rolling counterpart (`fleetplan::compare::counterpart`), a version of the text pinned earlier or
//! picked from the undo history, or another file — both charts fitted to one time window, and the
//! core's comparison table (`fleetplan::compare::compare`) above them.

use std::sync::Arc;

use fleetplan::compare::{self, Comparison, Faster, Side};
use fleetplan::plan::Plan;
use fleetplan::time::Time;
use fleetplan::zone::Zone;
use fleetplan::Scenario;
use leptos::prelude::*;

use crate::dom::{mount_view, Mounted};
use crate::history::History;
use crate::summary::outcome_words;
use crate::{analysis, browser, clock};

/// What the current scenario is compared with.
#[derive(Clone, Debug, PartialEq)]
pub enum Against {
    /// The other KubeFleet strategy for the same fleet (staged ↔ rolling).
    Counterpart,
    /// Another scenario text: a pinned or earlier version, or a file; `label` says which.
    Text { label: String, text: Arc<String> },
}

impl Against {
    pub fn label(&self) -> String {
        match self {
            Against::Counterpart => "the other KubeFleet strategy".into(),
            Against::Text { label, .. } => label.clone(),
        }
    }
}

/// What the comparison needs from the page around it (see [`Comparison`]).
#[derive(Clone, Copy)]
pub struct CompareArgs {
    pub plan: Signal<Option<Arc<Plan>>>,
    pub other: Signal<Option<Arc<Plan>>>,
    pub against: RwSignal<Against>,
    /// The analysis of the committed text (whether it has a counterpart to compare with).
    pub analysis: Memo<analysis::Analysis>,
    pub committed: RwSignal<String>,
    pub history: RwSignal<History>,
    pub span: Signal<Option<(Time, Time)>>,
}

/// The comparison as an on-demand part: its code loads when "Compare…" is first pressed.
#[derive(Clone, Copy)]
pub struct CompareKit {
    pub other_plan: fn(Option<&Scenario>, &Against) -> Option<Arc<Plan>>,
    /// Mounts the comparison into the parent, before the node: a Leptos view, so the renderer comes
    /// with this part.
    pub mount: fn(&web_sys::Element, Option<&web_sys::Node>, CompareArgs) -> Mounted,
}

crate::on_demand! {
    pub fn compare_kit() -> CompareKit {
        CompareKit {
            other_plan,
            mount: |parent, before, a| {
                mount_view(parent, before, move || {
                    // Made here, in the comparison's part, not by the workbench: a memo of another
                    // value type is another copy of Leptos' memo code, and only this part follows it.
                    let analysis = a.analysis;
                    let has_counterpart =
                        Memo::new(move |_| analysis.with(analysis::Analysis::has_counterpart));
                    view! {
                        <Comparison
                            plan=a.plan
                            other=a.other
                            against=a.against
                            has_counterpart=has_counterpart
                            committed=a.committed
                            history=a.history
                            span=a.span
                        />
                    }
                })
            },
        }
    }
}

/// The plan to compare with; `None` when there is none (no counterpart, or the text does not load).
pub fn other_plan(scenario: Option<&Scenario>, against: &Against) -> Option<Arc<Plan>> {
    match against {
        Against::Counterpart => {
            let c = compare::counterpart(scenario?)?;
            Some(Arc::new(fleetplan::plan(&c)))
        }
        Against::Text { text, .. } => {
            let a = analysis::analyse(text, None);
            a.plan
        }
    }
}

fn side_cells(label: String, s: &Side, zone: &Zone) -> impl IntoView {
    let end = s.end.map_or_else(|| "never".to_string(), |t| zone.human(t));
    let total = s
        .total_duration
        .map_or_else(|| "—".to_string(), |d| d.human());
    view! {
        <th scope="row">{label}</th>
        <td>{s.kind}</td>
        <td>{outcome_words(s.outcome).0}</td>
        <td data-testid="compare-end" data-time=s.end.map(|t| t.to_string()).unwrap_or_default()>{end}</td>
        <td>{total}</td>
        <td>{format!("{} of {}", s.clusters_updated, s.clusters)}</td>
        <td>{s.max_unavailable_at_once}</td>
    }
}

fn table(c: &Comparison, b_label: String, zone: &Zone) -> impl IntoView {
    let name = |f: Faster| match f {
        Faster::A => "this scenario".to_string(),
        Faster::B => b_label.clone(),
        Faster::Same => String::new(),
    };
    let verdict = match (c.faster, c.difference) {
        (Some(Faster::Same), _) => "both finish at the same time".to_string(),
        (Some(f), Some(d)) => format!("{} finishes {} sooner", name(f), d.human()),
        _ => "at least one of them never finishes".to_string(),
    };
    view! {
        <table class="compare-table" data-testid="compare-table">
            <thead><tr><th scope="col">"plan"</th><th scope="col">"strategy"</th><th scope="col">"outcome"</th><th scope="col">"end"</th><th scope="col">"total"</th><th scope="col">"clusters updated"</th><th scope="col">"most unavailable at once"</th></tr></thead>
            <tbody>
                <tr>{side_cells("this scenario".into(), &c.a, zone)}</tr>
                <tr>{side_cells(b_label.clone(), &c.b, zone)}</tr>
            </tbody>
        </table>
        <p class="compare-verdict" data-testid="compare-verdict">{verdict}</p>
    }
}

/// The comparison panel: what to compare with, the table, and the other plan's chart.
#[component]
pub fn Comparison(
    #[prop(into)] plan: Signal<Option<Arc<Plan>>>,
    /// The other plan ([`other_plan`] of `against`).
    #[prop(into)]
    other: Signal<Option<Arc<Plan>>>,
    against: RwSignal<Against>,
    /// Whether the scenario has a staged ↔ rolling counterpart.
    #[prop(into)]
    has_counterpart: Signal<bool>,
    committed: RwSignal<String>,
    history: RwSignal<History>,
    /// Both charts' shared window ([`crate::chart::shared_span`]).
    #[prop(into)]
    span: Signal<Option<(Time, Time)>>,
) -> impl IntoView {
    let zone = clock::use_zone();
    let problem = RwSignal::new(None::<String>);
    let pin = move |_| {
        let t = committed.get_untracked();
        let at = zone.get_untracked().clock(browser::now());
        against.set(Against::Text {
            label: format!("the version pinned at {at}"),
            text: Arc::new(t),
        });
    };
    let earlier = move || {
        history.with(|h| {
            let (versions, cursor) = (h.versions(), h.cursor());
            (0..cursor)
                .rev()
                .map(|i| {
                    let steps = cursor - i;
                    let label = if i == 0 {
                        "the opening text".to_string()
                    } else {
                        format!("{steps} edit{} ago", if steps == 1 { "" } else { "s" })
                    };
                    (i, label, versions[i].len())
                })
                .collect::<Vec<_>>()
        })
    };
    let pick_earlier = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        let Ok(i) = v.parse::<usize>() else { return };
        if let Some((label, text)) = history.with_untracked(|h| {
            let steps = h.cursor().saturating_sub(i);
            h.versions().get(i).map(|t| {
                (
                    if i == 0 {
                        "the opening text".to_string()
                    } else {
                        format!(
                            "the text {steps} edit{} ago",
                            if steps == 1 { "" } else { "s" }
                        )
                    },
                    t.clone(),
                )
            })
        }) {
            against.set(Against::Text {
                label,
                text: Arc::new(text),
            });
        }
    };
    let pick_file = move |ev: leptos::ev::Event| {
        browser::read_chosen_file(&ev, move |name, text| match text {
            Ok(t) => {
                problem.set(None);
                against.set(Against::Text {
                    label: name,
                    text: Arc::new(t),
                });
            }
            Err(e) => problem.set(Some(format!("{name} could not be read: {e}"))),
        });
    };
    let body = move || {
        let z = zone.get();
        let b_label = against.with(Against::label);
        plan.with(|a| {
            other.with(|b| match (a, b) {
                (Some(a), Some(b)) => {
                    let c = compare::compare(a, b);
                    view! {
                        {table(&c, b_label.clone(), &z)}
                        <h3 class="compare-title">{format!("{b_label} ({})", b.kind)}</h3>
                    }
                    .into_any()
                }
                _ => view! { <p class="note" data-testid="compare-none">{format!("Nothing to compare: {b_label} has no plan (no counterpart for this kind, or a text that does not load).")}</p> }.into_any(),
            })
        })
    };
    // The other plan's chart, at the end of the comparison once it is mounted; made then, so that its
    // effects (the first measures its width) run with it in the page.
    let root = NodeRef::<leptos::html::Div>::new();
    crate::dom::effect(move |_| {
        if let Some(el) = root.get() {
            let other: Signal<Option<Arc<Plan>>> = other;
            let chart =
                untrack(|| crate::chart::gantt_chart(other, false.into(), false, Some(span)));
            let _ = el.append_child(&chart);
        }
    });
    view! {
        <div class="compare" data-testid="compare" role="region" aria-label="comparison" node_ref=root>
            <div class="compare-pick">
                <span>"Compare with:"</span>
                <Show when=move || has_counterpart.get()>
                    <button data-testid="compare-counterpart" class:primary=move || against.with(|a| *a == Against::Counterpart) on:click=move |_| against.set(Against::Counterpart)>"the other KubeFleet strategy"</button>
                </Show>
                <button data-testid="compare-pin" on:click=pin title="keep the current text as the other side, then edit this one">"this version (pin it, then edit)"</button>
                <label>
                    <span class="visually-hidden">"an earlier version"</span>
                    <select data-testid="compare-history" on:change=pick_earlier>
                        <option value="" selected>"an earlier version…"</option>
                        {move || earlier().into_iter().map(|(i, label, _)| view! { <option value=i.to_string()>{label}</option> }).collect_view()}
                    </select>
                </label>
                <label class="file-button">"a file…"
                    <input type="file" accept=".yaml,.yml,.json,text/yaml,application/json" data-testid="compare-file" on:change=pick_file />
                </label>
            </div>
            {move || problem.get().map(|p| view! { <p class="form-problem" role="alert">{p}</p> })}
            {body}
        </div>
    }
}
