//! The human-readable plan: header, stages with their waiting phases, clusters, summary,
//! diagnostics and assumptions, as aligned text. It only lays out what the core computed.

use std::io::{self, Write};

use fleetplan::gke::GkeDetail;
use fleetplan::plan::{PhaseKind, Plan};
use fleetplan::visible::visible;
use fleetplan::Diagnostic;

use crate::grid::Grid;
use crate::words;

/// Writes the diagnostics of loading (they belong to no plan) and then every plan.
pub fn write(
    w: &mut dyn Write,
    input_diagnostics: &[Diagnostic],
    plans: &[Plan],
) -> io::Result<()> {
    if !input_diagnostics.is_empty() {
        writeln!(w, "input")?;
        write_diagnostics(w, input_diagnostics)?;
        writeln!(w)?;
    }
    for (i, plan) in plans.iter().enumerate() {
        if i > 0 {
            writeln!(w)?;
        }
        write_plan(w, plan)?;
    }
    Ok(())
}

fn write_plan(w: &mut dyn Write, plan: &Plan) -> io::Result<()> {
    write_header(w, plan)?;
    writeln!(w)?;
    write_stages(w, plan)?;
    writeln!(w)?;
    write_clusters(w, plan)?;
    writeln!(w)?;
    if let Some(gke) = &plan.gke {
        write_gke(w, gke)?;
        writeln!(w)?;
    }
    if let Some(rolling) = &plan.rolling {
        crate::rolling_table::write_rolling(w, rolling)?;
        writeln!(w)?;
    }
    write_summary(w, plan)?;
    writeln!(w)?;
    writeln!(w, "diagnostics")?;
    write_diagnostics(w, &plan.diagnostics)?;
    writeln!(w)?;
    write_assumptions(w, plan)
}

fn write_header(w: &mut dyn Write, plan: &Plan) -> io::Result<()> {
    let run = visible(&plan.run);
    match &plan.scenario {
        Some(name) => writeln!(w, "scenario {}, run {run}", visible(name))?,
        None => writeln!(w, "run {run}")?,
    }
    let end = match plan.end {
        Some(t) => t.to_string(),
        None => format!("never: {}", words::outcome(plan.outcome)),
    };
    let s = &plan.summary;
    let mut g = Grid::headless(2);
    g.row(vec!["kind".into(), plan.kind.into()]);
    g.row(vec!["start".into(), plan.start.to_string()]);
    g.row(vec!["end".into(), end]);
    g.row(vec!["duration".into(), words::duration(s.total_duration)]);
    g.row(vec!["outcome".into(), words::outcome(plan.outcome).into()]);
    g.row(vec![
        "clusters".into(),
        format!("{} of {} updated", s.clusters_updated, s.clusters),
    ]);
    g.row(vec![
        "problems".into(),
        format!(
            "{}, {}",
            words::count(s.errors, "error"),
            words::count(s.warnings, "warning")
        ),
    ]);
    g.write(w, "  ")
}

/// One row per stage, each followed by its waiting phases; updating is what the cluster rows show.
fn write_stages(w: &mut dyn Write, plan: &Plan) -> io::Result<()> {
    writeln!(w, "stages")?;
    if plan.stages.is_empty() {
        return writeln!(w, "  none");
    }
    let mut g = Grid::new(&["STAGE", "START", "END", "MAX", "STATUS"]).right(3);
    for stage in &plan.stages {
        g.row(vec![
            stage.name.clone(),
            words::time(stage.start),
            words::time(stage.end),
            stage.max_concurrency.to_string(),
            words::stage_status(stage.status).into(),
        ]);
        for phase in stage
            .phases
            .iter()
            .filter(|p| p.kind != PhaseKind::Updating)
        {
            g.row(vec![
                format!("  {}", words::phase(phase.kind)),
                phase.start.to_string(),
                words::end(phase.end),
                String::new(),
                plan.label(phase).to_string(),
            ]);
        }
    }
    g.write(w, "  ")
}

