//! The rolling update as the rollout controller runs it: a reconcile round at the start and whenever
//! a binding changes (applied and available, removed), each round choosing bindings with the
//! controller's formulas ([`super::rounds`]), driven by the event queue. Rounds repeat at the same
//! instant until one moves nothing, as the controller's own binding writes trigger the next reconcile.

use std::collections::VecDeque;

use crate::engine::EventQueue;
use crate::plan::rolling::AvailabilityPoint;
use crate::plan::{Counted, Events, Labels, Name, NameId, Phase, PhaseKind};
use crate::rolling::availability::Profile;
use crate::rolling::rounds::{self, Action, Counts, Move, Round};
use crate::time::{Duration, Time};

/// Where a binding stands in the scheduler's eyes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindingState {
    /// Newly picked, not yet bound: a candidate to add.
    Scheduled,
    /// Placed on its cluster.
    Bound,
    /// No longer picked: a candidate to remove; it keeps serving until it is deleted.
    Unscheduled,
}

#[derive(Clone, Debug)]
pub struct Binding {
    /// Moves into the cluster's row when the plan is made.
    pub cluster: Name,
    pub fleet_index: Option<usize>,
    pub state: BindingState,
    /// Points at the latest resources.
    pub up_to_date: bool,
    pub ready: bool,
    /// Its current resources failed to apply.
    pub failed: bool,
    pub deleting: bool,
    pub gone: bool,
    /// The new resources never become available on it (a failure assumption came true).
    pub never_ready: bool,
    /// ReportDiff: its DiffReported condition is current (whatever its status). Such a binding is
    /// left out of canBeReady (controller.go `IsBindingDiffReported`).
    pub diff_reported: bool,
    /// What the rollout did to it, if anything.
    pub moved: Option<Action>,
    pub phases: Vec<Phase>,
    /// Resumed from a status while rolling: when it becomes ready (the resume module sets it).
    pub ready_at: Option<Time>,
}

impl Binding {
    pub fn new(cluster: Name, fleet_index: Option<usize>, state: BindingState) -> Binding {
        Binding {
            cluster,
            fleet_index,
            state,
            up_to_date: false,
            ready: false,
            failed: false,
            deleting: false,
            gone: false,
            never_ready: false,
            diff_reported: false,
            moved: None,
            phases: Vec::new(),
            ready_at: None,
        }
    }

    /// On the latest resources and ready, or gone: nothing left to do for it.
    pub fn settled(&self) -> bool {
        match self.state {
            BindingState::Unscheduled => self.gone,
            BindingState::Scheduled => false,
            BindingState::Bound => self.up_to_date && self.ready,
        }
    }
}

/// How long things take and what fails, resolved per binding by the caller.
pub struct Durations<'a> {
    pub apply: Duration,
    pub delete: Duration,
    pub unavailable_period: Duration,
    pub profile: &'a Profile,
    /// Time from applied to available for trackable workloads, per binding index.
    pub available_after: Vec<Duration>,
    /// The new resources never become available on these binding indexes.
    pub never_available: Vec<bool>,
    /// The apply strategy is ReportDiff: nothing is applied, a binding is ready once its diff is
    /// reported (at the end of `apply`), whatever the resources' kinds.
    pub report_diff: bool,
    /// ReportDiff: how much later than the apply each binding's diff is reported (a failed report
    /// that recovers), per binding index.
    pub report_late: Vec<Duration>,
}

pub struct Simulation {
    /// Available clusters before the first round (the state the change starts from).
    pub available_before: usize,
    pub bindings: Vec<Binding>,
    pub rounds: Vec<Round>,
    pub availability: Vec<AvailabilityPoint>,
    pub events: Events,
    /// The texts the bindings' bars name.
    pub labels: Labels,
    /// When the last thing happened.
    pub last: Time,
    /// The counts after the last round, for explaining a stall.
    pub counts: Counts,
    pub max_to_remove: i64,
    pub max_to_add: i64,
}

