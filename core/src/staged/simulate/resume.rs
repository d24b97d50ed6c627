//! Continuing a staged run from where its status says it stands, instead of from its start: the
//! current stage's facts (clusters finished, updating since, failed; approvals requested and given;
//! the TimedWait's real start) are loaded into the state machine, and the same rules run from `now`.
//!
//! Projected ends are never before `now`: an update running longer than expected, an approval later
//! than assumed or a TimedWait the controller has not yet marked elapsed is projected to end at `now`
//! at the earliest (the controller's next reconcile).

use crate::model::{StopSpec, TaskSide};
use crate::plan::{ClusterStatus, PhaseKind, StageStatus};
use crate::time::Time;
use crate::timing::Timing;

use super::{Ev, Init, Sim, SimResult, Step, STUCK_THRESHOLD};

/// Where a real run stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Resume {
    /// The instant the facts were read; nothing before it is simulated.
    pub now: Time,
    /// The stage the controller is working on (an index into `Init::stages`; past the last one: the
    /// run only has to finish).
    pub stage: usize,
    pub step: ResumeStep,
    /// When the stage was reached.
    pub stage_start: Option<Time>,
    /// One fact per member of the stage, in the stage's order.
    pub clusters: Vec<ClusterFact>,
    pub before: TaskFact,
    /// When the last cluster of the stage finished: the after-stage TimedWait counts from here.
    pub clusters_done_at: Option<Time>,
    pub wait_elapsed: Option<Time>,
    pub after: TaskFact,
    /// The run is stopped, or stopping, since then.
    pub stopped: Option<Time>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResumeStep {
    /// The stage is next but not yet reached (the controller enters it on its next reconcile).
    Enter,
    /// Waiting for the before-stage approval.
    Before,
    Updating,
    /// Waiting for the after-stage tasks.
    After,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterFact {
    NotStarted,
    Running(Time),
    Done(Time, Time),
    /// Started, and its binding failed at the second time; the controller retries it.
    Failed(Time, Time),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskFact {
    /// The approval request's name as the status gives it (older releases named it
    /// `<run>-<stage>`); `None`: the current naming.
    pub request: Option<String>,
    pub requested: Option<Time>,
    pub approved: Option<Time>,
}

/// Runs the rest of a run from `from`. Stops in `stops` that begin or end after `from.now` apply.
pub fn simulate_from(
    init: &Init,
    timing: &Timing,
    run: &str,
    stops: &[StopSpec],
    from: &Resume,
) -> SimResult {
    let mut sim = Sim::new(init, timing, run);
    let now = from.now;
    for s in stops {
        if s.at >= now {
            sim.queue.push(s.at, Ev::Stop);
        }
        if let Some(r) = s.resume.filter(|r| *r >= now && *r >= s.at) {
            sim.queue.push(r, Ev::Resume);
        }
    }
    sim.load(from);
    sim.run()
}

impl Sim<'_> {
    fn load(&mut self, from: &Resume) {
        let now = from.now;
        let s = from.stage;
        if s >= self.stages.len() {
            self.queue.push(now, Ev::Enter(s));
            return;
        }
        self.cur = s;
        if let Some(t) = from.stopped {
            self.stopped = Some(t);
            self.open_phase(s, PhaseKind::Stopped, t, "run stopped".into());
        }
        if from.step == ResumeStep::Enter {
            if self.stopped.is_some() {
                self.pending_enter = Some(s);
            } else {
                self.queue.push(now, Ev::Enter(s));
            }
            return;
        }
        let stage = &self.init.stages[s];
        let start = from.stage_start.unwrap_or(now);
        self.stages[s].start = Some(start);
        self.stages[s].status = StageStatus::Waiting;
        if stage.before_approval {
            let requested = from.before.requested.unwrap_or(start);
            let name = from
                .before
                .request
                .clone()
                .unwrap_or_else(|| self.approval_name(TaskSide::Before, s));
            self.open_phase(s, PhaseKind::BeforeStageApproval, requested, name);
            match from.before.approved {
                Some(at) => {
                    self.close_phase(s, PhaseKind::BeforeStageApproval, at);
                    self.before_approved = true;
                }
                None if from.step == ResumeStep::Before => {
                    self.step = Step::Before;
                    self.schedule_approval(now, requested, s, TaskSide::Before);
                    return;
                }
                None => self.before_approved = true,
            }
        }
        let updating_since = from.before.approved.unwrap_or(start);
        let label = format!("maxConcurrency {}", self.stages[s].max_concurrency);
        self.open_phase(s, PhaseKind::Updating, updating_since, label);
        self.step = Step::Updating;
        for (c, fact) in from.clusters.iter().enumerate().take(stage.members.len()) {
            self.load_cluster(now, s, c, *fact);
        }
        if from.step == ResumeStep::Updating {
            if self.stopped.is_some() && self.in_flight > 0 {
                self.stop_pending = true;
            }
            self.proceed(now);
            return;
        }
        // After-stage tasks: the clusters are done, the TimedWait counts from when they were.
        let done_at = from.clusters_done_at.unwrap_or(now);
        self.close_phase(s, PhaseKind::Updating, done_at);
        self.step = Step::After;
        let (wait, approval) = (stage.after_wait, stage.after_approval);
        self.wait_done = wait.is_none() || from.wait_elapsed.is_some();
        self.approval_done = !approval || from.after.approved.is_some();
        if let Some(w) = wait {
            self.open_phase(
                s,
                PhaseKind::AfterStageTimedWait,
                done_at,
                format!("TimedWait {w}"),
            );
            match from.wait_elapsed {
                Some(at) => self.close_phase(s, PhaseKind::AfterStageTimedWait, at),
                None => {
                    let at = done_at.plus(w).max(now);
                    self.queue.push(at, Ev::WaitElapsed(s, self.wait_gen));
                }
            }
        }
        if approval {
            let requested = from.after.requested.unwrap_or(done_at);
            let name = from
                .after
                .request
                .clone()
                .unwrap_or_else(|| self.approval_name(TaskSide::After, s));
            self.open_phase(s, PhaseKind::AfterStageApproval, requested, name);
            match from.after.approved {
                Some(at) => self.close_phase(s, PhaseKind::AfterStageApproval, at),
                None => self.schedule_approval(now, requested, s, TaskSide::After),
            }
        }
        self.proceed(now);
    }

    /// The approval the assumptions predict for a request made at `requested`, not before `now`.
    fn schedule_approval(&mut self, now: Time, requested: Time, s: usize, side: TaskSide) {
        if let Some(at) = self.timing.approval(requested, &self.stages[s].name, side) {
            self.queue.push(at.max(now), Ev::Approved(s, side));
        }
    }

    fn load_cluster(&mut self, now: Time, s: usize, c: usize, fact: ClusterFact) {
        let m = &self.init.stages[s].members[c];
        let delete = self.init.stages[s].delete_stage;
        match fact {
            ClusterFact::NotStarted => {}
            ClusterFact::Done(a, b) => {
                let cl = &mut self.stages[s].clusters[c];
                cl.start = Some(a);
                cl.end = Some(b);
                cl.status = ClusterStatus::Succeeded;
                if b.since(a) > STUCK_THRESHOLD && !delete {
                    cl.stuck_at = Some(a.plus(STUCK_THRESHOLD));
                }
                self.done += 1;
            }
            ClusterFact::Running(a) => {
                let d = if delete {
                    self.timing.delete()
                } else {
                    self.timing.update(&m.name, m.fleet_index)
                };
                let end = a.plus(d).max(now);
                let cl = &mut self.stages[s].clusters[c];
                cl.start = Some(a);
                cl.end = Some(end);
                self.watch(s, c, a);
                self.in_flight += 1;
                self.queue.push(end, Ev::Done(s, c));
                if !delete && end.since(a) > STUCK_THRESHOLD {
                    self.queue
                        .push(a.plus(STUCK_THRESHOLD).max(now), Ev::Stuck(s, c));
                }
            }
            ClusterFact::Failed(a, at) => {
                self.stages[s].clusters[c].start = Some(a);
                self.watch(s, c, a);
                self.in_flight += 1;
                // The controller retries it; it recovers only when the assumptions say it does.
                let back = self
                    .timing
                    .failure(&m.name)
                    .and_then(|f| f.recovers_after)
                    .map(|r| at.plus(r).max(now));
                self.mark_failed(at, s, c, back);
                if let Some(b) = back {
                    self.stages[s].clusters[c].end = Some(b);
                    self.queue.push(b, Ev::Done(s, c));
                }
                if !delete {
                    self.queue
                        .push(a.plus(STUCK_THRESHOLD).max(now), Ev::Stuck(s, c));
                }
            }
        }
    }

    /// A failed cluster's bars and reason as the status shows them (see `cluster_failed`).
    fn mark_failed(&mut self, at: Time, s: usize, c: usize, recovers: Option<Time>) {
        let stage_name = &self.stages[s].name;
        let reason = match recovers {
            Some(t) => format!("its binding reports a failure since {at}; assumed to recover at {t} (assumptions.failures); the controller retries it and it holds one maxConcurrency slot"),
            None => format!("its binding reports a failure since {at}: the controller retries it until someone fixes it; it holds one maxConcurrency slot and stage {stage_name} cannot finish"),
        };
        self.show_failed(at, s, c, recovers, reason);
    }
}
