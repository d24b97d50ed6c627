//! Side by side: the scenario next to its counterpart (a staged run and a rolling update of the same
//! fleet, `fleetplan::compare::counterpart`), both charts fitted to one time window, and the core's
//! comparison table (`fleetplan::compare::compare`) above them.

use std::sync::Arc;

use fleetplan::compare::{self, Comparison, Faster, Side};
use fleetplan::gantt::View;
use fleetplan::plan::Plan;
use fleetplan::time::Time;
use fleetplan::Scenario;
use leptos::prelude::*;

use crate::chart::GanttChart;
use crate::{human_time, outcome_words};

/// The window both charts show: from the earlier fitted start to the later fitted end.
pub fn shared_span(a: &Plan, b: &Plan) -> (Time, Time) {
    let (va, vb) = (View::fit(a, 1000.0), View::fit(b, 1000.0));
    (va.start.min(vb.start), va.end.max(vb.end))
}

fn side_cells(s: &Side) -> impl IntoView {
    let end = s.end.map_or_else(|| "never".to_string(), human_time);
    let total = s
        .total_duration
        .map_or_else(|| "—".to_string(), |d| d.to_string());
    view! {
        <td>{s.kind}</td>
        <td>{outcome_words(s.outcome).0}</td>
        <td data-testid="compare-end">{end}</td>
        <td>{total}</td>
        <td>{format!("{} of {}", s.clusters_updated, s.clusters)}</td>
        <td>{s.max_unavailable_at_once}</td>
    }
}

fn table(c: &Comparison) -> impl IntoView {
    let verdict = match (c.faster, c.difference) {
        (Some(Faster::A), Some(d)) => format!("{} finishes {d} sooner", c.a.kind),
        (Some(Faster::B), Some(d)) => format!("{} finishes {d} sooner", c.b.kind),
        (Some(Faster::Same), _) => "both finish at the same time".to_string(),
        _ => "at least one of them never finishes".to_string(),
    };
    view! {
        <table class="compare-table" data-testid="compare-table">
            <thead><tr><th>"strategy"</th><th>"outcome"</th><th>"end"</th><th>"total"</th><th>"clusters updated"</th><th>"most unavailable at once"</th></tr></thead>
            <tbody>
                <tr>{side_cells(&c.a)}</tr>
                <tr>{side_cells(&c.b)}</tr>
            </tbody>
        </table>
        <p class="compare-verdict" data-testid="compare-verdict">{verdict}</p>
    }
}

/// The plan of the scenario's counterpart (staged ↔ rolling), when it has one.
pub fn counterpart_plan(scenario: Option<&Scenario>) -> Option<Arc<Plan>> {
    let c = compare::counterpart(scenario?)?;
    Some(Arc::new(fleetplan::plan(&c)))
}

/// The comparison panel: the counterpart's chart and the table; a note when there is no counterpart.
#[component]
pub fn Comparison(
    #[prop(into)] plan: Signal<Option<Arc<Plan>>>,
    /// The counterpart's plan ([`counterpart_plan`]).
    #[prop(into)]
    other: Signal<Option<Arc<Plan>>>,
    /// Both charts' shared window ([`shared_span`]).
    #[prop(into)]
    span: Signal<Option<(Time, Time)>>,
) -> impl IntoView {
    let body = move || {
        plan.with(|a| {
            other.with(|b| match (a, b) {
                (Some(a), Some(b)) => {
                    let c = compare::compare(a, b);
                    view! {
                        {table(&c)}
                        <h3 class="compare-title">{format!("The same fleet as {}", b.kind)}</h3>
                    }
                    .into_any()
                }
                _ => view! { <p class="note">"This scenario has no counterpart to compare with."</p> }.into_any(),
            })
        })
    };
    view! {
        <div class="compare" data-testid="compare">
            {body}
            <GanttChart plan=other stale=false span=span />
        </div>
    }
}
