//! A running KubeFleet staged update run projected from its status: the finished stages and the
//! current stage's facts keep their real times, the rest is planned by the staged simulation from
//! where the run stands ([`simulate_from`]), with durations calibrated from what already finished;
//! the Monte Carlo gives the range. Bad or stale status is diagnosed and never projected from.

use std::collections::HashMap;

use crate::diag::{Diagnostic, Location};
use crate::model::{Cluster, Placement, RunSpec, Scenario, StagedRun, Strategy, TaskSide};
use crate::plan::projection::{
    Basis, ClusterProjection, InFlight, Position, Projection, RunState, SignedDuration,
    StageProjection, Waiting, WaitingKind,
};
use crate::plan::{AssumptionNote, Events, Labels, Name, Outcome, PhaseKind, Plan, StagePlan};
use crate::staged::init::Init;
use crate::staged::simulate::{self, ClusterFact, Resume, ResumeStep, SimResult};
use crate::time::{Duration, Time, MINUTE};
use crate::timing::calibrate::{Calibration, Observations, Pending};
use crate::timing::montecarlo;
use crate::timing::Timing;

use super::forecast::{self, Forecasting, Samples};
use super::kubefleet::{ApprovalStatus, Member, RunStatus, Strategy as StrategyObject};
use super::objects::find;
use super::staged_facts::{self as facts, Walk};

/// A clock up to this far behind the API server's is common (the status was written by another
/// machine); further ahead, the facts cannot be trusted.
const SKEW: Duration = Duration(5 * MINUTE.0);

/// Everything read about one staged run.
#[derive(Clone, Debug)]
pub struct StagedItem {
    pub run: RunStatus,
    pub approvals: Vec<ApprovalStatus>,
    /// MemberClusters in the input, `None` when there are none.
    pub members: Option<Vec<Member>>,
    pub strategies: Vec<StrategyObject>,
    /// Finished runs given beside it or as history, for calibration.
    pub history: Vec<RunStatus>,
    /// Bindings or placements that show a cluster's update failing, with since when.
    pub failed: HashMap<String, Time>,
}

/// The scenario the status stands for: the snapshot's stages, the status' clusters (with the
/// MemberClusters' labels when given) and the context's assumptions.
pub fn scenario(item: &StagedItem, context: &Scenario) -> Scenario {
    let run = &item.run;
    let mut clusters: Vec<Cluster> = context.clusters.clone();
    let mut known: std::collections::HashSet<Name> =
        clusters.iter().map(|c| c.name.clone()).collect();
    let members: HashMap<&str, &Member> = item
        .members
        .iter()
        .flatten()
        .map(|m| (m.name.as_str(), m))
        .collect();
    for st in run.stages.iter().chain(run.deletion.iter()) {
        for c in &st.clusters {
            if !known.contains(c.name.as_str()) {
                let name = c.name.clone();
                known.insert(name.clone());
                let labels = members
                    .get(c.name.as_str())
                    .map(|m| m.labels.clone())
                    .unwrap_or_default();
                clusters.push(Cluster {
                    name,
                    labels,
                    ..Default::default()
                });
            }
        }
    }
    Scenario {
        name: context.name.clone(),
        description: context.description.clone(),
        start: None,
        start_now: false,
        clusters,
        generate: context.generate.clone(),
        strategy: Strategy::KubefleetStaged(StagedRun {
            name: run.strategy_name.clone(),
            namespace: run.namespace.clone(),
            stages: run.snapshot.clone().unwrap_or_default(),
            run: RunSpec {
                name: run.name.clone(),
                state: run.state.clone().unwrap_or_else(|| "Run".into()),
                resource_snapshot_index: None,
                previous: None,
            },
            placement: Placement {
                name: run.placement.clone(),
                ..Placement::default()
            },
            delete_clusters: run
                .deletion
                .iter()
                .flat_map(|d| &d.clusters)
                .map(|c| c.name.to_string())
                .collect(),
        }),
        assumptions: context.assumptions.clone(),
        origin: Default::default(),
    }
}

