//! Above the chart: what the plan says in words. The end and total, the outcome (or why the plan
//! shown is stale), each stage's end, what only this kind of plan can say, the assumptions the
//! simulation used and the longest waits, all on the reader's clock.

use std::sync::Arc;

use fleetplan::plan::{Outcome, Plan};
use fleetplan::time::Time;
use fleetplan::zone::Zone;
use fleetplan::Severity;
use leptos::prelude::*;

use crate::analysis::Analysis;
use crate::link::ShareKit;
use crate::on_demand::Part;
use crate::{browser, clock, link};

/// A time for people on the reader's clock, with the exact UTC instant in `data-time` and on hover.
pub fn time_view(t: Option<Time>, testid: &'static str, zone: &Zone) -> AnyView {
    match t {
        Some(t) => {
            let exact = t.to_string();
            let human = zone.human(t);
            let hover = format!("{exact} (UTC)");
            view! { <time data-testid=testid data-time=exact.clone() datetime=exact title=hover>{human}</time> }.into_any()
        }
        None => view! { <span data-testid=testid data-time="never">"never"</span> }.into_any(),
    }
}

pub(crate) fn outcome_words(o: Outcome) -> (&'static str, &'static str) {
    match o {
        Outcome::Succeeded => ("succeeds", "outcome-ok"),
        Outcome::Failed => ("fails", "outcome-bad"),
        Outcome::Blocked => ("blocks (waits forever)", "outcome-warn"),
        Outcome::Invalid => ("is refused by the controller", "outcome-bad"),
        Outcome::Stalled => ("stalls (never finishes)", "outcome-bad"),
    }
}

pub(crate) fn counts_text(errors: usize, warnings: usize) -> String {
    format!(
        "{errors} error{}, {warnings} warning{}",
        if errors == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" }
    )
}

/// The summary of the current analysis.
#[component]
pub fn Summary(analysis: Memo<Analysis>, replan_ms: StoredValue<f64>) -> impl IntoView {
    let zone = clock::use_zone();
    move || {
        let z = zone.get();
        analysis.with(|a| {
            let errors = a.count(Severity::Error);
            let warnings = a.count(Severity::Warning);
            let counts = counts_text(errors, warnings);
            let timing = format!("{:.1}", replan_ms.get_value());
            // A text that does not load never shows an earlier plan as if it were this one.
            let stale_note = a.stale_reason.clone().map(|why| {
                let lead = if a.plan.is_some() {
                    "Stale: the current text does not load, so this is the plan of an earlier version. "
                } else {
                    "No plan: the text does not load. "
                };
                view! { <p class="stale-reason" role="status" data-testid="stale-reason"><strong>{lead}</strong>{why}</p> }
            });
            // A text of a kind whose code is still on its way (GKE, KubeFleet objects): a moment.
            let fetching = (!a.missing.is_empty()).then(|| {
                view! { <p class="note" role="status" data-testid="fetching">"Fetching the code that reads and plans this kind of input…"</p> }
            });
            let Some(p) = a.plan.clone() else {
                return view! {
                    <div class="summary" data-testid="summary" data-replan-ms=timing>
                        {fetching}
                        {stale_note}
                        <p class="counts">{counts}</p>
                    </div>
                }
                .into_any();
            };
            let (outcome, outcome_class) = outcome_words(p.outcome);
            let outcome_view = if a.stale {
                view! { <span class="outcome outcome-warn" data-testid="outcome">"Stale plan"</span> }.into_any()
            } else {
                view! { <span class=format!("outcome {outcome_class}") data-testid="outcome">"The run "{outcome}</span> }.into_any()
            };
            let duration = p
                .summary
                .total_duration
                .map_or_else(|| "—".to_string(), |d| d.human());
            let exact_duration = p
                .summary
                .total_duration
                .map_or_else(String::new, |d| d.to_string());
            let etas = p
                .summary
                .stage_etas
                .iter()
                .map(|e| view! { <li><span class="eta-stage">{e.stage.clone()}</span>" "{time_view(e.end, "stage-eta", &z)}</li> })
                .collect_view();
            let name = p.scenario.clone().unwrap_or_else(|| p.run.clone());
            let has_errors = errors > 0;
            let runs_note = (a.runs > 1)
                .then(|| format!("the input has {} update runs; showing the first", a.runs));
            view! {
                <div class="summary" class:stale=a.stale data-testid="summary" data-replan-ms=timing>
                    {fetching}
                    {stale_note}
                    <div class="summary-main">
                        <h2 class="run-name">{name}</h2>
                        {outcome_view}
                        <span class="counts" class:has-errors=has_errors>{counts}</span>
                    </div>
                    <dl class="facts">
                        <div><dt>"start"</dt><dd>{time_view(Some(p.start), "plan-start", &z)}</dd></div>
                        <div><dt>"end"</dt><dd>{time_view(p.end, "plan-end", &z)}</dd></div>
                        <div><dt>"total"</dt><dd data-testid="plan-duration" data-duration=exact_duration>{duration}</dd></div>
                        <div><dt>"clusters updated"</dt><dd>{format!("{} of {}", p.summary.clusters_updated, p.summary.clusters)}</dd></div>
                    </dl>
                    <ul class="kind-lines">{kind_lines(&p, &z).into_iter().map(|(id, t)| view! { <li data-testid=id>{t}</li> }).collect_view()}</ul>
                    <ol class="etas" aria-label="end of each stage">{etas}</ol>
                    {runs_note.map(|n| view! { <p class="note">{n}</p> })}
                    {waits_view(&p, &z)}
                    {assumptions_view(&p)}
                </div>
            }
            .into_any()
        })
    }
}