enum Ev {
    Ready(usize),
    Gone(usize),
    /// ReportDiff: the binding's DiffReported condition is current (True, or False when it fails).
    DiffReported(usize),
}

/// Whether a binding counts in canBeReady: placed, not failed, and (ReportDiff) without a current
/// diff report (controller.go `pickBindingsToRoll`).
fn counted(b: &Binding) -> bool {
    b.state != BindingState::Scheduled && !b.failed && !b.diff_reported
}

struct Sim<'a> {
    b: Vec<Binding>,
    d: &'a Durations<'a>,
    max_unavailable: i64,
    max_surge: i64,
    counts: Counts,
    placed: usize,
    apply_failed: VecDeque<usize>,
    updates: VecDeque<usize>,
    removes: VecDeque<usize>,
    adds: VecDeque<usize>,
    queue: EventQueue<Ev>,
    rounds: Vec<Round>,
    events: Events,
    /// Each binding's cluster in the events' name table, added with its first event: a rollout
    /// writes three or four events per cluster, which then share one name instead of a copy each.
    cluster_ids: Vec<Option<NameId>>,
    /// The phase labels every rolled cluster carries, made once and shared.
    labels: BarLabels,
    /// The texts the bars name.
    table: Labels,
}

/// Phase labels the same for every binding of a rollout, in the bars' table once each.
struct BarLabels {
    removing: NameId,
    reporting: NameId,
    placing: NameId,
    applying: NameId,
    never_reported: NameId,
    report_failed: NameId,
    /// `waiting for Deployment availability` and `never becomes available (…)`, when there are
    /// trackable workloads.
    workload: Option<(NameId, NameId)>,
    /// `unavailablePeriodSeconds …s (… not trackable)`, when some kinds cannot be tracked.
    untrackable: Option<NameId>,
}

impl BarLabels {
    fn new(d: &Durations<'_>, table: &mut Labels) -> BarLabels {
        BarLabels {
            removing: table.add("removing the placed resources"),
            reporting: table.add("reporting the diff"),
            placing: table.add("placing the resources"),
            applying: table.add("applying the new resources"),
            never_reported: table.add("the diff is never reported (DiffReported=False)"),
            report_failed: table.add("the diff report failed; reported once it recovers"),
            workload: (!d.profile.workloads.is_empty()).then(|| {
                let label = d.profile.workload_label();
                let never = format!("never becomes available ({label})");
                (table.add(label), table.add(never))
            }),
            untrackable: (!d.profile.untrackable.is_empty()).then(|| {
                table.add(format!(
                    "unavailablePeriodSeconds {}s ({} not trackable)",
                    d.unavailable_period.0 / 1000,
                    d.profile.untrackable.join(", ")
                ))
            }),
        }
    }
}