pub fn project(item: &StagedItem, scenario: &Scenario, now: Time, forecast: Forecasting) -> Plan {
    let run = &item.run;
    let mut diags: Vec<Diagnostic> = Vec::new();
    let (fleet, fleet_diags) = scenario.fleet();
    diags.extend(fleet_diags);
    let fleet_index: HashMap<&str, usize> = fleet
        .iter()
        .enumerate()
        .map(|(i, fc)| (fc.cluster.name.as_str(), i))
        .collect();
    let init = facts::init(run, &fleet_index);
    let mut trusted = check(item, &init, now, &mut diags);
    let walk = match facts::walk(run) {
        Ok(w) => Some(w),
        Err(e) => {
            let mut d = Diagnostic::error(
                "status-inconsistent",
                format!("cannot continue the updateRun: unexpected behavior which cannot be handled by the controller: {e}"),
            )
            .at(format!("{}: status.stagesStatus", run.id));
            d.location = Some(run.at.clone());
            diags.push(d);
            trusted = false;
            None
        }
    };
    let run_start = run_start(run, now);
    let position_state = state(run);
    let stopped = stopped_since(run, now, &mut diags);

    let a = &scenario.assumptions;
    let base_timing = Timing::new(a, &fleet, &mut diags);
    let baseline = simulate::simulate(&init, &base_timing, &run.name, run_start, &[]);

    // The stage the run is in, and everything observed so far.
    let (stage, finished) = match &walk {
        Some(Walk::At { stage, finished }) => (*stage, *finished),
        Some(Walk::Done) => (init.stages.len(), run.stages.len()),
        Some(Walk::Failed { stage, .. }) => (*stage, *stage),
        None => (0, 0),
    };
    let hours = a.approvals.business_hours.as_ref();
    let mut obs = Observations::default();
    facts::observe(run, &item.approvals, hours, false, &mut obs);
    for h in &item.history {
        facts::observe(h, &item.approvals, hours, true, &mut obs);
    }
    let pending: Vec<Pending> = init
        .stages
        .iter()
        .enumerate()
        .filter(|(i, s)| *i >= stage && !s.delete_stage)
        .map(|(i, s)| Pending {
            stage: &s.name,
            clusters: s
                .members
                .iter()
                .enumerate()
                .filter(|(c, _)| {
                    i > stage
                        || !run.stages[i].clusters[*c]
                            .succeeded()
                            .is_some_and(|x| x.is_true())
                })
                .map(|(_, m)| m.name.as_str())
                .collect(),
        })
        .collect();
    let approvals_ahead = init
        .stages
        .iter()
        .skip(stage)
        .any(|s| s.before_approval || s.after_approval);
    let calibration = Calibration::new(
        &obs,
        &pending,
        base_timing.default_update(),
        approvals_ahead,
        base_timing.default_approval(),
    );

    let resume = facts::resume(
        run,
        &init,
        stage,
        now,
        &item.approvals,
        &item.failed,
        stopped,
    );
    let projectable =
        trusted && matches!(walk, Some(Walk::At { .. })) && position_state != RunState::Failed;
    let timing = Timing::new(a, &fleet, &mut Vec::new()).calibrated(&calibration);
    let sim: SimResult = if projectable {
        simulate::simulate_from(&init, &timing, &run.name, &a.stops, &resume)
    } else {
        // Nothing is projected: the stages show only what the status says.
        simulate::simulate_from(
            &init,
            &timing,
            &run.name,
            &[],
            &Resume {
                stopped: Some(now),
                ..resume.clone()
            },
        )
    };

    let mut stages = sim.stages;
    let mut sim_events = sim.events;
    // The texts the bars name: the simulation's, then the facts' of the stages that finished.
    let mut labels = sim.labels;
    rename_requests(run, &mut stages, &mut labels, &mut sim_events);
    for (i, st) in run.stages.iter().enumerate().take(finished) {
        stages[i] = facts::finished_stage(i, st, &init.stages[i], &item.approvals, &mut labels);
    }
    if matches!(walk, Some(Walk::Done)) {
        if let Some(d) = &run.deletion {
            let last = stages.len() - 1;
            stages[last] =
                facts::finished_stage(last, d, &init.stages[last], &item.approvals, &mut labels);
        }
    }
    let mut end = match &walk {
        Some(Walk::Done) => find(&run.conditions, "Succeeded")
            .and_then(|c| c.since)
            .or_else(|| stages.iter().filter_map(|s| s.end).max()),
        _ if projectable => sim.end,
        _ => None,
    };
    if !projectable && !matches!(walk, Some(Walk::Done)) {
        end = None;
        // Only facts: drop whatever the frozen simulation placed after now.
        for s in stages.iter_mut().skip(finished) {
            strip_projection(s, now);
        }
    }
    let outcome = match (&walk, position_state) {
        (Some(Walk::Done), _) | (_, RunState::Succeeded) => Outcome::Succeeded,
        (Some(Walk::Failed { .. }), _) | (_, RunState::Failed) => Outcome::Failed,
        _ if !projectable => Outcome::Invalid,
        _ => sim.outcome,
    };
    if let Some(Walk::Failed { stage: s, message }) = &walk {
        let name = run
            .stages
            .get(*s)
            .map_or("the delete stage", |st| st.name.as_str());
        let mut d = Diagnostic::warning(
            "run-failed",
            format!("the run failed in stage {name}: {message}"),
        );
        d.location = Some(run.at.clone());
        diags.push(d);
    }

    // The Monte Carlo over the same resumed run.
    let settings = forecast.settings(a.uncertainty.as_ref());
    let cluster_count: usize = init.stages.iter().map(|s| s.members.len()).sum();
    let mut samples = Samples::new(stages.len(), cluster_count, settings.samples as usize);
    let ran_forecast = forecast.on() && projectable;
    let mut raw = None;
    if ran_forecast {
        let stops = &a.stops;
        let results = montecarlo::run(&settings, Some(&calibration), |draw| {
            let t = Timing::new(a, &fleet, &mut Vec::new())
                .calibrated(&calibration)
                .drawing(*draw);
            let r = simulate::simulate_from(&init, &t, &run.name, stops, &resume);
            (
                r.stages.iter().map(|s| s.end).collect::<Vec<_>>(),
                r.stages
                    .iter()
                    .flat_map(|s| s.clusters.iter().map(|c| c.end))
                    .collect::<Vec<_>>(),
                r.end,
            )
        });
        for (stage_ends, cluster_ends, end) in results {
            samples.push(&stage_ends, &cluster_ends, end);
        }
        // Finished stages end where they ended in every sample.
        for (i, s) in stages.iter().enumerate().take(finished) {
            samples.fix_stage(i, s.end);
        }
        raw = forecast.keeps_samples().then(|| samples.ends().clone());
        samples.finish();
    }

    stages.retain(|s| !(s.delete_stage && s.clusters.is_empty()));
    let projection_stages = bases(&stages, now, &samples, ran_forecast);
    let position = position(
        run,
        &init,
        &stages,
        &labels,
        &resume,
        position_state,
        now,
        finished,
        projectable,
    );
    let behind = match (end, baseline.end) {
        (Some(e), Some(b)) if projectable || matches!(walk, Some(Walk::Done)) => {
            Some(SignedDuration(Duration(e.0 - b.0)))
        }
        _ => None,
    };
    let forecast_out = ran_forecast.then(|| {
        forecast::summary(
            &settings,
            a.uncertainty.as_ref(),
            calibration.observed_groups(),
            calibration.approvals_observed(),
            &samples,
        )
    });

    if projectable {
        staged_notes(&init, &resume, now, &mut diags);
    }
    crate::staged::simulation_diagnostics(
        &stages,
        &labels,
        &sim_events,
        &sim.wait_restarts,
        sim.stuck_since,
        scenario,
        &mut diags,
    );
    let mut events = fact_events(run, now);
    if projectable {
        events.append_from(sim_events, |e| e.at >= now);
    }
    let mut assumptions = vec![AssumptionNote {
        field: "start".into(),
        value: format!("{run_start} (from the run's status)"),
        defaulted: false,
    }];
    base_timing.notes(&mut assumptions);
    let summary = crate::staged::summarize(&stages, &labels, &diags, run_start, end, init.selected);
    Plan {
        kind: "kubefleet-staged",
        scenario: scenario.name.clone(),
        run: run.name.clone(),
        start: run_start,
        end,
        outcome,
        stages,
        unstaged: Vec::new(),
        events,
        diagnostics: diags,
        summary,
        assumptions,
        gke: None,
        rolling: None,
        projection: Some(Projection {
            now,
            source: Some(run.id.clone()),
            position,
            stages: projection_stages,
            calibration: calibration.notes.clone(),
            baseline_end: baseline.end,
            behind,
            forecast: forecast_out,
            samples: raw,
        }),
        latest: None,
        labels,
    }
}

