//! A compact, deterministic text of plans for expectation tests: a line per stage, indented waits and
//! clusters, times relative to the run's start, then diagnostics. Diffs of it read like a rollout log.

use std::fmt::Write as _;

use fleetplan::plan::{PhaseKind, Plan};
use fleetplan::time::{Duration, Time, DAY, HOUR, MINUTE, SECOND};
use fleetplan::{Diagnostic, Loaded, Severity};

/// Every plan, then the diagnostics of loading (which belong to no plan).
pub fn render(loaded: &Loaded, plans: &[Plan]) -> String {
    let mut out = String::new();
    for plan in plans {
        render_plan(&mut out, plan);
    }
    for d in &loaded.diagnostics {
        push_diagnostic(&mut out, d);
    }
    out
}

pub fn render_plan(out: &mut String, plan: &Plan) {
    let at = |t: Option<Time>| t.map_or_else(|| "never".to_string(), |t| offset(plan.start, t));
    let name = plan.scenario.as_deref().unwrap_or("-");
    let _ = writeln!(
        out,
        "plan {name} run {} [{:?}] start {} end {}",
        plan.run,
        plan.outcome,
        plan.start,
        at(plan.end)
    );
    for stage in &plan.stages {
        let _ = writeln!(
            out,
            "stage {} [{:?}] {} → {} mc={}",
            stage.name,
            stage.status,
            stage
                .start
                .map_or_else(|| "-".to_string(), |t| offset(plan.start, t)),
            at(stage.end),
            stage.max_concurrency
        );
        for phase in stage
            .phases
            .iter()
            .filter(|p| p.kind != PhaseKind::Updating)
        {
            let _ = writeln!(
                out,
                "  {} {} → {} {}",
                phase.kind.slug(),
                offset(plan.start, phase.start),
                at(phase.end),
                plan.label(phase)
            );
        }
        for c in &stage.clusters {
            let _ = write!(
                out,
                "  cluster {} [{:?}] {} → {}",
                c.name,
                c.status,
                c.start
                    .map_or_else(|| "-".to_string(), |t| offset(plan.start, t)),
                c.end
                    .map_or_else(|| "-".to_string(), |t| offset(plan.start, t)),
            );
            if let Some(stuck) = c.stuck_at {
                let _ = write!(out, " stuck {}", offset(plan.start, stuck));
            }
            if let Some(reason) = &c.reason {
                let _ = write!(out, " {reason}");
            }
            out.push('\n');
            // A cluster's own bars (GKE upgrades and waits); staged clusters have none.
            for p in &c.phases {
                let _ = writeln!(
                    out,
                    "    {} {} → {} {}",
                    p.kind.slug(),
                    offset(plan.start, p.start),
                    at(p.end),
                    plan.label(p)
                );
            }
        }
    }
    for r in &plan.summary.version_reach {
        let _ = writeln!(
            out,
            "reach {} {} fleet {} ({} clusters) {}",
            r.upgrade_type,
            r.version,
            r.fleet,
            r.clusters,
            at(r.at)
        );
    }
    for d in &plan.diagnostics {
        push_diagnostic(out, d);
    }
}

/// `error[code] path: message`; the file position is left out so expectations survive edits of the
/// input above the problem.
pub(crate) fn push_diagnostic(out: &mut String, d: &Diagnostic) {
    let sev = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    };
    let _ = match &d.path {
        Some(path) => writeln!(out, "{sev}[{}] {path}: {}", d.code, d.message),
        None => writeln!(out, "{sev}[{}]: {}", d.code, d.message),
    };
}

/// `+1h06m`, `+3d02h00m`, `+45m`, `+0m`, with seconds or milliseconds only when present.
pub fn offset(start: Time, t: Time) -> String {
    let d = t.since(start);
    let sign = if d.0 < 0 { '-' } else { '+' };
    format!("{sign}{}", span(Duration(d.0.abs())))
}

fn span(d: Duration) -> String {
    let ms = d.0;
    let (days, hours, minutes) = (ms / DAY.0, ms % DAY.0 / HOUR.0, ms % HOUR.0 / MINUTE.0);
    let (seconds, millis) = (ms % MINUTE.0 / SECOND.0, ms % SECOND.0);
    let mut s = if days > 0 {
        format!("{days}d{hours:02}h{minutes:02}m")
    } else if hours > 0 {
        format!("{hours}h{minutes:02}m")
    } else {
        format!("{minutes}m")
    };
    if seconds > 0 || millis > 0 {
        let _ = write!(s, "{seconds:02}s");
    }
    if millis > 0 {
        let _ = write!(s, "{millis:03}ms");
    }
    s
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test(unsupported = test)]
    fn offsets_are_compact_and_zero_padded() {
        let s = Time(0);
        assert_eq!(offset(s, Time(0)), "+0m");
        assert_eq!(offset(s, Time(66 * MINUTE.0)), "+1h06m");
        assert_eq!(offset(s, Time(DAY.0 + 2 * HOUR.0)), "+1d02h00m");
        assert_eq!(offset(s, Time(90 * SECOND.0)), "+1m30s");
        assert_eq!(offset(s, Time(1_500)), "+0m01s500ms");
        assert_eq!(offset(Time(MINUTE.0), s), "-1m");
    }
}