fn write_clusters(w: &mut dyn Write, plan: &Plan) -> io::Result<()> {
    writeln!(w, "clusters")?;
    if plan.stages.iter().all(|s| s.clusters.is_empty()) {
        return writeln!(w, "  none");
    }
    let mut g = Grid::new(&[
        "STAGE", "CLUSTER", "START", "END", "DURATION", "STATUS", "STUCK",
    ])
    .right(4);
    for stage in &plan.stages {
        for c in &stage.clusters {
            let took = match (c.start, c.end) {
                (Some(s), Some(e)) => Some(e.since(s)),
                _ => None,
            };
            let stuck = c
                .stuck_at
                .map(|t| format!("stuck since {t}"))
                .unwrap_or_default();
            let status = match &c.reason {
                Some(reason) => format!("{}: {reason}", words::cluster_status(c.status)),
                None => words::cluster_status(c.status).into(),
            };
            g.row(vec![
                stage.name.clone(),
                c.name.to_string(),
                words::time(c.start),
                words::time(c.end),
                words::duration(took),
                status,
                stuck,
            ]);
            // GKE: the time a cluster spent waiting for its window or held by an exclusion.
            // Rolling: the cluster's remove / update / add bars and availability waits.
            for p in c.phases.iter().filter(|p| {
                matches!(
                    p.kind,
                    PhaseKind::MaintenanceWait
                        | PhaseKind::ExclusionWait
                        | PhaseKind::Remove
                        | PhaseKind::Update
                        | PhaseKind::Add
                        | PhaseKind::AvailabilityWait
                )
            }) {
                g.row(vec![
                    String::new(),
                    format!("  {}", words::phase(p.kind)),
                    p.start.to_string(),
                    words::end(p.end),
                    words::duration(p.end.map(|e| e.since(p.start))),
                    plan.label(p).to_string(),
                    String::new(),
                ]);
            }
        }
    }
    g.write(w, "  ")
}

/// GKE: each stage's states per upgrade type and version, the skipped clusters, and per version when
/// every cluster of each fleet has it.
fn write_gke(w: &mut dyn Write, gke: &GkeDetail) -> io::Result<()> {
    writeln!(w, "upgrades by stage")?;
    let mut g = Grid::new(&[
        "STAGE",
        "TYPE",
        "VERSION",
        "PENDING",
        "RUNNING",
        "SOAKING",
        "COMPLETED",
    ]);
    let at = |u: &fleetplan::gke::StageUpgrade, states: &[&str]| {
        u.states
            .iter()
            .find(|s| states.contains(&s.state))
            .map_or_else(|| words::NONE.to_string(), |s| s.start.to_string())
    };
    for s in &gke.stages {
        for u in &s.upgrades {
            let soak = at(u, &["SOAKING", "FORCED_SOAKING"]);
            let forced = u.states.iter().any(|s| s.state == "FORCED_SOAKING");
            g.row(vec![
                s.stage.clone(),
                words::upgrade_type(u.upgrade_type).into(),
                u.version.clone(),
                at(u, &["PENDING"]),
                at(u, &["RUNNING"]),
                if forced {
                    format!("{soak} (forced)")
                } else {
                    soak
                },
                at(u, &["COMPLETED"]),
            ]);
        }
    }
    g.write(w, "  ")?;
    writeln!(w)?;
    writeln!(w, "skipped clusters")?;
    if gke.skipped.is_empty() {
        writeln!(w, "  none")?;
    } else {
        let mut g = Grid::new(&["CLUSTER", "STAGE", "TYPE", "VERSION", "REASON"]);
        for k in &gke.skipped {
            g.row(vec![
                k.cluster.clone(),
                k.stage.clone(),
                k.upgrade_type
                    .map_or_else(|| "all".to_string(), |t| words::upgrade_type(t).into()),
                k.version.clone().unwrap_or_else(|| words::NONE.into()),
                k.reason.into(),
            ]);
        }
        g.write(w, "  ")?;
    }
    writeln!(w)?;
    writeln!(
        w,
        "versions (when every cluster of a fleet runs it, or newer)"
    )?;
    if gke.versions.is_empty() {
        return writeln!(w, "  none");
    }
    let mut g = Grid::new(&[
        "VERSION",
        "TYPE",
        "RELEASED",
        "FLEET",
        "CLUSTERS",
        "EVERY CLUSTER BY",
    ])
    .right(4);
    for v in &gke.versions {
        for f in &v.fleets {
            let by = match f.all_at {
                Some(t) => t.to_string(),
                None => format!("never: {} of {} never get it", f.missing.len(), f.clusters),
            };
            g.row(vec![
                v.version.clone(),
                words::upgrade_type(v.upgrade_type).into(),
                v.released.to_string(),
                f.fleet.clone(),
                f.clusters.to_string(),
                by,
            ]);
        }
    }
    g.write(w, "  ")
}

fn write_summary(w: &mut dyn Write, plan: &Plan) -> io::Result<()> {
    let s = &plan.summary;
    writeln!(w, "summary")?;
    writeln!(w, "  stage ETAs")?;
    if s.stage_etas.is_empty() {
        writeln!(w, "    none")?;
    } else {
        let mut g = Grid::headless(2);
        for eta in &s.stage_etas {
            g.row(vec![eta.stage.clone(), words::end(eta.end)]);
        }
        g.write(w, "    ")?;
    }
    writeln!(w, "  longest waits")?;
    if s.longest_waits.is_empty() {
        return writeln!(w, "    none");
    }
    let mut g = Grid::headless(5).right(4);
    for wait in &s.longest_waits {
        g.row(vec![
            wait.stage.clone(),
            words::phase(wait.kind).into(),
            wait.label.clone(),
            format!("from {}", wait.start),
            wait.duration
                .map_or_else(|| "forever".to_string(), |d| d.to_string()),
        ]);
    }
    g.write(w, "    ")
}