/// When the run started executing: its first stage, else its Progressing condition, else now.
fn run_start(run: &RunStatus, now: Time) -> Time {
    run.stages
        .first()
        .and_then(|s| s.start)
        .or_else(|| run.stages.iter().filter_map(|s| s.start).min())
        .or_else(|| find(&run.conditions, "Progressing").and_then(|c| c.since))
        .or_else(|| find(&run.conditions, "Initialized").and_then(|c| c.since))
        .unwrap_or(now)
        .min(now)
}

/// The run's state as its conditions say (`markUpdateRun*` in execution.go and stop.go).
fn state(run: &RunStatus) -> RunState {
    let c = |k| find(&run.conditions, k);
    if let Some(s) = c("Succeeded") {
        if s.is_true() {
            return RunState::Succeeded;
        }
        if s.is_false() {
            return RunState::Failed;
        }
    }
    if c("Initialized").is_some_and(|i| i.is_false()) {
        return RunState::Failed;
    }
    match c("Progressing") {
        Some(p) => match &*p.reason {
            "UpdateRunWaiting" => RunState::Waiting,
            "UpdateRunStuck" => RunState::Stuck,
            "UpdateRunStopping" => RunState::Stopping,
            "UpdateRunStopped" => RunState::Stopped,
            _ if p.is_false() => RunState::Waiting,
            _ => RunState::Running,
        },
        None if run.state.as_deref() == Some("Initialize") => RunState::Initialized,
        None if c("Initialized").is_some_and(|i| i.is_true()) => match run.state.as_deref() {
            None | Some("Run") => RunState::Running,
            _ => RunState::Initialized,
        },
        None => RunState::NotStarted,
    }
}

