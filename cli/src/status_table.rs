//! `fleetplan status` for people: where each run stands, what it waits on (with the command that
//! ends the wait), the ETA with its range, ahead or behind the original plan, then the stages with
//! facts and projections, calibration and diagnostics. It only lays out what the core computed.

use std::io::{self, Write};

use fleetplan::plan::projection::{Basis, Projection, RunState, Spread, WaitingKind};
use fleetplan::plan::Plan;
use fleetplan::time::{Duration, Time};
use fleetplan::Diagnostic;

use crate::grid::Grid;
use crate::{table, words};

pub fn write(
    w: &mut dyn Write,
    input_diagnostics: &[Diagnostic],
    plans: &[Plan],
    deadline: Option<Time>,
) -> io::Result<()> {
    if !input_diagnostics.is_empty() {
        writeln!(w, "input")?;
        table::write_diagnostics(w, input_diagnostics)?;
        writeln!(w)?;
    }
    for (i, plan) in plans.iter().enumerate() {
        if i > 0 {
            writeln!(w)?;
        }
        write_plan(w, plan, deadline)?;
    }
    Ok(())
}

fn write_plan(w: &mut dyn Write, plan: &Plan, deadline: Option<Time>) -> io::Result<()> {
    let Some(p) = &plan.projection else {
        return Ok(());
    };
    match &p.source {
        Some(src) => writeln!(w, "run {} ({src})", plan.run)?,
        None => writeln!(w, "run {} (not started)", plan.run)?,
    }
    let pos = &p.position;
    let mut g = Grid::headless(2);
    g.row(vec!["now".into(), p.now.to_string()]);
    let mut state = RunState::words(pos.state).to_string();
    if let Some(r) = &pos.reason {
        state.push_str(&format!(" ({r}"));
        if let Some(m) = pos.message.as_ref().filter(|m| !m.is_empty()) {
            state.push_str(&format!(": {m}"));
        }
        state.push(')');
    }
    g.row(vec!["state".into(), state]);
    if let Some(stage) = &pos.stage {
        g.row(vec![
            "stage".into(),
            format!(
                "{stage} ({} of {} stages done)",
                pos.stages_done, pos.stages
            ),
        ]);
    }
    g.row(vec![
        "clusters".into(),
        format!(
            "{} of {} updated, {} updating",
            pos.clusters_done,
            pos.clusters,
            pos.in_flight.len()
        ),
    ]);
    g.row(vec!["ETA".into(), eta(plan, p)]);
    if let Some(f) = &p.forecast {
        g.row(vec![
            "range".into(),
            range(&f.end, p.now, f.samples, f.never),
        ]);
    }
    if let Some(b) = p.baseline_end {
        let vs = match p.behind {
            Some(d) if d.0 .0 > 0 => format!(": {} behind", d.0.human()),
            Some(d) if d.0 .0 < 0 => format!(": {} ahead", Duration(-d.0 .0).human()),
            Some(_) => ": on time".to_string(),
            None => String::new(),
        };
        g.row(vec!["planned".into(), format!("{b} originally{vs}")]);
    }
    if let Some(d) = deadline {
        let late = crate::status_cmd::late(plan, d);
        g.row(vec![
            "deadline".into(),
            format!(
                "{d}: {}",
                if late {
                    "P90 misses it"
                } else {
                    "P90 meets it"
                }
            ),
        ]);
    }
    g.write(w, "  ")?;

    if !pos.in_flight.is_empty() {
        writeln!(w)?;
        writeln!(w, "updating")?;
        let mut g = Grid::new(&["STAGE", "CLUSTER", "SINCE", "EXPECTED END"]);
        for f in &pos.in_flight {
            let mut end = words::time(f.until);
            if f.failed {
                end = format!("failed, retried ({end})");
            }
            g.row(vec![
                f.stage.clone(),
                f.cluster.clone(),
                f.since.to_string(),
                end,
            ]);
        }
        g.write(w, "  ")?;
    }
    if !pos.waiting.is_empty() {
        writeln!(w)?;
        writeln!(w, "waiting on")?;
        for wait in &pos.waiting {
            let what = match wait.kind {
                WaitingKind::Approval => "approval",
                WaitingKind::TimedWait => "timed wait",
                WaitingKind::Stopped => "stopped",
                WaitingKind::FailedClusters => "failed clusters",
                WaitingKind::Soak => "soak",
                WaitingKind::Paused => "paused",
            };
            let stage = wait
                .stage
                .as_deref()
                .map_or(String::new(), |s| format!(" in stage {s}"));
            writeln!(
                w,
                "  {what}{stage}: {} since {} ({} ago); expected to end {}",
                wait.what,
                wait.since,
                ago(wait.since, p.now).human(),
                words::end(wait.until)
            )?;
            if let Some(cmd) = &wait.command {
                writeln!(w, "    {cmd}")?;
            }
        }
    }
    if let Some(next) = &pos.next {
        writeln!(w)?;
        let stage = next
            .stage
            .as_deref()
            .map_or(String::new(), |s| format!(" in stage {s}"));
        writeln!(
            w,
            "next{stage}: {}, expected from {} to {}",
            next.what,
            next.since,
            words::end(next.until)
        )?;
        if let Some(cmd) = &next.command {
            writeln!(w, "  then: {cmd}")?;
        }
    }

    writeln!(w)?;
    writeln!(w, "stages")?;
    let mut g = Grid::new(&["STAGE", "BASIS", "START", "END", "P10", "P50", "P90"]);
    for (s, sp) in plan.stages.iter().zip(&p.stages) {
        let (p10, p50, p90) = sp.end.map_or_else(
            || {
                (
                    words::NONE.to_string(),
                    words::NONE.to_string(),
                    words::NONE.to_string(),
                )
            },
            |e| (words::end(e.p10), words::end(e.p50), words::end(e.p90)),
        );
        g.row(vec![
            s.name.clone(),
            basis(sp.basis).into(),
            words::time(s.start),
            words::time(s.end),
            p10,
            p50,
            p90,
        ]);
    }
    g.write(w, "  ")?;

    if !p.calibration.is_empty() {
        writeln!(w)?;
        writeln!(w, "calibration")?;
        for c in &p.calibration {
            writeln!(w, "  {}", c.text)?;
        }
    }
    if let Some(f) = &p.forecast {
        writeln!(w)?;
        writeln!(w, "range drawn from")?;
        for d in &f.draws {
            writeln!(w, "  {d}")?;
        }
    }
    writeln!(w)?;
    writeln!(w, "diagnostics")?;
    table::write_diagnostics(w, &plan.diagnostics)
}

