//! The staged update run as a discrete-event state machine: stages in order, a sliding window of
//! `maxConcurrency` clusters, before/after-stage tasks, stops and resumes, failures, the delete stage.
//!
//! Mirrors `pkg/controllers/updaterun/{execution,stop}.go`; every event carries the condition reason the
//! real controller would set at that moment. A cluster whose binding fails is not aborted: the
//! controller cannot tell whether the failure is recoverable (`checkClusterUpdateResult`), so the
//! cluster keeps its slot in the window until it recovers, if ever, and its stage cannot finish. Only a
//! binding taken over by another run (preemption) aborts the run.

use std::borrow::Cow;

use crate::engine::EventQueue;
use crate::model::{StopSpec, TaskSide};
use crate::plan::{
    ClusterPlan, ClusterStatus, Events, Labels, NameId, Outcome, Phase, PhaseKind, StagePlan,
    StageStatus,
};
use crate::time::{Duration, Time, MINUTE};

use super::init::{Init, InitStage};
use crate::timing::Timing;

mod resume;
mod watch;
pub use resume::{simulate_from, ClusterFact, Resume, ResumeStep, TaskFact};
use watch::StuckWatch;

/// The controller marks the run stuck when one cluster has been updating longer than this.
pub const STUCK_THRESHOLD: Duration = Duration(5 * MINUTE.0);

#[derive(Debug)]
enum Ev {
    Enter(usize),
    Approved(usize, TaskSide),
    Done(usize, usize),
    /// The cluster's binding reports a failure; the controller retries it.
    Failed(usize, usize),
    /// Another run took over the cluster's binding: the run aborts.
    Preempted(usize, usize),
    Stuck(usize, usize),
    WaitElapsed(usize, u32),
    Stop,
    Resume,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Before,
    Updating,
    After,
    Finished,
}

pub struct SimResult {
    pub stages: Vec<StagePlan>,
    pub events: Events,
    /// The texts the stages' and clusters' bars name.
    pub labels: Labels,
    pub end: Option<Time>,
    pub outcome: Outcome,
    /// Notes about stops restarting a TimedWait's clock (the controller's known behaviour).
    pub wait_restarts: Vec<(String, Time, Time)>,
    /// Since when the run shows UpdateRunStuck at the end of the simulation (a hang), if it does.
    pub stuck_since: Option<Time>,
}

struct Sim<'a> {
    init: &'a Init,
    timing: &'a Timing<'a>,
    run: &'a str,
    queue: EventQueue<Ev>,
    stages: Vec<StagePlan>,
    events: Events,
    labels: Labels,
    cur: usize,
    step: Step,
    next: usize,
    in_flight: usize,
    done: usize,
    before_approved: bool,
    wait_done: bool,
    approval_done: bool,
    wait_gen: u32,
    stopped: Option<Time>,
    stop_pending: bool,
    /// A stage reached while the run was stopped: entered on resume.
    pending_enter: Option<usize>,
    outcome: Option<Outcome>,
    end: Option<Time>,
    wait_restarts: Vec<(String, Time, Time)>,
    /// Since when the run has been marked stuck (Progressing=False, UpdateRunStuck), if it is now.
    stuck_since: Option<Time>,
    /// The stuck condition's current message, so an unchanged one is not announced twice.
    stuck_message: Option<String>,
    /// The run's Progressing condition as last announced (reason, message).
    run_progress: Option<(&'static str, Cow<'static, str>)>,
    /// Per stage, the unfinished clusters and whether they have passed the stuck threshold.
    stuck_watch: Vec<StuckWatch>,
    /// Each stage's and cluster's name as entered in the events' table, on its first event: a name
    /// copied into the table for every event was two allocations and a copy per name, about a tenth
    /// of a 1,000-cluster plan's instructions.
    stage_ids: Vec<Option<NameId>>,
    cluster_ids: Vec<Vec<Option<NameId>>>,
}

