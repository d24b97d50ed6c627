//! Playback: what the rollout is doing at one instant, with a reason a platform engineer can act on.
//!
//! The web app calls [`snapshot`] on every animation frame while a time cursor plays or is dragged, for
//! fleets of up to 10,000 clusters, so it reads the plan in two linear passes per stage and allocates
//! nothing but its output. It never re-simulates: everything it says is read off the [`Plan`]'s
//! intervals, which are half-open (`start <= at < end`), so at a boundary the later state wins.

use std::fmt::Write as _;

use serde::Serialize;

use crate::plan::{ClusterPlan, ClusterStatus, Outcome, PhaseKind, Plan, StagePlan, StageStatus};
use crate::time::Time;

/// The state of the whole rollout at `at`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub at: Time,
    pub counts: Counts,
    /// Every stage of the plan, in order.
    pub stages: Vec<StageState>,
    /// Every cluster of every stage, in the plan's order (stage by stage).
    pub clusters: Vec<ClusterState>,
}

/// Clusters by what they are doing at the instant. The five add up to the number of clusters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    /// Updated (including an untracked update that has finished on its own).
    pub done: usize,
    /// Updating now (including untracked updates still running after the run aborted).
    pub updating: usize,
    /// Not updated yet, in a stage that has started: held by an approval, a stop or maxConcurrency.
    pub waiting: usize,
    /// Not updated yet, and their stage has not started (or never will).
    pub pending: usize,
    /// Whose update has failed.
    pub failed: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StageState {
    pub stage: String,
    pub state: StageActivity,
    pub reason: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum StageActivity {
    NotStarted,
    /// A before- or after-stage approval request is open (possibly while a TimedWait also runs).
    WaitingForApproval,
    Updating,
    /// Only an after-stage TimedWait holds the stage: the soak.
    TimedWait,
    Stopped,
    Done,
    /// No cluster selected: KubeFleet skips the stage and its tasks.
    Skipped,
    Failed,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterState {
    pub stage: String,
    pub cluster: String,
    pub state: ClusterActivity,
    pub reason: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ClusterActivity {
    /// Not started (its stage has not started, or it waits for its turn).
    Pending,
    Updating,
    Done,
    Failed,
    /// Started before the run aborted; it carries on on its own but the run no longer tracks it.
    Untracked,
}

/// The number of events that have happened by `at` (those with `event.at <= at`): `plan.events[..n]`
/// is the log so far. Binary search, as the events are in time order.
pub fn events_until(plan: &Plan, at: Time) -> usize {
    plan.events.partition_point(|e| e.at <= at)
}

/// What each stage and cluster is doing at `at`, and why. O(clusters + phases); never panics.
pub fn snapshot(plan: &Plan, at: Time) -> Snapshot {
    let total: usize = plan.stages.iter().map(|s| s.clusters.len()).sum();
    let mut snap = Snapshot {
        at,
        counts: Counts::default(),
        stages: Vec::with_capacity(plan.stages.len()),
        clusters: Vec::with_capacity(total),
    };
    let ctx = RunContext::of(plan, at);
    for (si, stage) in plan.stages.iter().enumerate() {
        let prev = si.checked_sub(1).and_then(|p| plan.stages.get(p));
        // Pass 1: tally the stage's clusters, so stage and cluster reasons can quote the numbers.
        let mut tally = Tally::default();
        for c in &stage.clusters {
            let activity = cluster_activity(stage, c, at);
            tally.add(activity, c);
        }
        let (state, reason) = stage_state(&ctx, stage, prev, &tally, at);
        // Pass 2: the clusters' rows.
        for c in &stage.clusters {
            let activity = cluster_activity(stage, c, at);
            let reason = cluster_reason(&ctx, stage, state, &tally, c, activity, at);
            match activity {
                ClusterActivity::Done => snap.counts.done += 1,
                ClusterActivity::Updating => snap.counts.updating += 1,
                ClusterActivity::Failed => snap.counts.failed += 1,
                ClusterActivity::Untracked => {
                    if c.end.is_some_and(|e| e <= at) {
                        snap.counts.done += 1;
                    } else {
                        snap.counts.updating += 1;
                    }
                }
                ClusterActivity::Pending => {
                    if stage_started(stage, at) && state != StageActivity::Failed {
                        snap.counts.waiting += 1;
                    } else {
                        snap.counts.pending += 1;
                    }
                }
            }
            snap.clusters.push(ClusterState {
                stage: stage.name.clone(),
                cluster: c.name.to_string(),
                state: activity,
                reason,
            });
        }
        snap.stages.push(StageState {
            stage: stage.name.clone(),
            state,
            reason,
        });
    }
    snap
}

/// Only the counts of [`snapshot`], without building any rows: for a progress bar on every frame.
pub fn counts(plan: &Plan, at: Time) -> Counts {
    let mut counts = Counts::default();
    for stage in &plan.stages {
        let started = stage_started(stage, at);
        let failed_stage =
            stage.status == StageStatus::Failed && stage.end.is_some_and(|e| e <= at);
        for c in &stage.clusters {
            match cluster_activity(stage, c, at) {
                ClusterActivity::Done => counts.done += 1,
                ClusterActivity::Updating => counts.updating += 1,
                ClusterActivity::Failed => counts.failed += 1,
                ClusterActivity::Untracked if c.end.is_some_and(|e| e <= at) => counts.done += 1,
                ClusterActivity::Untracked => counts.updating += 1,
                ClusterActivity::Pending if started && !failed_stage => counts.waiting += 1,
                ClusterActivity::Pending => counts.pending += 1,
            }
        }
    }
    counts
}

/// What the whole run is doing, for reasons that depend on it (a failed run never reaches later stages).
struct RunContext<'a> {
    plan: &'a Plan,
    /// When the run aborted on a failure, if it has by `at`.
    failed_at: Option<Time>,
}

impl<'a> RunContext<'a> {
    fn of(plan: &'a Plan, at: Time) -> Self {
        let failed_at = match (plan.outcome, plan.end) {
            (Outcome::Failed, Some(end)) if end <= at => Some(end),
            _ => None,
        };
        RunContext { plan, failed_at }
    }
}

#[derive(Default)]
struct Tally<'a> {
    done: usize,
    updating: usize,
    pending: usize,
    failed: usize,
    first_failed: Option<&'a str>,
}

impl<'a> Tally<'a> {
    fn add(&mut self, a: ClusterActivity, c: &'a ClusterPlan) {
        match a {
            ClusterActivity::Done => self.done += 1,
            ClusterActivity::Updating | ClusterActivity::Untracked => self.updating += 1,
            ClusterActivity::Pending => self.pending += 1,
            ClusterActivity::Failed => {
                self.failed += 1;
                self.first_failed.get_or_insert(&c.name);
            }
        }
    }
}

fn stage_started(stage: &StagePlan, at: Time) -> bool {
    stage.start.is_some_and(|s| s <= at)
}

/// The cluster's activity at `at`, from its interval and final status alone.
fn cluster_activity(stage: &StagePlan, c: &ClusterPlan, at: Time) -> ClusterActivity {
    let Some(start) = c.start else {
        return ClusterActivity::Pending;
    };
    if at < start {
        return ClusterActivity::Pending;
    }
    let finished = c.end.is_some_and(|e| e <= at);
    match c.status {
        ClusterStatus::Untracked => {
            // Tracked like any other update until the run aborts (the stage's end), untracked after.
            let aborted = stage.end.is_some_and(|e| e <= at);
            if aborted {
                ClusterActivity::Untracked
            } else if finished {
                ClusterActivity::Done
            } else {
                ClusterActivity::Updating
            }
        }
        ClusterStatus::Failed if finished => ClusterActivity::Failed,
        _ if finished => ClusterActivity::Done,
        _ => ClusterActivity::Updating,
    }
}

fn stage_state(
    ctx: &RunContext<'_>,
    stage: &StagePlan,
    prev: Option<&StagePlan>,
    tally: &Tally<'_>,
    at: Time,
) -> (StageActivity, String) {
    let mut r = String::with_capacity(64);
    let Some(start) = stage.start.filter(|s| *s <= at) else {
        if let Some(failed) = ctx.failed_at {
            r.push_str("never starts: the run failed at ");
            clock(&mut r, failed, at);
        } else if at < ctx.plan.start {
            r.push_str("not started: the run starts at ");
            clock(&mut r, ctx.plan.start, at);
        } else if let Some(p) = prev {
            let _ = write!(r, "not started: stage {} comes first", p.name);
        } else {
            r.push_str("not started");
        }
        return (StageActivity::NotStarted, r);
    };
    if stage.status == StageStatus::Skipped {
        r.push_str(
            "skipped: its label selector selects no cluster (StageUpdatingSkippedNoClusters)",
        );
        return (StageActivity::Skipped, r);
    }
    if let Some(end) = stage.end.filter(|e| *e <= at) {
        return match stage.status {
            StageStatus::Failed => {
                r.push_str("failed at ");
                clock(&mut r, end, at);
                if let Some(name) = tally.first_failed {
                    let _ = write!(r, ": cluster {name} failed and the run aborted");
                }
                (StageActivity::Failed, r)
            }
            _ => {
                r.push_str("done at ");
                clock(&mut r, end, at);
                (StageActivity::Done, r)
            }
        };
    }
    // In progress: the open phases say what holds the stage. A stop outranks everything, an update
    // outranks waits, an approval (a person must act) outranks a TimedWait (the clock will act).
    let mut stopped = None;
    let mut updating = None;
    let mut approval = None;
    let mut timed = None;
    let mut retried = None;
    for p in &stage.phases {
        let open = p.start <= at && p.end.is_none_or(|e| at < e);
        if !open {
            continue;
        }
        match p.kind {
            PhaseKind::Stopped => stopped = Some(p),
            PhaseKind::Updating => updating = Some(p),
            PhaseKind::BeforeStageApproval | PhaseKind::AfterStageApproval => approval = Some(p),
            PhaseKind::AfterStageTimedWait => timed = Some(p),
            PhaseKind::ControlPlaneUpgrade
            | PhaseKind::NodeUpgrade
            | PhaseKind::Remove
            | PhaseKind::Update
            | PhaseKind::Add => updating = Some(p),
            PhaseKind::MaintenanceWait
            | PhaseKind::ExclusionWait
            | PhaseKind::Soaking
            | PhaseKind::ForcedSoaking
            | PhaseKind::AvailabilityWait => timed = Some(p),
            PhaseKind::FailedRetrying => retried = retried.or(Some(p)),
        }
    }
    if let Some(p) = stopped {
        r.push_str("run stopped at ");
        clock(&mut r, p.start, at);
        match p.end {
            Some(e) => {
                r.push_str(", resumes at ");
                clock(&mut r, e, at);
            }
            None => r.push_str(", never resumed in this plan"),
        }
        if tally.updating > 0 {
            let _ = write!(r, "; {} update(s) already under way finish", tally.updating);
        }
        return (StageActivity::Stopped, r);
    }
    if let Some(p) = updating {
        let verb = if stage.delete_stage {
            "deleting resources"
        } else {
            "updating"
        };
        let _ = write!(r, "{verb} since ");
        clock(&mut r, p.start, at);
        let _ = write!(
            r,
            " ({}): {} done, {} updating, {} waiting",
            ctx.plan.label(p),
            tally.done,
            tally.updating,
            tally.pending
        );
        if let Some(f) = retried {
            let _ = write!(r, "; {}", ctx.plan.label(f));
            match f.end {
                Some(e) => {
                    r.push_str(", recovers at ");
                    clock(&mut r, e, at);
                }
                None => r.push_str(": the stage cannot finish"),
            }
        }
        return (StageActivity::Updating, r);
    }
    if let Some(p) = approval {
        let _ = write!(r, "waiting for approval {}", ctx.plan.label(p));
        if p.end.is_none() {
            r.push_str(" (never granted in this plan)");
        }
        if let Some(t) = timed {
            r.push_str("; ");
            soak(ctx.plan, &mut r, t, at);
        }
        return (StageActivity::WaitingForApproval, r);
    }
    if let Some(t) = timed {
        soak(ctx.plan, &mut r, t, at);
        return (StageActivity::TimedWait, r);
    }
    // Between two phases that meet at this very instant, or a plan without phases: say the plain fact.
    r.push_str("in progress since ");
    clock(&mut r, start, at);
    (StageActivity::Updating, r)
}

fn soak(plan: &Plan, r: &mut String, p: &crate::plan::Phase, at: Time) {
    let _ = write!(r, "soaking: {}", plan.label(p));
    if let Some(e) = p.end {
        r.push_str(" until ");
        clock(r, e, at);
    }
}

fn cluster_reason(
    ctx: &RunContext<'_>,
    stage: &StagePlan,
    stage_activity: StageActivity,
    tally: &Tally<'_>,
    c: &ClusterPlan,
    activity: ClusterActivity,
    at: Time,
) -> String {
    // Sized for the longest common reason, so building it never reallocates.
    let mut r = String::with_capacity(96);
    let verb = if stage.delete_stage {
        "deleting resources"
    } else {
        "updating"
    };
    match activity {
        ClusterActivity::Pending => {
            if let Some(failed) = ctx.failed_at {
                r.push_str("never updated: the run failed at ");
                clock(&mut r, failed, at);
            } else if !stage_started(stage, at) {
                r.push_str("pending: stage ");
                r.push_str(&stage.name);
                r.push_str(" has not started");
            } else {
                match stage_activity {
                    StageActivity::WaitingForApproval => {
                        // The stage's own reason names the approval; repeat it, people read rows alone.
                        if let Some(p) = stage.phases.iter().find(|p| {
                            p.kind == PhaseKind::BeforeStageApproval
                                && p.start <= at
                                && p.end.is_none_or(|e| at < e)
                        }) {
                            let _ = write!(
                                r,
                                "waiting: stage {} waits for approval {}",
                                stage.name,
                                ctx.plan.label(p)
                            );
                        } else {
                            let _ =
                                write!(r, "waiting: stage {} waits for an approval", stage.name);
                        }
                    }
                    StageActivity::Stopped => r.push_str("waiting: run stopped"),
                    _ => {
                        r.push_str("waiting for a slot: maxConcurrency ");
                        number(&mut r, stage.max_concurrency);
                        r.push_str(", ");
                        number(&mut r, tally.updating);
                        r.push_str(" updating");
                    }
                }
                if let Some(s) = c.start {
                    r.push_str("; starts at ");
                    clock(&mut r, s, at);
                }
            }
        }
        ClusterActivity::Updating => {
            r.push_str(verb);
            r.push_str(" since ");
            clock(&mut r, c.start.unwrap_or(at), at);
            r.push_str(" (maxConcurrency ");
            number(&mut r, stage.max_concurrency);
            r.push(')');
            let retry = c
                .phases
                .iter()
                .find(|p| p.kind == PhaseKind::FailedRetrying);
            match (c.status, c.end) {
                (ClusterStatus::Failed, Some(e)) => {
                    r.push_str("; assumed to fail at ");
                    clock(&mut r, e, at);
                }
                (_, Some(e)) if retry.is_some_and(|p| p.start <= at) => {
                    r.push_str("; failed at ");
                    clock(&mut r, retry.map_or(at, |p| p.start), at);
                    r.push_str(", retried by the controller, recovers at ");
                    clock(&mut r, e, at);
                }
                (_, Some(e)) => {
                    r.push_str("; done at ");
                    clock(&mut r, e, at);
                }
                (_, None) => {}
            }
            if let Some(stuck) = c.stuck_at.filter(|s| *s <= at) {
                r.push_str("; over 5 minutes, the run is marked stuck since ");
                clock(&mut r, stuck, at);
            }
        }
        ClusterActivity::Done => {
            r.push_str("updated ");
            if stage.delete_stage {
                r.clear();
                r.push_str("resources deleted ");
            }
            clock(&mut r, c.start.unwrap_or(at), at);
            r.push('–');
            clock(&mut r, c.end.unwrap_or(at), at);
        }
        ClusterActivity::Failed if ctx.failed_at.is_none() => {
            // Not aborted: the controller keeps retrying the failed binding (staged runs).
            r.push_str("failed at ");
            clock(&mut r, c.end.unwrap_or(at), at);
            r.push_str("; retried by the controller, holding a maxConcurrency slot: stage ");
            r.push_str(&stage.name);
            r.push_str(" cannot finish");
        }
        ClusterActivity::Failed => {
            r.push_str("update failed at ");
            clock(&mut r, c.end.unwrap_or(at), at);
            r.push_str("; the run aborted, nothing is rolled back");
        }
        ClusterActivity::Untracked => {
            let aborted = stage.end.unwrap_or(at);
            match c.end {
                Some(e) if e <= at => {
                    r.push_str("finished on its own at ");
                    clock(&mut r, e, at);
                    r.push_str(", untracked: the run aborted at ");
                }
                _ => {
                    r.push_str("still updating on its own, untracked: the run aborted at ");
                }
            }
            clock(&mut r, aborted, at);
        }
    }
    r
}

/// Writes `t` as `HH:MMZ` when it falls on the same UTC day as `now` (seconds only when not zero),
/// else with its date, `2026-11-24 09:00Z`: short for the common case, never ambiguous.
fn clock(out: &mut String, t: Time, now: Time) {
    const DAY_MS: i64 = 86_400_000;
    let day = t.0.div_euclid(DAY_MS);
    let ms = t.0.rem_euclid(DAY_MS);
    if day != now.0.div_euclid(DAY_MS) {
        let _ = write!(out, "{} ", t.to_datetime().date_naive());
    }
    // Digits by hand: this runs for every row of every frame, and `write!` costs several times more.
    let secs = ms / 1000;
    two_digits(out, secs / 3600);
    out.push(':');
    two_digits(out, secs / 60 % 60);
    if secs % 60 != 0 {
        out.push(':');
        two_digits(out, secs % 60);
    }
    out.push('Z');
}

fn two_digits(out: &mut String, n: i64) {
    let n = n.clamp(0, 99) as u8;
    out.push(char::from(b'0' + n / 10));
    out.push(char::from(b'0' + n % 10));
}

/// A count without the formatting machinery (see [`two_digits`]).
fn number(out: &mut String, n: usize) {
    crate::decimal::push_decimal(out, n as u64);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples;
    use crate::input::{load, Source};

    fn plan_of(text: &str) -> Plan {
        let loaded = load(&[Source { name: "t", text }]);
        assert!(!loaded.scenarios.is_empty(), "{:#?}", loaded.diagnostics);
        crate::plan(&loaded.scenarios[0])
    }

    fn staged() -> Plan {
        plan_of(examples::get("staged").unwrap().text)
    }

    fn t(s: &str) -> Time {
        Time::parse(&format!("2026-11-23T{s}:00Z")).unwrap()
    }

    fn stage<'a>(s: &'a Snapshot, name: &str) -> &'a StageState {
        s.stages.iter().find(|x| x.stage == name).unwrap()
    }

    fn cluster<'a>(s: &'a Snapshot, name: &str) -> &'a ClusterState {
        s.clusters.iter().find(|x| x.cluster == name).unwrap()
    }

    fn total(c: Counts) -> usize {
        c.done + c.updating + c.waiting + c.pending + c.failed
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn staged_at_nine_oh_one() {
        let plan = staged();
        let s = snapshot(&plan, t("09:01"));
        let m1 = cluster(&s, "member1");
        assert_eq!(m1.state, ClusterActivity::Updating);
        assert_eq!(
            m1.reason,
            "updating since 09:00Z (maxConcurrency 1); done at 09:03Z"
        );
        assert_eq!(m1.stage, "staging");
        let st = stage(&s, "staging");
        assert_eq!(st.state, StageActivity::Updating);
        assert_eq!(
            st.reason,
            "updating since 09:00Z (maxConcurrency 1): 0 done, 1 updating, 0 waiting"
        );
        assert_eq!(stage(&s, "canary").state, StageActivity::NotStarted);
        assert_eq!(
            stage(&s, "canary").reason,
            "not started: stage staging comes first"
        );
        assert_eq!(
            cluster(&s, "member3").reason,
            "pending: stage production has not started"
        );
        assert_eq!(
            s.counts,
            Counts {
                done: 0,
                updating: 1,
                waiting: 0,
                pending: 6,
                failed: 0
            }
        );
        assert_eq!(counts(&plan, t("09:01")), s.counts);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn staged_soaks_then_waits_for_approvals() {
        let plan = staged();
        let s = snapshot(&plan, t("09:30"));
        assert_eq!(stage(&s, "staging").state, StageActivity::TimedWait);
        assert_eq!(
            stage(&s, "staging").reason,
            "soaking: TimedWait 1h until 10:03Z"
        );
        assert_eq!(cluster(&s, "member1").reason, "updated 09:00Z–09:03Z");

        let s = snapshot(&plan, t("10:20"));
        let canary = stage(&s, "canary");
        assert_eq!(canary.state, StageActivity::WaitingForApproval);
        assert_eq!(
            canary.reason,
            "waiting for approval example-run-after-canary"
        );
        assert_eq!(stage(&s, "staging").reason, "done at 10:03Z");

        let s = snapshot(&plan, t("10:40"));
        let prod = stage(&s, "production");
        assert_eq!(prod.state, StageActivity::WaitingForApproval);
        assert_eq!(
            prod.reason,
            "waiting for approval example-run-before-production"
        );
        assert_eq!(
            cluster(&s, "member5").reason,
            "waiting: stage production waits for approval example-run-before-production; starts at 11:09Z"
        );
        assert_eq!(s.counts.waiting, 5);
        assert_eq!(s.counts.done, 2);

        // After updating, the approval and the TimedWait run side by side; the approval is named first.
        let s = snapshot(&plan, t("11:20"));
        assert_eq!(
            stage(&s, "production").reason,
            "waiting for approval example-run-after-production; soaking: TimedWait 1h until 12:15Z"
        );
        let s = snapshot(&plan, t("11:50"));
        assert_eq!(stage(&s, "production").state, StageActivity::TimedWait);
        assert_eq!(
            stage(&s, "production").reason,
            "soaking: TimedWait 1h until 12:15Z"
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn staged_production_updates_two_at_a_time() {
        let plan = staged();
        let s = snapshot(&plan, t("11:07"));
        assert_eq!(
            stage(&s, "production").reason,
            "updating since 11:06Z (maxConcurrency 2): 0 done, 2 updating, 3 waiting"
        );
        assert_eq!(
            cluster(&s, "member4").reason,
            "updating since 11:06Z (maxConcurrency 2); done at 11:09Z"
        );
        assert_eq!(
            cluster(&s, "member7").reason,
            "waiting for a slot: maxConcurrency 2, 2 updating; starts at 11:12Z"
        );
        // Half-open intervals: at 11:09 member3 and member4 are done and member5, member6 start.
        let s = snapshot(&plan, t("11:09"));
        assert_eq!(cluster(&s, "member3").state, ClusterActivity::Done);
        assert_eq!(cluster(&s, "member5").state, ClusterActivity::Updating);
        assert_eq!(
            s.counts,
            Counts {
                done: 4,
                updating: 2,
                waiting: 1,
                pending: 0,
                failed: 0
            }
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn staged_is_done_at_twelve_thirty() {
        let plan = staged();
        let s = snapshot(&plan, t("12:30"));
        assert!(s.stages.iter().all(|x| x.state == StageActivity::Done));
        assert!(s.clusters.iter().all(|x| x.state == ClusterActivity::Done));
        assert_eq!(s.counts.done, 7);
        assert_eq!(stage(&s, "production").reason, "done at 12:15Z");
        assert_eq!(events_until(&plan, t("12:30")), plan.events.len());

        let before = snapshot(&plan, t("08:00"));
        assert_eq!(before.counts.pending, 7);
        assert_eq!(
            stage(&before, "staging").reason,
            "not started: the run starts at 09:00Z"
        );
        assert_eq!(events_until(&plan, t("08:00")), 0);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn events_until_is_an_index_bound() {
        let plan = staged();
        for e in &plan.events {
            let n = events_until(&plan, e.at);
            assert!(plan.events[..n].iter().all(|x| x.at <= e.at));
            assert!(plan.events[n..].iter().all(|x| x.at > e.at));
        }
        let n = events_until(&plan, t("10:20"));
        assert_eq!(plan.events[n - 1].reason, "ApprovalRequestCreated");
        assert_eq!(events_until(&plan, Time(i64::MIN)), 0);
        assert_eq!(events_until(&plan, Time(i64::MAX)), plan.events.len());
    }

    const FAILING: &str = r#"
name: failing
start: 2026-11-23T09:00:00Z
clusters:
  - {name: a1, labels: {env: a}}
  - {name: b1, labels: {env: b}}
  - {name: b2, labels: {env: b}}
  - {name: b3, labels: {env: b}}
  - {name: c1, labels: {env: c}}
strategy:
  kind: kubefleet-staged
  run: r
  placement: p
  stages:
    - {name: first, labelSelector: {matchLabels: {env: a}}}
    - {name: second, labelSelector: {matchLabels: {env: b}}, maxConcurrency: 2}
    - {name: empty, labelSelector: {matchLabels: {env: nobody}}}
    - {name: third, labelSelector: {matchLabels: {env: c}}}
assumptions:
  updateDuration: 10m
  failures: [{cluster: b2, after: 4m, preempted: true}]
"#;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_preempted_run_aborts_and_untracks() {
        let plan = plan_of(FAILING);
        assert_eq!(plan.outcome, Outcome::Failed);
        // b1 and b2 start at 09:10; b2 fails at 09:14; b1 carries on, untracked, until 09:20.
        let s = snapshot(&plan, t("09:12"));
        assert_eq!(cluster(&s, "b2").state, ClusterActivity::Updating);
        assert_eq!(
            cluster(&s, "b2").reason,
            "updating since 09:10Z (maxConcurrency 2); assumed to fail at 09:14Z"
        );
        let s = snapshot(&plan, t("09:15"));
        assert_eq!(cluster(&s, "b2").state, ClusterActivity::Failed);
        assert_eq!(
            cluster(&s, "b2").reason,
            "update failed at 09:14Z; the run aborted, nothing is rolled back"
        );
        assert_eq!(cluster(&s, "b1").state, ClusterActivity::Untracked);
        assert_eq!(
            cluster(&s, "b1").reason,
            "still updating on its own, untracked: the run aborted at 09:14Z"
        );
        assert_eq!(stage(&s, "second").state, StageActivity::Failed);
        assert_eq!(
            stage(&s, "second").reason,
            "failed at 09:14Z: cluster b2 failed and the run aborted"
        );
        assert_eq!(
            stage(&s, "third").reason,
            "never starts: the run failed at 09:14Z"
        );
        assert_eq!(
            cluster(&s, "c1").reason,
            "never updated: the run failed at 09:14Z"
        );
        assert_eq!(
            cluster(&s, "b3").reason,
            "never updated: the run failed at 09:14Z"
        );
        assert_eq!(
            s.counts,
            Counts {
                done: 1,
                updating: 1,
                waiting: 0,
                pending: 2,
                failed: 1
            }
        );
        let s = snapshot(&plan, t("09:30"));
        assert_eq!(
            cluster(&s, "b1").reason,
            "finished on its own at 09:20Z, untracked: the run aborted at 09:14Z"
        );
        assert_eq!(s.counts.done, 2);
        assert_eq!(counts(&plan, t("09:30")), s.counts);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_failed_cluster_holds_its_slot_and_the_stage_never_finishes() {
        // KubeFleet retries a failed binding forever (execution.go checkClusterUpdateResult): b2 fails
        // at 09:14 and keeps one of the two slots; b1 ends at 09:20 and b3 takes its slot until 09:30;
        // the stage never finishes and `third` never starts.
        let plan = plan_of(&FAILING.replace(", preempted: true", ""));
        assert_eq!(plan.outcome, Outcome::Blocked);
        let s = snapshot(&plan, t("09:25"));
        assert_eq!(cluster(&s, "b2").state, ClusterActivity::Failed);
        assert_eq!(
            cluster(&s, "b2").reason,
            "failed at 09:14Z; retried by the controller, holding a maxConcurrency slot: stage second cannot finish"
        );
        assert_eq!(cluster(&s, "b3").state, ClusterActivity::Updating);
        assert_eq!(stage(&s, "second").state, StageActivity::Updating);
        assert_eq!(
            stage(&s, "second").reason,
            "updating since 09:10Z (maxConcurrency 2): 1 done, 1 updating, 0 waiting; b2 failed, retried (holds a maxConcurrency slot): the stage cannot finish"
        );
        let s = snapshot(&plan, t("12:00"));
        assert_eq!(stage(&s, "third").state, StageActivity::NotStarted);
        assert_eq!(
            s.counts,
            Counts {
                done: 3,
                updating: 0,
                waiting: 0,
                pending: 1,
                failed: 1
            }
        );
    }

    const STOPPED: &str = r#"
name: stopped
start: 2026-11-23T09:00:00Z
clusters:
  - {name: x1, labels: {env: x}}
  - {name: x2, labels: {env: x}}
  - {name: y1, labels: {env: y}}
strategy:
  kind: kubefleet-staged
  run: r
  placement: p
  stages:
    - {name: xs, labelSelector: {matchLabels: {env: x}}}
    - {name: ys, labelSelector: {matchLabels: {env: y}}}
    - {name: none, labelSelector: {matchLabels: {env: z}}}
assumptions:
  updateDuration: 10m
  stops: [{at: 2026-11-23T09:05:00Z, resume: 2026-11-24T08:00:00Z}]
"#;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_stopped_run_says_so() {
        let plan = plan_of(STOPPED);
        let s = snapshot(&plan, t("09:06"));
        let xs = stage(&s, "xs");
        assert_eq!(xs.state, StageActivity::Stopped);
        assert!(
            xs.reason
                .starts_with("run stopped at 09:05Z, resumes at 2026-11-24 08:00Z"),
            "{}",
            xs.reason
        );
        assert_eq!(xs.reason, "run stopped at 09:05Z, resumes at 2026-11-24 08:00Z; 1 update(s) already under way finish");
        assert_eq!(cluster(&s, "x1").state, ClusterActivity::Updating);
        assert!(
            cluster(&s, "x2").reason.starts_with("waiting: run stopped"),
            "{}",
            cluster(&s, "x2").reason
        );
        assert_eq!(s.counts.waiting, 1);
        let late = Time::parse("2026-11-24T12:00:00Z").unwrap();
        let s = snapshot(&plan, late);
        assert_eq!(stage(&s, "none").state, StageActivity::Skipped);
        assert!(s
            .stages
            .iter()
            .all(|x| matches!(x.state, StageActivity::Done | StageActivity::Skipped)));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn every_example_at_every_event_is_consistent() {
        for e in examples::all() {
            let plan = plan_of(e.text);
            let n: usize = plan.stages.iter().map(|s| s.clusters.len()).sum();
            let mut instants: Vec<Time> = plan.events.iter().map(|e| e.at).collect();
            instants.dedup();
            instants.extend([Time(i64::MIN), Time(i64::MAX), Time(0)]);
            for at in instants.into_iter().step_by(7) {
                let s = snapshot(&plan, at);
                assert_eq!(s.clusters.len(), n, "{}", e.name);
                assert_eq!(s.stages.len(), plan.stages.len());
                assert_eq!(total(s.counts), n, "{} at {at}", e.name);
                assert_eq!(counts(&plan, at), s.counts, "{} at {at}", e.name);
                assert!(s.stages.iter().all(|x| !x.reason.is_empty()));
                assert!(s.clusters.iter().all(|x| !x.reason.is_empty()));
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn snapshots_serialize_in_camel_case() {
        let s = snapshot(&staged(), t("10:20"));
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(v["at"], "2026-11-23T10:20:00Z");
        assert_eq!(v["stages"][1]["state"], "waitingForApproval");
        assert_eq!(v["clusters"][2]["state"], "pending");
        assert_eq!(v["counts"]["done"], 2);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn damaged_plans_do_not_panic() {
        let mut plan = staged();
        // Out-of-order and missing times, as a hand-edited or future plan might have.
        plan.stages[0].clusters[0].end = Some(Time(0));
        plan.stages[1].clusters[0].start = None;
        plan.stages[2].phases.clear();
        plan.stages[2].end = None;
        plan.events.reverse();
        for at in [Time(i64::MIN), Time(0), t("11:00"), Time(i64::MAX)] {
            let s = snapshot(&plan, at);
            assert_eq!(total(s.counts), 7);
            let _ = events_until(&plan, at);
        }
    }
}
