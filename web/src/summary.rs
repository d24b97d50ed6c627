//! Above the chart: what the plan says in words. The end and total, the outcome (or why the plan
//! shown is stale), each stage's end, what only this kind of plan can say, the assumptions the
//! simulation used and the longest waits, all on the reader's clock.

use std::sync::Arc;

use std::fmt::Write;

use fleetplan::export::xml_escape;
use fleetplan::plan::{Outcome, Plan};
use fleetplan::time::Time;
use fleetplan::zone::Zone;
use fleetplan::Severity;
use leptos::prelude::*;

use crate::analysis::Analysis;
use crate::link::ShareKit;
use crate::on_demand::Part;
use crate::{browser, clock, dom, link};

/// A time for people on the reader's clock, with the exact UTC instant in `data-time` and on hover.
pub fn time_html(out: &mut String, t: Option<Time>, testid: &str, zone: &Zone) {
    match t {
        Some(t) => {
            let exact = t.to_string();
            let _ = write!(
                out,
                r#"<time data-testid="{testid}" data-time="{exact}" datetime="{exact}" title="{exact} (UTC)">{}</time>"#,
                xml_escape(&zone.human(t))
            );
        }
        None => {
            let _ = write!(
                out,
                r#"<span data-testid="{testid}" data-time="never">never</span>"#
            );
        }
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

/// Why there is no plan, or why the plan shown is an earlier text's (a text that does not load never
/// shows an earlier plan as if it were this one).
pub fn stale_note_html(out: &mut String, a: &Analysis) {
    if let Some(why) = &a.stale_reason {
        let lead = if a.plan.is_some() {
            "Stale: the current text does not load, so this is the plan of an earlier version. "
        } else {
            "No plan: the text does not load. "
        };
        let _ = write!(
            out,
            r#"<p class="stale-reason" role="status" data-testid="stale-reason"><strong>{lead}</strong>{}</p>"#,
            xml_escape(why)
        );
    }
}

/// The summary's class: a stale plan is drawn dimmed.
pub fn summary_class(a: &Analysis) -> &'static str {
    if a.stale && a.plan.is_some() {
        "summary stale"
    } else {
        "summary"
    }
}

/// What the summary says about `a`, inside its `<div class="summary">` (the viewer writes it around
/// this, the app's [`summary`] keeps one and rewrites its content).
pub fn summary_html(out: &mut String, a: &Analysis, zone: &Zone) {
    let errors = a.count(Severity::Error);
    let warnings = a.count(Severity::Warning);
    let counts = counts_text(errors, warnings);
    // A text of a kind whose code is still on its way (GKE, KubeFleet objects): a moment.
    if !a.missing.is_empty() {
        out.push_str(r#"<p class="note" role="status" data-testid="fetching">Fetching the code that reads and plans this kind of input…</p>"#);
    }
    stale_note_html(out, a);
    let Some(p) = &a.plan else {
        let _ = write!(out, r#"<p class="counts">{counts}</p>"#);
        return;
    };
    let name = p.scenario.clone().unwrap_or_else(|| p.run.clone());
    let _ = write!(
        out,
        r#"<div class="summary-main"><h2 class="run-name">{}</h2>"#,
        xml_escape(&name)
    );
    if a.stale {
        out.push_str(
            r#"<span class="outcome outcome-warn" data-testid="outcome">Stale plan</span>"#,
        );
    } else {
        let (outcome, class) = outcome_words(p.outcome);
        let _ = write!(
            out,
            r#"<span class="outcome {class}" data-testid="outcome">The run {outcome}</span>"#
        );
    }
    let _ = write!(
        out,
        r#"<span class="counts{}">{counts}</span></div><dl class="facts"><div><dt>start</dt><dd>"#,
        if errors > 0 { " has-errors" } else { "" },
    );
    time_html(out, Some(p.start), "plan-start", zone);
    out.push_str("</dd></div><div><dt>end</dt><dd>");
    time_html(out, p.end, "plan-end", zone);
    let total = &p.summary.total_duration;
    let _ = write!(
        out,
        r#"</dd></div><div><dt>total</dt><dd data-testid="plan-duration" data-duration="{}">{}</dd></div><div><dt>clusters updated</dt><dd>{} of {}</dd></div></dl><ul class="kind-lines">"#,
        total.map_or_else(String::new, |d| d.to_string()),
        total.map_or_else(|| "—".to_string(), |d| d.human()),
        p.summary.clusters_updated,
        p.summary.clusters
    );
    for (id, text) in kind_lines(p, zone) {
        let _ = write!(out, r#"<li data-testid="{id}">{}</li>"#, xml_escape(&text));
    }
    out.push_str(r#"</ul><ol class="etas" aria-label="end of each stage">"#);
    for e in &p.summary.stage_etas {
        let _ = write!(
            out,
            r#"<li><span class="eta-stage">{}</span> "#,
            xml_escape(&e.stage)
        );
        time_html(out, e.end, "stage-eta", zone);
        out.push_str("</li>");
    }
    out.push_str("</ol>");
    if a.runs > 1 {
        let _ = write!(
            out,
            r#"<p class="note">the input has {} update runs; showing the first</p>"#,
            a.runs
        );
    }
    waits_html(out, p, zone);
    assumptions_html(out, p);
}

/// The longest waits (the CLI's list): where, what, from when and for how long.
fn waits_html(out: &mut String, p: &Plan, zone: &Zone) {
    let waits = &p.summary.longest_waits;
    if waits.is_empty() {
        return;
    }
    let _ = write!(
        out,
        r#"<details class="summary-more" data-testid="longest-waits"><summary>Longest waits ({})</summary><table class="waits"><thead><tr><th>stage</th><th>waiting for</th><th>from</th><th>for</th></tr></thead><tbody>"#,
        waits.len()
    );
    for w in waits {
        let _ = write!(
            out,
            r#"<tr><td>{}</td><td>{}</td><td>{}</td><td class="num">{}</td></tr>"#,
            xml_escape(&w.stage),
            xml_escape(&w.label),
            xml_escape(&zone.human(w.start)),
            w.duration
                .map_or_else(|| "forever".to_string(), |d| d.human())
        );
    }
    out.push_str("</tbody></table></details>");
}

/// Every assumption the simulation used, fleetplan's defaults marked.
fn assumptions_html(out: &mut String, p: &Plan) {
    if p.assumptions.is_empty() {
        return;
    }
    let defaulted = p.assumptions.iter().filter(|a| a.defaulted).count();
    let _ = write!(
        out,
        r#"<details class="summary-more" data-testid="assumptions"><summary>Assumptions ({}, {defaulted} by default)</summary><ul class="assumptions">"#,
        p.assumptions.len()
    );
    for x in &p.assumptions {
        let _ = write!(
            out,
            r#"<li><span class="assumption-field">{}</span>{}: {}</li>"#,
            xml_escape(&x.field),
            if x.defaulted {
                r#"<span class="assumption-default"> (default)</span>"#
            } else {
                ""
            },
            xml_escape(&x.value)
        );
    }
    out.push_str("</ul></details>");
}

/// The summary of the current analysis: the viewer's markup ([`summary_html`]), written again when
/// the analysis or the reader's zone changes (whole, or in place of the last: `morph`), where a Leptos
/// view per line used to be rebuilt whole anyway (so the first visit carries no view code for it).
pub fn summary(analysis: Memo<Analysis>, replan_ms: StoredValue<f64>) -> web_sys::HtmlElement {
    let zone = clock::use_zone();
    let el = dom::element("div", &[("class", "summary"), ("data-testid", "summary")])
        .expect("a document");
    let root = el.clone();
    let mut written = String::new();
    dom::effect(move |_| {
        let z = zone.get();
        let el = &root;
        analysis.with(|a| {
            let mut html = String::with_capacity(2048);
            summary_html(&mut html, a, &z);
            dom::set_attribute_changed(el, "class", summary_class(a));
            let _ = el.set_attribute("data-replan-ms", &format!("{:.1}", replan_ms.get_value()));
            // In place of what it wrote last (an edit changes times and durations, rarely lines):
            // only the changed texts are styled and shaped again, and an opened part stays open.
            crate::morph::update(el, &mut written, html);
        });
    });
    el
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

/// Embed mode's one-line caption, inside its `<p class="embed-caption">`: what the chart is, when it
/// ends, and a way into the full app at `open`.
pub fn embed_caption_html(out: &mut String, p: &Plan, open: &str, zone: &Zone) {
    let name = p.scenario.clone().unwrap_or_else(|| p.run.clone());
    let _ = write!(out, r#"<strong>{}</strong> · ends "#, xml_escape(&name));
    time_html(out, p.end, "plan-end", zone);
    let _ = write!(
        out,
        r#" · <a href="{}" target="_blank" rel="noopener">open in fleetplan</a>"#,
        xml_escape(open)
    );
}

/// Embed mode's caption ([`embed_caption_html`]) on the current plan, hidden without one.
pub fn embed_caption(
    plan: Signal<Option<Arc<Plan>>>,
    committed: RwSignal<String>,
) -> web_sys::HtmlElement {
    let zone = clock::use_zone();
    // The link carries the text once the share codec's part is here; until then it opens the app.
    let sharer = Part::<ShareKit>::new();
    let caption = dom::element("p", &[("class", "embed-caption")]).expect("a document");
    caption.set_hidden(true);
    let el = caption.clone();
    // The plan and zone the caption was written for: when only the link's target changes (the share
    // codec arrives), the link is kept and its href set, since a keyboard reader may be on it (an
    // embed's first Tab brings the app, which puts the focus back on the link).
    let drawn: StoredValue<Option<(Arc<Plan>, Arc<Zone>)>> = StoredValue::new(None);
    dom::effect(move |_| {
        let kit = sharer.get(link::share_kit);
        let z = zone.get();
        let p = plan.get();
        el.set_hidden(p.is_none());
        let Some(p) = p else {
            el.set_inner_html("");
            drawn.set_value(None);
            return;
        };
        let base = browser::app_url();
        let open = match kit {
            Some(k) => link::link_to(&base, &committed.with_untracked(|t| (k.encode)(t))),
            None => base,
        };
        let same = drawn.with_value(|d| {
            d.as_ref()
                .is_some_and(|(dp, dz)| Arc::ptr_eq(dp, &p) && Arc::ptr_eq(dz, &z))
        });
        if same {
            if let Ok(Some(a)) = el.query_selector("a") {
                let _ = a.set_attribute("href", &open);
            }
            return;
        }
        let mut html = String::new();
        embed_caption_html(&mut html, &p, &open, &z);
        el.set_inner_html(&html);
        drawn.set_value(Some((p, z)));
    });
    caption
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