/// Since when the run is stopped (or stopping), when its spec or status says so. A spec newer than
/// the status (`state: Stop` the controller has not acted on yet) counts from now.
fn stopped_since(run: &RunStatus, now: Time, diags: &mut Vec<Diagnostic>) -> Option<Time> {
    let progressing = find(&run.conditions, "Progressing");
    let from_status = progressing
        .filter(|p| matches!(&*p.reason, "UpdateRunStopping" | "UpdateRunStopped"))
        .and_then(|p| p.since);
    match run.state.as_deref() {
        Some("Stop") => Some(from_status.unwrap_or(now)),
        Some("Initialize") => {
            let mut d = Diagnostic::info(
                "run-state-initialize",
                "the run's state is Initialize: nothing updates until the state is set to Run; the projection assumes it is set to Run now",
            )
            .at(format!("{}: spec.state", run.id));
            d.location = Some(run.at.clone());
            diags.push(d);
            None
        }
        _ => None,
    }
}

/// Bad and stale status: every problem a diagnostic; `false` when the facts cannot be projected from.
fn check(item: &StagedItem, init: &Init, now: Time, diags: &mut Vec<Diagnostic>) -> bool {
    let run = &item.run;
    let mut ok = true;
    let at = |path: &str, loc: &Location| {
        let mut d =
            Diagnostic::error("status-invalid", String::new()).at(format!("{}: {path}", run.id));
        d.location = Some(loc.clone());
        d
    };
    let Some(snapshot) = &run.snapshot else {
        if !run.stages.is_empty() {
            let mut d = at("status.stagedUpdateStrategySnapshot", &run.at);
            d.code = "status-truncated";
            d.message = "the status lists stages but has no `stagedUpdateStrategySnapshot`, which the controller writes first: the object looks cut short; nothing is projected from it".into();
            diags.push(d);
        } else {
            let mut d = Diagnostic::info(
                "status-not-initialized",
                "the run's status has no stages yet: the controller has not initialized it; the plan starts now",
            )
            .at(format!("{}: status", run.id));
            d.location = Some(run.at.clone());
            diags.push(d);
        }
        return false;
    };
    // The snapshot and the stages the controller wrote from it must agree.
    if snapshot.len() != run.stages.len() {
        let mut d = at("status.stagesStatus", &run.at);
        d.code = if run.stages.len() < snapshot.len() {
            "status-truncated"
        } else {
            "status-inconsistent"
        };
        d.message = format!(
            "status.stagesStatus lists {} stage(s) but the strategy snapshot has {}: {}; nothing is projected from it",
            run.stages.len(),
            snapshot.len(),
            if run.stages.len() < snapshot.len() {
                "the object looks cut short"
            } else {
                "the status does not belong to this snapshot"
            }
        );
        diags.push(d);
        ok = false;
    }
    for (i, (st, cfg)) in run.stages.iter().zip(snapshot).enumerate() {
        if st.name != cfg.name {
            let mut d = at(&st.path, &st.at);
            d.code = "status-inconsistent";
            d.message = format!(
                "stage {i} is `{}` in status.stagesStatus but `{}` in the strategy snapshot; nothing is projected from it",
                st.name, cfg.name
            );
            diags.push(d);
            ok = false;
        }
    }
    if run.deletion.is_none() && !run.stages.is_empty() {
        let mut d = Diagnostic::warning(
            "status-truncated",
            "the status has no `deletionStageStatus`, which the controller writes at initialization: the object may be cut short; assuming no cluster to delete",
        )
        .at(format!("{}: status", run.id));
        d.location = Some(run.at.clone());
        diags.push(d);
    }
    // A strategy object beside the run that differs from the snapshot: the run keeps its snapshot.
    for s in &item.strategies {
        if s.name == run.strategy_name && s.namespace == run.namespace && &s.stages != snapshot {
            let mut d = Diagnostic::warning(
                "status-strategy-changed",
                format!(
                    "{} differs from the snapshot in {}'s status: the strategy changed after the run started; the run keeps its snapshot (status.stagedUpdateStrategySnapshot), and so does the projection",
                    s.id, run.id
                ),
            );
            d.location = Some(s.at.clone());
            diags.push(d);
        }
    }
    // Conditions written for an older generation of the spec: the controller has not caught up.
    if let Some(g) = run.generation {
        let stale: Vec<i64> = run
            .conditions
            .iter()
            .filter_map(|c| c.observed_generation)
            .filter(|o| *o < g)
            .collect();
        if let Some(o) = stale.iter().max() {
            let mut d = Diagnostic::warning(
                "status-stale",
                format!(
                    "the status was written for generation {o} but the run is at generation {g}: the spec changed (e.g. its state) and the controller has not acted on it yet; the projection follows the spec (state {})",
                    run.state.as_deref().unwrap_or("Run")
                ),
            )
            .at(format!("{}: status.conditions", run.id));
            d.location = Some(run.at.clone());
            diags.push(d);
        }
    }
    // Clusters of the status that are not MemberClusters of the input.
    if let Some(members) = &item.members {
        let names: std::collections::HashSet<&str> =
            members.iter().map(|m| m.name.as_str()).collect();
        let missing: Vec<&str> = init
            .stages
            .iter()
            .flat_map(|s| &s.members)
            .filter(|m| !names.contains(m.name.as_str()))
            .map(|m| m.name.as_str())
            .collect();
        if !missing.is_empty() {
            let mut d = Diagnostic::warning(
                "status-unknown-cluster",
                format!(
                    "{} cluster(s) of the status are not among the input's MemberClusters ({}{}): if they left the fleet, the controller aborts the run at its next reconcile (the stage's cluster count changed); the projection assumes they are still members",
                    missing.len(),
                    missing[..missing.len().min(5)].join(", "),
                    if missing.len() > 5 { ", …" } else { "" }
                ),
            )
            .at(format!("{}: status.stagesStatus", run.id));
            d.location = Some(run.at.clone());
            diags.push(d);
        }
    }
    // Facts from the future.
    let times = facts::times(run);
    if let Some((t, loc)) = times
        .iter()
        .filter(|(t, _)| *t > now)
        .max_by_key(|(t, _)| *t)
    {
        let ahead = t.since(now);
        let mut d = Diagnostic::warning(
            "status-after-now",
            format!(
                "the status has times after now ({now}), up to {t} ({ahead} ahead): the status was read with a clock ahead of this one, or --now is wrong"
            ),
        )
        .at(format!("{}: status", run.id));
        d.location = Some(loc.in_file(&run.file));
        if ahead > SKEW {
            d.severity = crate::diag::Severity::Error;
            d.message.push_str(&format!(
                "; more than {SKEW} ahead, so nothing is projected from it"
            ));
            ok = false;
        } else {
            d.message
                .push_str("; within clock skew, projected from now");
        }
        diags.push(d);
    }
    ok
}

