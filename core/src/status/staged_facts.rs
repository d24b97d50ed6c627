//! A staged run's status read as facts: the stages as the controller initialized them (members in
//! the status' order, tasks and maxConcurrency from the frozen snapshot), where the run stands (the
//! controller's own `validateUpdateStagesStatus` walk), the finished stages' bars, and the durations
//! and approval delays it observed.

use std::collections::HashMap;

use crate::calendar;
use crate::model::{BusinessHours, StageConfig};
use crate::plan::{ClusterPlan, ClusterStatus, Labels, Phase, PhaseKind, StagePlan, StageStatus};
use crate::staged::init::{effective_max_concurrency, Init, InitStage, Member, DELETE_STAGE};
use crate::staged::simulate::{ClusterFact, Resume, ResumeStep, TaskFact};
use crate::time::{Duration, Time};
use crate::timing::calibrate::{Observations, UpdateObservation};

use super::kubefleet::{ApprovalStatus, RunStatus, StageStatus as Observed, TaskStatus};

/// The stages as initialized: members straight from `status.stagesStatus` (the controller already
/// selected and sorted them), the rest from the snapshot at the same index.
pub fn init(run: &RunStatus, fleet_index: &HashMap<&str, usize>) -> Init {
    let snapshot = run.snapshot.as_deref().unwrap_or(&[]);
    let mut stages: Vec<InitStage> = run
        .stages
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let cfg = snapshot.get(i).filter(|c| c.name == st.name);
            init_stage(st, cfg, false, fleet_index)
        })
        .collect();
    let empty = Observed {
        name: DELETE_STAGE.into(),
        start: None,
        end: None,
        conditions: Vec::new(),
        clusters: Vec::new(),
        before: Vec::new(),
        after: Vec::new(),
        at: run.at.clone(),
        path: "status.deletionStageStatus".into(),
    };
    stages.push(init_stage(
        run.deletion.as_ref().unwrap_or(&empty),
        None,
        true,
        fleet_index,
    ));
    let selected = run.stages.iter().map(|s| s.clusters.len()).sum();
    Init {
        stages,
        valid: true,
        selected,
        placement: run.placement.clone(),
        namespace: run.namespace.clone(),
        // The controller refuses to initialize a run that leaves a cluster out: a status has none.
        unstaged: Vec::new(),
        // The status' `appliedStrategy` is not read: done means Succeeded either way.
        report_diff: false,
    }
}

fn init_stage(
    st: &Observed,
    cfg: Option<&StageConfig>,
    delete: bool,
    fleet_index: &HashMap<&str, usize>,
) -> InitStage {
    let members: Vec<Member> = st
        .clusters
        .iter()
        .map(|c| Member {
            name: c.name.clone(),
            fleet_index: fleet_index.get(c.name.as_str()).copied(),
            sort_value: None,
        })
        .collect();
    let n = members.len();
    let has = |tasks: &[crate::model::StageTask], kind: &str| tasks.iter().any(|t| t.kind == kind);
    InitStage {
        name: st.name.clone(),
        delete_stage: delete,
        max_concurrency: if delete {
            n.max(1)
        } else {
            effective_max_concurrency(cfg.and_then(|c| c.max_concurrency.as_ref()), n)
        },
        before_approval: cfg.is_some_and(|c| has(&c.before_stage_tasks, "Approval")),
        after_wait: cfg.and_then(|c| {
            c.after_stage_tasks
                .iter()
                .filter(|t| t.kind == "TimedWait")
                .find_map(|t| t.wait_time.as_deref().and_then(Duration::parse_go))
        }),
        after_approval: cfg.is_some_and(|c| has(&c.after_stage_tasks, "Approval")),
        members,
    }
}

/// What the controller would find walking the stages: finished ones in order, then at most one
/// updating; `Err` with the controller's own complaint when the status breaks that order.
pub enum Walk {
    /// The stage index the run is in (`stages.len()` = the delete stage), how many finished.
    At { stage: usize, finished: usize },
    /// Every stage and the delete stage finished.
    Done,
    /// A stage failed: the run is aborted.
    Failed { stage: usize, message: String },
}