pub fn simulate(
    init: &Init,
    timing: &Timing,
    run: &str,
    start: Time,
    stops: &[StopSpec],
) -> SimResult {
    let mut sim = Sim::new(init, timing, run);
    sim.emit(
        start,
        "UpdateRunInitializedSuccessfully",
        None,
        None,
        "The UpdateRun initialized successfully",
    );
    for s in stops {
        sim.queue.push(s.at.max(start), Ev::Stop);
        if let Some(r) = s.resume {
            sim.queue.push(r.max(s.at).max(start), Ev::Resume);
        }
    }
    sim.emit(start, "UpdateRunProgressing", None, None, PROGRESSING);
    sim.queue.push(start, Ev::Enter(0));
    sim.run()
}

impl<'a> Sim<'a> {
    fn new(init: &'a Init, timing: &'a Timing<'a>, run: &'a str) -> Sim<'a> {
        let stages = init
            .stages
            .iter()
            .enumerate()
            .map(|(i, s)| empty_stage(i, s))
            .collect();
        Sim {
            init,
            timing,
            run,
            queue: EventQueue::with_capacity(64),
            stages,
            events: Events::with_capacity(
                init.stages
                    .iter()
                    .map(|s| s.members.len() * 2 + 4)
                    .sum::<usize>()
                    + 4,
            ),
            labels: Labels::default(),
            cur: 0,
            step: Step::Before,
            next: 0,
            in_flight: 0,
            done: 0,
            before_approved: false,
            wait_done: false,
            approval_done: false,
            wait_gen: 0,
            stopped: None,
            stop_pending: false,
            pending_enter: None,
            outcome: None,
            end: None,
            wait_restarts: Vec::new(),
            stuck_since: None,
            stuck_message: None,
            run_progress: None,
            stuck_watch: init.stages.iter().map(|_| StuckWatch::default()).collect(),
            stage_ids: vec![None; init.stages.len()],
            cluster_ids: init
                .stages
                .iter()
                .map(|s| vec![None; s.members.len()])
                .collect(),
        }
    }

    fn run(mut self) -> SimResult {
        while let Some((now, ev)) = self.queue.pop() {
            if self.outcome.is_some() {
                break;
            }
            self.handle(now, ev);
        }
        self.finish()
    }
}

fn empty_stage(index: usize, s: &InitStage) -> StagePlan {
    StagePlan {
        name: s.name.clone(),
        index,
        delete_stage: s.delete_stage,
        max_concurrency: s.max_concurrency,
        status: StageStatus::NotStarted,
        start: None,
        end: None,
        clusters: s
            .members
            .iter()
            .map(|m| ClusterPlan {
                name: m.name.clone(),
                sort_value: m.sort_value,
                status: ClusterStatus::NotStarted,
                start: None,
                end: None,
                stuck_at: None,
                phases: Vec::new(),
                reason: None,
            })
            .collect(),
        phases: Vec::new(),
    }
}