/// What the projection rests on that is worth knowing: the TimedWait's remaining time, a cluster
/// running past its expected duration.
fn staged_notes(init: &Init, resume: &Resume, now: Time, diags: &mut Vec<Diagnostic>) {
    let Some(st) = init.stages.get(resume.stage) else {
        return;
    };
    if resume.step == ResumeStep::After && resume.wait_elapsed.is_none() {
        if let (Some(w), Some(d)) = (st.after_wait, resume.clusters_done_at) {
            let end = d.plus(w);
            let remaining = if end > now {
                end.since(now)
            } else {
                Duration::ZERO
            };
            diags.push(Diagnostic::info(
                "timed-wait-remaining",
                format!(
                    "stage {}: TimedWait {w} since {d} ends at {end} (time remaining {remaining})",
                    st.name
                ),
            ));
        }
    }
}

/// Facts and projections per bar, and the Monte Carlo's end of every stage and cluster.
pub(crate) fn bases(
    stages: &[StagePlan],
    now: Time,
    samples: &Samples,
    forecast: bool,
) -> Vec<StageProjection> {
    let mut cluster_at = 0;
    stages
        .iter()
        .map(|s| {
            let clusters = s
                .clusters
                .iter()
                .map(|c| {
                    let end = if forecast {
                        samples.cluster(cluster_at)
                    } else {
                        None
                    };
                    cluster_at += 1;
                    ClusterProjection {
                        basis: basis(c.start, c.end, now),
                        end,
                    }
                })
                .collect();
            StageProjection {
                stage: s.name.clone(),
                basis: basis(s.start, s.end, now),
                end: if forecast {
                    samples.stage(s.index)
                } else {
                    None
                },
                clusters,
                phases: s
                    .phases
                    .iter()
                    .map(|p| basis(Some(p.start), p.end, now))
                    .collect(),
            }
        })
        .collect()
}