/// Errors first; otherwise in the order the core reported them.
pub(crate) fn write_diagnostics(w: &mut dyn Write, diagnostics: &[Diagnostic]) -> io::Result<()> {
    if diagnostics.is_empty() {
        return writeln!(w, "  none");
    }
    let mut sorted: Vec<&Diagnostic> = diagnostics.iter().collect();
    sorted.sort_by_key(|d| d.severity);
    for d in sorted {
        writeln!(w, "  {d}")?;
    }
    Ok(())
}

fn write_assumptions(w: &mut dyn Write, plan: &Plan) -> io::Result<()> {
    writeln!(w, "assumptions")?;
    if plan.assumptions.is_empty() {
        return writeln!(w, "  none");
    }
    let mut g = Grid::headless(3);
    for a in &plan.assumptions {
        // The marker goes before the value: values vary in length, and a marker after them would drift.
        let mark = if a.defaulted { "(default)" } else { "" };
        g.row(vec![a.field.clone(), mark.into(), a.value.clone()]);
    }
    g.write(w, "  ")
}

#[cfg(test)]
mod tests {
    use fleetplan::plan::{
        AssumptionNote, ClusterPlan, ClusterStatus, Labels, Outcome, Phase, StagePlan, StageStatus,
        Summary,
    };
    use fleetplan::time::{Duration, Time, HOUR, MINUTE};

    use super::*;

    fn t(minutes: i64) -> Time {
        Time::parse("2026-01-05T09:00:00Z")
            .unwrap()
            .plus(Duration(minutes * MINUTE.0))
    }

    fn sample() -> Plan {
        let cluster = |name: &str, s: i64, e: i64| ClusterPlan {
            name: name.into(),
            sort_value: None,
            status: ClusterStatus::Succeeded,
            start: Some(t(s)),
            end: Some(t(e)),
            stuck_at: None,
            phases: Vec::new(),
            reason: None,
        };
        let mut labels = Labels::default();
        Plan {
            kind: "kubefleet-staged",
            scenario: Some("demo".into()),
            run: "run-1".into(),
            start: t(0),
            end: None,
            outcome: Outcome::Blocked,
            stages: vec![StagePlan {
                name: "canary".into(),
                index: 0,
                delete_stage: false,
                max_concurrency: 1,
                status: StageStatus::Waiting,
                start: Some(t(0)),
                end: None,
                clusters: vec![cluster("member-1", 0, 3), cluster("m2", 3, 66)],
                phases: vec![
                    Phase {
                        kind: PhaseKind::Updating,
                        start: t(0),
                        end: Some(t(66)),
                        label: labels.add("updating"),
                        version: None,
                    },
                    Phase {
                        kind: PhaseKind::AfterStageApproval,
                        start: t(66),
                        end: None,
                        label: labels.add("run-1-after-canary"),
                        version: None,
                    },
                ],
            }],
            unstaged: Vec::new(),
            events: Default::default(),
            diagnostics: vec![Diagnostic::warning("w", "careful").at("strategy")],
            summary: Summary {
                total_duration: None,
                clusters: 2,
                clusters_updated: 2,
                ..Summary::default()
            },
            assumptions: vec![AssumptionNote {
                field: "updateDuration".into(),
                value: HOUR.to_string(),
                defaulted: true,
            }],
            gke: None,
            rolling: None,
            projection: None,
            latest: None,
            labels,
        }
    }

    #[test]
    fn a_blocked_plan_reads_as_aligned_sections() {
        let mut out = Vec::new();
        write(&mut out, &[], &[sample()]).unwrap();
        let text = String::from_utf8(out).unwrap();
        let expected = "\
scenario demo, run run-1
  kind      kubefleet-staged
  start     2026-01-05T09:00:00Z
  end       never: blocked
  duration  -
  outcome   blocked
  clusters  2 of 2 updated
  problems  0 errors, 0 warnings

stages
  STAGE             START                 END    MAX  STATUS
  canary            2026-01-05T09:00:00Z  -        1  waiting
    after approval  2026-01-05T10:06:00Z  never       run-1-after-canary

clusters
  STAGE   CLUSTER   START                 END                   DURATION  STATUS     STUCK
  canary  member-1  2026-01-05T09:00:00Z  2026-01-05T09:03:00Z        3m  succeeded
  canary  m2        2026-01-05T09:03:00Z  2026-01-05T10:06:00Z      1h3m  succeeded

summary
  stage ETAs
    none
  longest waits
    none

diagnostics
  warning[w]: careful (at strategy)

assumptions
  updateDuration  (default)  1h
";
        assert_eq!(text, expected);
    }
}
