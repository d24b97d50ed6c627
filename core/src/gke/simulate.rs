//! Versions flowing through a GKE sequence, as a discrete-event simulation: per stage and upgrade
//! type (control plane, nodes) a rollout RUNNING → SOAKING (or FORCED_SOAKING) → COMPLETED; each
//! cluster upgrading inside its maintenance window and outside matching exclusions; the next stage
//! taking the latest version qualified upstream when it is free; a stage whose clusters are all held
//! by their maintenance policies PAUSED, committing to no version until one of them may start.
//!
//! With per-minor targets a stage runs one lane per minor version (the clusters on that minor, towards
//! that minor's target); otherwise one lane for every cluster.
//!
//! Cluster upgrades are computed in one step when they start (window arithmetic, not ticking), and
//! finish as one queued event; the cost is O(events · log events) plus one window lookup per surge
//! batch. Events carry shared names and messages formatted only when shown (no string is formatted or
//! copied per cluster event).

use std::collections::{BTreeMap, VecDeque};

use crate::diag::Diagnostic;
use crate::engine::EventQueue;
use crate::plan::{Event, Events, Kept, Labels, Message, Name, NameId, Phase, PhaseKind};
use crate::time::{Duration, Time};

use super::history::Histories;
use super::validate::{Setup, Stream, FORCED_SOAK_AFTER};
use super::version::{Minor, Version};
use super::window::{Hold, PolicyParts, Work};

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
    /// The minor version whose clusters this rollout takes (per-minor targets); `None`: every cluster.
    pub lane: Option<Minor>,
    pub version: Version,
    /// When the version became available to this stage (released, or qualified upstream).
    pub available: Time,
    /// When the stage paused before this rollout, every cluster held by its maintenance policy.
    pub paused: Option<Time>,
    pub start: Time,
    pub soak: Duration,
    pub soak_start: Option<Time>,
    pub forced: bool,
    pub completed: Option<Time>,
    /// Completing it qualified the version for the next stage (fleet-based per-minor targets qualify
    /// only when the whole group ran this one target).
    pub qualified: bool,
    /// Older versions qualified upstream that this stage never ran because this one was newer.
    pub supersedes: Vec<Name>,
    remaining: usize,
    /// True while the rollout's members are being placed (skips then must not start the soak).
    placing: bool,
    /// The cluster bars' label (`control plane → 1.31.5-gke.1`), built once per rollout, and the
    /// version's text, each in [`SimResult::labels`]: a bar copies these ids, no name.
    pub bar_label: NameId,
    pub bar_version: NameId,
    /// The version's place in the events' name table.
    version_id: NameId,
    /// The version's place in [`SimResult::versions`].
    vi: u32,
}

#[derive(Clone, Debug)]
pub struct Skip {
    pub cluster: usize,
    pub stage: usize,
    pub stream: Option<Stream>,
    pub version: Option<Name>,
    pub reason: &'static str,
}

/// One stage's stream of one lane: what it runs, what it started last, what it qualified.
struct Lane {
    key: Option<Minor>,
    busy: Option<usize>,
    last_started: Option<Version>,
    qualified: Vec<(Version, Time)>,
    /// The newest version this lane was told it cannot start yet (one event per version).
    told_busy: Option<Version>,
    /// PAUSED since then: every cluster that needs the upgrade is held by its maintenance policy.
    paused: Option<Time>,
    /// Only the latest scheduled resume counts.
    resume_gen: u32,
    /// Versions this (fleet-based) group was already reported not to take.
    told_mismatch: Vec<Version>,
}

impl Lane {
    fn new(key: Option<Minor>) -> Lane {
        Lane {
            key,
            busy: None,
            last_started: None,
            qualified: Vec::new(),
            told_busy: None,
            paused: None,
            resume_gen: 0,
            told_mismatch: Vec::new(),
        }
    }
}

/// The distinct versions clusters run. A cluster's state and history name a version by its place
/// here (4 bytes), not by a copy of it, whose shared text's reference count each copy would write.
#[derive(Default)]
pub struct Versions {
    list: Vec<Version>,
    by_text: BTreeMap<Name, u32>,
    /// The place found last: a fleet's clusters mostly run the same few versions, one after another.
    last: u32,
}

impl Versions {
    /// `v`'s place, added on first sight (versions of the same text are the same version).
    fn add(&mut self, v: &Version) -> u32 {
        if let Some(last) = self.list.get(self.last as usize) {
            // The same shared text mostly (a version read once is shared by the clusters that run
            // it): the address settles it without comparing bytes, which wasm does one at a time.
            if last.text.addr() == v.text.addr() || last.text == v.text {
                return self.last;
            }
        }
        let i = match self.by_text.get(v.text.as_str()) {
            Some(i) => *i,
            None => {
                let i = self.list.len() as u32;
                self.list.push(v.clone());
                self.by_text.insert(v.text.clone(), i);
                i
            }
        };
        self.last = i;
        i
    }
}

impl std::ops::Index<u32> for Versions {
    type Output = Version;
    fn index(&self, i: u32) -> &Version {
        &self.list[i as usize]
    }
}

pub struct ClusterRun {
    /// Per type (control plane, nodes), the version it runs (in [`SimResult::versions`]).
    pub version: [u32; 2],
    pub phases: Vec<Phase>,
    pub upgraded: bool,
    /// An upgrade that never finishes (a window that never opens, a control plane never reached).
    pub stuck: bool,
    /// The rollout each type is upgrading in (rollout indices as u32, like `node_waits_for_cp`: this
    /// state is reached once per upgrade in time order, not cluster order, so each byte of it is a
    /// cache miss at 100,000 clusters; rollouts that wait for a busy cluster are in `Sim::waiting`).
    busy: [Option<u32>; 2],
    /// A node rollout waiting for this cluster's control plane to reach its version.
    node_waits_for_cp: Option<u32>,
}

enum Ev {
    Release(usize),
    /// A live projection's starting point: `seeds[i]` was qualified upstream.
    Qualified(usize),
    /// (cluster, stream, rollout): u32 indices keep the million queued upgrades of a 100,000-cluster
    /// plan small.
    Done(u32, Stream, u32),
    Forced(usize),
    SoakDone(usize),
    /// (stage, stream, lane index, generation): a paused lane may start again.
    Resume(u32, Stream, u32, u32),
}

