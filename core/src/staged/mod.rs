//! KubeFleet staged update runs (ClusterStagedUpdateStrategy + ClusterStagedUpdateRun): from a
//! scenario to a plan, through initialization ([`init`]), timing assumptions ([`timing`]) and the
//! event-driven run ([`simulate`]).

pub mod admission;
pub mod init;
pub mod simulate;

use crate::calendar;
use crate::diag::Diagnostic;
use crate::model::{Scenario, StagedRun, DEFAULT_START};
use crate::plan::{
    AssumptionNote, ClusterStatus, Events, Outcome, Phase, PhaseKind, Plan, StagePlan, Summary,
    Wait,
};
use crate::time::Time;
use crate::timing;

pub fn plan(scenario: &Scenario, run: &StagedRun) -> Plan {
    let start = scenario.start.unwrap_or(DEFAULT_START);
    let (fleet, mut diagnostics, in_name_order) = scenario.fleet_in_order();
    // The hub first: member clusters, the strategy, the run and the placement through the API server
    // (and the placement's webhook). Only objects that exist reach the controller.
    let before = diagnostics.len();
    crate::labels::check_member_clusters(scenario, &mut diagnostics);
    let members_ok = !diagnostics[before..].iter().any(Diagnostic::is_error);
    let admitted = admission::admit(run, &mut diagnostics);
    let mut init_diags = Vec::new();
    // Past the CRD's 31 stages the strategy does not exist: a thousand stages over a large fleet are
    // never matched cluster by cluster (100 such stages once made 1.98 million errors).
    let init = if run.stages.len() > admission::MAX_STAGES {
        init::refused(run)
    } else {
        init::initialize(run, &fleet, in_name_order, &mut init_diags)
    };
    if admitted.all() {
        diagnostics.append(&mut init_diags);
    } else {
        // The controller never sees a refused object, so none of its texts; fleetplan's own
        // explanations of the configuration still help.
        diagnostics.extend(init_diags.into_iter().filter(|d| !d.is_error()));
    }
    let timing = timing::Timing::new(&scenario.assumptions, &fleet, &mut diagnostics);
    let result = simulate::simulate(
        &init,
        &timing,
        &run.run.name,
        start,
        &scenario.assumptions.stops,
    );

    let mut assumptions = vec![AssumptionNote {
        field: "start".into(),
        value: start.to_string(),
        defaulted: scenario.start.is_none(),
    }];
    timing.notes(&mut assumptions);
    if run.placement.reports_diff() {
        assumptions.push(AssumptionNote {
            field: "applyDuration".into(),
            value: format!(
                "{} per cluster to report its diff (apply strategy ReportDiff)",
                timing.apply()
            ),
            defaulted: scenario.assumptions.apply_duration.is_none(),
        });
        diagnostics.push(
            Diagnostic::info(
                "report-diff",
                format!(
                    "the placement's apply strategy is ReportDiff: nothing is applied to the member clusters; a cluster counts as updated as soon as its binding reports the diff (DiffReported), here {} after it starts (applyDuration), not updateDuration",
                    timing.apply()
                ),
            )
            .at("strategy.placement.applyStrategy"),
        );
    }

    let mut stages = result.stages;
    // The delete stage exists in every run, but is only worth showing when it deletes something.
    stages.retain(|s| !(s.delete_stage && s.clusters.is_empty()));
    let outcome = if init.valid && members_ok && admitted.all() {
        result.outcome
    } else {
        Outcome::Invalid
    };

    simulation_diagnostics(
        &stages,
        &result.labels,
        &result.events,
        &result.wait_restarts,
        result.stuck_since,
        scenario,
        &mut diagnostics,
    );
    if outcome == Outcome::Invalid {
        diagnostics.push(Diagnostic::info(
            "timeline-despite-errors",
            if admitted.all() && members_ok {
                "the controller would refuse to initialize this run; the timeline shows the stages as far as they could be computed"
            } else {
                "the API server would refuse these objects, so the run would never start; the timeline shows the stages as far as they could be computed"
            },
        ));
    }
    let summary = summarize(
        &stages,
        &result.labels,
        &diagnostics,
        start,
        result.end,
        init.selected,
    );
    Plan {
        kind: "kubefleet-staged",
        scenario: scenario.name.clone(),
        run: run.run.name.clone(),
        start,
        end: result.end,
        outcome,
        stages,
        unstaged: init.unstaged.clone(),
        events: result.events,
        diagnostics,
        summary,
        assumptions,
        gke: None,
        rolling: None,
        projection: None,
        latest: None,
        labels: result.labels,
    }
}

