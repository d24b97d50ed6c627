//! KubeFleet rolling updates: round-by-round rollout of a placement under maxUnavailable and maxSurge.
//!
//! From a scenario to a plan: the API's checks ([`webhook`]), which clusters the placement picks before
//! and after the change (the staged runs' scheduler, shared), what availability depends on
//! ([`availability`]), the controller's rounds ([`rounds`], [`simulate`]), then the plan: one stage row
//! holding every cluster, each with its remove / update / add bars and availability waits, and the
//! rolling detail the chart's availability line is drawn from.

pub mod availability;
pub mod resume;
pub use crate::model::rolling as model;
pub mod rounds;
pub mod simulate;
pub mod webhook;

use std::collections::HashSet;

use crate::diag::Diagnostic;
use crate::model::{FleetCluster, Scenario, DEFAULT_START};
use crate::plan::{
    AssumptionNote, ClusterPlan, ClusterStatus, Labels, Outcome, Phase, PhaseKind, Plan, StageEta,
    StagePlan, StageStatus, Summary,
};
use crate::time::{Duration, Time};
use crate::{placement, timing};

pub use crate::plan::rolling::{AvailabilityPoint, RollingDetail, Stall};
pub use rounds::{Action, Counts, Move, Round};
use simulate::{Binding, BindingState};

pub use crate::timing::DEFAULT_APPLY;

pub fn plan(scenario: &Scenario, run: &model::RollingRun) -> Plan {
    plan_with(scenario, run, None, timing::Hooks::default())
}