pub struct SimResult {
    pub rollouts: Vec<Rollout>,
    pub clusters: Vec<ClusterRun>,
    pub skips: Vec<Skip>,
    pub events: Events,
    /// The texts the clusters' bars name (their labels and versions).
    pub labels: Labels,
    /// The versions `clusters` name.
    pub versions: Versions,
    /// When each cluster's version changed, per stream (versions in `versions`).
    pub history: Histories,
    /// Per stream, the targets released and when: `(minor it is for, version, time)`.
    pub released: [Vec<(Option<Minor>, Version, Time)>; 2],
    /// What the simulation found that needs a person (fleet-based per-minor targets that cannot
    /// qualify, or that the next group does not take).
    pub diagnostics: Vec<Diagnostic>,
}

struct Sim<'a> {
    setup: &'a Setup,
    queue: EventQueue<Ev>,
    lanes: Vec<[Vec<Lane>; 2]>,
    rollouts: Vec<Rollout>,
    clusters: Vec<ClusterRun>,
    versions: Versions,
    history: Histories,
    /// Per cluster, left out by `ignoredClustersSelector`: read for every member each time a stage
    /// offers a version, and a cluster's whole setup is several cache lines.
    excluded: Vec<bool>,
    skips: Vec<Skip>,
    /// The events, whose name table starts with the stages' names, then the clusters' (so an
    /// event names them by index, touching no name), then versions as they are first mentioned.
    events: Events,
    /// Per version of `versions`, its name in `events`' table once an event has mentioned it.
    version_names: Vec<Option<NameId>>,
    /// The texts the bars name, and each maintenance label's place in it, by the address of its
    /// shared text (windows and exclusion lists are shared by the clusters that have them).
    labels: Labels,
    hold_labels: BTreeMap<usize, NameId>,
    last_hold: Option<(usize, NameId)>,
    released: [Vec<(Option<Minor>, Version, Time)>; 2],
    diagnostics: Vec<Diagnostic>,
    /// Per cluster, what placing an upgrade reads of its setup, in 40 bytes: upgrades are placed
    /// in time order, not cluster order, so at 100,000 clusters each read of the setup itself
    /// (several cache lines) missed the cache.
    sched: Vec<Sched<'a>>,
    /// Reused for every window lookup, so placing an upgrade allocates nothing for them.
    scratch_holds: Vec<Hold<'a>>,
    scratch_segments: Vec<(Time, Time)>,
    /// The instant being simulated.
    now: Time,
    /// Events dated after `now` (an upgrade's start in a later window), held until their instant so
    /// that `events` stays in time order and needs no sorting.
    ahead: EventQueue<Held>,
    /// The held events that `ahead` names by slot (small keys move through its heap, not events).
    held: Vec<Option<Event>>,
    /// Slots of `held` free for reuse.
    free: Vec<u32>,
    /// An event was dated before one already listed: `events` needs the stable sort after all.
    unordered: bool,
    /// Rollouts waiting for a cluster busy with an earlier one, per (cluster, stream), first come
    /// first served. Rare (a stage starting a version while a forced soak's upgrades still run), so
    /// kept here rather than as two queues in every cluster's state.
    waiting: BTreeMap<(u32, usize), VecDeque<u32>>,
}

/// What [`Sim::schedule`] reads of a cluster's setup.
#[derive(Clone, Copy)]
struct Sched<'a> {
    policy: PolicyParts<'a>,
    control_plane: Duration,
    per_node: Duration,
    node_batches: u64,
}