pub fn walk(run: &RunStatus) -> Result<Walk, String> {
    let mut updating: Option<usize> = None;
    let mut last_finished: Option<usize> = None;
    for (i, st) in run.stages.iter().enumerate() {
        let succeeded = st.condition("Succeeded");
        if succeeded.is_some_and(|c| c.is_true()) {
            if let Some(u) = updating {
                return Err(format!(
                    "the finished stage `{i}` is after the updating stage `{u}`"
                ));
            }
            if let Some(c) = st
                .clusters
                .iter()
                .find(|c| !c.succeeded().is_some_and(|s| s.is_true()))
            {
                return Err(format!(
                    "cluster `{}` in the finished stage `{}` has not succeeded",
                    c.name, st.name
                ));
            }
            if i != last_finished.map_or(0, |l| l + 1) {
                return Err(format!(
                    "the finished stage `{}` is not right after the last finished stage with index `{}`",
                    st.name,
                    last_finished.map_or(-1, |l| l as i64)
                ));
            }
            last_finished = Some(i);
        } else if let Some(c) = succeeded.filter(|c| c.is_false()) {
            return Ok(Walk::Failed {
                stage: i,
                message: c.message.clone(),
            });
        } else if st.condition("Progressing").is_some() {
            if let Some(u) = updating {
                return Err(format!(
                    "the stage `{}` is updating, but there is already a stage with index `{u}` updating",
                    st.name
                ));
            }
            if i != last_finished.map_or(0, |l| l + 1) {
                return Err(format!(
                    "the updating stage `{}` is not right after the last finished stage with index `{}`",
                    st.name,
                    last_finished.map_or(-1, |l| l as i64)
                ));
            }
            updating = Some(i);
        }
    }
    let finished = last_finished.map_or(0, |l| l + 1);
    if let Some(u) = updating {
        return Ok(Walk::At { stage: u, finished });
    }
    if finished < run.stages.len() {
        return Ok(Walk::At {
            stage: finished,
            finished,
        });
    }
    match run.deletion.as_ref().and_then(|d| d.condition("Succeeded")) {
        Some(c) if c.is_true() => Ok(Walk::Done),
        Some(c) if c.is_false() => Ok(Walk::Failed {
            stage: run.stages.len(),
            message: c.message.clone(),
        }),
        _ => Ok(Walk::At {
            stage: run.stages.len(),
            finished,
        }),
    }
}

/// The approval of a task: the run's own ApprovalRequestApproved, or, when the controller has not
/// yet taken it, the request object's Approved=True.
pub fn task_fact(task: Option<&TaskStatus>, approvals: &[ApprovalStatus]) -> TaskFact {
    let Some(t) = task else {
        return TaskFact::default();
    };
    let requested = t.condition("ApprovalRequestCreated").and_then(|c| c.since);
    let object = t
        .request
        .as_deref()
        .and_then(|n| approvals.iter().find(|a| a.name == n));
    let approved = t
        .condition("ApprovalRequestApproved")
        .and_then(|c| c.since)
        .or_else(|| object.and_then(|a| a.approved));
    TaskFact {
        request: t.request.clone(),
        requested,
        approved,
    }
}

pub fn approval_task(tasks: &[TaskStatus]) -> Option<&TaskStatus> {
    tasks.iter().find(|t| t.kind == "Approval")
}

/// When the last cluster of a stage finished (the TimedWait's start), if all have.
fn clusters_done_at(st: &Observed) -> Option<Time> {
    let mut last = None;
    for c in &st.clusters {
        let s = c.succeeded().filter(|s| s.is_true())?;
        last = last.max(s.since);
    }
    last.or(st.start)
}

fn cluster_fact(c: &super::kubefleet::ClusterStatus, fallback: Time) -> ClusterFact {
    let Some(started) = c.started() else {
        return ClusterFact::NotStarted;
    };
    let a = started.since.unwrap_or(fallback);
    match c.succeeded() {
        Some(s) if s.is_true() => ClusterFact::Done(a, s.since.unwrap_or(a).max(a)),
        _ => ClusterFact::Running(a),
    }
}