impl Sim<'_> {
    fn emit(
        &mut self,
        at: Time,
        reason: &'static str,
        stage: Option<usize>,
        cluster: Option<(usize, usize)>,
        message: impl Into<Cow<'static, str>>,
    ) {
        // The run's Progressing condition: a reconcile that sets it to what it already is changes
        // nothing in the status, so it is not an event.
        if stage.is_none() && RUN_PROGRESS_REASONS.contains(&reason) {
            let message: Cow<'static, str> = message.into();
            if self
                .run_progress
                .as_ref()
                .is_some_and(|(r, m)| *r == reason && *m == message)
            {
                return;
            }
            self.run_progress = Some((reason, message.clone()));
            return self.push_event(at, reason, None, cluster, message);
        }
        self.push_event(at, reason, stage, cluster, message.into());
    }

    fn push_event(
        &mut self,
        at: Time,
        reason: &'static str,
        stage: Option<usize>,
        cluster: Option<(usize, usize)>,
        message: Cow<'static, str>,
    ) {
        let stage = stage.map(|s| self.stage_id(s));
        let cluster = cluster.map(|(s, c)| self.cluster_id(s, c));
        self.events
            .push_ids(at, reason, stage, cluster, message.into());
    }

    fn stage_id(&mut self, stage: usize) -> NameId {
        match self.stage_ids[stage] {
            Some(id) => id,
            None => {
                let id = self.events.name(self.stages[stage].name.as_str().into());
                self.stage_ids[stage] = Some(id);
                id
            }
        }
    }

    fn cluster_id(&mut self, stage: usize, cluster: usize) -> NameId {
        match self.cluster_ids[stage][cluster] {
            Some(id) => id,
            None => {
                let name = self.stages[stage].clusters[cluster].name.clone();
                let id = self.events.name(name);
                self.cluster_ids[stage][cluster] = Some(id);
                id
            }
        }
    }

    fn approval_name(&self, side: TaskSide, stage: usize) -> String {
        let s = &self.stages[stage].name;
        match side {
            TaskSide::Before => format!("{}-before-{s}", self.run),
            TaskSide::After => format!("{}-after-{s}", self.run),
        }
    }

    fn open_phase(&mut self, stage: usize, kind: PhaseKind, start: Time, label: String) {
        self.stages[stage].phases.push(Phase {
            kind,
            start,
            end: None,
            label: self.labels.add(label),
            version: None,
        });
    }

    fn close_phase(&mut self, stage: usize, kind: PhaseKind, end: Time) {
        if let Some(p) = self.stages[stage]
            .phases
            .iter_mut()
            .rev()
            .find(|p| p.kind == kind && p.end.is_none())
        {
            p.end = Some(end);
        }
    }

    fn handle(&mut self, now: Time, ev: Ev) {
        match ev {
            Ev::Enter(s) if self.stopped.is_some() => self.pending_enter = Some(s),
            Ev::Enter(s) => self.enter(now, s),
            Ev::Approved(s, side) => self.approved(now, s, side),
            Ev::Done(s, c) => self.cluster_done(now, s, c),
            Ev::Failed(s, c) => self.cluster_failed(now, s, c),
            Ev::Preempted(s, c) => self.cluster_preempted(now, s, c),
            Ev::Stuck(s, c) => self.stuck(now, s, c),
            Ev::WaitElapsed(s, gen) => {
                if s == self.cur
                    && self.step == Step::After
                    && gen == self.wait_gen
                    && !self.wait_done
                {
                    self.wait_done = true;
                    self.close_phase(s, PhaseKind::AfterStageTimedWait, now);
                    self.emit(now, "WaitTimeElapsed", Some(s), None, "Wait time elapsed");
                    self.proceed(now);
                }
            }
            Ev::Stop => self.stop(now),
            Ev::Resume => self.resume(now),
        }
    }

    /// A person approved the stage's before- or after-stage approval request.
    fn approved(&mut self, now: Time, s: usize, side: TaskSide) {
        self.emit(
            now,
            "ApprovalRequestApproved",
            Some(s),
            None,
            "ApprovalRequest object is approved",
        );
        match side {
            TaskSide::Before => {
                self.close_phase(s, PhaseKind::BeforeStageApproval, now);
                self.before_approved = true;
            }
            TaskSide::After => {
                self.close_phase(s, PhaseKind::AfterStageApproval, now);
                self.approval_done = true;
            }
        }
        self.proceed(now);
    }

    /// The run reaches stage `s` (or, past the last one, the delete stage and the end).
    fn enter(&mut self, now: Time, s: usize) {
        if s >= self.stages.len() {
            self.succeed(now);
            return;
        }
        self.cur = s;
        self.next = 0;
        self.in_flight = 0;
        self.done = 0;
        self.before_approved = false;
        self.wait_done = false;
        self.approval_done = false;
        let stage = &self.init.stages[s];
        if stage.members.is_empty() {
            if !stage.delete_stage {
                let st = &mut self.stages[s];
                st.status = StageStatus::Skipped;
                st.start = Some(now);
                st.end = Some(now);
                self.emit(
                    now,
                    "StageUpdatingSkippedNoClusters",
                    Some(s),
                    None,
                    "Stage skipped because it has no clusters",
                );
            }
            self.queue.push(now, Ev::Enter(s + 1));
            return;
        }
        self.stages[s].start = Some(now);
        self.stages[s].status = StageStatus::Waiting;
        if stage.before_approval {
            self.step = Step::Before;
            self.request_approval(now, s, TaskSide::Before);
            self.announce_waiting(
                now,
                s,
                "before-stage",
                "Not all before-stage tasks are completed, waiting for approval",
            );
        } else {
            self.step = Step::Updating;
            self.start_updating(now);
        }
    }

    /// Creates the stage's before- or after-stage approval request, opens its waiting phase and
    /// schedules the approval the assumptions predict (none: nobody approves).
    fn request_approval(&mut self, now: Time, s: usize, side: TaskSide) {
        let name = self.approval_name(side, s);
        self.emit(
            now,
            "ApprovalRequestCreated",
            Some(s),
            None,
            "ApprovalRequest object is created",
        );
        let kind = match side {
            TaskSide::Before => PhaseKind::BeforeStageApproval,
            TaskSide::After => PhaseKind::AfterStageApproval,
        };
        self.open_phase(s, kind, now, name);
        if let Some(at) = self.timing.approval(now, &self.stages[s].name, side) {
            self.queue.push(at.max(now), Ev::Approved(s, side));
        }
    }

    /// The stage's and the run's waiting conditions, as the controller sets them for `tasks`
    /// (`before-stage` or `after-stage`).
    fn announce_waiting(&mut self, now: Time, s: usize, tasks: &str, stage_message: &'static str) {
        self.emit(now, "StageUpdatingWaiting", Some(s), None, stage_message);
        let run_message = format!(
            "The updateRun is waiting for {tasks} tasks in stage {} to complete",
            self.stages[s].name
        );
        self.emit(now, "UpdateRunWaiting", None, None, run_message);
    }

    /// Moves the current stage forward if nothing holds it (approvals, waits, a stop).
    fn proceed(&mut self, now: Time) {
        if self.stopped.is_some() {
            return;
        }
        match self.step {
            Step::Before if self.before_approved => {
                self.step = Step::Updating;
                self.start_updating(now);
            }
            Step::Updating => self.fill(now),
            Step::After if self.wait_done && self.approval_done => {
                let s = self.cur;
                self.stages[s].end = Some(now);
                self.stages[s].status = StageStatus::Succeeded;
                self.emit(
                    now,
                    "StageUpdatingSucceeded",
                    Some(s),
                    None,
                    "All clusters in the stage are updated and after-stage tasks are completed",
                );
                self.step = Step::Finished;
                self.queue.push(now, Ev::Enter(s + 1));
            }
            _ => {}
        }
    }

    fn start_updating(&mut self, now: Time) {
        let s = self.cur;
        self.emit(
            now,
            "StageUpdatingStarted",
            Some(s),
            None,
            "Clusters in the stage started updating",
        );
        self.emit(now, "UpdateRunProgressing", None, None, PROGRESSING);
        self.open_phase(
            s,
            PhaseKind::Updating,
            now,
            format!("maxConcurrency {}", self.stages[s].max_concurrency),
        );
        self.fill(now);
    }

    /// Starts clusters in order while the sliding window has room.
    fn fill(&mut self, now: Time) {
        let s = self.cur;
        let stage = &self.init.stages[s];
        while self.stopped.is_none()
            && self.in_flight < stage.max_concurrency
            && self.next < stage.members.len()
        {
            let c = self.next;
            self.next += 1;
            // Started before a resumed simulation began (a fact from the run's status).
            if self.stages[s].clusters[c].start.is_some() {
                continue;
            }
            self.in_flight += 1;
            let m = &stage.members[c];
            // checkClusterUpdateResult: Available, or DiffReported under ReportDiff, ends the update.
            let d = if stage.delete_stage {
                self.timing.delete()
            } else if self.init.report_diff {
                self.timing.apply()
            } else {
                self.timing.update(&m.name, m.fleet_index)
            };
            let cl = &mut self.stages[s].clusters[c];
            cl.start = Some(now);
            cl.end = Some(now.plus(d));
            self.stuck_watch[s].watch(c, now, stage.members.len());
            self.emit(
                now,
                "ClusterUpdatingStarted",
                Some(s),
                Some((s, c)),
                "Cluster update started",
            );
            // A to-be-deleted binding is only awaited until it is gone; no failure or stuck check applies.
            let failure = if stage.delete_stage {
                None
            } else {
                self.timing.failure(&m.name)
            };
            let done_at = match failure {
                None => {
                    self.queue.push(now.plus(d), Ev::Done(s, c));
                    Some(now.plus(d))
                }
                Some(f) => {
                    let at = now.plus(f.after.unwrap_or(d));
                    self.stages[s].clusters[c].end = Some(at);
                    if f.preempted {
                        self.queue.push(at, Ev::Preempted(s, c));
                        Some(at)
                    } else {
                        self.queue.push(at, Ev::Failed(s, c));
                        f.recovers_after.map(|r| {
                            let back = at.plus(r);
                            self.stages[s].clusters[c].end = Some(back);
                            self.queue.push(back, Ev::Done(s, c));
                            back
                        })
                    }
                }
            };
            // execution.go marks the run stuck once a started cluster has not finished after the
            // threshold (`timeElapsed > updateRunStuckThreshold`): not the delete stage.
            if !stage.delete_stage && done_at.is_none_or(|t| t.since(now) > STUCK_THRESHOLD) {
                self.queue.push(now.plus(STUCK_THRESHOLD), Ev::Stuck(s, c));
            }
        }
        if self.done == stage.members.len() && self.step == Step::Updating {
            self.stage_clusters_done(now);
        }
    }

    fn cluster_done(&mut self, now: Time, s: usize, c: usize) {
        self.stages[s].clusters[c].status = ClusterStatus::Succeeded;
        self.unwatch(s, c);
        self.in_flight -= 1;
        self.done += 1;
        self.emit(
            now,
            "ClusterUpdatingSucceeded",
            Some(s),
            Some((s, c)),
            "Cluster update completed successfully",
        );
        if self.in_flight == 0 && self.stop_pending {
            self.stopped_now(now);
        }
        self.proceed(now);
        self.maybe_unstuck(now, s);
    }

    /// A cluster of stage `s` started at `at` and has not finished: it counts toward the stuck mark
    /// once the threshold has passed.
    pub(super) fn watch(&mut self, s: usize, c: usize, at: Time) {
        let members = self.init.stages[s].members.len();
        self.stuck_watch[s].watch(c, at, members);
    }

    /// A watched cluster finished: it no longer keeps the run stuck.
    fn unwatch(&mut self, s: usize, c: usize) {
        self.stuck_watch[s].unwatch(c);
    }

    /// Marks the clusters of stage `s` whose update has lasted the threshold by `now` as over it.
    fn pass_threshold(&mut self, now: Time, s: usize) {
        self.stuck_watch[s].pass(now, STUCK_THRESHOLD);
    }

    /// The clusters of stage `s` that have been updating for the stuck threshold and have not
    /// finished (a failed cluster being retried included), in the stage's order: the first four at
    /// most, which is all the controller's message can show (three names, then "..."), in the
    /// controller's stuck message. Call `pass_threshold` first.
    fn stuck_message(&mut self, s: usize) -> String {
        let first = self.stuck_watch[s].first_over(4);
        let stage = &self.stages[s];
        let names: Vec<&str> = first
            .iter()
            .map(|&c| stage.clusters[c].name.as_str())
            .collect();
        stuck_message(&names, &stage.name)
    }

    /// A cluster has been updating for the threshold: the controller marks the run stuck with the
    /// names of every cluster of the stage that is, without stopping anything.
    fn stuck(&mut self, now: Time, s: usize, c: usize) {
        let cl = &self.stages[s].clusters[c];
        if !matches!(cl.status, ClusterStatus::NotStarted | ClusterStatus::Failed) {
            return;
        }
        self.stages[s].clusters[c].stuck_at = Some(now);
        self.pass_threshold(now, s);
        let message = self.stuck_message(s);
        // One condition per reconcile: a second cluster crossing at the same instant changes nothing.
        if self.stuck_since.is_some() && self.stuck_message.as_deref() == Some(message.as_str()) {
            return;
        }
        self.stuck_since.get_or_insert(now);
        self.stuck_message = Some(message.clone());
        self.run_progress = Some(("UpdateRunStuck", Cow::Owned(message.clone())));
        self.emit(now, "UpdateRunStuck", Some(s), Some((s, c)), message);
    }

    /// After a cluster finishes: when no cluster of the still-updating stage is over the threshold
    /// any more, the controller's next reconcile marks the run progressing again.
    fn maybe_unstuck(&mut self, now: Time, s: usize) {
        if self.stuck_since.is_none() {
            return;
        }
        self.pass_threshold(now, s);
        if self.stuck_watch[s].any_over() {
            return;
        }
        self.stuck_since = None;
        self.stuck_message = None;
        if self.cur == s && self.step == Step::Updating && self.stopped.is_none() {
            self.emit(now, "UpdateRunProgressing", None, None, PROGRESSING);
        }
    }

    /// The binding reports a failure. `checkClusterUpdateResult`: "We have no way to know if the
    /// failed condition is recoverable or not so we just let it run": the cluster stays in the
    /// window, holding its slot, and the stage cannot finish until it recovers.
    fn cluster_failed(&mut self, now: Time, s: usize, c: usize) {
        let name = self.stages[s].clusters[c].name.clone();
        let recovers = self
            .timing
            .failure(&name)
            .and_then(|f| f.recovers_after)
            .map(|r| now.plus(r));
        let stage_name = self.stages[s].name.clone();
        let reason = match recovers {
            Some(at) => format!("its binding failed at {now} and recovers at {at} (assumptions.failures); meanwhile the controller retries it and it holds one maxConcurrency slot"),
            None => format!("its binding failed at {now} and never recovers (assumptions.failures): the controller retries it forever; it holds one maxConcurrency slot and stage {stage_name} cannot finish"),
        };
        self.show_failed(now, s, c, recovers, reason);
        self.emit(
            now,
            "NotAllWorkHaveBeenApplied",
            Some(s),
            Some((s, c)),
            format!(
                "the cluster updating encountered an error at stage `{stage_name}`, updateRun := `{}`",
                self.run
            ),
        );
    }

    /// A failed cluster's bars (updating until `at`, then retried until it recovers, or open-ended),
    /// its `reason`, and the slot it holds on the stage's row; planned and read from a status alike.
    pub(super) fn show_failed(
        &mut self,
        at: Time,
        s: usize,
        c: usize,
        recovers: Option<Time>,
        reason: String,
    ) {
        let name = self.stages[s].clusters[c].name.clone();
        let updating = self.labels.add("updating");
        let retried = self.labels.add(match recovers {
            Some(_) => "failed; retried by the controller until it recovers",
            None => "failed; retried by the controller, never recovers",
        });
        let holds = self.labels.add(format!(
            "{name} failed, retried (holds a maxConcurrency slot)"
        ));
        let cl = &mut self.stages[s].clusters[c];
        cl.status = ClusterStatus::Failed;
        let start = cl.start.unwrap_or(at);
        cl.phases = vec![
            Phase {
                kind: PhaseKind::Updating,
                start,
                end: Some(at),
                label: updating,
                version: None,
            },
            Phase {
                kind: PhaseKind::FailedRetrying,
                start: at,
                end: recovers,
                label: retried,
                version: None,
            },
        ];
        cl.reason = Some(reason);
        self.stages[s].phases.push(Phase {
            kind: PhaseKind::FailedRetrying,
            start: at,
            end: recovers,
            label: holds,
            version: None,
        });
    }

    /// Another run took over the cluster's binding (`execution.go`: the binding no longer matches
    /// what this run wrote): the controller marks the cluster failed and aborts the run.
    fn cluster_preempted(&mut self, now: Time, s: usize, c: usize) {
        let name = self.stages[s].clusters[c].name.clone();
        let stage_name = self.stages[s].name.clone();
        self.stages[s].clusters[c].status = ClusterStatus::Failed;
        self.stages[s].clusters[c].end = Some(now);
        let binding = binding_ref(self.init, &name);
        let cluster_msg = format!(
            "{USER_ERROR}: the binding of the updating cluster `{name}` in the stage `{stage_name}` is not up-to-date with the desired status, please check the status of binding `{binding}` and see if there is a concurrent updateRun referencing the same placement and updating the same cluster"
        );
        self.stages[s].clusters[c].reason = Some(format!(
            "another run took over its binding at {now} (assumptions.failures, preempted)"
        ));
        let run_msg = format!("{ABORTED}: {cluster_msg}");
        self.emit(
            now,
            "ClusterUpdatingFailed",
            Some(s),
            Some((s, c)),
            cluster_msg,
        );
        self.emit(now, "StageUpdatingFailed", Some(s), None, run_msg.clone());
        self.emit(now, "UpdateRunFailed", None, None, run_msg);
        // Updates already under way finish on their own; the aborted run no longer tracks them.
        for cl in self.stages[s].clusters.iter_mut() {
            if cl.status == ClusterStatus::NotStarted && cl.start.is_some() {
                cl.status = ClusterStatus::Untracked;
            }
        }
        self.close_phase(s, PhaseKind::Updating, now);
        self.stages[s].status = StageStatus::Failed;
        self.stages[s].end = Some(now);
        self.end = Some(now);
        self.outcome = Some(Outcome::Failed);
        self.queue.clear();
    }

    fn stage_clusters_done(&mut self, now: Time) {
        let s = self.cur;
        self.close_phase(s, PhaseKind::Updating, now);
        let stage = &self.init.stages[s];
        let (wait, approval) = (stage.after_wait, stage.after_approval);
        self.step = Step::After;
        self.wait_done = wait.is_none();
        self.approval_done = !approval;
        if wait.is_some() || approval {
            self.announce_waiting(
                now,
                s,
                "after-stage",
                "All clusters in the stage are updated, waiting for after-stage tasks to complete",
            );
        }
        if let Some(w) = wait {
            self.open_phase(
                s,
                PhaseKind::AfterStageTimedWait,
                now,
                format!("TimedWait {w}"),
            );
            self.queue
                .push(now.plus(w), Ev::WaitElapsed(s, self.wait_gen));
        }
        if approval {
            self.request_approval(now, s, TaskSide::After);
        }
        self.proceed(now);
    }

    fn stop(&mut self, now: Time) {
        if self.stopped.is_some() {
            return;
        }
        self.stopped = Some(now);
        let s = self.cur;
        self.emit(
            now,
            "UpdateRunStopping",
            None,
            None,
            "The update run is the process of stopping, waiting for all the updating/deleting clusters to finish updating before completing the stop process",
        );
        self.open_phase(s, PhaseKind::Stopped, now, "run stopped".into());
        if self.step == Step::Updating && self.in_flight > 0 {
            self.stop_pending = true;
            self.emit(now, "StageUpdatingStopping", Some(s), None, "Waiting for all the updating clusters to finish updating before completing the stop process");
        } else {
            self.stopped_now(now);
        }
        if self.step == Step::After && !self.wait_done {
            if let Some(w) = self.init.stages[s].after_wait {
                // The controller restarts the TimedWait clock from the stop.
                self.wait_gen += 1;
                let new_end = now.plus(w);
                self.wait_restarts
                    .push((self.stages[s].name.clone(), now, new_end));
                self.queue.push(new_end, Ev::WaitElapsed(s, self.wait_gen));
            }
        }
    }

    fn stopped_now(&mut self, now: Time) {
        self.stop_pending = false;
        let s = self.cur;
        self.emit(now, "StageUpdatingStopped", Some(s), None, "All the updating clusters have finished updating, the stage is now stopped, waiting to be resumed");
        self.emit(
            now,
            "UpdateRunStopped",
            None,
            None,
            "The update run has been stopped",
        );
    }

    fn resume(&mut self, now: Time) {
        if self.stopped.take().is_none() {
            return;
        }
        self.stop_pending = false;
        self.close_phase(self.cur, PhaseKind::Stopped, now);
        self.emit(now, "UpdateRunProgressing", None, None, PROGRESSING);
        match self.pending_enter.take() {
            Some(s) => self.enter(now, s),
            None => self.proceed(now),
        }
    }

    fn succeed(&mut self, now: Time) {
        self.end = Some(now);
        self.outcome = Some(Outcome::Succeeded);
        self.emit(
            now,
            "UpdateRunSucceeded",
            None,
            None,
            "All stages are completed successfully",
        );
    }

    fn finish(mut self) -> SimResult {
        let outcome = self.outcome.unwrap_or(Outcome::Blocked);
        if outcome == Outcome::Blocked {
            self.end = None;
        }
        SimResult {
            stages: self.stages,
            events: self.events,
            labels: self.labels,
            end: self.end,
            outcome,
            wait_restarts: self.wait_restarts,
            stuck_since: self.stuck_since,
        }
    }
}