/// Warnings that only the simulated timeline reveals: stuck clusters, blocked gates, weekend waits.
pub(crate) fn simulation_diagnostics(
    stages: &[crate::plan::StagePlan],
    labels: &crate::plan::Labels,
    events: &crate::plan::Events,
    restarts: &[(String, crate::time::Time, crate::time::Time)],
    stuck_since: Option<Time>,
    scenario: &Scenario,
    diags: &mut Vec<Diagnostic>,
) {
    // Stuck marks that clear on their own are what people will see in the run's status, not a problem.
    let stuck: Vec<&str> = stages
        .iter()
        .flat_map(|s| &s.clusters)
        .filter(|c| c.stuck_at.is_some() && c.status != ClusterStatus::Failed)
        .map(|c| c.name.as_str())
        .collect();
    if !stuck.is_empty() {
        let shown = stuck[..stuck.len().min(5)].join(", ");
        diags.push(
            Diagnostic::info(
                "update-run-stuck",
                format!(
                    "{} cluster update(s) take longer than 5m ({shown}{}): while each runs past 5 minutes the run's status shows Progressing=False with reason UpdateRunStuck (\"The updateRun is stuck waiting for ... cluster(s) in stage ... to finish updating\"); this is harmless, the controller keeps going and clears it when they finish",
                    stuck.len(),
                    if stuck.len() > 5 { ", …" } else { "" }
                ),
            )
            .at("assumptions.updateDuration"),
        );
    }
    failure_diagnostics(stages, events, stuck_since, scenario, diags);
    let offset = scenario
        .assumptions
        .approvals
        .business_hours
        .as_ref()
        .map_or(0, |h| h.utc_offset_minutes);
    for s in stages {
        for p in &s.phases {
            match (p.kind, p.end) {
                (PhaseKind::Updating | PhaseKind::FailedRetrying, _) => {}
                (_, None) => diags.push(
                    Diagnostic::warning(
                        "run-blocked",
                        format!("stage `{}` waits forever: {} ({}) never completes under the assumptions", s.name, phase_text(p), labels.text(p.label)),
                    )
                    .at(format!("assumptions.{}", if p.kind == PhaseKind::Stopped { "stops" } else { "approvals" })),
                ),
                (_, Some(end)) if calendar::spans_weekend(p.start, end, offset) => diags.push(
                    Diagnostic::info(
                        "wait-over-weekend",
                        format!("stage `{}`: {} ({}) runs over a weekend, {} → {} ({})", s.name, phase_text(p), labels.text(p.label), p.start, end, end.since(p.start)),
                    )
                    .at(format!("strategy.stages[{}]", s.index)),
                ),
                _ => {}
            }
        }
    }
    let weekend_updates = stages
        .iter()
        .flat_map(|s| &s.clusters)
        .filter(|c| matches!((c.start, c.end), (Some(a), Some(b)) if calendar::spans_weekend(a, b, offset)))
        .count();
    if weekend_updates > 0 {
        diags.push(Diagnostic::info(
            "updates-on-weekend",
            format!("{weekend_updates} cluster update(s) run on a Saturday or Sunday"),
        ));
    }
    for (stage, stop, new_end) in restarts {
        diags.push(
            Diagnostic::info(
                "stop-restarts-timed-wait",
                format!("the stop at {stop} interrupts stage `{stage}`'s TimedWait: the controller restarts the wait clock from the stop, so it now ends at {new_end} at the earliest"),
            )
            .at("assumptions.stops"),
        );
    }
}