/// Where the current stage stands, for `simulate_from`.
pub fn resume(
    run: &RunStatus,
    init: &Init,
    stage: usize,
    now: Time,
    approvals: &[ApprovalStatus],
    failed: &HashMap<String, Time>,
    stopped: Option<Time>,
) -> Resume {
    let Some(st) = run
        .stages
        .get(stage)
        .or(run.deletion.as_ref().filter(|_| stage == run.stages.len()))
    else {
        return Resume {
            now,
            stage,
            step: ResumeStep::Enter,
            stage_start: None,
            clusters: Vec::new(),
            before: TaskFact::default(),
            clusters_done_at: None,
            wait_elapsed: None,
            after: TaskFact::default(),
            stopped,
        };
    };
    let stage_start = st
        .start
        .or_else(|| st.condition("Progressing").and_then(|c| c.since));
    let fallback = stage_start.unwrap_or(now);
    let clusters: Vec<ClusterFact> = st
        .clusters
        .iter()
        .map(|c| match cluster_fact(c, fallback) {
            ClusterFact::Running(a) => match failed.get(c.name.as_str()) {
                Some(at) => ClusterFact::Failed(a, (*at).max(a)),
                None => ClusterFact::Running(a),
            },
            f => f,
        })
        .collect();
    let before = task_fact(approval_task(&st.before), approvals);
    let after = task_fact(approval_task(&st.after), approvals);
    let wait_elapsed = st
        .after
        .iter()
        .find(|t| t.kind == "TimedWait")
        .and_then(|t| t.condition("WaitTimeElapsed"))
        .and_then(|c| c.since);
    let is = init.stages.get(stage);
    let reached = st.condition("Progressing").is_some() || st.start.is_some();
    let all_done =
        !clusters.is_empty() && clusters.iter().all(|c| matches!(c, ClusterFact::Done(..)));
    let step = if !reached {
        ResumeStep::Enter
    } else if is.is_some_and(|s| s.before_approval) && before.approved.is_none() {
        ResumeStep::Before
    } else if all_done {
        ResumeStep::After
    } else {
        ResumeStep::Updating
    };
    // The TimedWait counts from the stage's Progressing condition turning to waiting
    // (`checkAfterStageTasksStatus`); the last cluster's success is the same instant.
    let clusters_done_at = if step == ResumeStep::After {
        st.condition("Progressing")
            .filter(|c| c.reason == "StageUpdatingWaiting")
            .and_then(|c| c.since)
            .or_else(|| clusters_done_at(st))
    } else {
        None
    };
    Resume {
        now,
        stage,
        step,
        stage_start,
        clusters,
        before,
        clusters_done_at,
        wait_elapsed,
        after,
        stopped,
    }
}