/// `markUpdateRunProgressing` (execution.go).
const PROGRESSING: &str = "The update run is making progress";
/// Reasons of the run's Progressing condition.
const RUN_PROGRESS_REASONS: &[&str] = &[
    "UpdateRunProgressing",
    "UpdateRunWaiting",
    "UpdateRunStopping",
    "UpdateRunStopped",
];

/// `errStagedUpdatedAborted` (controller.go): the prefix of every message of an aborted run.
const ABORTED: &str = "cannot continue the updateRun";
/// `controller.ErrUserError`, which wraps the preemption error.
const USER_ERROR: &str = "failed to process the request due to a client error";

/// `markUpdateRunStuck`'s message (execution.go): up to three names joined by ", ", then "..." when
/// there are more.
pub fn stuck_message(names: &[&str], stage: &str) -> String {
    let shown = names[..names.len().min(3)].join(", ");
    let more = if names.len() > 3 { "..." } else { "" };
    format!("The updateRun is stuck waiting for {shown}{more} cluster(s) in stage {stage} to finish updating, please check placement status for potential errors")
}

/// How `klog.KObj(binding)` prints the cluster's binding: `namespace/name` for a ResourceBinding,
/// the name alone for a ClusterResourceBinding. The scheduler names bindings
/// `<placement[:26]>-<cluster[:27]>-<8 random characters>` (uniquename.NewBindingName); the random
/// part cannot be known before it exists, so it is written `xxxxxxxx`.
pub fn binding_ref(init: &Init, cluster: &str) -> String {
    // Go slices bytes; back off to a character boundary so no text can make this panic.
    let cut = |s: &str, n: usize| {
        let mut n = n.min(s.len());
        while !s.is_char_boundary(n) {
            n -= 1;
        }
        s[..n].to_string()
    };
    let name = format!("{}-{}-xxxxxxxx", cut(&init.placement, 26), cut(cluster, 27));
    match &init.namespace {
        Some(ns) => format!("{ns}/{name}"),
        None => name,
    }
}