fn eta(plan: &Plan, p: &Projection) -> String {
    match (plan.end, p.position.state) {
        (Some(e), RunState::Succeeded) => format!("finished at {e}"),
        (Some(e), _) => format!("{e} (in {})", in_(e, p.now).human()),
        (None, _) => format!("never: {}", words::outcome(plan.outcome)),
    }
}

fn range(s: &Spread, now: Time, samples: usize, never: usize) -> String {
    let at = |t: Option<Time>| match t {
        Some(t) => format!("{t} (in {})", in_(t, now).human()),
        None => "never".to_string(),
    };
    let mut out = format!(
        "P50 {}, P90 {}; P10 {}",
        at(s.p50),
        at(s.p90),
        words::end(s.p10)
    );
    if never > 0 {
        out.push_str(&format!("; never ends in {never} of {samples} samples"));
    }
    out
}

fn in_(t: Time, now: Time) -> Duration {
    if t > now {
        t.since(now)
    } else {
        Duration::ZERO
    }
}

fn ago(t: Time, now: Time) -> Duration {
    if now > t {
        now.since(t)
    } else {
        Duration::ZERO
    }
}

fn basis(b: Basis) -> &'static str {
    match b {
        Basis::Fact => "done",
        Basis::Running => "running",
        Basis::Projected => "projected",
    }
}