/// A finished stage's row from its status alone.
pub fn finished_stage(
    index: usize,
    st: &Observed,
    is: &InitStage,
    approvals: &[ApprovalStatus],
    labels: &mut Labels,
) -> StagePlan {
    let skipped = st
        .condition("Succeeded")
        .is_some_and(|c| c.reason == "StageUpdatingSkippedNoClusters");
    let start = st.start.or_else(|| clusters_start(st));
    let done_at = clusters_done_at(st);
    let end = st.end.or(done_at);
    let mut phases = Vec::new();
    let before = task_fact(approval_task(&st.before), approvals);
    let after = task_fact(approval_task(&st.after), approvals);
    let name = |side: &str| {
        approval_task(if side == "before" {
            &st.before
        } else {
            &st.after
        })
        .and_then(|t| t.request.clone())
        .unwrap_or_default()
    };
    if is.before_approval {
        if let Some(r) = before.requested.or(start) {
            phases.push(Phase {
                kind: PhaseKind::BeforeStageApproval,
                start: r,
                end: before.approved,
                label: labels.add(name("before")),
                version: None,
            });
        }
    }
    if let (Some(s), Some(e)) = (before.approved.or(start), done_at) {
        if !skipped {
            phases.push(Phase {
                kind: PhaseKind::Updating,
                start: s,
                end: Some(e),
                label: labels.add(format!("maxConcurrency {}", is.max_concurrency)),
                version: None,
            });
        }
    }
    if let (Some(w), Some(d)) = (is.after_wait, done_at) {
        let elapsed = st
            .after
            .iter()
            .find(|t| t.kind == "TimedWait")
            .and_then(|t| t.condition("WaitTimeElapsed"))
            .and_then(|c| c.since);
        phases.push(Phase {
            kind: PhaseKind::AfterStageTimedWait,
            start: d,
            end: elapsed.or(Some(d.plus(w))),
            label: labels.add(format!("TimedWait {w}")),
            version: None,
        });
    }
    if is.after_approval {
        if let Some(r) = after.requested.or(done_at) {
            phases.push(Phase {
                kind: PhaseKind::AfterStageApproval,
                start: r,
                end: after.approved,
                label: labels.add(name("after")),
                version: None,
            });
        }
    }
    let clusters = st
        .clusters
        .iter()
        .map(|c| {
            let (start, end) = match cluster_fact(c, start.unwrap_or_default()) {
                ClusterFact::Done(a, b) => (Some(a), Some(b)),
                _ => (None, None),
            };
            ClusterPlan {
                name: c.name.clone(),
                sort_value: None,
                status: ClusterStatus::Succeeded,
                start,
                end,
                stuck_at: None,
                phases: Vec::new(),
                reason: None,
            }
        })
        .collect();
    StagePlan {
        name: st.name.clone(),
        index,
        delete_stage: is.delete_stage,
        max_concurrency: is.max_concurrency,
        status: if skipped {
            StageStatus::Skipped
        } else {
            StageStatus::Succeeded
        },
        start,
        end,
        clusters,
        phases,
    }
}

fn clusters_start(st: &Observed) -> Option<Time> {
    st.clusters
        .iter()
        .filter_map(|c| c.started().and_then(|s| s.since))
        .min()
}

/// The update durations and approval delays a run's status shows (`history`: an earlier run).
pub fn observe(
    run: &RunStatus,
    approvals: &[ApprovalStatus],
    hours: Option<&BusinessHours>,
    history: bool,
    out: &mut Observations,
) {
    for st in &run.stages {
        for c in &st.clusters {
            if let (Some(a), Some(s)) = (
                c.started().and_then(|s| s.since),
                c.succeeded().filter(|s| s.is_true()).and_then(|s| s.since),
            ) {
                if s >= a {
                    out.updates.push(UpdateObservation {
                        stage: st.name.clone(),
                        duration: s.since(a),
                        history,
                    });
                }
            }
        }
        for t in st
            .before
            .iter()
            .chain(&st.after)
            .filter(|t| t.kind == "Approval")
        {
            let f = task_fact(Some(t), approvals);
            if let (Some(r), Some(a)) = (f.requested, f.approved) {
                if a >= r {
                    out.approvals.push(match hours {
                        Some(h) => calendar::business_time_between(r, a, h),
                        None => a.since(r),
                    });
                }
            }
        }
    }
}

/// Every time the status states, with where it is, for the check against `now`.
pub fn times(run: &RunStatus) -> Vec<(Time, super::objects::Pos)> {
    let mut out = Vec::new();
    let mut conds = |cs: &[super::objects::Condition]| {
        for c in cs {
            if let Some(t) = c.since {
                out.push((t, c.at));
            }
        }
    };
    conds(&run.conditions);
    for st in run.stages.iter().chain(run.deletion.iter()) {
        conds(&st.conditions);
        for c in &st.clusters {
            conds(&c.conditions);
        }
        for t in st.before.iter().chain(&st.after) {
            conds(&t.conditions);
        }
    }
    for st in run.stages.iter().chain(run.deletion.iter()) {
        for t in [st.start, st.end].into_iter().flatten() {
            out.push((
                t,
                super::objects::Pos {
                    line: st.at.line,
                    column: st.at.column,
                },
            ));
        }
    }
    out
}
