//! Versions flowing through a GKE sequence, as a discrete-event simulation: per stage and upgrade
//! type (control plane, nodes) a rollout RUNNING → SOAKING (or FORCED_SOAKING) → COMPLETED; each
//! cluster upgrading inside its maintenance window and outside matching exclusions; the next stage
//! taking the latest version qualified upstream when it is free.
//!
//! Cluster upgrades are computed in one step when they start (window arithmetic, not ticking), and
//! finish as one queued event; the cost is O(events · log events) plus one window lookup per surge batch.

use std::collections::VecDeque;

use crate::engine::EventQueue;
use crate::plan::{Event, Phase, PhaseKind};
use crate::time::{Duration, Time};

use super::validate::{Setup, Stream, FORCED_SOAK_AFTER};
use super::version::Version;
use super::window::{Hold, Work};

/// The skip reasons GKE reports for clusters of a rollout (`excludedClusters[].reason`, INELIGIBLE).
pub const ALREADY_UPGRADED: &str = "ALREADY_UPGRADED";
pub const VERSION_TOO_OLD: &str = "VERSION_TOO_OLD";
pub const INCOMPATIBLE_VERSION: &str = "INCOMPATIBLE_VERSION";
pub const EXCLUDED_BY_FILTER: &str = "EXCLUDED_BY_FILTER";

/// One version of one upgrade type in one stage.
#[derive(Clone, Debug)]
pub struct Rollout {
    pub stage: usize,
    pub stream: Stream,
    pub version: Version,
    /// When the version became available to this stage (released, or qualified upstream).
    pub available: Time,
    pub start: Time,
    pub soak: Duration,
    pub soak_start: Option<Time>,
    pub forced: bool,
    pub completed: Option<Time>,
    /// Older versions qualified upstream that this stage never ran because this one was newer.
    pub supersedes: Vec<String>,
    remaining: usize,
    /// True while the rollout's members are being placed (skips then must not start the soak).
    placing: bool,
}

#[derive(Clone, Debug)]
pub struct Skip {
    pub cluster: usize,
    pub stage: usize,
    pub stream: Option<Stream>,
    pub version: Option<String>,
    pub reason: &'static str,
}

#[derive(Default)]
struct StreamState {
    busy: Option<usize>,
    last_started: Option<Version>,
    qualified: Vec<(Version, Time)>,
    /// The newest version this stream was told it cannot start yet (one event per version).
    told_busy: Option<Version>,
}

pub struct ClusterRun {
    pub version: [Version; 2],
    /// When each type's version changed: `(time, version)`.
    pub history: [Vec<(Time, Version)>; 2],
    pub phases: Vec<Phase>,
    pub upgraded: bool,
    /// An upgrade that never finishes (a window that never opens, a control plane never reached).
    pub stuck: bool,
    busy: [Option<usize>; 2],
    queue: [VecDeque<usize>; 2],
    /// A node rollout waiting for this cluster's control plane to reach its version.
    node_waits_for_cp: Option<usize>,
}

enum Ev {
    Release(usize),
    /// A live projection's starting point: `seeds[i]` was qualified upstream.
    Qualified(usize),
    Done(usize, Stream, usize),
    Forced(usize),
    SoakDone(usize),
}

pub struct SimResult {
    pub rollouts: Vec<Rollout>,
    pub clusters: Vec<ClusterRun>,
    pub skips: Vec<Skip>,
    pub events: Vec<Event>,
    /// Per stream, the versions released and when.
    pub released: [Vec<(Version, Time)>; 2],
}

struct Sim<'a> {
    setup: &'a Setup,
    queue: EventQueue<Ev>,
    streams: Vec<[StreamState; 2]>,
    rollouts: Vec<Rollout>,
    clusters: Vec<ClusterRun>,
    skips: Vec<Skip>,
    events: Vec<Event>,
    released: [Vec<(Version, Time)>; 2],
}

/// Where a live rollout stands: stage `stage` qualified `version` of `stream` at `at` (its soak
/// ended, as the Rollout's status says or as projected), so the next stage may take it from then.
#[derive(Clone, Debug)]
pub struct Seed {
    pub stage: usize,
    pub stream: Stream,
    pub version: Version,
    pub at: Time,
}

pub fn simulate(setup: &Setup, start: Time) -> SimResult {
    simulate_seeded(setup, start, &[])
}