/// A bar's basis from its times against now: nothing in a projection lies before now.
pub fn basis(start: Option<Time>, end: Option<Time>, now: Time) -> Basis {
    let started = start.is_some_and(|s| s < now);
    let finished = end.is_some_and(|e| e < now);
    Basis::of(started, started && finished)
}

/// Keeps only what had happened by `now`.
fn strip_projection(s: &mut StagePlan, now: Time) {
    s.phases.retain(|p| p.start < now);
    for p in &mut s.phases {
        if p.end.is_some_and(|e| e > now) {
            p.end = None;
        }
    }
    for c in &mut s.clusters {
        if c.start.is_some_and(|t| t >= now) {
            c.start = None;
        }
        if c.end.is_some_and(|e| e > now) {
            c.end = None;
        }
    }
    if s.end.is_some_and(|e| e > now) {
        s.end = None;
    }
}

#[allow(clippy::too_many_arguments)]
fn position(
    run: &RunStatus,
    init: &Init,
    stages: &[StagePlan],
    labels: &Labels,
    resume: &Resume,
    state: RunState,
    now: Time,
    finished: usize,
    projectable: bool,
) -> Position {
    let progressing = find(&run.conditions, "Progressing");
    let decisive = find(&run.conditions, "Succeeded")
        .filter(|c| c.is_true() || c.is_false())
        .or(progressing)
        .or_else(|| find(&run.conditions, "Initialized"));
    let total: usize = init
        .stages
        .iter()
        .filter(|s| !s.delete_stage)
        .map(|s| s.members.len())
        .sum();
    let done = run
        .stages
        .iter()
        .flat_map(|s| &s.clusters)
        .filter(|c| c.succeeded().is_some_and(|x| x.is_true()))
        .count();
    let mut p = Position {
        state,
        reason: decisive.map(|c| c.reason.to_string()),
        message: decisive.map(|c| c.message.clone()),
        stage: init
            .stages
            .get(resume.stage)
            .filter(|_| state != RunState::Succeeded)
            .map(|s| s.name.clone()),
        stages_done: finished,
        stages: run.stages.len(),
        clusters_done: done,
        clusters: total,
        in_flight: Vec::new(),
        waiting: Vec::new(),
        next: if projectable {
            next_gate(stages, labels, run, now)
        } else {
            None
        },
    };
    let Some(is) = init.stages.get(resume.stage) else {
        return p;
    };
    let row = stages.iter().find(|s| s.index == resume.stage);
    for (c, fact) in resume.clusters.iter().enumerate() {
        let (since, failed) = match fact {
            ClusterFact::Running(a) => (*a, false),
            ClusterFact::Failed(a, _) => (*a, true),
            _ => continue,
        };
        p.in_flight.push(InFlight {
            stage: is.name.clone(),
            cluster: is.members[c].name.to_string(),
            since,
            until: row
                .and_then(|r| r.clusters.get(c))
                .and_then(|cl| cl.end)
                .filter(|_| projectable),
            failed,
        });
    }
    let failed: Vec<(&str, Time)> = resume
        .clusters
        .iter()
        .enumerate()
        .filter_map(|(c, f)| match f {
            ClusterFact::Failed(_, at) => Some((is.members[c].name.as_str(), *at)),
            _ => None,
        })
        .collect();
    if let Some(&(_, since)) = failed.first() {
        p.waiting.push(Waiting {
            kind: WaitingKind::FailedClusters,
            stage: Some(is.name.clone()),
            since,
            what: format!(
                "failed cluster(s) retried by the controller: {}",
                failed.iter().map(|f| f.0).collect::<Vec<_>>().join(", ")
            ),
            until: None,
            request: None,
            command: None,
        });
    }
    let phase_end = |kind: PhaseKind| {
        row.and_then(|r| r.phases.iter().rev().find(|ph| ph.kind == kind))
            .and_then(|ph| ph.end)
            .filter(|_| projectable)
    };
    let st = run.stages.get(resume.stage);
    let approval = |side: TaskSide, since: Time| {
        let task = st.and_then(|s| {
            facts::approval_task(match side {
                TaskSide::Before => &s.before,
                TaskSide::After => &s.after,
            })
        });
        let request = task.and_then(|t| t.request.clone()).unwrap_or_else(|| {
            let side = if side == TaskSide::Before {
                "before"
            } else {
                "after"
            };
            format!("{}-{side}-{}", run.name, is.name)
        });
        let kind = match side {
            TaskSide::Before => PhaseKind::BeforeStageApproval,
            TaskSide::After => PhaseKind::AfterStageApproval,
        };
        Waiting {
            kind: WaitingKind::Approval,
            stage: Some(is.name.clone()),
            since,
            what: format!(
                "{} approval request {request}",
                if side == TaskSide::Before {
                    "before-stage"
                } else {
                    "after-stage"
                }
            ),
            until: phase_end(kind),
            command: Some(approve_command(&request, run.namespace.as_deref(), now)),
            request: Some(request),
        }
    };
    match resume.step {
        ResumeStep::Before if resume.before.approved.is_none() => {
            let w = approval(
                TaskSide::Before,
                resume
                    .before
                    .requested
                    .or(resume.stage_start)
                    .unwrap_or(now),
            );
            p.waiting.push(w);
        }
        ResumeStep::After => {
            let done_at = resume.clusters_done_at.unwrap_or(now);
            if let (Some(w), None) = (is.after_wait, resume.wait_elapsed) {
                let end = done_at.plus(w);
                let remaining = if end > now {
                    end.since(now)
                } else {
                    Duration::ZERO
                };
                p.waiting.push(Waiting {
                    kind: WaitingKind::TimedWait,
                    stage: Some(is.name.clone()),
                    since: done_at,
                    what: format!("TimedWait {w} (time remaining {remaining})"),
                    until: Some(end.max(now)),
                    request: None,
                    command: None,
                });
            }
            if is.after_approval && resume.after.approved.is_none() {
                let w = approval(TaskSide::After, resume.after.requested.unwrap_or(done_at));
                p.waiting.push(w);
            }
        }
        _ => {}
    }
    if let Some(since) = resume.stopped {
        p.waiting.push(Waiting {
            kind: WaitingKind::Stopped,
            stage: Some(is.name.clone()),
            since,
            what: "the run is stopped (spec.state Stop): nothing starts until it is set to Run"
                .into(),
            until: phase_end(PhaseKind::Stopped),
            request: None,
            command: Some(format!(
                "kubectl patch {} {}{} --type=merge -p '{{\"spec\":{{\"state\":\"Run\"}}}}'",
                if run.namespace.is_some() {
                    "stagedupdaterun"
                } else {
                    "clusterstagedupdaterun"
                },
                run.name,
                run.namespace
                    .as_deref()
                    .map_or(String::new(), |n| format!(" -n {n}"))
            )),
        });
    }
    p
}