/// An event dated ahead, as [`Sim::ahead`] holds it until its instant.
#[derive(Clone, Copy)]
enum Held {
    /// (cluster, stream, rollout): the upgrade starts (nearly every event held: a cluster waiting
    /// for its window). The event is built from these when it is listed, so a 100,000-cluster plan
    /// does not write a hundred thousand events aside and read each back, a cache miss, later.
    Started(u32, Stream, u32),
    /// Any other event, in this slot of [`Sim::held`].
    Slot(u32),
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
    // Upgrades a cluster may go through (one per released target and stream): room for one bar each,
    // and for a wait before each in a cluster whose maintenance policy can hold it (most clusters
    // with a window wait for it at least once per upgrade). A cluster with no window or exclusion
    // never waits; room for waits there would double the memory of its bars for nothing. Growing
    // the lists instead cost a copy of every constrained cluster's bars (4% of the instructions of
    // a 10,000-cluster plan).
    let upgrades: usize = setup
        .releases
        .iter()
        .map(|r| r.streams.len() * r.targets.len())
        .sum::<usize>()
        .min(64);
    // Versions a cluster's stream may change to: one per target released for that stream.
    let changes = Stream::BOTH.map(|stream| {
        setup
            .releases
            .iter()
            .filter(|r| r.streams.contains(&stream))
            .map(|r| r.targets.len())
            .sum::<usize>()
            .min(8)
    });
    let mut versions = Versions::default();
    let mut history = Histories::new(setup.clusters.len(), changes);
    let clusters = setup
        .clusters
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let version = [versions.add(&c.control_plane), versions.add(&c.node)];
            history.begin(i, start, version);
            ClusterRun {
                version,
                phases: Vec::with_capacity(
                    if c.policy.window.is_some() || c.policy.has_exclusions() {
                        2 * upgrades
                    } else {
                        upgrades
                    },
                ),
                upgraded: false,
                stuck: false,
                busy: [None, None],
                node_waits_for_cp: None,
            }
        })
        .collect();
    let mut sim = Sim {
        setup,
        queue: EventQueue::with_capacity(setup.clusters.len() * 2 + 16),
        lanes: setup
            .stages
            .iter()
            .map(|_| [Vec::new(), Vec::new()])
            .collect(),
        rollouts: Vec::new(),
        clusters,
        versions,
        history,
        excluded: setup.clusters.iter().map(|c| c.excluded).collect(),
        skips: Vec::new(),
        // Two events per cluster and upgrade at most (start, done), and a few per stage and upgrade
        // (running, busy, paused, soaking, completed): the list never doubles past what it needs.
        events: Events::with_capacity(
            setup
                .clusters
                .len()
                .saturating_mul(2 * upgrades)
                .saturating_add(8 * upgrades * (setup.stages.len() + 1) + 64),
        ),
        version_names: Vec::new(),
        labels: Labels::default(),
        hold_labels: BTreeMap::new(),
        last_hold: None,
        released: [Vec::new(), Vec::new()],
        diagnostics: Vec::new(),
        sched: setup
            .clusters
            .iter()
            .map(|c| Sched {
                policy: c.policy.parts(),
                control_plane: c.control_plane_duration,
                per_node: c.per_node,
                node_batches: c.node_batches,
            })
            .collect(),
        scratch_holds: Vec::new(),
        scratch_segments: Vec::new(),
        now: start,
        ahead: EventQueue::default(),
        held: Vec::new(),
        free: Vec::new(),
        unordered: false,
        waiting: BTreeMap::new(),
    };
    for s in &setup.stages {
        sim.events.name(s.name.clone());
    }
    for c in &setup.clusters {
        sim.events.name(c.name.clone());
    }
    for (i, c) in setup.clusters.iter().enumerate() {
        if c.excluded {
            sim.skips.push(Skip {
                cluster: i,
                stage: c.stage,
                stream: None,
                version: None,
                reason: EXCLUDED_BY_FILTER,
            });
            let msg = Message::fill(
                &[
                    "cluster ",
                    " matches ignoredClustersSelector: the sequence leaves it out",
                ],
                &[sim.cluster_id(i)],
            );
            sim.emit(start, EXCLUDED_BY_FILTER, Some(c.stage), Some(i), msg);
        }
    }
    // One event per instant: versions released together are all available before any stage picks.
    for (i, r) in setup.releases.iter().enumerate() {
        if i == 0 || setup.releases[i - 1].at != r.at {
            sim.queue.push(r.at, Ev::Release(i));
        }
    }
    for (i, s) in seeds.iter().enumerate() {
        sim.queue.push(s.at, Ev::Qualified(i));
    }
    // Paused lanes resume once everything else of their instant happened (a version qualified upstream
    // at that very instant is among those they may take).
    let mut resumes: Vec<(usize, Stream, usize, u32)> = Vec::new();
    while let Some((now, ev)) = sim.queue.pop_inlined() {
        sim.catch_up(Some(now));
        match ev {
            Ev::Release(i) => sim.release(now, i),
            Ev::Qualified(i) => {
                let seed = &seeds[i];
                if seed.stage < setup.stages.len() {
                    // Seeds name versions, not minors: the lane of every cluster.
                    let li = sim.lane_index(seed.stage, seed.stream, None);
                    let lane = &mut sim.lanes[seed.stage][seed.stream as usize][li];
                    lane.qualified.push((seed.version.clone(), now));
                    lane.last_started = Some(seed.version.clone());
                    if seed.stage + 1 < setup.stages.len() {
                        let next = sim.lane_index(seed.stage + 1, seed.stream, None);
                        sim.offer(now, seed.stage + 1, seed.stream, next);
                    }
                }
            }
            Ev::Done(c, stream, r) => sim.cluster_done(now, c as usize, stream, r as usize),
            Ev::Forced(r) => {
                if sim.rollouts[r].soak_start.is_none() {
                    sim.begin_soak(now, r, true);
                }
            }
            Ev::SoakDone(r) => sim.soak_done(now, r),
            Ev::Resume(s, stream, li, gen) => resumes.push((s as usize, stream, li as usize, gen)),
        }
        if sim.queue.next_time_inlined() != Some(now) {
            for (s, stream, li, gen) in std::mem::take(&mut resumes) {
                let lane = &sim.lanes[s][stream as usize][li];
                if lane.resume_gen == gen && lane.paused.is_some() && lane.busy.is_none() {
                    sim.offer(now, s, stream, li);
                }
            }
        }
    }
    sim.catch_up(None);
    // Stable: events of one instant keep the order they happened in. Events dated ahead were held
    // until their instant, so the list is in order unless one was dated in the past (a paused
    // stage's cluster whose window never opens); then sorting small keys and swapping the events
    // into place (no second copy of a million events) beats moving them through a merge sort.
    if sim.unordered {
        let mut order: Vec<(Time, u32)> = sim
            .events
            .iter()
            .enumerate()
            .map(|(i, e)| (e.at, i as u32))
            .collect();
        order.sort_unstable();
        let mut order: Vec<usize> = order.into_iter().map(|(_, i)| i as usize).collect();
        crate::sort::permute(&mut sim.events, &mut order);
    }
    // Each cluster's bars are sorted by start when they move into its row (gke::stage_plans).
    for c in &mut sim.clusters {
        c.stuck |= c.busy.iter().any(Option::is_some);
    }
    SimResult {
        rollouts: sim.rollouts,
        clusters: sim.clusters,
        skips: sim.skips,
        events: sim.events,
        labels: sim.labels,
        versions: sim.versions,
        history: sim.history,
        released: sim.released,
        diagnostics: sim.diagnostics,
    }
}

/// `a * b`, saturating, as `i64::saturating_mul` gives it. That one is a call to a 128-bit multiply
/// in wasm (`__multi3`), made for each stretch of node batches an upgrade is placed in; a batch's
/// length and a count of batches fit in 32 bits, and their product cannot overflow.
fn mul_saturating(a: i64, b: i64) -> i64 {
    if i32::try_from(a).is_ok() && i32::try_from(b).is_ok() {
        a * b
    } else {
        a.saturating_mul(b)
    }
}

/// Message parts per stream (`control plane` / `nodes`), chosen once instead of formatted per event.
fn by_stream(
    stream: Stream,
    cp: &'static [&'static str],
    node: &'static [&'static str],
) -> &'static [&'static str] {
    match stream {
        Stream::ControlPlane => cp,
        Stream::Node => node,
    }
}

fn minor_text(m: Minor) -> String {
    format!("{}.{}", m.0, m.1)
}