/// The longest waits (the CLI's list): where, what, from when and for how long.
fn waits_view(p: &Plan, zone: &Zone) -> Option<AnyView> {
    let waits = &p.summary.longest_waits;
    if waits.is_empty() {
        return None;
    }
    let rows = waits
        .iter()
        .map(|w| {
            let how_long = w
                .duration
                .map_or_else(|| "forever".to_string(), |d| d.human());
            view! {
                <tr>
                    <td>{w.stage.clone()}</td>
                    <td>{w.label.clone()}</td>
                    <td>{zone.human(w.start)}</td>
                    <td class="num">{how_long}</td>
                </tr>
            }
        })
        .collect_view();
    Some(
        view! {
            <details class="summary-more" data-testid="longest-waits">
                <summary>{format!("Longest waits ({})", waits.len())}</summary>
                <table class="waits">
                    <thead><tr><th>"stage"</th><th>"waiting for"</th><th>"from"</th><th>"for"</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </details>
        }
        .into_any(),
    )
}

/// Every assumption the simulation used, fleetplan's defaults marked.
fn assumptions_view(p: &Plan) -> Option<AnyView> {
    if p.assumptions.is_empty() {
        return None;
    }
    let defaulted = p.assumptions.iter().filter(|a| a.defaulted).count();
    let rows = p
        .assumptions
        .iter()
        .map(|a| {
            view! {
                <li>
                    <span class="assumption-field">{a.field.clone()}</span>
                    {a.defaulted.then(|| view! { <span class="assumption-default">" (default)"</span> })}
                    ": "{a.value.clone()}
                </li>
            }
        })
        .collect_view();
    Some(
        view! {
            <details class="summary-more" data-testid="assumptions">
                <summary>{format!("Assumptions ({}, {defaulted} by default)", p.assumptions.len())}</summary>
                <ul class="assumptions">{rows}</ul>
            </details>
        }
        .into_any(),
    )
}