/// The simulation names approval requests the current way (`<run>-before-<stage>`,
/// `<run>-after-<stage>`); the status names the ones this run really has (older releases:
/// `<run>-<stage>`), and those are what people approve.
fn rename_requests(
    run: &RunStatus,
    stages: &mut [StagePlan],
    labels: &mut Labels,
    events: &mut Events,
) {
    let mut names: Vec<(String, String)> = Vec::new();
    for st in &run.stages {
        for (side, tasks) in [("before", &st.before), ("after", &st.after)] {
            if let Some(real) = facts::approval_task(tasks).and_then(|t| t.request.clone()) {
                let generated = format!("{}-{side}-{}", run.name, st.name);
                if generated != real {
                    names.push((generated, real));
                }
            }
        }
    }
    if names.is_empty() {
        return;
    }
    for s in stages.iter_mut() {
        for p in &mut s.phases {
            if let Some((_, real)) = names.iter().find(|(g, _)| g == labels.text(p.label)) {
                p.label = labels.add(real);
            }
        }
    }
    for i in 0..events.len() {
        let text = events.view(&events[i]).message.to_string();
        if let Some((g, real)) = names.iter().find(|(g, _)| text.contains(g.as_str())) {
            events.set_message(i, text.replace(g.as_str(), real).into());
        }
    }
}

/// The first approval or TimedWait the projection reaches after now.
fn next_gate(stages: &[StagePlan], labels: &Labels, run: &RunStatus, now: Time) -> Option<Waiting> {
    let (stage, phase) = stages
        .iter()
        .flat_map(|s| s.phases.iter().map(move |p| (s, p)))
        .filter(|(_, p)| p.start >= now)
        .filter(|(_, p)| {
            matches!(
                p.kind,
                PhaseKind::BeforeStageApproval
                    | PhaseKind::AfterStageApproval
                    | PhaseKind::AfterStageTimedWait
            )
        })
        .min_by_key(|(_, p)| p.start)?;
    let approval = phase.kind != PhaseKind::AfterStageTimedWait;
    let label = labels.text(phase.label);
    Some(Waiting {
        kind: if approval {
            WaitingKind::Approval
        } else {
            WaitingKind::TimedWait
        },
        stage: Some(stage.name.clone()),
        since: phase.start,
        what: if approval {
            format!(
                "{} approval request {}",
                if phase.kind == PhaseKind::BeforeStageApproval {
                    "before-stage"
                } else {
                    "after-stage"
                },
                label
            )
        } else {
            label.to_string()
        },
        until: phase.end,
        request: approval.then(|| label.to_string()),
        command: approval.then(|| approve_command(label, run.namespace.as_deref(), phase.start)),
    })
}