/// Runs the rollout from `start`. `bindings` must be sorted by cluster name (the controller sorts
/// bindings by name, and binding names start with the cluster's).
pub fn simulate(
    bindings: Vec<Binding>,
    target: usize,
    max_unavailable: i64,
    max_surge: i64,
    d: &Durations<'_>,
    start: Time,
    mut table: Labels,
) -> Simulation {
    let mut sim = Sim {
        counts: Counts {
            target,
            ..Counts::default()
        },
        placed: 0,
        b: bindings,
        d,
        max_unavailable,
        max_surge,
        apply_failed: VecDeque::new(),
        updates: VecDeque::new(),
        removes: VecDeque::new(),
        adds: VecDeque::new(),
        queue: EventQueue::default(),
        rounds: Vec::new(),
        events: Events::default(),
        cluster_ids: Vec::new(),
        labels: BarLabels::new(d, &mut table),
        table,
    };
    sim.cluster_ids = vec![None; sim.b.len()];
    sim.classify();
    for (i, b) in sim.b.iter().enumerate() {
        if let Some(t) = b.ready_at {
            sim.queue.push(t.max(start), Ev::Ready(i));
        }
    }
    let available_before = sim.available();
    let mut availability = vec![AvailabilityPoint {
        at: start,
        available: sim.available(),
        placed: sim.placed,
    }];
    let mut last = start;
    let mut now = start;
    loop {
        while sim.round(now) {}
        let point = AvailabilityPoint {
            at: now,
            available: sim.available(),
            placed: sim.placed,
        };
        // Rounds at an instant take effect at that instant: the line keeps one value per time.
        let same = |a: &AvailabilityPoint, b: &AvailabilityPoint| {
            (a.available, a.placed) == (b.available, b.placed)
        };
        match availability.last_mut() {
            Some(p) if p.at == now => *p = point,
            Some(p) if same(p, &point) => {}
            _ => availability.push(point),
        }
        let n = availability.len();
        if n >= 2 && same(&availability[n - 2], &availability[n - 1]) {
            availability.pop();
        }
        let Some(next) = sim.queue.next_time() else {
            break;
        };
        now = next;
        last = next;
        while sim.queue.next_time() == Some(now) {
            if let Some((_, ev)) = sim.queue.pop() {
                sim.handle(now, ev);
            }
        }
    }
    let max_to_remove = rounds::max_to_remove(&sim.counts, max_unavailable);
    let max_to_add = rounds::max_to_add(&sim.counts, max_surge);
    // Events were pushed per binding; the log reads in time order (stable, so causes stay first).
    crate::sort::sort_by_key(&mut sim.events, |e| e.at);
    Simulation {
        available_before,
        bindings: sim.b,
        rounds: sim.rounds,
        availability,
        events: sim.events,
        labels: sim.table,
        last,
        counts: sim.counts,
        max_to_remove,
        max_to_add,
    }
}

/// A move's reasons: every cluster the rollout moves has one, with its round's counts, kept as parts
/// and numbers ([`Counted`]) and written only when shown (the move and its `RolloutStarted` event).
const FAILED_BEFORE: &[&str] =
    &["failed to apply before: re-applied first, outside maxUnavailable"];
const REMOVAL: &[&str] = &["no longer picked: removal ", " of maxToRemove ", ""];
const UPDATE: &[&str] = &["in-place update ", " of maxToRemove ", ""];
const ADD: &[&str] = &["newly picked: ", " of maxToAdd ", " (maxSurge ", ")"];

