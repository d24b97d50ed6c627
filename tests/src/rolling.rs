//! A compact rendering of rolling-update plans for expectation tests: the budget, every round with
//! the controller's counts and what moved, the availability line, each cluster's bars, the stall and
//! the diagnostics. Times are offsets from the run's start.

use std::fmt::Write as _;

use fleetplan::plan::Plan;

use crate::render::{offset, push_diagnostic};

pub fn render_rolling(plan: &Plan) -> String {
    let mut out = String::new();
    let at = |t: Option<fleetplan::time::Time>| {
        t.map_or_else(|| "never".to_string(), |t| offset(plan.start, t))
    };
    let _ = writeln!(
        out,
        "plan {} [{:?}] end {}",
        plan.run,
        plan.outcome,
        at(plan.end)
    );
    if let Some(r) = &plan.rolling {
        let _ = writeln!(
            out,
            "N={} maxUnavailable={} ({}) maxSurge={} ({}) minAvailable={} unavailablePeriod={} trackable={}",
            r.target,
            r.max_unavailable,
            r.max_unavailable_setting,
            r.max_surge,
            r.max_surge_setting,
            r.min_available,
            r.unavailable_period,
            r.trackable
        );
        for round in &r.rounds {
            let moved: Vec<String> = round
                .moved
                .iter()
                .map(|m| format!("{:?} {}", m.action, m.cluster).to_lowercase())
                .collect();
            let _ = writeln!(
                out,
                "round {} ready={} canBeUnavailable={} canBeReady={} maxToRemove={} maxToAdd={}: {}",
                offset(plan.start, round.at),
                round.counts.ready,
                round.counts.can_be_unavailable,
                round.counts.can_be_ready,
                round.max_to_remove,
                round.max_to_add,
                moved.join(", ")
            );
        }
        let line: Vec<String> = r
            .availability
            .iter()
            .map(|p| format!("{} {}/{}", offset(plan.start, p.at), p.available, p.placed))
            .collect();
        let _ = writeln!(out, "available/placed: {}", line.join(", "));
        if let Some(s) = &r.stall {
            let _ = writeln!(
                out,
                "stall {} waiting [{}]: {}",
                offset(plan.start, s.at),
                s.waiting.join(", "),
                s.reason
            );
        }
    }
    for stage in &plan.stages {
        for c in &stage.clusters {
            let bars: Vec<String> = c
                .phases
                .iter()
                .map(|p| {
                    format!(
                        "{} {}→{} {}",
                        p.kind.slug(),
                        offset(plan.start, p.start),
                        at(p.end),
                        plan.label(p)
                    )
                })
                .collect();
            let _ = write!(out, "  {} [{:?}]", c.name, c.status);
            if !bars.is_empty() {
                let _ = write!(out, " {}", bars.join(" | "));
            }
            if let Some(reason) = &c.reason {
                let _ = write!(out, " — {reason}");
            }
            out.push('\n');
        }
    }
    for d in &plan.diagnostics {
        push_diagnostic(&mut out, d);
    }
    out
}

/// Loads `input_yaml` (one rolling scenario), plans it and compares [`render_rolling`] with `expect`,
/// after the loading diagnostics.
#[track_caller]
pub fn check_rolling(input_yaml: &str, expect: crate::Expect) {
    let (loaded, plans) = crate::load_and_plan(input_yaml);
    let mut out = String::new();
    for d in &loaded.diagnostics {
        let _ = writeln!(out, "input: {d}");
    }
    for plan in &plans {
        out.push_str(&render_rolling(plan));
    }
    expect.assert_eq(&out);
}