/// What the failure assumptions do to the run: a preemption aborts it; a failed cluster that never
/// recovers hangs its stage (a warning: someone must act); one that recovers only delays it.
fn failure_diagnostics(
    stages: &[StagePlan],
    events: &Events,
    stuck_since: Option<Time>,
    scenario: &Scenario,
    diags: &mut Vec<Diagnostic>,
) {
    let path = |name: &str| {
        let i = scenario
            .assumptions
            .failures
            .iter()
            .rposition(|f| f.cluster == name);
        i.map_or("assumptions.failures".to_string(), |i| {
            format!("assumptions.failures[{i}]")
        })
    };
    if let Some(failed) = events.iter().find(|e| e.reason == "UpdateRunFailed") {
        diags.push(
            Diagnostic::warning(
                "run-fails",
                format!("the run fails at {}: {}", failed.at, failed.message),
            )
            .at(path(failed_cluster(events).unwrap_or(""))),
        );
        return;
    }
    for s in stages {
        let hung: Vec<(&str, Time)> = s
            .clusters
            .iter()
            .filter(|c| c.status == ClusterStatus::Failed)
            .filter_map(|c| Some((c.name.as_str(), c.end?)))
            .collect();
        if let Some(&(first, _)) = hung.first() {
            let failed = hung
                .iter()
                .map(|(n, at)| format!("{n} failed at {at}"))
                .collect::<Vec<_>>()
                .join(", ");
            let stuck = stuck_since.map_or(String::new(), |t| format!("; stuck since {t}"));
            diags.push(
                Diagnostic::warning(
                    "stage-never-finishes",
                    format!("stage {} never finishes: {failed}{stuck}", s.name),
                )
                .at(path(first)),
            );
        }
        for c in &s.clusters {
            let retried = c
                .phases
                .iter()
                .find(|p| p.kind == PhaseKind::FailedRetrying);
            if let (ClusterStatus::Succeeded, Some(p), Some(back)) =
                (c.status, retried, retried.and_then(|p| p.end))
            {
                diags.push(
                    Diagnostic::info(
                        "failed-cluster-recovers",
                        format!(
                            "{} fails at {} and recovers at {back}: the controller retries it meanwhile, it keeps its maxConcurrency slot and stage {} waits for it",
                            c.name, p.start, s.name
                        ),
                    )
                    .at(path(&c.name)),
                );
            }
        }
    }
}

/// The cluster whose failure aborted the run.
fn failed_cluster(events: &Events) -> Option<&str> {
    events
        .iter()
        .find(|e| e.reason == "ClusterUpdatingFailed")
        .and_then(|e| e.cluster)
}

fn phase_text(p: &Phase) -> &'static str {
    match p.kind {
        PhaseKind::BeforeStageApproval => "the before-stage approval",
        PhaseKind::AfterStageApproval => "the after-stage approval",
        PhaseKind::AfterStageTimedWait => "the after-stage TimedWait",
        PhaseKind::Stopped => "the stop",
        PhaseKind::Updating => "the update",
        _ => "the wait",
    }
}

/// The summary of a staged run's stages: planned, or projected from a status (`status::staged`).
pub(crate) fn summarize(
    stages: &[crate::plan::StagePlan],
    labels: &crate::plan::Labels,
    diags: &[Diagnostic],
    start: crate::time::Time,
    end: Option<crate::time::Time>,
    selected: usize,
) -> Summary {
    let waits: Vec<Wait> = stages
        .iter()
        .flat_map(|s| {
            s.phases
                .iter()
                .filter(|p| p.kind != PhaseKind::Updating)
                .map(|p| Wait {
                    stage: s.name.clone(),
                    kind: p.kind,
                    label: labels.text(p.label).to_string(),
                    start: p.start,
                    duration: p.end.map(|e| e.since(p.start)),
                })
        })
        .collect();
    let (errors, warnings) = crate::plan::problem_counts(diags);
    Summary {
        total_duration: end.map(|e| e.since(start)),
        clusters: selected,
        clusters_updated: stages
            .iter()
            .filter(|s| !s.delete_stage)
            .flat_map(|s| &s.clusters)
            .filter(|c| c.status == ClusterStatus::Succeeded)
            .count(),
        errors,
        warnings,
        stage_etas: crate::plan::stage_etas(stages),
        longest_waits: crate::plan::longest_waits(waits),
        version_reach: Vec::new(),
    }
}

#[cfg(test)]
mod tests;