/// [`simulate`] with versions already qualified by some stages (a rollout in progress).
pub fn simulate_seeded(setup: &Setup, start: Time, seeds: &[Seed]) -> SimResult {
    let mut sim = Sim {
        setup,
        queue: EventQueue::with_capacity(setup.clusters.len() * 2 + 16),
        streams: setup
            .stages
            .iter()
            .map(|_| [StreamState::default(), StreamState::default()])
            .collect(),
        rollouts: Vec::new(),
        clusters: setup
            .clusters
            .iter()
            .map(|c| ClusterRun {
                version: [c.control_plane.clone(), c.node.clone()],
                history: [
                    vec![(start, c.control_plane.clone())],
                    vec![(start, c.node.clone())],
                ],
                phases: Vec::new(),
                upgraded: false,
                stuck: false,
                busy: [None, None],
                queue: [VecDeque::new(), VecDeque::new()],
                node_waits_for_cp: None,
            })
            .collect(),
        skips: Vec::new(),
        events: Vec::new(),
        released: [Vec::new(), Vec::new()],
    };
    for (i, c) in setup.clusters.iter().enumerate() {
        if c.excluded {
            sim.skips.push(Skip {
                cluster: i,
                stage: c.stage,
                stream: None,
                version: None,
                reason: EXCLUDED_BY_FILTER,
            });
            sim.emit(
                start,
                EXCLUDED_BY_FILTER,
                Some(c.stage),
                Some(i),
                format!(
                    "cluster {} matches ignoredClustersSelector: the sequence leaves it out",
                    c.name
                ),
            );
        }
    }
    for (i, r) in setup.releases.iter().enumerate() {
        sim.queue.push(r.at, Ev::Release(i));
    }
    for (i, s) in seeds.iter().enumerate() {
        sim.queue.push(s.at, Ev::Qualified(i));
    }
    while let Some((now, ev)) = sim.queue.pop() {
        match ev {
            Ev::Release(i) => sim.release(now, i),
            Ev::Qualified(i) => {
                let seed = &seeds[i];
                if let Some(st) = sim.streams.get_mut(seed.stage) {
                    st[seed.stream as usize]
                        .qualified
                        .push((seed.version.clone(), now));
                    st[seed.stream as usize].last_started = Some(seed.version.clone());
                    if seed.stage + 1 < setup.stages.len() {
                        sim.offer(now, seed.stage + 1, seed.stream);
                    }
                }
            }
            Ev::Done(c, stream, r) => sim.cluster_done(now, c, stream, r),
            Ev::Forced(r) => {
                if sim.rollouts[r].soak_start.is_none() {
                    sim.begin_soak(now, r, true);
                }
            }
            Ev::SoakDone(r) => sim.soak_done(now, r),
        }
    }
    sim.events.sort_by_key(|e| e.at);
    for c in &mut sim.clusters {
        c.phases.sort_by_key(|p| p.start);
        c.stuck |= c.busy.iter().any(Option::is_some);
    }
    SimResult {
        rollouts: sim.rollouts,
        clusters: sim.clusters,
        skips: sim.skips,
        events: sim.events,
        released: sim.released,
    }
}

