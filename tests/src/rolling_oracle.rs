//! An independent reference model of KubeFleet's rollout controller, written from its rules
//! (`pkg/controllers/rollout/controller.go`: `pickBindingsToRoll`, `determineBindingsToUpdate`,
//! `calculateMaxToRemove`, `calculateMaxToAdd`, `calculateRealTarget`, `isBindingReady`) and the
//! work applier's availability classes, not from fleetplan's planner. It shares no code with the
//! planner: it schedules clusters itself, recomputes every count from the bindings at each round
//! instead of keeping running totals, and keeps its own event list.
//!
//! The property test describes a case with [`Case`], renders it as a scenario for the planner, runs
//! [`run`] on the same case and compares the two round by round.

use std::collections::BTreeMap;

/// Clusters are `c0, c1, …` with a `loc` label.
#[derive(Clone, Debug)]
pub struct Case {
    pub clusters: Vec<(String, &'static str)>,
    pub policy: Policy,
    /// The policy before the change (`None`: the same as `policy`).
    pub from: Option<Policy>,
    pub max_unavailable: IntOrPct,
    pub max_surge: IntOrPct,
    pub unavailable_period_s: i64,
    pub resources: Resources,
    pub report_diff: bool,
    /// A new resource snapshot (in-place updates of clusters that stay picked).
    pub update: bool,
    pub failed_to_apply: Vec<String>,
    pub apply_s: i64,
    pub delete_s: i64,
    /// Seconds from applied to available, per cluster (trackable workloads).
    pub available_s: BTreeMap<String, i64>,
    /// Clusters whose new resources fail; `Some(s)`: they become available `s` seconds late.
    pub failures: BTreeMap<String, Option<i64>>,
}

#[derive(Clone, Debug)]
pub enum Policy {
    /// PickAll, with a required `loc` affinity or none.
    All(Option<&'static str>),
    /// PickN `n` among clusters whose `loc` is one of these.
    N(i64, Vec<&'static str>),
    /// PickFixed these names.
    Fixed(Vec<String>),
}

#[derive(Clone, Copy, Debug)]
pub enum IntOrPct {
    Int(i64),
    Pct(i64),
}

impl IntOrPct {
    /// intstr.GetScaledValueFromIntOrPercent(v, n, roundUp = true).
    pub fn scaled(self, n: i64) -> i64 {
        match self {
            IntOrPct::Int(i) => i,
            IntOrPct::Pct(p) => (p * n + 99) / 100,
        }
    }
}

/// Which kinds are placed, by the work applier's classes.
#[derive(Clone, Copy, Debug)]
pub enum Resources {
    /// A Deployment: available when the workload is.
    Workload,
    /// A Job: not trackable, ready unavailablePeriodSeconds after it was applied.
    Untrackable,
    /// ConfigMap and Secret: available once applied.
    Data,
    /// A Deployment and an Ingress: the workload, then the period.
    WorkloadAndUntrackable,
}

impl Resources {
    pub fn yaml(self) -> &'static str {
        match self {
            Resources::Workload => "[Deployment]",
            Resources::Untrackable => "[Job]",
            Resources::Data => "[ConfigMap, Secret]",
            Resources::WorkloadAndUntrackable => "[Deployment, Ingress]",
        }
    }
    fn tracked(self) -> bool {
        matches!(
            self,
            Resources::Workload | Resources::WorkloadAndUntrackable
        )
    }
    fn untrackable(self) -> bool {
        matches!(
            self,
            Resources::Untrackable | Resources::WorkloadAndUntrackable
        )
    }
}

/// What the oracle says one round does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OracleRound {
    pub at_ms: i64,
    pub target: i64,
    pub ready: i64,
    pub can_be_unavailable: i64,
    pub can_be_ready: i64,
    pub max_to_remove: i64,
    pub max_to_add: i64,
    /// (`remove` / `update` / `add`, cluster) in the controller's order.
    pub moved: Vec<(&'static str, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub rounds: Vec<OracleRound>,
    /// (ms, available, placed) after the rounds of each instant, one value per change.
    pub line: Vec<(i64, i64, i64)>,
    /// Every picked cluster on the new resources and ready, every other emptied.
    pub settled: bool,
    pub last_ms: i64,
    /// N − maxUnavailable.
    pub min_available: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Scheduled,
    Bound,
    Unscheduled,
}

#[derive(Clone, Debug)]
struct B {
    name: String,
    state: State,
    latest: bool,
    ready: bool,
    failed: bool,
    deleting: bool,
    gone: bool,
    diff_reported: bool,
}

#[derive(Clone, Copy, Debug)]
enum Ev {
    /// The binding's new resources are applied (ReportDiff: its diff is reported).
    Applied(usize),
    Ready(usize),
    Gone(usize),
}

/// The clusters a policy picks, by name: `calculateRealTarget`'s inputs and the scheduler's choice
/// (PickN: the first matching names, fleetplan's stated assumption).
fn picks(case: &Case, policy: &Policy) -> Vec<String> {
    let mut names: Vec<String> = match policy {
        Policy::All(loc) => case
            .clusters
            .iter()
            .filter(|(_, l)| loc.is_none_or(|x| x == *l))
            .map(|(n, _)| n.clone())
            .collect(),
        Policy::N(n, locs) => {
            let mut m: Vec<String> = case
                .clusters
                .iter()
                .filter(|(_, l)| locs.contains(l))
                .map(|(n, _)| n.clone())
                .collect();
            m.sort();
            m.truncate((*n).max(0) as usize);
            m
        }
        Policy::Fixed(list) => list
            .iter()
            .filter(|n| case.clusters.iter().any(|(c, _)| c == *n))
            .cloned()
            .collect(),
    };
    names.sort();
    names.dedup();
    names
}

fn target(case: &Case, picked: usize) -> i64 {
    match &case.policy {
        Policy::All(_) => picked as i64,
        Policy::N(n, _) => *n,
        Policy::Fixed(list) => list.len() as i64,
    }
}

/// Runs the rollout the case describes.
pub fn run(case: &Case) -> Outcome {
    let now_picked = picks(case, &case.policy);
    let before_picked = picks(case, case.from.as_ref().unwrap_or(&case.policy));
    let mut all: Vec<String> = now_picked.iter().chain(&before_picked).cloned().collect();
    all.sort();
    all.dedup();
    let mut b: Vec<B> = all
        .iter()
        .map(|name| {
            let (now, then) = (now_picked.contains(name), before_picked.contains(name));
            let state = match (then, now) {
                (true, true) => State::Bound,
                (true, false) => State::Unscheduled,
                _ => State::Scheduled,
            };
            let failed = state != State::Scheduled && case.failed_to_apply.contains(name);
            B {
                name: name.clone(),
                state,
                latest: state != State::Scheduled && !case.update,
                ready: state != State::Scheduled && !failed,
                failed,
                deleting: false,
                gone: false,
                diff_reported: case.report_diff && state != State::Scheduled && !failed,
            }
        })
        .collect();
    let n = target(case, now_picked.len());
    let max_unavailable = case.max_unavailable.scaled(n);
    let max_surge = case.max_surge.scaled(n);
    let mut events: Vec<(i64, usize, Ev)> = Vec::new();
    let mut seq = 0usize;
    let mut rounds = Vec::new();
    let mut line: Vec<(i64, i64, i64)> = Vec::new();
    let mut now = 0i64;
    let mut last = 0i64;
    loop {
        // Rounds until one moves nothing (each binding write triggers the next reconcile).
        loop {
            let live = |x: &B| !x.gone;
            let ready = b.iter().filter(|x| live(x) && x.ready).count() as i64;
            let cbu = b
                .iter()
                .filter(|x| live(x) && x.state == State::Unscheduled && x.deleting && x.ready)
                .count() as i64;
            let cbr = b
                .iter()
                .filter(|x| live(x) && x.state != State::Scheduled && !x.failed && !x.diff_reported)
                .count() as i64;
            let max_to_remove = (ready - cbu) - (n - max_unavailable);
            let max_to_add = n + max_surge - cbr;
            let mut moved: Vec<(&'static str, usize)> = Vec::new();
            for (i, x) in b.iter().enumerate() {
                if x.state == State::Bound && !x.latest && x.failed {
                    moved.push(("update", i));
                }
            }
            let mut budget = 0;
            for (i, x) in b.iter().enumerate() {
                if budget >= max_to_remove {
                    break;
                }
                if x.state == State::Unscheduled && !x.deleting && !x.gone {
                    moved.push(("remove", i));
                    budget += 1;
                }
            }
            for (i, x) in b.iter().enumerate() {
                if budget >= max_to_remove {
                    break;
                }
                if x.state == State::Bound && !x.latest && !x.failed {
                    moved.push(("update", i));
                    budget += 1;
                }
            }
            let mut added = 0;
            for (i, x) in b.iter().enumerate() {
                if added >= max_to_add {
                    break;
                }
                if x.state == State::Scheduled {
                    moved.push(("add", i));
                    added += 1;
                }
            }
            if moved.is_empty() {
                break;
            }
            rounds.push(OracleRound {
                at_ms: now,
                target: n,
                ready,
                can_be_unavailable: cbu,
                can_be_ready: cbr,
                max_to_remove,
                max_to_add,
                moved: moved
                    .iter()
                    .map(|(a, i)| (*a, b[*i].name.clone()))
                    .collect(),
            });
            for (action, i) in moved {
                let x = &mut b[i];
                if action == "remove" {
                    x.deleting = true;
                    events.push((now + case.delete_s * 1000, seq, Ev::Gone(i)));
                    seq += 1;
                    continue;
                }
                x.state = State::Bound;
                x.latest = true;
                x.ready = false;
                x.failed = false;
                x.diff_reported = false;
                events.push((now + case.apply_s * 1000, seq, Ev::Applied(i)));
                seq += 1;
            }
        }
        let available = b.iter().filter(|x| !x.gone && x.ready).count() as i64
            - b.iter()
                .filter(|x| !x.gone && x.state == State::Unscheduled && x.deleting && x.ready)
                .count() as i64;
        let placed = b
            .iter()
            .filter(|x| !x.gone && x.state != State::Scheduled)
            .count() as i64;
        match line.last_mut() {
            Some(p) if p.0 == now => *p = (now, available, placed),
            Some(p) if (p.1, p.2) == (available, placed) => {}
            _ => line.push((now, available, placed)),
        }
        if line.len() >= 2
            && (line[line.len() - 2].1, line[line.len() - 2].2) == (available, placed)
        {
            line.pop();
        }
        // The next instant: every event due then, in the order they were scheduled.
        let Some(next) = events.iter().map(|e| e.0).min() else {
            break;
        };
        now = next;
        last = next;
        // Everything due now, including what handling it schedules for the same instant, happens
        // before the next reconcile looks.
        while let Some(pos) = events
            .iter()
            .enumerate()
            .filter(|(_, e)| e.0 == now)
            .min_by_key(|(_, e)| e.1)
            .map(|(k, _)| k)
        {
            let (_, _, ev) = events.remove(pos);
            match ev {
                Ev::Gone(i) => {
                    let x = &mut b[i];
                    x.gone = true;
                    x.ready = false;
                }
                Ev::Ready(i) => {
                    if !b[i].gone {
                        b[i].ready = true;
                    }
                }
                Ev::Applied(i) => {
                    let name = b[i].name.clone();
                    let failure = case.failures.get(&name).copied();
                    if case.report_diff {
                        // isBindingReady: DiffReported=True is ready; a failed report is never ready,
                        // but the condition is current either way (IsBindingDiffReported).
                        b[i].diff_reported = true;
                        if failure != Some(None) {
                            let late = failure.flatten().unwrap_or(0);
                            events.push((now + late * 1000, seq, Ev::Ready(i)));
                            seq += 1;
                        }
                        continue;
                    }
                    let mut t = now;
                    if case.resources.tracked() {
                        match failure {
                            Some(None) => continue,
                            Some(Some(late)) => t += (case.available_s[&name] + late) * 1000,
                            None => t += case.available_s[&name] * 1000,
                        }
                    }
                    if case.resources.untrackable() {
                        t += case.unavailable_period_s * 1000;
                    }
                    events.push((t, seq, Ev::Ready(i)));
                    seq += 1;
                }
            }
        }
    }
    let settled = b.iter().all(|x| match x.state {
        State::Unscheduled => x.gone,
        State::Scheduled => false,
        State::Bound => x.latest && x.ready,
    });
    Outcome {
        rounds,
        line,
        settled,
        last_ms: last,
        min_available: n - max_unavailable,
    }
}