/// The approval as a status patch (the request's `status` subresource, an `Approved=True`
/// condition): what the Fleet Manager docs have people run. A request's spec is immutable, so its
/// generation stays 1, which the controller compares with the condition's `observedGeneration`.
pub fn approve_command(request: &str, namespace: Option<&str>, now: Time) -> String {
    let (kind, ns) = match namespace {
        Some(n) => ("approvalrequest", format!(" -n {n}")),
        None => ("clusterapprovalrequest", String::new()),
    };
    format!(
        "kubectl patch {kind} {request}{ns} --type=merge --subresource=status -p '{{\"status\":{{\"conditions\":[{{\"type\":\"Approved\",\"status\":\"True\",\"reason\":\"Approved\",\"message\":\"approved\",\"lastTransitionTime\":\"{now}\",\"observedGeneration\":1}}]}}}}'"
    )
}

/// The status' conditions as events, up to now, in time order.
fn fact_events(run: &RunStatus, now: Time) -> Events {
    let mut out = Events::default();
    // A stage's name is copied once and a cluster's is the status's own, shared by their events (a
    // copy per event was an allocation per condition, some 20,000 for a 10,000-cluster run).
    let mut push = |c: &super::objects::Condition, stage: Option<&Name>, cluster: Option<&Name>| {
        if let Some(at) = c.since.filter(|t| *t <= now) {
            out.push_named(
                at,
                reason(&c.reason),
                stage.cloned(),
                cluster.cloned(),
                c.message.clone().into(),
            );
        }
    };
    for c in &run.conditions {
        push(c, None, None);
    }
    for st in run.stages.iter().chain(run.deletion.iter()) {
        let stage = Name::from(&st.name);
        for c in &st.conditions {
            push(c, Some(&stage), None);
        }
        for t in st.before.iter().chain(&st.after) {
            for c in &t.conditions {
                push(c, Some(&stage), None);
            }
        }
        for cl in &st.clusters {
            for c in &cl.conditions {
                push(c, Some(&stage), Some(&cl.name));
            }
        }
    }
    crate::sort::sort_by_key(&mut out, |e| e.at);
    out
}

/// The controller's reason constants (pkg/utils/condition/reason.go), so events keep static text.
fn reason(r: &str) -> &'static str {
    super::objects::REASONS
        .iter()
        .find(|k| **k == r)
        .copied()
        .unwrap_or("StatusCondition")
}

/// The range of a staged run that has not started: the same simulation as `plan`, redrawn per
/// sample. Fills `plan.projection`'s stages and forecast.
pub fn forecast_not_started(
    scenario: &Scenario,
    run: &StagedRun,
    plan: &mut Plan,
    forecast: Forecasting,
) {
    let start = plan.start;
    let (fleet, _) = scenario.fleet();
    let mut scratch = Vec::new();
    let init = crate::staged::init::initialize(run, &fleet, false, &mut scratch);
    let a = &scenario.assumptions;
    let settings = forecast.settings(a.uncertainty.as_ref());
    let clusters: usize = init.stages.iter().map(|s| s.members.len()).sum();
    let mut samples = Samples::new(init.stages.len(), clusters, settings.samples as usize);
    let results = montecarlo::run(&settings, None, |draw| {
        let t = Timing::new(a, &fleet, &mut Vec::new()).drawing(*draw);
        let r = simulate::simulate(&init, &t, &run.run.name, start, &a.stops);
        (
            r.stages.iter().map(|s| s.end).collect::<Vec<_>>(),
            r.stages
                .iter()
                .flat_map(|s| s.clusters.iter().map(|c| c.end))
                .collect::<Vec<_>>(),
            r.end,
        )
    });
    for (stage_ends, cluster_ends, end) in results {
        samples.push(&stage_ends, &cluster_ends, end);
    }
    record_not_started(plan, samples, forecast, &settings, a.uncertainty.as_ref());
}

/// A run not started: each stage's range and the run's forecast from `samples`, into
/// `plan.projection` (staged, rolling and GKE alike).
pub(super) fn record_not_started(
    plan: &mut Plan,
    mut samples: Samples,
    forecast: Forecasting,
    settings: &crate::timing::montecarlo::Settings,
    uncertainty: Option<&crate::model::Uncertainty>,
) {
    let raw = forecast.keeps_samples().then(|| samples.ends().clone());
    samples.finish();
    let now = plan.projection.as_ref().map_or(plan.start, |p| p.now);
    let stages = bases(&plan.stages, now, &samples, true);
    if let Some(p) = &mut plan.projection {
        p.stages = stages;
        p.forecast = Some(forecast::summary(settings, uncertainty, 0, false, &samples));
        p.samples = raw;
    }
}