impl Sim<'_> {
    fn emit(
        &mut self,
        at: Time,
        reason: &'static str,
        stage: Option<usize>,
        cluster: Option<usize>,
        message: Message,
    ) {
        let event = Event {
            at,
            reason,
            stage: stage.map(|s| NameId::new(s as u32)),
            cluster: cluster.map(|c| self.cluster_id(c)),
            message: self.events.keep(message),
        };
        if at > self.now {
            let slot = match self.free.pop() {
                Some(slot) => {
                    self.held[slot as usize] = Some(event);
                    slot
                }
                None => {
                    self.held.push(Some(event));
                    (self.held.len() - 1) as u32
                }
            };
            self.ahead.push(at, Held::Slot(slot));
        } else {
            self.list(event);
        }
    }

    /// The version cluster `c` runs on type `k` (0: control plane, 1: nodes).
    fn ver(&self, c: usize, k: usize) -> &Version {
        &self.versions[self.clusters[c].version[k]]
    }

    /// Cluster `c`'s name in the events' table.
    fn cluster_id(&self, c: usize) -> NameId {
        NameId::new((self.setup.stages.len() + c) as u32)
    }

    /// Version `vi`'s (in [`Sim::versions`]) name in the events' table, added when first mentioned.
    fn version_name(&mut self, vi: u32) -> NameId {
        let i = vi as usize;
        if self.version_names.len() <= i {
            self.version_names.resize(i + 1, None);
        }
        if let Some(id) = self.version_names[i] {
            return id;
        }
        let id = self.events.name(self.versions[vi].text.clone());
        self.version_names[i] = Some(id);
        id
    }

    fn list(&mut self, event: Event) {
        if self.events.last().is_some_and(|last| last.at > event.at) {
            self.unordered = true;
        }
        self.events.push(event);
    }

    /// Moves to instant `now` (`None`: the end): the events held for it and before join the list,
    /// in the order they were emitted.
    fn catch_up(&mut self, now: Option<Time>) {
        while let Some(at) = self.ahead.next_time_inlined() {
            if now.is_some_and(|now| at > now) {
                break;
            }
            match self.ahead.pop_inlined() {
                Some((_, Held::Started(c, stream, r))) => {
                    let event = self.started(at, c as usize, stream, r as usize);
                    self.list(event);
                }
                Some((_, Held::Slot(slot))) => {
                    if let Some(event) = self.held[slot as usize].take() {
                        self.list(event);
                    }
                    self.free.push(slot);
                }
                None => {}
            }
        }
        if let Some(now) = now {
            self.now = now;
        }
    }

    /// The lane of stage `s` for clusters on minor `key` (created on first use).
    fn lane_index(&mut self, s: usize, stream: Stream, key: Option<Minor>) -> usize {
        let lanes = &mut self.lanes[s][stream as usize];
        match lanes.iter().position(|l| l.key == key) {
            Some(i) => i,
            None => {
                lanes.push(Lane::new(key));
                lanes.len() - 1
            }
        }
    }

    /// Every release at this instant (from `first` on, releases are sorted by time), then the offers.
    fn release(&mut self, now: Time, first: usize) {
        let setup = self.setup;
        let together = setup.releases[first..]
            .iter()
            .take_while(|r| r.at == setup.releases[first].at);
        let mut lanes: Vec<(Stream, Option<Minor>)> = Vec::new();
        for r in together {
            for &stream in &r.streams {
                for t in &r.targets {
                    self.released[stream as usize].push((t.from, t.version.clone(), now));
                    let msg = match t.from {
                        None => format!(
                            "{} becomes the release channel's auto-upgrade target for {}",
                            t.version,
                            stream.words()
                        ),
                        Some(m) => format!(
                            "{} becomes the release channel's auto-upgrade target for {} of clusters on {}",
                            t.version,
                            stream.words(),
                            minor_text(m)
                        ),
                    };
                    self.emit(now, "VERSION_RELEASED", None, None, msg.into());
                    if !lanes.contains(&(stream, t.from)) {
                        lanes.push((stream, t.from));
                    }
                }
            }
        }
        if setup.stages.is_empty() {
            return;
        }
        for (stream, key) in lanes {
            let li = self.lane_index(0, stream, key);
            self.offer(now, 0, stream, li);
        }
    }

    /// What a lane of stage `s` may take next: versions newer than what it last started, from its
    /// upstream (the release channel for the first stage, the same lane of the stage before).
    fn candidates(&self, s: usize, stream: Stream, li: usize) -> Vec<(Version, Time)> {
        let k = stream as usize;
        let lane = &self.lanes[s][k][li];
        let newer = |v: &Version| lane.last_started.as_ref().is_none_or(|l| v > l);
        let mut out: Vec<(Version, Time)> = if s == 0 {
            self.released[k]
                .iter()
                .filter(|(from, v, _)| *from == lane.key && newer(v))
                .map(|(_, v, t)| (v.clone(), *t))
                .collect()
        } else {
            self.lanes[s - 1][k]
                .iter()
                .filter(|l| l.key == lane.key)
                .flat_map(|l| l.qualified.iter())
                .filter(|(v, _)| newer(v))
                .cloned()
                .collect()
        };
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out.dedup_by(|b, a| a.0 == b.0);
        out
    }

    /// The stage's clusters this lane upgrades: all of them, or those running the lane's minor.
    fn lane_members(&self, s: usize, stream: Stream, key: Option<Minor>) -> Vec<usize> {
        let k = stream as usize;
        let members = &self.setup.stages[s].members;
        // Room for every member at once: a filtered list collected grows by doubling, each step a
        // reallocation and a copy (a stage of 300 clusters took 6 per offer).
        let mut out = Vec::with_capacity(members.len());
        out.extend(
            members
                .iter()
                .copied()
                .filter(|&c| !self.excluded[c])
                .filter(|&c| key.is_none_or(|m| self.ver(c, k).minor_key() == m)),
        );
        out
    }

    fn offer(&mut self, now: Time, s: usize, stream: Stream, li: usize) {
        let k = stream as usize;
        let candidates = self.candidates(s, stream, li);
        let Some(newest) = candidates.last().cloned() else {
            return;
        };
        let lane = &self.lanes[s][k][li];
        let key = lane.key;
        if let Some(busy) = lane.busy {
            if lane.told_busy.as_ref() != Some(&newest.0) {
                self.lanes[s][k][li].told_busy = Some(newest.0.clone());
                let r = &self.rollouts[busy];
                let state = match (r.soak_start, r.forced) {
                    (Some(_), true) => "FORCED_SOAKING",
                    (Some(_), false) => "SOAKING",
                    (None, _) => "RUNNING",
                };
                let msg = format!(
                    "{} {} is available, but the stage is {state} {} {}: it starts a newer version only once that completes",
                    stream.words(),
                    newest.0,
                    stream.words(),
                    r.version
                );
                self.emit(now, "STAGE_BUSY", Some(s), None, msg.into());
            }
            return;
        }
        let members = self.lane_members(s, stream, key);
        // Control plane: at most one minor above the lane's (lowest) control plane, when that leaves a
        // candidate; otherwise the newest, and clusters too far behind are VERSION_TOO_OLD.
        let pick = match stream {
            Stream::ControlPlane => members
                .iter()
                .map(|c| self.ver(*c, 0))
                .min()
                .and_then(|low| {
                    candidates
                        .iter()
                        .rev()
                        .find(|(v, _)| low.minors_to(v) <= 1)
                        .cloned()
                })
                .unwrap_or(newest),
            Stream::Node => newest,
        };
        if self.setup.one_target && key.is_some() {
            // Fleet-based: the first group runs only the targets some of its clusters need; a later
            // group takes a version only when it is the group's own target.
            let needed = members.iter().any(|&c| *self.ver(c, k) < pick.0);
            if (s == 0 && !needed) || (s > 0 && !self.group_takes(now, s, stream, li, &pick.0)) {
                return;
            }
        }
        if let Some(open) = self.all_held_until(now, &members, stream, &pick.0) {
            let lane = &mut self.lanes[s][k][li];
            let first = lane.paused.is_none();
            lane.paused.get_or_insert(now);
            lane.resume_gen += 1;
            let gen = lane.resume_gen;
            self.queue
                .push(open, Ev::Resume(s as u32, stream, li as u32, gen));
            if first {
                let msg = format!(
                    "{} {}: every cluster that needs it is held by its maintenance policy (window or exclusion) until {open}; the stage is PAUSED and then takes the latest version qualified by that time",
                    stream.words(),
                    pick.0
                );
                self.emit(now, "STAGE_PAUSED", Some(s), None, msg.into());
            }
            return;
        }
        let supersedes = candidates
            .iter()
            .filter(|(v, _)| *v < pick.0)
            .map(|(v, _)| v.text.clone())
            .collect();
        let paused = self.lanes[s][k][li].paused.take();
        self.start_rollout(now, s, stream, li, pick, supersedes, paused, members);
    }

    /// When every member that needs `v` is held by its maintenance policy at `now`, the first instant
    /// one of them may start; `None` when one may start now, none needs it, or none ever may (then the
    /// rollout starts and shows who never finishes).
    fn all_held_until(
        &mut self,
        now: Time,
        members: &[usize],
        stream: Stream,
        v: &Version,
    ) -> Option<Time> {
        let k = stream as usize;
        let mut earliest: Option<Time> = None;
        let mut holds = std::mem::take(&mut self.scratch_holds);
        let mut verdict = None;
        for &c in members {
            let cur = self.ver(c, k);
            let needs = *cur < *v && (stream == Stream::Node || cur.minors_to(v) <= 1);
            if !needs {
                continue;
            }
            let work = Work {
                node: stream == Stream::Node,
                minor: cur.minors_to(v) >= 1,
            };
            holds.clear();
            match self.setup.clusters[c]
                .policy
                .next_start(now, work, &mut holds)
            {
                Some(t) if t <= now => {
                    verdict = Some(None);
                    break;
                }
                Some(t) => earliest = Some(earliest.map_or(t, |e: Time| e.min(t))),
                None => {}
            }
        }
        holds.clear();
        self.scratch_holds = holds;
        verdict.unwrap_or(earliest)
    }

    /// Per-minor targets: the targets the clusters of stage `s` get from the release that made `v` the
    /// target of minor `key` (each cluster its own minor's, when newer than what it runs), with the
    /// clusters that get each.
    fn own_targets(
        &self,
        s: usize,
        stream: Stream,
        key: Option<Minor>,
        v: &Version,
    ) -> Vec<(Version, Vec<usize>)> {
        let k = stream as usize;
        let Some(release) = self.setup.releases.iter().find(|r| {
            r.streams.contains(&stream)
                && r.targets.iter().any(|t| t.from == key && t.version == *v)
        }) else {
            return Vec::new();
        };
        let mut out: Vec<(Version, Vec<usize>)> = Vec::new();
        for &c in &self.setup.stages[s].members {
            if self.excluded[c] {
                continue;
            }
            let cur = self.ver(c, k);
            let Some(t) = release
                .targets
                .iter()
                .find(|t| t.from == Some(cur.minor_key()) && t.version > *cur)
            else {
                continue;
            };
            match out.iter_mut().find(|(tv, _)| *tv == t.version) {
                Some((_, list)) => list.push(c),
                None => out.push((t.version.clone(), vec![c])),
            }
        }
        out
    }

    /// Fleet-based, per-minor: the group takes `v` (qualified upstream) only when it is the group's
    /// own target: its clusters that need an upgrade all get `v` from that release. Otherwise it is
    /// not upgraded, and the plan says why (once per version).
    fn group_takes(&mut self, now: Time, s: usize, stream: Stream, li: usize, v: &Version) -> bool {
        let k = stream as usize;
        let key = self.lanes[s][k][li].key;
        let own = self.own_targets(s, stream, key, v);
        if own.is_empty() {
            return false;
        }
        if own.len() == 1 && own[0].0 == *v {
            return true;
        }
        if self.lanes[s][k][li].told_mismatch.contains(v) {
            return false;
        }
        self.lanes[s][k][li].told_mismatch.push(v.clone());
        let stage = &self.setup.stages[s];
        let upstream = &self.setup.stages[s - 1];
        let targets: Vec<String> = own
            .iter()
            .map(|(tv, list)| {
                let names: Vec<&str> = list
                    .iter()
                    .take(3)
                    .map(|&c| self.setup.clusters[c].name.as_str())
                    .collect();
                let more = if list.len() > 3 { ", …" } else { "" };
                format!("{tv} ({}{more})", names.join(", "))
            })
            .collect();
        let msg = format!(
            "{} {v} was qualified by {} for clusters on {}, but {}'s own target is {}: GKE auto-upgrades a group only to a version that is its own target and was qualified upstream, so {} is not upgraded. Put both groups on the same minor version (upgrade the clusters that differ manually), or upgrade {} manually",
            stream.words(),
            upstream.fleet,
            key.map(minor_text).unwrap_or_default(),
            stage.fleet,
            targets.join(" and "),
            stage.fleet,
            stage.fleet
        );
        self.emit(now, "NOT_UPGRADED", Some(s), None, msg.clone().into());
        self.diagnostics
            .push(Diagnostic::warning("group-target-mismatch", msg).at("strategy.versions"));
        false
    }

    #[allow(clippy::too_many_arguments)]
    fn start_rollout(
        &mut self,
        now: Time,
        s: usize,
        stream: Stream,
        li: usize,
        (version, available): (Version, Time),
        supersedes: Vec<Name>,
        paused: Option<Time>,
        members: Vec<usize>,
    ) {
        let k = stream as usize;
        let stage = &self.setup.stages[s];
        let id = self.rollouts.len();
        let key = self.lanes[s][k][li].key;
        let bar_label = self.labels.add(match stream {
            Stream::ControlPlane => format!("control plane → {version}"),
            Stream::Node => format!("nodes → {version}"),
        });
        let bar_version = self.labels.add(version.text.clone());
        let vi = self.versions.add(&version);
        let version_id = self.version_name(vi);
        self.rollouts.push(Rollout {
            stage: s,
            stream,
            lane: key,
            version: version.clone(),
            available,
            paused,
            start: now,
            soak: stage.soak(stream, &version),
            soak_start: None,
            forced: false,
            completed: None,
            qualified: false,
            supersedes,
            remaining: members.len(),
            placing: true,
            bar_label,
            bar_version,
            version_id,
            vi,
        });
        let lane = &mut self.lanes[s][k][li];
        lane.busy = Some(id);
        lane.last_started = Some(version.clone());
        lane.told_busy = None;
        let from = if s == 0 {
            "the release channel".to_string()
        } else {
            format!("stage {}", self.setup.stages[s - 1].name)
        };
        let msg = format!(
            "{} rollout to {version} starts ({}, qualified by {from})",
            stream.words(),
            stream.gke()
        );
        self.emit(now, "STAGE_RUNNING", Some(s), None, msg.into());
        for c in members {
            self.start_cluster(now, c, stream, id);
        }
        self.rollouts[id].placing = false;
        self.queue.push(now.plus(FORCED_SOAK_AFTER), Ev::Forced(id));
        if self.rollouts[id].remaining == 0 && self.rollouts[id].soak_start.is_none() {
            self.begin_soak(now, id, false);
        }
    }

    fn skip(&mut self, now: Time, c: usize, r: usize, reason: &'static str, why: Message) {
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
        let cp = self.ver(c, 0);
        if *cp >= *v {
            return true;
        }
        if let Some(r) = cl.busy[0] {
            if self.rollouts[r as usize].version >= *v {
                return true;
            }
        }
        self.setup.releases.iter().any(|rel| {
            rel.streams.contains(&Stream::ControlPlane)
                && rel
                    .targets
                    .iter()
                    .any(|t| t.version >= *v && cp.minors_to(&t.version) <= 1)
        })
    }

    /// Cluster `c`'s name, version `other`'s (in [`Sim::versions`]) and rollout `r`'s version's, in
    /// the events' table.
    fn names(&mut self, c: usize, other: u32, r: usize) -> [NameId; 3] {
        [
            self.cluster_id(c),
            self.version_name(other),
            self.rollouts[r].version_id,
        ]
    }

    fn start_cluster(&mut self, now: Time, c: usize, stream: Stream, r: usize) {
        let k = stream as usize;
        if self.clusters[c].busy[k].is_some() {
            self.waiting
                .entry((c as u32, k))
                .or_default()
                .push_back(r as u32);
            return;
        }
        let v = &self.rollouts[r].version;
        let cur = self.ver(c, k);
        if cur >= v {
            let args = self.names(c, self.clusters[c].version[k], r);
            let why = Message::fill(
                by_stream(
                    stream,
                    &["", ": control plane already at ", ", not older than ", ""],
                    &["", ": nodes already at ", ", not older than ", ""],
                ),
                &args,
            );
            return self.skip(now, c, r, ALREADY_UPGRADED, why);
        }
        if stream == Stream::ControlPlane && cur.minors_to(v) > 1 {
            let args = self.names(c, self.clusters[c].version[k], r);
            let why = Message::fill(
                &[
                    "",
                    ": control plane ",
                    " is more than one minor version behind ",
                    "; GKE upgrades one minor at a time",
                ],
                &args,
            );
            self.skip(now, c, r, VERSION_TOO_OLD, why);
            return self.wake_nodes(now, c);
        }
        if stream == Stream::Node && *self.ver(c, 0) < *v {
            // Compared in place: a copy of the version would write its shared text's count (an
            // atomic step that waits for the bars just written) for every cluster.
            if self.control_plane_will_reach(c, v) {
                self.clusters[c].busy[k] = Some(r as u32);
                self.clusters[c].node_waits_for_cp = Some(r as u32);
                return;
            }
            let [name, cp, v] = self.names(c, self.clusters[c].version[0], r);
            let why = Message::fill(
                &[
                    "",
                    ": nodes cannot go to ",
                    " past the control plane ",
                    ", and no control-plane upgrade brings it there",
                ],
                &[name, v, cp],
            );
            return self.skip(now, c, r, INCOMPATIBLE_VERSION, why);
        }
        self.schedule(now, c, stream, r);
    }

    /// Places the upgrade in the cluster's windows: holds, then the work (node batches pause
    /// at window end and resume in the next window), and queues its completion.
    fn schedule(&mut self, now: Time, c: usize, stream: Stream, r: usize) {
        let k = stream as usize;
        let setup = self.sched[c];
        let ro = &self.rollouts[r];
        let v = &ro.version;
        let work = Work {
            node: stream == Stream::Node,
            minor: self.ver(c, k).minors_to(v) >= 1,
        };
        let mut holds = std::mem::take(&mut self.scratch_holds);
        let mut segments = std::mem::take(&mut self.scratch_segments);
        holds.clear();
        segments.clear();
        // After a pause the cluster's wait is drawn from when the stage paused: it was held all along
        // (a search from then finds the same opening, which is never before now).
        let from = match ro.paused.filter(|p| *p < now) {
            Some(p)
                if setup
                    .policy
                    .next_start(p, work, &mut holds)
                    .is_some_and(|t| t >= now) =>
            {
                p
            }
            _ => now,
        };
        holds.clear();
        let now = from;
        let mut end = None;
        match stream {
            Stream::ControlPlane => {
                if let Some(s) = setup.policy.next_start(now, work, &mut holds) {
                    let e = s.plus(setup.control_plane);
                    segments.push((s, e));
                    end = Some(e);
                }
            }
            Stream::Node => {
                let unconstrained = setup.policy.unconstrained();
                let batch = setup.per_node;
                let mut t = now;
                let mut finished = true;
                if unconstrained || setup.node_batches == 0 {
                    let e = t.plus(Duration(mul_saturating(batch.0, setup.node_batches as i64)));
                    segments.push((t, e));
                    t = e;
                } else {
                    // Every batch that starts before the window closes (or an exclusion begins) runs,
                    // the last one past the close; the rest wait for the next opening.
                    let mut left = setup.node_batches as i64;
                    while left > 0 {
                        let Some((s, until)) = setup.policy.next_opening(t, work, &mut holds)
                        else {
                            finished = false;
                            break;
                        };
                        let fit = if batch.0 <= 0 {
                            left
                        } else {
                            (until.0.saturating_sub(s.0) + batch.0 - 1) / batch.0
                        };
                        let n = fit.clamp(1, left);
                        let e = s.plus(Duration(mul_saturating(batch.0, n)));
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
        let kind = match stream {
            Stream::ControlPlane => PhaseKind::ControlPlaneUpgrade,
            Stream::Node => PhaseKind::NodeUpgrade,
        };
        let (bar_label, version, stage, v) =
            (ro.bar_label, Some(ro.bar_version), ro.stage, ro.version_id);
        for h in holds.drain(..) {
            let label = self.hold_label(h.label);
            self.clusters[c].phases.push(Phase {
                kind: if h.exclusion {
                    PhaseKind::ExclusionWait
                } else {
                    PhaseKind::MaintenanceWait
                },
                start: h.from,
                end: h.to,
                label,
                version,
            });
        }
        let cl = &mut self.clusters[c];
        for (s, e) in &segments {
            cl.phases.push(Phase {
                kind,
                start: *s,
                end: Some(*e),
                label: bar_label,
                version,
            });
        }
        cl.busy[k] = Some(r as u32);
        let first = segments.first().map(|(s, _)| *s);
        segments.clear();
        self.scratch_holds = holds;
        self.scratch_segments = segments;
        let name = self.cluster_id(c);
        if let Some(first) = first {
            if first > self.now {
                self.ahead
                    .push(first, Held::Started(c as u32, stream, r as u32));
            } else {
                let event = self.started(first, c, stream, r);
                self.list(event);
            }
        }
        match end {
            Some(e) => self.queue.push(e, Ev::Done(c as u32, stream, r as u32)),
            None => {
                let msg = Message::fill(
                    by_stream(
                        stream,
                        &[
                            "",
                            ": the maintenance window never opens again; the control plane upgrade to ",
                            " never finishes",
                        ],
                        &[
                            "",
                            ": the maintenance window never opens again; the nodes upgrade to ",
                            " never finishes",
                        ],
                    ),
                    &[name, v],
                );
                self.emit(now, "MAINTENANCE_POLICY", Some(stage), Some(c), msg);
            }
        }
    }

    /// The place of a maintenance hold's label in the bars' table, added on first sight. The last
    /// one found is tried first: a cluster's holds, and the next cluster's, are mostly by the same
    /// shared window.
    fn hold_label(&mut self, label: &Name) -> NameId {
        let addr = label.addr();
        if let Some((a, id)) = self.last_hold {
            if a == addr {
                return id;
            }
        }
        let id = match self.hold_labels.entry(addr) {
            std::collections::btree_map::Entry::Occupied(e) => *e.get(),
            std::collections::btree_map::Entry::Vacant(e) => {
                *e.insert(self.labels.add(label.clone()))
            }
        };
        self.last_hold = Some((addr, id));
        id
    }

    /// The event of cluster `c`'s upgrade of `stream` in rollout `r` starting at `at`.
    fn started(&self, at: Time, c: usize, stream: Stream, r: usize) -> Event {
        let ro = &self.rollouts[r];
        Event {
            at,
            reason: "UPGRADE_STARTED",
            stage: Some(NameId::new(ro.stage as u32)),
            cluster: Some(self.cluster_id(c)),
            message: Kept::fill(
                by_stream(
                    stream,
                    &["", ": control plane upgrade to ", " starts"],
                    &["", ": nodes upgrade to ", " starts"],
                ),
                &[self.cluster_id(c), ro.version_id],
            ),
        }
    }

    fn cluster_done(&mut self, now: Time, c: usize, stream: Stream, r: usize) {
        let k = stream as usize;
        let v = &self.rollouts[r].version;
        let newer = *v > *self.ver(c, k);
        let vi = self.rollouts[r].vi;
        let cl = &mut self.clusters[c];
        cl.busy[k] = None;
        cl.upgraded = true;
        if newer {
            cl.version[k] = vi;
            self.history.push(c, k, now, vi);
        }
        let stage = self.rollouts[r].stage;
        let msg = Message::fill(
            by_stream(
                stream,
                &["", ": control plane upgraded to ", ""],
                &["", ": nodes upgraded to ", ""],
            ),
            &[self.cluster_id(c), self.rollouts[r].version_id],
        );
        self.emit(now, "UPGRADE_SUCCEEDED", Some(stage), Some(c), msg);
        self.member_done(now, r);
        if stream == Stream::ControlPlane {
            self.wake_nodes(now, c);
        }
        if let Some(next) = self.next_waiting(c, k) {
            self.start_cluster(now, c, stream, next);
        }
    }

    /// A node rollout waiting for this cluster's control plane: start it, or give up when the
    /// control plane will never get there.
    fn wake_nodes(&mut self, now: Time, c: usize) {
        let Some(r) = self.clusters[c].node_waits_for_cp else {
            return;
        };
        let r = r as usize;
        let v = &self.rollouts[r].version;
        if self.ver(c, 0) >= v {
            self.clusters[c].node_waits_for_cp = None;
            self.schedule(now, c, Stream::Node, r);
        } else if !self.control_plane_will_reach(c, v) && self.clusters[c].busy[0].is_none() {
            self.clusters[c].node_waits_for_cp = None;
            self.clusters[c].busy[1] = None;
            let [name, cp, v] = self.names(c, self.clusters[c].version[0], r);
            let why = Message::fill(
                &["", ": nodes cannot go to ", " past the control plane ", ""],
                &[name, v, cp],
            );
            self.skip(now, c, r, INCOMPATIBLE_VERSION, why);
            if let Some(next) = self.next_waiting(c, 1) {
                self.start_cluster(now, c, Stream::Node, next);
            }
        }
    }

    /// The first rollout waiting for cluster `c`'s stream `k` to be free, taken off the list.
    fn next_waiting(&mut self, c: usize, k: usize) -> Option<usize> {
        if self.waiting.is_empty() {
            return None;
        }
        let list = self.waiting.get_mut(&(c as u32, k))?;
        let next = list.pop_front();
        if list.is_empty() {
            self.waiting.remove(&(c as u32, k));
        }
        next.map(|r| r as usize)
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
        let (stage, stream, soak, v) = (ro.stage, ro.stream, ro.soak, &ro.version);
        self.queue.push(now.plus(soak), Ev::SoakDone(r));
        let (reason, msg) = if forced {
            (
                "STAGE_FORCED_SOAKING",
                format!(
                    "{} {v}: {} clusters still upgrading {FORCED_SOAK_AFTER} after the stage began; it soaks anyway for {soak} (they continue)",
                    stream.words(),
                    ro.remaining
                ),
            )
        } else {
            (
                "STAGE_SOAKING",
                format!("{} {v}: every upgrade done; soaking {soak}", stream.words()),
            )
        };
        self.emit(now, reason, Some(stage), None, msg.into());
    }

    /// Fleet-based, per-minor: the clusters of the group that do not run the rollout's one target when
    /// its soak ends, each with the version it runs.
    fn not_on_target(&self, r: usize) -> Vec<(usize, Version)> {
        let ro = &self.rollouts[r];
        let k = ro.stream as usize;
        self.setup.stages[ro.stage]
            .members
            .iter()
            .copied()
            .filter(|&c| !self.excluded[c])
            .filter(|&c| *self.ver(c, k) != ro.version)
            .map(|c| (c, self.ver(c, k).clone()))
            .collect()
    }

    fn soak_done(&mut self, now: Time, r: usize) {
        let (s, stream, key) = {
            let ro = &self.rollouts[r];
            (ro.stage, ro.stream, ro.lane)
        };
        let k = stream as usize;
        let li = self.lane_index(s, stream, key);
        let off = if self.setup.one_target && key.is_some() {
            self.not_on_target(r)
        } else {
            Vec::new()
        };
        let ro = &mut self.rollouts[r];
        ro.completed = Some(now);
        ro.qualified = off.is_empty();
        let v = ro.version.clone();
        let lane = &mut self.lanes[s][k][li];
        lane.busy = None;
        if off.is_empty() {
            lane.qualified.push((v.clone(), now));
            let msg = format!("{} {v} qualified by this stage", stream.words());
            self.emit(now, "STAGE_COMPLETED", Some(s), None, msg.into());
        } else {
            self.report_not_qualified(now, r, &off);
        }
        if s + 1 == self.setup.stages.len() {
            let msg = format!("{} rollout of {v} completed every stage", stream.words());
            self.emit(now, "ROLLOUT_COMPLETED", None, None, msg.into());
        } else {
            let next = self.lane_index(s + 1, stream, key);
            self.offer(now, s + 1, stream, next);
        }
        self.offer(now, s, stream, li);
    }

    /// A fleet-based group finished a per-minor target that not all its clusters run: it qualifies
    /// nothing, and the plan says why and what to do.
    fn report_not_qualified(&mut self, now: Time, r: usize, off: &[(usize, Version)]) {
        let ro = &self.rollouts[r];
        let (s, stream, v) = (ro.stage, ro.stream, ro.version.clone());
        let stage = &self.setup.stages[s];
        let shown: Vec<String> = off
            .iter()
            .take(5)
            .map(|(c, cv)| format!("{} runs {cv}", self.setup.clusters[*c].name))
            .collect();
        let more = if off.len() > 5 { ", …" } else { "" };
        let next = match self.setup.stages.get(s + 1) {
            Some(n) => format!("so {} is not auto-upgraded to it", n.fleet),
            None => "so it qualifies nothing".to_string(),
        };
        let msg = format!(
            "{} {v}: group {} finished this target, but not all its clusters run it ({}{more}): a group qualifies a version only when all its clusters ran that one target, {next}. Put the group's clusters on one minor version (upgrade the others manually) so that one target qualifies",
            stream.words(),
            stage.fleet,
            shown.join(", ")
        );
        self.emit(now, "NOT_QUALIFIED", Some(s), None, msg.clone().into());
        self.diagnostics
            .push(Diagnostic::warning("group-not-qualified", msg).at("strategy.versions"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Placing node batches multiplies a batch's length by a count: the 32-bit shortcut gives what
    /// `saturating_mul` gives, at the edges of both ranges and past them.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn batch_products_saturate_as_saturating_mul_does() {
        let edges = [
            0,
            1,
            -1,
            7,
            600_000,
            i64::from(i32::MAX),
            i64::from(i32::MIN),
            i64::from(i32::MAX) + 1,
            i64::from(i32::MIN) - 1,
            1 << 40,
            -(1 << 40),
            i64::MAX,
            i64::MIN,
        ];
        for a in edges {
            for b in edges {
                assert_eq!(mul_saturating(a, b), a.saturating_mul(b), "{a} * {b}");
            }
        }
    }
}