/// What only this kind of plan can say: when each version reaches every cluster of each fleet (GKE);
/// the stall, or the end and the fewest available clusters (rolling). `(testid, text)` per line.
pub fn kind_lines(p: &Plan, zone: &Zone) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let when = |t: Option<Time>| t.map_or_else(|| "never".to_string(), |t| zone.human(t));
    // One line per version and fleet: the control planes' time, with the nodes' after it.
    let reach = &p.summary.version_reach;
    for v in reach.iter().filter(|v| v.upgrade_type != "node") {
        let nodes = reach
            .iter()
            .find(|n| n.upgrade_type == "node" && n.version == v.version && n.fleet == v.fleet)
            .map(|n| format!(" (nodes: {})", when(n.at)))
            .unwrap_or_default();
        out.push((
            "version-reach",
            match v.at {
                Some(t) => format!(
                    "version {} reaches every cluster of fleet {} ({}) at {}{nodes}",
                    v.version,
                    v.fleet,
                    v.clusters,
                    zone.human(t)
                ),
                None => format!(
                    "version {} never reaches every cluster of fleet {}{nodes}",
                    v.version, v.fleet
                ),
            },
        ));
    }
    // Node-only releases have no control-plane line to ride on.
    for n in reach.iter().filter(|n| {
        n.upgrade_type == "node"
            && !reach
                .iter()
                .any(|v| v.upgrade_type != "node" && v.version == n.version && v.fleet == n.fleet)
    }) {
        out.push((
            "version-reach",
            format!(
                "node version {} reaches every cluster of fleet {} at {}",
                n.version,
                n.fleet,
                when(n.at)
            ),
        ));
    }
    if let Some(g) = &p.gke {
        let mut reasons: Vec<(&str, Vec<&str>)> = Vec::new();
        for s in &g.skipped {
            match reasons.iter_mut().find(|(r, _)| *r == s.reason) {
                Some((_, names)) if !names.contains(&s.cluster.as_str()) => names.push(&s.cluster),
                Some(_) => {}
                None => reasons.push((s.reason, vec![&s.cluster])),
            }
        }
        for (reason, names) in reasons {
            out.push((
                "skipped",
                format!("skipped ({reason}): {}", names.join(", ")),
            ));
        }
    }
    if !p.unstaged.is_empty() {
        out.push((
            "unstaged",
            format!(
                "in no stage, never updated (the controller refuses the run): {}",
                p.unstaged.join(", ")
            ),
        ));
    }
    if let Some(r) = &p.rolling {
        match &r.stall {
            Some(s) => out.push((
                "stall",
                format!(
                    "stalls from {}: {} wait forever: {}",
                    zone.human(s.at),
                    s.waiting.join(", "),
                    s.reason
                ),
            )),
            None => out.push((
                "rolling-end",
                match p.end {
                    Some(e) => format!("every cluster is rolled at {}", zone.human(e)),
                    None => "the rollout does not finish".to_string(),
                },
            )),
        }
        let lowest = r
            .availability
            .iter()
            .map(|a| a.available)
            .min()
            .unwrap_or(r.target);
        out.push((
            "min-available",
            format!(
                "fewest available clusters: {lowest} of {} (budget: at least {} = N − maxUnavailable {})",
                r.target, r.min_available, r.max_unavailable
            ),
        ));
    }
    out
}

/// Embed mode's one-line caption: what the chart is, when it ends, and a way into the full app.
#[component]
pub fn EmbedCaption(plan: Signal<Option<Arc<Plan>>>, committed: RwSignal<String>) -> impl IntoView {
    let zone = clock::use_zone();
    // The link carries the text once the share codec's part is here; until then it opens the app.
    let sharer = Part::<ShareKit>::new();
    move || {
        let kit = sharer.get(link::share_kit);
        plan.get().map(|p| {
            let name = p.scenario.clone().unwrap_or_else(|| p.run.clone());
            let base = browser::app_url();
            let open = match kit {
                Some(k) => link::link_to(&base, &committed.with_untracked(|t| (k.encode)(t))),
                None => base,
            };
            view! {
                <p class="embed-caption">
                    <strong>{name}</strong>" · ends "{time_view(p.end, "plan-end", &zone.get())}
                    " · "<a href=open target="_blank" rel="noopener">"open in fleetplan"</a>
                </p>
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn kind_lines_read_on_the_readers_clock() {
        let text = fleetplan::examples::get("rolling-move-west-east")
            .unwrap()
            .text;
        let a = crate::analysis::analyse(text, None);
        let p = a.plan.unwrap();
        let utc = kind_lines(&p, &Zone::utc());
        let tokyo = kind_lines(&p, &Zone::fixed("Asia/Tokyo", 540, "JST"));
        let end = |lines: &[(&str, String)]| {
            lines
                .iter()
                .find(|(id, _)| *id == "rolling-end")
                .unwrap()
                .1
                .clone()
        };
        let (u, t) = (end(&utc), end(&tokyo));
        assert!(u.ends_with(" UTC") && t.ends_with(" JST"), "{u} / {t}");
        assert_ne!(u, t);
    }
}