impl Sim<'_> {
    /// The initial classification of every binding into counts and candidate lists (in name order).
    /// Candidates never return to a list once moved, so later rounds only pop from the front.
    fn classify(&mut self) {
        let report_diff = self.d.report_diff;
        for (i, b) in self.b.iter_mut().enumerate() {
            // Under ReportDiff the placed bindings have reported the diff of what they point at.
            b.diff_reported = report_diff && b.state != BindingState::Scheduled && !b.failed;
            if b.state != BindingState::Scheduled {
                self.placed += 1;
            }
            if b.ready {
                self.counts.ready += 1;
            }
            if counted(b) {
                self.counts.can_be_ready += 1;
            }
            match b.state {
                BindingState::Scheduled => self.adds.push_back(i),
                BindingState::Bound => {
                    if !b.up_to_date {
                        if b.failed {
                            self.apply_failed.push_back(i);
                        } else {
                            self.updates.push_back(i);
                        }
                    }
                }
                BindingState::Unscheduled => self.removes.push_back(i),
            }
        }
    }

    /// Binding `i`'s cluster in the events' name table (added the first time).
    fn cluster_id(&mut self, i: usize) -> NameId {
        if let Some(id) = self.cluster_ids[i] {
            return id;
        }
        let id = self.events.name(self.b[i].cluster.clone());
        self.cluster_ids[i] = Some(id);
        id
    }

    /// Ready bindings not being deleted: what the controller can count on, and the line in the chart.
    fn available(&self) -> usize {
        self.counts.ready - self.counts.can_be_unavailable
    }

    /// One reconcile. Returns whether it moved anything.
    fn round(&mut self, now: Time) -> bool {
        let counts = self.counts;
        let max_to_remove = rounds::max_to_remove(&counts, self.max_unavailable);
        let max_to_add = rounds::max_to_add(&counts, self.max_surge);
        let mut moves: Vec<(usize, Action, Counted)> = Vec::new();
        // Failed-to-apply bindings cannot make availability worse: they always go, outside the budget.
        while let Some(i) = self.apply_failed.pop_front() {
            moves.push((i, Action::Update, Counted::new(FAILED_BEFORE, &[])));
        }
        let mut budget = 0i64;
        while budget < max_to_remove {
            let Some(i) = self.removes.pop_front() else {
                break;
            };
            budget += 1;
            moves.push((
                i,
                Action::Remove,
                Counted::new(REMOVAL, &[budget, max_to_remove]),
            ));
        }
        while budget < max_to_remove {
            let Some(i) = self.updates.pop_front() else {
                break;
            };
            budget += 1;
            moves.push((
                i,
                Action::Update,
                Counted::new(UPDATE, &[budget, max_to_remove]),
            ));
        }
        let mut added = 0i64;
        while added < max_to_add {
            let Some(i) = self.adds.pop_front() else {
                break;
            };
            added += 1;
            moves.push((
                i,
                Action::Add,
                Counted::new(ADD, &[added, max_to_add, self.max_surge]),
            ));
        }
        if moves.is_empty() {
            return false;
        }
        let mut moved = Vec::with_capacity(moves.len());
        for (i, action, why) in moves {
            match action {
                Action::Remove => self.remove(now, i),
                Action::Update | Action::Add => self.roll(now, i, action, why),
            }
            moved.push(Move {
                cluster: self.b[i].cluster.clone(),
                action,
                why,
            });
        }
        self.rounds.push(Round {
            at: now,
            counts,
            max_to_remove,
            max_to_add,
            moved,
        });
        true
    }

    fn remove(&mut self, now: Time, i: usize) {
        let b = &mut self.b[i];
        b.deleting = true;
        b.moved = Some(Action::Remove);
        if b.ready {
            self.counts.can_be_unavailable += 1;
        }
        let end = now.plus(self.d.delete);
        b.phases.push(Phase {
            kind: PhaseKind::Remove,
            start: now,
            end: Some(end),
            label: self.labels.removing,
            version: None,
        });
        self.queue.push(end, Ev::Gone(i));
    }

    /// An in-place update or an add: apply, then wait for availability as the resources allow.
    fn roll(&mut self, now: Time, i: usize, action: Action, why: Counted) {
        let d = self.d;
        let cluster = Some(self.cluster_id(i));
        let labels = &self.labels;
        let b = &mut self.b[i];
        if b.ready {
            b.ready = false;
            self.counts.ready -= 1;
        }
        let was_counted = counted(b);
        // A new generation: failures and reported diffs of the old one no longer count.
        b.failed = false;
        b.diff_reported = false;
        if action == Action::Add {
            b.state = BindingState::Bound;
            self.placed += 1;
        }
        if !was_counted {
            self.counts.can_be_ready += 1;
        }
        b.up_to_date = true;
        b.moved = Some(action);
        self.events
            .push_ids(now, "RolloutStarted", None, cluster, why.into());
        let applied = now.plus(d.apply);
        b.phases.push(Phase {
            kind: if action == Action::Add {
                PhaseKind::Add
            } else {
                PhaseKind::Update
            },
            start: now,
            end: Some(applied),
            label: match (action, d.report_diff) {
                (_, true) => labels.reporting,
                (Action::Add, _) => labels.placing,
                _ => labels.applying,
            },
            version: None,
        });
        if !d.report_diff {
            self.events.push_ids(
                applied,
                "AllWorkHaveBeenApplied",
                None,
                cluster,
                "the resources were applied".into(),
            );
        }
        if d.report_diff {
            // isBindingReady: DiffReported=True is ready at once, trackable or not.
            if d.never_available[i] {
                b.never_ready = true;
                b.phases.push(Phase {
                    kind: PhaseKind::AvailabilityWait,
                    start: applied,
                    end: None,
                    label: labels.never_reported,
                    version: None,
                });
            } else {
                // A report that failed and recovers (DiffReported=False, then True) comes late.
                let late = d.report_late[i];
                let reported = applied.plus(late);
                if late.0 > 0 {
                    b.phases.push(Phase {
                        kind: PhaseKind::AvailabilityWait,
                        start: applied,
                        end: Some(reported),
                        label: labels.report_failed,
                        version: None,
                    });
                }
                self.events.push_ids(
                    reported,
                    "DiffReportingCompleted",
                    None,
                    cluster,
                    "the diff was reported (apply strategy ReportDiff)".into(),
                );
                self.queue.push(reported, Ev::Ready(i));
            }
            // Reported (True or False), the condition is current from the apply on.
            self.queue.push(applied, Ev::DiffReported(i));
            return;
        }
        let mut t = applied;
        if let Some((label, never)) = labels.workload {
            if d.never_available[i] {
                b.never_ready = true;
                b.phases.push(Phase {
                    kind: PhaseKind::AvailabilityWait,
                    start: t,
                    end: None,
                    label: never,
                    version: None,
                });
                return;
            }
            let end = t.plus(d.available_after[i]);
            b.phases.push(Phase {
                kind: PhaseKind::AvailabilityWait,
                start: t,
                end: Some(end),
                label,
                version: None,
            });
            t = end;
        }
        if let Some(label) = labels.untrackable {
            let end = t.plus(d.unavailable_period);
            b.phases.push(Phase {
                kind: PhaseKind::AvailabilityWait,
                start: t,
                end: Some(end),
                label,
                version: None,
            });
            t = end;
        } else {
            self.events.push_ids(
                t,
                "AllWorkAreAvailable",
                None,
                cluster,
                "the resources are available".into(),
            );
        }
        self.queue.push(t, Ev::Ready(i));
    }

    fn handle(&mut self, _now: Time, ev: Ev) {
        match ev {
            Ev::Ready(i) => {
                let b = &mut self.b[i];
                if !b.ready && !b.gone {
                    b.ready = true;
                    self.counts.ready += 1;
                }
            }
            Ev::DiffReported(i) => {
                let b = &mut self.b[i];
                if counted(b) {
                    self.counts.can_be_ready -= 1;
                }
                b.diff_reported = true;
            }
            Ev::Gone(i) => {
                let b = &mut self.b[i];
                if b.ready {
                    self.counts.ready -= 1;
                    self.counts.can_be_unavailable -= 1;
                }
                if counted(b) {
                    self.counts.can_be_ready -= 1;
                }
                b.ready = false;
                b.gone = true;
                self.placed -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_moves_reason_writes_its_numbers_in_decimal_with_a_minus_sign_when_negative() {
        // Written by hand: the counts as decimal digits, a minus sign before negative ones.
        assert_eq!(
            Counted::new(UPDATE, &[3, 120]).to_string(),
            "in-place update 3 of maxToRemove 120"
        );
        assert_eq!(
            Counted::new(ADD, &[0, -7, 2]).to_string(),
            "newly picked: 0 of maxToAdd -7 (maxSurge 2)"
        );
        assert_eq!(
            Counted::new(REMOVAL, &[i64::MIN, i64::MAX]).to_string(),
            "no longer picked: removal -9223372036854775808 of maxToRemove 9223372036854775807"
        );
        assert_eq!(
            Counted::new(FAILED_BEFORE, &[]).to_string(),
            "failed to apply before: re-applied first, outside maxUnavailable"
        );
    }
}