impl Sim<'_> {
    fn emit(
        &mut self,
        at: Time,
        reason: &'static str,
        stage: Option<usize>,
        cluster: Option<usize>,
        message: String,
    ) {
        self.events.push(Event {
            at,
            reason,
            stage: stage.map(|s| self.setup.stages[s].name.clone()),
            cluster: cluster.map(|c| self.setup.clusters[c].name.clone()),
            message: message.into(),
        });
    }

    fn release(&mut self, now: Time, i: usize) {
        let r = &self.setup.releases[i];
        for &stream in &r.streams {
            self.released[stream as usize].push((r.version.clone(), now));
            self.emit(
                now,
                "VERSION_RELEASED",
                None,
                None,
                format!(
                    "{} becomes the release channel's auto-upgrade target for {}",
                    r.version,
                    stream.words()
                ),
            );
            if !self.setup.stages.is_empty() {
                self.offer(now, 0, stream);
            }
        }
    }

    /// What stage `s` may take next: versions newer than what it last started, from its upstream.
    fn candidates(&self, s: usize, stream: Stream) -> Vec<(Version, Time)> {
        let upstream = if s == 0 {
            &self.released[stream as usize]
        } else {
            &self.streams[s - 1][stream as usize].qualified
        };
        let last = &self.streams[s][stream as usize].last_started;
        let mut out: Vec<(Version, Time)> = upstream
            .iter()
            .filter(|(v, _)| last.as_ref().is_none_or(|l| v > l))
            .cloned()
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out.dedup_by(|b, a| a.0 == b.0);
        out
    }

    fn offer(&mut self, now: Time, s: usize, stream: Stream) {
        let candidates = self.candidates(s, stream);
        let Some(newest) = candidates.last().cloned() else {
            return;
        };
        let st = &self.streams[s][stream as usize];
        if let Some(busy) = st.busy {
            if st.told_busy.as_ref() != Some(&newest.0) {
                self.streams[s][stream as usize].told_busy = Some(newest.0.clone());
                let r = &self.rollouts[busy];
                let state = if r.soak_start.is_some() {
                    if r.forced {
                        "FORCED_SOAKING"
                    } else {
                        "SOAKING"
                    }
                } else {
                    "RUNNING"
                };
                let msg = format!(
                    "{} {} is available, but the stage is {state} {} {}: it starts a newer version only once that completes",
                    stream.words(),
                    newest.0,
                    stream.words(),
                    r.version
                );
                self.emit(now, "STAGE_BUSY", Some(s), None, msg);
            }
            return;
        }
        // Control plane: at most one minor above the group's (lowest) control plane, when that leaves
        // a candidate; otherwise the newest, and clusters too far behind are VERSION_TOO_OLD.
        let pick = match stream {
            Stream::ControlPlane => {
                let lowest = self.setup.stages[s]
                    .members
                    .iter()
                    .filter(|c| !self.setup.clusters[**c].excluded)
                    .map(|c| &self.clusters[*c].version[0])
                    .min();
                lowest
                    .and_then(|low| {
                        candidates
                            .iter()
                            .rev()
                            .find(|(v, _)| low.minors_to(v) <= 1)
                            .cloned()
                    })
                    .unwrap_or(newest)
            }
            Stream::Node => newest,
        };
        let supersedes = candidates
            .iter()
            .filter(|(v, _)| *v < pick.0)
            .map(|(v, _)| v.text.clone())
            .collect();
        self.start_rollout(now, s, stream, pick, supersedes);
    }

    fn start_rollout(
        &mut self,
        now: Time,
        s: usize,
        stream: Stream,
        (version, available): (Version, Time),
        supersedes: Vec<String>,
    ) {
        let stage = &self.setup.stages[s];
        let id = self.rollouts.len();
        self.rollouts.push(Rollout {
            stage: s,
            stream,
            version: version.clone(),
            available,
            start: now,
            soak: stage.soak(stream, &version),
            soak_start: None,
            forced: false,
            completed: None,
            supersedes,
            remaining: 0,
            placing: true,
        });
        let st = &mut self.streams[s][stream as usize];
        st.busy = Some(id);
        st.last_started = Some(version.clone());
        st.told_busy = None;
        let from = if s == 0 {
            "the release channel".to_string()
        } else {
            format!("stage {}", self.setup.stages[s - 1].name)
        };
        self.emit(
            now,
            "STAGE_RUNNING",
            Some(s),
            None,
            format!(
                "{} rollout to {version} starts ({}, qualified by {from})",
                stream.words(),
                stream.gke()
            ),
        );
        let members: Vec<usize> = stage
            .members
            .iter()
            .copied()
            .filter(|c| !self.setup.clusters[*c].excluded)
            .collect();
        self.rollouts[id].remaining = members.len();
        for c in members {
            self.start_cluster(now, c, stream, id);
        }
        self.rollouts[id].placing = false;
        self.queue.push(now.plus(FORCED_SOAK_AFTER), Ev::Forced(id));
        if self.rollouts[id].remaining == 0 && self.rollouts[id].soak_start.is_none() {
            self.begin_soak(now, id, false);
        }
    }

    fn skip(&mut self, now: Time, c: usize, r: usize, reason: &'static str, why: String) {
        let ro = &self.rollouts[r];
        self.skips.push(Skip {
            cluster: c,
            stage: ro.stage,
            stream: Some(ro.stream),
            version: Some(ro.version.text.clone()),
            reason,
        });
        let stage = ro.stage;
        self.emit(now, reason, Some(stage), Some(c), why);
        self.member_done(now, r);
    }

    /// Will this cluster's control plane reach `v` through the sequence (now or later)?
    fn control_plane_will_reach(&self, c: usize, v: &Version) -> bool {
        let cl = &self.clusters[c];
        if cl.version[0] >= *v {
            return true;
        }
        if let Some(r) = cl.busy[0] {
            if self.rollouts[r].version >= *v {
                return true;
            }
        }
        self.setup.releases.iter().any(|rel| {
            rel.streams.contains(&Stream::ControlPlane)
                && rel.version >= *v
                && cl.version[0].minors_to(&rel.version) <= 1
        })
    }

    fn start_cluster(&mut self, now: Time, c: usize, stream: Stream, r: usize) {
        let k = stream as usize;
        if self.clusters[c].busy[k].is_some() {
            self.clusters[c].queue[k].push_back(r);
            return;
        }
        let v = self.rollouts[r].version.clone();
        let cur = self.clusters[c].version[k].clone();
        let name = &self.setup.clusters[c].name;
        if cur >= v {
            let why = format!(
                "{name}: {} already at {cur}, not older than {v}",
                stream.words()
            );
            return self.skip(now, c, r, ALREADY_UPGRADED, why);
        }
        if stream == Stream::ControlPlane && cur.minors_to(&v) > 1 {
            let why = format!("{name}: control plane {cur} is more than one minor version behind {v}; GKE upgrades one minor at a time");
            self.skip(now, c, r, VERSION_TOO_OLD, why);
            return self.wake_nodes(now, c);
        }
        if stream == Stream::Node && self.clusters[c].version[0] < v {
            if self.control_plane_will_reach(c, &v) {
                self.clusters[c].busy[k] = Some(r);
                self.clusters[c].node_waits_for_cp = Some(r);
                return;
            }
            let why = format!(
                "{name}: nodes cannot go to {v} past the control plane {}, and no control-plane upgrade brings it there",
                self.clusters[c].version[0]
            );
            return self.skip(now, c, r, INCOMPATIBLE_VERSION, why);
        }
        self.schedule(now, c, stream, r);
    }

    /// Places the upgrade in the cluster's windows: holds, then the work (node batches pause
    /// at window end and resume in the next window), and queues its completion.
    fn schedule(&mut self, now: Time, c: usize, stream: Stream, r: usize) {
        let k = stream as usize;
        let setup = &self.setup.clusters[c];
        let v = self.rollouts[r].version.clone();
        let cur = &self.clusters[c].version[k];
        let work = Work {
            node: stream == Stream::Node,
            minor: cur.minors_to(&v) >= 1,
        };
        let (kind, label) = match stream {
            Stream::ControlPlane => (
                PhaseKind::ControlPlaneUpgrade,
                format!("control plane → {v}"),
            ),
            Stream::Node => (PhaseKind::NodeUpgrade, format!("nodes → {v}")),
        };
        let mut holds: Vec<Hold> = Vec::new();
        let mut segments: Vec<(Time, Time)> = Vec::new();
        let mut end = None;
        match stream {
            Stream::ControlPlane => {
                if let Some(s) = setup.policy.next_start(now, work, &mut holds) {
                    let e = s.plus(setup.control_plane_duration);
                    segments.push((s, e));
                    end = Some(e);
                }
            }
            Stream::Node => {
                let unconstrained =
                    setup.policy.window.is_none() && setup.policy.exclusions.is_empty();
                let batch = setup.per_node;
                let mut t = now;
                let mut finished = true;
                if unconstrained || setup.node_batches == 0 {
                    let e = t.plus(Duration(batch.0.saturating_mul(setup.node_batches as i64)));
                    segments.push((t, e));
                    t = e;
                } else {
                    // Every batch that starts before the window closes (or an exclusion begins) runs,
                    // the last one past the close; the rest wait for the next opening.
                    let mut left = setup.node_batches as i64;
                    while left > 0 {
                        let Some(s) = setup.policy.next_start(t, work, &mut holds) else {
                            finished = false;
                            break;
                        };
                        let until = setup.policy.open_until(s, work);
                        let fit = if batch.0 <= 0 {
                            left
                        } else {
                            (until.0.saturating_sub(s.0) + batch.0 - 1) / batch.0
                        };
                        let n = fit.clamp(1, left);
                        let e = s.plus(Duration(batch.0.saturating_mul(n)));
                        match segments.last_mut() {
                            Some(last) if last.1 == s => last.1 = e,
                            _ => segments.push((s, e)),
                        }
                        left -= n;
                        t = e;
                    }
                }
                if finished {
                    end = Some(t);
                }
            }
        }
        let cl = &mut self.clusters[c];
        for h in holds {
            cl.phases.push(Phase {
                kind: if h.exclusion {
                    PhaseKind::ExclusionWait
                } else {
                    PhaseKind::MaintenanceWait
                },
                start: h.from,
                end: h.to,
                label: h.label,
                version: Some(v.text.clone()),
            });
        }
        for (s, e) in &segments {
            cl.phases.push(Phase {
                kind,
                start: *s,
                end: Some(*e),
                label: label.clone(),
                version: Some(v.text.clone()),
            });
        }
        cl.busy[k] = Some(r);
        let stage = self.rollouts[r].stage;
        if let Some((first, _)) = segments.first() {
            let msg = format!("{}: {} upgrade to {v} starts", setup.name, stream.words());
            self.emit(*first, "UPGRADE_STARTED", Some(stage), Some(c), msg);
        }
        match end {
            Some(e) => self.queue.push(e, Ev::Done(c, stream, r)),
            None => {
                let msg = format!(
                    "{}: the maintenance window never opens again; the {} upgrade to {v} never finishes",
                    setup.name,
                    stream.words()
                );
                self.emit(now, "MAINTENANCE_POLICY", Some(stage), Some(c), msg);
            }
        }
    }

    fn cluster_done(&mut self, now: Time, c: usize, stream: Stream, r: usize) {
        let k = stream as usize;
        let v = self.rollouts[r].version.clone();
        let cl = &mut self.clusters[c];
        cl.busy[k] = None;
        cl.upgraded = true;
        if v > cl.version[k] {
            cl.version[k] = v.clone();
            cl.history[k].push((now, v.clone()));
        }
        let stage = self.rollouts[r].stage;
        let msg = format!(
            "{}: {} upgraded to {v}",
            self.setup.clusters[c].name,
            stream.words()
        );
        self.emit(now, "UPGRADE_SUCCEEDED", Some(stage), Some(c), msg);
        self.member_done(now, r);
        if stream == Stream::ControlPlane {
            self.wake_nodes(now, c);
        }
        if let Some(next) = self.clusters[c].queue[k].pop_front() {
            self.start_cluster(now, c, stream, next);
        }
    }

    /// A node rollout waiting for this cluster's control plane: start it, or give up when the
    /// control plane will never get there.
    fn wake_nodes(&mut self, now: Time, c: usize) {
        let Some(r) = self.clusters[c].node_waits_for_cp else {
            return;
        };
        let v = self.rollouts[r].version.clone();
        if self.clusters[c].version[0] >= v {
            self.clusters[c].node_waits_for_cp = None;
            self.schedule(now, c, Stream::Node, r);
        } else if !self.control_plane_will_reach(c, &v) && self.clusters[c].busy[0].is_none() {
            self.clusters[c].node_waits_for_cp = None;
            self.clusters[c].busy[1] = None;
            let why = format!(
                "{}: nodes cannot go to {v} past the control plane {}",
                self.setup.clusters[c].name, self.clusters[c].version[0]
            );
            self.skip(now, c, r, INCOMPATIBLE_VERSION, why);
            if let Some(next) = self.clusters[c].queue[1].pop_front() {
                self.start_cluster(now, c, Stream::Node, next);
            }
        }
    }

    fn member_done(&mut self, now: Time, r: usize) {
        let ro = &mut self.rollouts[r];
        ro.remaining = ro.remaining.saturating_sub(1);
        // While the rollout starts, members are still being placed: it soaks once all are.
        if ro.remaining == 0 && ro.soak_start.is_none() && !ro.placing {
            self.begin_soak(now, r, false);
        }
    }

    fn begin_soak(&mut self, now: Time, r: usize, forced: bool) {
        let ro = &mut self.rollouts[r];
        ro.soak_start = Some(now);
        ro.forced = forced;
        let (stage, stream, soak, v) = (ro.stage, ro.stream, ro.soak, ro.version.clone());
        self.queue.push(now.plus(soak), Ev::SoakDone(r));
        let (reason, msg) = if forced {
            (
                "STAGE_FORCED_SOAKING",
                format!(
                    "{} {v}: {} clusters still upgrading {FORCED_SOAK_AFTER} after the stage began; it soaks anyway for {soak} (they continue)",
                    stream.words(),
                    self.rollouts[r].remaining
                ),
            )
        } else {
            (
                "STAGE_SOAKING",
                format!("{} {v}: every upgrade done; soaking {soak}", stream.words()),
            )
        };
        self.emit(now, reason, Some(stage), None, msg);
    }

    fn soak_done(&mut self, now: Time, r: usize) {
        let ro = &mut self.rollouts[r];
        ro.completed = Some(now);
        let (s, stream, v) = (ro.stage, ro.stream, ro.version.clone());
        let st = &mut self.streams[s][stream as usize];
        st.busy = None;
        st.qualified.push((v.clone(), now));
        self.emit(
            now,
            "STAGE_COMPLETED",
            Some(s),
            None,
            format!("{} {v} qualified by this stage", stream.words()),
        );
        if s + 1 == self.setup.stages.len() {
            self.emit(
                now,
                "ROLLOUT_COMPLETED",
                None,
                None,
                format!("{} rollout of {v} completed every stage", stream.words()),
            );
        } else {
            self.offer(now, s + 1, stream);
        }
        self.offer(now, s, stream);
    }
}