/// [`plan`] continued from a status (`resume`), with a live projection's calibration and Monte Carlo
/// draw in `hooks`.
pub fn plan_with(
    scenario: &Scenario,
    run: &model::RollingRun,
    resume: Option<&resume::Resume>,
    hooks: timing::Hooks,
) -> Plan {
    let start = resume.map_or(scenario.start.unwrap_or(DEFAULT_START), |r| r.now);
    let (fleet, mut diagnostics) = scenario.fleet();
    let diags = &mut diagnostics;
    crate::labels::check_member_clusters(scenario, diags);
    let settings = webhook::validate(run, diags);
    if let Some(from) = &run.change.from {
        // The earlier policy was a placement the hub accepted; one it would refuse cannot be the
        // starting point.
        placement::admission::admit(
            placement::admission::Crp {
                placement: from,
                rolling_update: None,
                namespaced: false,
            },
            placement::admission::Paths {
                placement: "strategy.change.from",
                rolling_update: "strategy.change.from.rollingUpdate",
            },
            diags,
        );
    }
    let valid = !diags.iter().any(Diagnostic::is_error);

    let picked = placement::schedule_at(&run.placement, &fleet, "strategy.placement", diags);
    let before = match &run.change.from {
        Some(from) => placement::schedule_at(from, &fleet, "strategy.change.from", diags),
        None => picked.clone(),
    };
    let target = rounds::target(&run.placement, picked.len());
    let max_unavailable = settings.max_unavailable.scaled(target);
    let max_surge = settings.max_surge.scaled(target);
    let report_diff = run.placement.reports_diff();
    let profile = availability::profile(&run.resources, !report_diff, diags);
    if report_diff {
        diags.push(
            Diagnostic::info(
                "report-diff",
                "the placement's apply strategy is ReportDiff: nothing is applied to the member clusters; a binding is ready as soon as it reports its diff (DiffReported), after applyDuration, with no availability wait and no unavailablePeriodSeconds, and a binding whose diff is reported no longer counts in canBeReady",
            )
            .at("strategy.placement.applyStrategy"),
        );
    }
    let timing = timing::Timing::new(&scenario.assumptions, &fleet, diags).hooked(hooks);

    let mut bindings = initial_bindings(run, &fleet, &picked, &before, diags);
    // The texts the bars name: the status's facts first, then the simulation's.
    let mut labels = Labels::default();
    if let Some(r) = resume {
        resume::apply(
            &mut bindings,
            r,
            &timing,
            settings.unavailable_period,
            &profile,
            &mut labels,
            diags,
        );
    }
    budget_diagnostics(run, &bindings, target, picked.len(), max_unavailable, diags);
    // A failure that recovers only delays availability by `recoversAfter`; preemption is a staged
    // run's notion and is ignored here (said by failure_diagnostics).
    let failing = |b: &Binding| timing.failure(&b.cluster).filter(|f| !f.preempted);
    let never_available: Vec<bool> = bindings
        .iter()
        .map(|b| failing(b).is_some_and(|f| f.recovers_after.is_none()))
        .collect();
    failure_diagnostics(scenario, &bindings, &profile, report_diff, diags);
    let durations = simulate::Durations {
        apply: timing.apply(),
        delete: timing.delete(),
        unavailable_period: settings.unavailable_period,
        profile: &profile,
        available_after: bindings
            .iter()
            .map(|b| {
                let late = failing(b)
                    .and_then(|f| f.recovers_after)
                    .unwrap_or_default();
                Duration(
                    timing
                        .update(&b.cluster, b.fleet_index)
                        .0
                        .saturating_add(late.0),
                )
            })
            .collect(),
        report_late: bindings
            .iter()
            .map(|b| {
                failing(b)
                    .and_then(|f| f.recovers_after)
                    .unwrap_or_default()
            })
            .collect(),
        never_available,
        report_diff,
    };
    let mut sim = simulate::simulate(
        bindings,
        target,
        max_unavailable,
        max_surge,
        &durations,
        start,
        labels,
    );
    let mut labels = std::mem::take(&mut sim.labels);

    let settled = sim.bindings.iter().all(Binding::settled);
    let end = settled.then_some(sim.last);
    let stall = (!settled).then(|| stall(&sim, max_unavailable, max_surge));
    if let Some(s) = &stall {
        diags.push(
            Diagnostic::warning(
                "rollout-stalled",
                format!("the rollout stalls at {}: {}", s.at, s.reason),
            )
            .at("strategy.rollingUpdate"),
        );
    }
    let outcome = match (valid, settled) {
        (false, _) => Outcome::Invalid,
        (true, true) => Outcome::Succeeded,
        (true, false) => Outcome::Stalled,
    };
    if !valid {
        diags.push(Diagnostic::info(
            "timeline-despite-errors",
            "the API server would refuse this placement; the timeline shows the rollout as it would run with the defaults in place of the rejected values",
        ));
    }

    // Each binding's name and bars move into its cluster's row: nothing after this reads them (the
    // summary counts states), and copying them was two allocations per cluster.
    let mut bindings = std::mem::take(&mut sim.bindings);
    let clusters: Vec<ClusterPlan> = bindings
        .iter_mut()
        .map(|b| cluster_plan(b, &sim, max_unavailable, max_surge))
        .collect();
    sim.bindings = bindings;
    let mut phases = vec![Phase {
        kind: PhaseKind::Updating,
        start,
        end,
        label: labels.add("rolling update"),
        version: None,
    }];
    if let Some(s) = &stall {
        phases.push(Phase {
            kind: PhaseKind::AvailabilityWait,
            start: s.at,
            end: None,
            label: labels.add(format!("stalled: {} waiting forever", s.waiting.len())),
            version: None,
        });
    }
    let stage = StagePlan {
        name: run.placement.name.clone(),
        index: 0,
        delete_stage: false,
        max_concurrency: max_unavailable.max(0) as usize,
        status: if settled {
            StageStatus::Succeeded
        } else {
            StageStatus::Waiting
        },
        start: Some(start),
        end,
        clusters,
        phases,
    };

    let mut assumptions = vec![AssumptionNote {
        field: "start".into(),
        value: start.to_string(),
        defaulted: scenario.start.is_none(),
    }];
    notes(
        run,
        scenario,
        &settings,
        &profile,
        durations.apply,
        durations.delete,
        &mut assumptions,
    );
    let summary = summarize(
        &stage,
        &labels,
        &sim,
        &diagnostics,
        start,
        end,
        picked.len(),
    );
    let detail = RollingDetail {
        placement: run.placement.name.clone(),
        target,
        max_unavailable: max_unavailable.max(0) as usize,
        max_surge: max_surge.max(0) as usize,
        max_unavailable_setting: settings.max_unavailable.text(),
        max_surge_setting: settings.max_surge.text(),
        min_available: target.saturating_sub(max_unavailable.max(0) as usize),
        unavailable_period: settings.unavailable_period,
        trackable: profile.trackable() || report_diff,
        available_before: sim.available_before,
        availability: sim.availability,
        rounds: sim.rounds,
        stall,
    };
    Plan {
        kind: "kubefleet-rolling",
        scenario: scenario.name.clone(),
        run: run.placement.name.clone(),
        start,
        end,
        outcome,
        stages: vec![stage],
        unstaged: Vec::new(),
        events: sim.events,
        diagnostics,
        summary,
        assumptions,
        gke: None,
        rolling: Some(detail),
        projection: None,
        latest: None,
        labels,
    }
}

/// The state before the change: clusters the old policy picked are bound and ready on the old
/// resources (unless they failed to apply); the scheduler has marked the ones the new policy drops
/// Unscheduled and created Scheduled bindings for the ones it adds. Sorted by cluster name.
fn initial_bindings(
    run: &model::RollingRun,
    fleet: &[FleetCluster],
    picked: &[usize],
    before: &[usize],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Binding> {
    // Membership by place in the fleet: hashing each index cost more than the rest of this function.
    let mut now = vec![false; fleet.len()];
    for &i in picked {
        now[i] = true;
    }
    let mut then = vec![false; fleet.len()];
    for &i in before {
        then[i] = true;
    }
    let failed: HashSet<&str> = run
        .change
        .failed_to_apply
        .iter()
        .map(String::as_str)
        .collect();
    for (i, name) in run.change.failed_to_apply.iter().enumerate() {
        if !before.iter().any(|&f| fleet[f].cluster.name == *name) {
            diags.push(
                Diagnostic::warning(
                    "rolling-failed-not-placed",
                    format!("`{name}` is not among the clusters the placement picked before the change: it has no binding that could have failed to apply"),
                )
                .at(format!("strategy.change.failedToApply[{i}]")),
            );
        }
    }
    // Each index once, so the pairs are distinct and an unstable sort gives the one order by name,
    // then place (a tree of them cost 14% of a 1,000-cluster rolling plan's instructions).
    let mut union: Vec<(&[u8], usize)> = (0..fleet.len())
        .filter(|&i| now[i] || then[i])
        .map(|i| (fleet[i].cluster.name.as_bytes(), i))
        .collect();
    union.sort_unstable();
    union
        .into_iter()
        .map(|(_, i)| {
            let name = fleet[i].cluster.name.clone();
            let state = match (then[i], now[i]) {
                (true, true) => BindingState::Bound,
                (true, false) => BindingState::Unscheduled,
                _ => BindingState::Scheduled,
            };
            let mut b = Binding::new(name, Some(i), state);
            if state != BindingState::Scheduled {
                b.failed = failed.contains(b.cluster.as_str());
                b.ready = !b.failed;
                b.up_to_date = !run.change.update;
            }
            b
        })
        .collect()
}

/// What the budget implies before anything runs: a target the fleet cannot meet, a zero budget.
fn budget_diagnostics(
    run: &model::RollingRun,
    bindings: &[Binding],
    target: usize,
    picked: usize,
    max_unavailable: i64,
    diags: &mut Vec<Diagnostic>,
) {
    if target > picked {
        diags.push(
            Diagnostic::warning(
                "rolling-target-unmet",
                format!(
                    "the placement asks for {target} cluster(s) but only {picked} can be picked: the controller still counts against N = {target}, so at least {} must stay available",
                    target.saturating_sub(max_unavailable.max(0) as usize)
                ),
            )
            .at("strategy.placement"),
        );
    }
    let in_place = bindings
        .iter()
        .filter(|b| b.state == BindingState::Bound && !b.up_to_date && !b.failed)
        .count();
    if max_unavailable == 0 && in_place > 0 {
        diags.push(
            Diagnostic::warning(
                "rolling-max-unavailable-zero",
                format!(
                    "maxUnavailable is 0: an in-place update takes a ready cluster out of service, which a budget of 0 never allows, so the {in_place} cluster(s) that keep the placement are never updated (maxSurge only adds new clusters)"
                ),
            )
            .at(if run.rolling_update.max_unavailable.is_some() {
                "strategy.rollingUpdate.maxUnavailable"
            } else {
                "strategy.rollingUpdate"
            }),
        );
    }
}

fn failure_diagnostics(
    scenario: &Scenario,
    bindings: &[Binding],
    profile: &availability::Profile,
    report_diff: bool,
    diags: &mut Vec<Diagnostic>,
) {
    for (i, f) in scenario.assumptions.failures.iter().enumerate() {
        let path = format!("assumptions.failures[{i}]");
        if f.preempted {
            diags.push(
                Diagnostic::info(
                    "rolling-failure-preempted",
                    "`preempted` describes a staged run whose binding another run takes over; a rolling update has no such run, so this failure is ignored",
                )
                .at(format!("{path}.preempted")),
            );
            continue;
        }
        if f.after.is_some() {
            diags.push(
                Diagnostic::info(
                    "rolling-failure-after",
                    "`after` does not apply to rolling updates: a failing cluster's new resources never become available",
                )
                .at(format!("{path}.after")),
            );
        }
        let Some(b) = bindings.iter().find(|b| b.cluster == f.cluster) else {
            continue;
        };
        let receives = match b.state {
            BindingState::Scheduled => true,
            BindingState::Bound => !b.up_to_date,
            BindingState::Unscheduled => false,
        };
        if !receives {
            diags.push(
                Diagnostic::warning(
                    "rolling-failure-unused",
                    format!("`{}` receives no new resources in this change: its failure assumption has no effect", f.cluster),
                )
                .at(path),
            );
        } else if profile.workloads.is_empty() && !report_diff {
            let what = if profile.untrackable.is_empty() {
                "the placed resources are data objects, available as soon as they exist".to_string()
            } else {
                format!(
                    "KubeFleet cannot track {}: the controller counts `{}` ready unavailablePeriodSeconds after apply and rolls on",
                    profile.untrackable.join(", "),
                    f.cluster
                )
            };
            diags.push(
                Diagnostic::warning(
                    "rolling-failure-unnoticed",
                    format!("the bad update on `{}` goes unnoticed: {what}", f.cluster),
                )
                .at(path),
            );
        }
    }
}

fn remove_formula(c: &Counts, max_unavailable: i64, result: i64) -> String {
    format!(
        "maxToRemove = (ready {} − canBeUnavailable {}) − (N {} − maxUnavailable {max_unavailable}) = {result}",
        c.ready, c.can_be_unavailable, c.target
    )
}

fn add_formula(c: &Counts, max_surge: i64, result: i64) -> String {
    format!(
        "maxToAdd = N {} + maxSurge {max_surge} − canBeReady {} = {result}",
        c.target, c.can_be_ready
    )
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// Why nothing moves any more, in the controller's own arithmetic.
fn stall(sim: &simulate::Simulation, max_unavailable: i64, max_surge: i64) -> Stall {
    let c = &sim.counts;
    let names = |f: &dyn Fn(&Binding) -> bool| -> Vec<&str> {
        sim.bindings
            .iter()
            .filter(|b| f(b))
            .map(|b| b.cluster.as_str())
            .collect()
    };
    let broken = names(&|b| b.never_ready);
    let pending_update = names(&|b| {
        b.state == BindingState::Bound && !b.up_to_date && b.moved.is_none() && !b.failed
    });
    let pending_remove = names(&|b| b.state == BindingState::Unscheduled && !b.deleting);
    let pending_add = names(&|b| b.state == BindingState::Scheduled);
    let stuck_failed = names(&|b| b.failed && b.up_to_date);
    let mut parts = Vec::new();
    if !broken.is_empty() {
        parts.push(format!(
            "{} never {} available, so {} never ready",
            broken.join(", "),
            plural(broken.len(), "becomes", "become"),
            plural(broken.len(), "its binding is", "their bindings are"),
        ));
    }
    if !pending_update.is_empty() || !pending_remove.is_empty() {
        let mut s = remove_formula(c, max_unavailable, sim.max_to_remove);
        if max_unavailable == 0 {
            s.push_str(" (maxUnavailable is 0: no ready cluster may be taken out of service)");
        }
        if !pending_update.is_empty() {
            s.push_str(&format!(
                ", so {} {} the old resources and {} available",
                pending_update.join(", "),
                plural(pending_update.len(), "keeps", "keep"),
                plural(pending_update.len(), "stays", "stay"),
            ));
        }
        if !pending_remove.is_empty() {
            s.push_str(&format!(
                ", so {} {} serving the old resources and {} never emptied",
                pending_remove.join(", "),
                plural(pending_remove.len(), "keeps", "keep"),
                plural(pending_remove.len(), "is", "are"),
            ));
        }
        parts.push(s);
    }
    if !pending_add.is_empty() {
        parts.push(format!(
            "{}, so {} {} never placed",
            add_formula(c, max_surge, sim.max_to_add),
            pending_add.join(", "),
            plural(pending_add.len(), "is", "are"),
        ));
    }
    if !stuck_failed.is_empty() {
        parts.push(format!(
            "{} failed to apply before the change and the change brings no new resources to re-apply",
            stuck_failed.join(", ")
        ));
    }
    Stall {
        at: sim.last,
        waiting: sim
            .bindings
            .iter()
            .filter(|b| !b.settled())
            .map(|b| b.cluster.to_string())
            .collect(),
        reason: parts.join("; "),
    }
}

fn cluster_plan(
    b: &mut Binding,
    sim: &simulate::Simulation,
    max_unavailable: i64,
    max_surge: i64,
) -> ClusterPlan {
    let (status, reason) = match (b.moved, b.settled()) {
        (Some(Action::Remove), _) => (
            ClusterStatus::Succeeded,
            Some("no longer picked: its resources were removed".to_string()),
        ),
        (Some(_), true) => (ClusterStatus::Succeeded, None),
        (Some(_), false) if b.never_ready => (
            ClusterStatus::Failed,
            Some("the new resources never become available (assumptions.failures): its binding never counts as ready and holds one unit of maxUnavailable forever".to_string()),
        ),
        (Some(_), false) => (ClusterStatus::Untracked, None),
        (None, true) => (
            ClusterStatus::Succeeded,
            Some("already on the latest resources: nothing to roll".to_string()),
        ),
        (None, false) => {
            let why = match b.state {
                BindingState::Scheduled => format!(
                    "never placed: {}",
                    add_formula(&sim.counts, max_surge, sim.max_to_add)
                ),
                BindingState::Unscheduled => format!(
                    "keeps serving the old resources, never emptied: {}",
                    remove_formula(&sim.counts, max_unavailable, sim.max_to_remove)
                ),
                BindingState::Bound if b.failed => "failed to apply before the change; the change brings no new resources to re-apply".to_string(),
                BindingState::Bound => format!(
                    "keeps the old resources and stays available; its in-place update never gets a turn: {}",
                    remove_formula(&sim.counts, max_unavailable, sim.max_to_remove)
                ),
            };
            (ClusterStatus::NotStarted, Some(why))
        }
    };
    let start = b.phases.first().map(|p| p.start);
    let end = if b.settled() {
        b.phases.last().and_then(|p| p.end)
    } else {
        None
    };
    ClusterPlan {
        name: std::mem::take(&mut b.cluster),
        sort_value: None,
        status,
        start,
        end,
        stuck_at: None,
        phases: std::mem::take(&mut b.phases),
        reason,
    }
}

#[allow(clippy::too_many_arguments)]
fn notes(
    run: &model::RollingRun,
    scenario: &Scenario,
    settings: &webhook::Settings,
    profile: &availability::Profile,
    apply: Duration,
    delete: Duration,
    notes: &mut Vec<AssumptionNote>,
) {
    let ru = &run.rolling_update;
    let a = &scenario.assumptions;
    let mut note = |field: &str, value: String, defaulted: bool| {
        notes.push(AssumptionNote {
            field: field.into(),
            value,
            defaulted,
        })
    };
    note(
        "rollingUpdate.maxUnavailable",
        settings.max_unavailable.text(),
        ru.max_unavailable.is_none(),
    );
    note(
        "rollingUpdate.maxSurge",
        settings.max_surge.text(),
        ru.max_surge.is_none(),
    );
    note(
        "rollingUpdate.unavailablePeriodSeconds",
        if ru.unavailable_period_seconds.is_none() {
            format!("{}s (the controller's default; Azure's docs also print 10s, fleetplan uses the controller's)", settings.unavailable_period.0 / 1000)
        } else {
            format!("{}s", settings.unavailable_period.0 / 1000)
        },
        ru.unavailable_period_seconds.is_none(),
    );
    let mut kinds: Vec<String> = profile.workloads.clone();
    kinds.extend(profile.untrackable.iter().cloned());
    note(
        "resources",
        if run.resources.is_empty() {
            "one Deployment (trackable)".into()
        } else {
            run.resources
                .iter()
                .map(availability::describe)
                .collect::<Vec<_>>()
                .join(", ")
        },
        run.resources.is_empty(),
    );
    note(
        "applyDuration",
        format!("{apply} to apply the resources to one cluster"),
        a.apply_duration.is_none(),
    );
    note(
        "updateDuration",
        format!(
            "{} from applied to available (trackable workloads)",
            a.update_duration.unwrap_or(timing::DEFAULT_UPDATE)
        ),
        a.update_duration.is_none(),
    );
    timing::note_variations(a, &mut note);
    note(
        "deleteDuration",
        format!("{delete} to remove the resources from a cluster no longer picked"),
        a.delete_duration.is_none(),
    );
    note(
        "failures",
        if a.failures.is_empty() {
            "none: every update becomes available".into()
        } else {
            let names = |keep: &dyn Fn(&crate::model::FailureSpec) -> bool| {
                a.failures
                    .iter()
                    .filter(|f| keep(f))
                    .map(|f| f.cluster.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let mut parts = Vec::new();
            let never = names(&|f| !f.preempted && f.recovers_after.is_none());
            if !never.is_empty() {
                parts.push(format!("{never}: the new resources never become available"));
            }
            for f in a.failures.iter().filter(|f| !f.preempted) {
                if let Some(r) = f.recovers_after {
                    parts.push(format!("{}: available {r} late", f.cluster));
                }
            }
            let preempted = names(&|f| f.preempted);
            if !preempted.is_empty() {
                parts.push(format!(
                    "{preempted}: preempted, ignored for a rolling update"
                ));
            }
            parts.join("; ")
        },
        a.failures.is_empty(),
    );
    note(
        "state before the change",
        "every cluster the earlier policy picked is bound and available on the old resources"
            .into(),
        true,
    );
}

fn summarize(
    stage: &StagePlan,
    labels: &Labels,
    sim: &simulate::Simulation,
    diags: &[Diagnostic],
    start: Time,
    end: Option<Time>,
    picked: usize,
) -> Summary {
    let waits = crate::plan::cluster_waits(std::slice::from_ref(stage), labels, |k| {
        k == PhaseKind::AvailabilityWait
    });
    let (errors, warnings) = crate::plan::problem_counts(diags);
    Summary {
        total_duration: end.map(|e| e.since(start)),
        clusters: picked,
        clusters_updated: sim
            .bindings
            .iter()
            .filter(|b| b.state == BindingState::Bound && b.up_to_date && b.ready)
            .count(),
        errors,
        warnings,
        stage_etas: vec![StageEta {
            stage: stage.name.clone(),
            end,
        }],
        longest_waits: crate::plan::longest_waits(waits),
        version_reach: Vec::new(),
    }
}

#[cfg(test)]
mod tests;
