//! From a GKE scenario to the groups the simulation runs: the stage (or fleet chain) order, which
//! cluster belongs to which group, soaks, versions, maintenance policies and upgrade durations, with
//! every rule GKE enforces reported as a diagnostic with its field path.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::diag::Diagnostic;
use crate::model::{FleetCluster, FleetPath, Scenario};
use crate::plan::{AssumptionNote, Name};
use crate::time::{Duration, Time, DAY, MINUTE};

use super::model::{FleetSequence, RolloutSequence, VersionEvent};
use super::select::Selector;
use super::version::{Minor, Version};
use super::window::{self, Exclusion, ExclusionSet, Policy, Window};

/// The two upgrade streams, which run in parallel with their own soaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stream {
    ControlPlane = 0,
    Node = 1,
}

impl Stream {
    pub const BOTH: [Stream; 2] = [Stream::ControlPlane, Stream::Node];
    /// The name in plan JSON (`upgradeType`).
    pub fn key(self) -> &'static str {
        match self {
            Stream::ControlPlane => "controlPlane",
            Stream::Node => "node",
        }
    }
    /// The words in labels: `control plane`, `nodes`.
    pub fn words(self) -> &'static str {
        match self {
            Stream::ControlPlane => "control plane",
            Stream::Node => "nodes",
        }
    }
    /// GKE's own name (`versionUpgrade.type`).
    pub fn gke(self) -> &'static str {
        match self {
            Stream::ControlPlane => "TYPE_CONTROL_PLANE",
            Stream::Node => "TYPE_NODE_POOL",
        }
    }
}

/// Most a stage may soak (GKE: 30 days); also when a stage still upgrading is forced to soak.
pub const MAX_SOAK: Duration = Duration(30 * DAY.0);
pub const FORCED_SOAK_AFTER: Duration = Duration(30 * DAY.0);
/// Fleet-based sequencing's default `postConditions.soaking`.
pub const DEFAULT_FLEET_SOAK: Duration = Duration(7 * DAY.0);
pub const DEFAULT_CONTROL_PLANE: Duration = Duration(30 * MINUTE.0);
pub const DEFAULT_PER_NODE: Duration = Duration(10 * MINUTE.0);
pub const DEFAULT_POOL_NODES: u32 = 3;
pub const MAX_EXCLUSIONS: usize = 20;
/// GKE's quotas and limits: at most 65,000 nodes in a cluster, and 1,000 per node pool per zone.
/// fleetplan's pools carry no zones, so only the cluster total can be refused; a larger cluster is
/// planned as if it had this many nodes (its plan is invalid anyway), which keeps the work bounded.
pub const MAX_CLUSTER_NODES: u64 = 65_000;
pub const MAX_POOL_NODES_PER_ZONE: u64 = 1_000;
pub const MAX_NO_UPGRADES: usize = 3;
pub const MAX_NO_UPGRADES_LENGTH: Duration = Duration(30 * DAY.0);

pub struct StageSetup {
    pub name: Name,
    pub fleet: String,
    pub selector: Option<String>,
    /// Soak per stream and version (fleet overrides); `soak_default` otherwise.
    pub soak_default: Duration,
    pub soak_overrides: Vec<(Stream, Version, Duration)>,
    pub members: Vec<usize>,
}

impl StageSetup {
    pub fn soak(&self, stream: Stream, v: &Version) -> Duration {
        self.soak_overrides
            .iter()
            .find(|(s, ov, _)| *s == stream && ov == v)
            .map_or(self.soak_default, |(_, _, d)| *d)
    }
}

pub struct ClusterSetup {
    pub name: Name,
    /// Shared by the fleet's clusters (a fleet has thousands, a sequence a handful of fleets).
    pub fleet: Name,
    pub stage: usize,
    /// Left out by `ignoredClustersSelector` (EXCLUDED_BY_FILTER).
    pub excluded: bool,
    pub control_plane: Version,
    pub node: Version,
    /// The release channel when it is one GKE has (another is an error already reported).
    pub channel: Option<&'static str>,
    pub policy: Policy,
    pub control_plane_duration: Duration,
    /// Surge batches of the node upgrade (pools one after another) and how long each takes.
    pub node_batches: u64,
    pub per_node: Duration,
}

/// What one release makes the auto-upgrade target: `from: None` for every cluster (the flat form),
/// or for the clusters running minor `from`.
pub struct Target {
    pub from: Option<Minor>,
    pub version: Version,
}

pub struct Release {
    pub targets: Vec<Target>,
    pub streams: Vec<Stream>,
    pub at: Time,
}

pub struct Setup {
    pub stages: Vec<StageSetup>,
    pub clusters: Vec<ClusterSetup>,
    pub releases: Vec<Release>,
    /// Releases give one target per minor version (`targets`): each cluster takes its own.
    pub per_minor: bool,
    /// Fleet-based sequencing: a group qualifies a per-minor target only when all its clusters ran that
    /// one target, and the next group takes it only when it is that group's own target too.
    pub one_target: bool,
    pub valid: bool,
    /// False when GKE would refuse the sequence outright (a selector that does not parse): nothing is
    /// planned for it.
    pub plannable: bool,
    pub computed_channel: Option<String>,
    pub notes: Vec<AssumptionNote>,
    pub diagnostics: Vec<Diagnostic>,
}

type WindowEntry = Result<(Arc<Window>, Duration, i64), (&'static str, String)>;

/// `projects/my-project` and `my-project` name the same fleet.
pub fn fleet_id(text: &str) -> &str {
    let t = text.trim();
    t.strip_prefix("projects/").unwrap_or(t)
}

/// A field under where a cluster was declared (`clusters[3].maintenance`), written out only when a
/// diagnostic needs it.
#[derive(Clone, Copy)]
struct Within(FleetPath, &'static str);

impl std::fmt::Display for Within {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}

/// Soak durations as GKE and gcloud accept them: `259200s`, `7d`, `3d12h`, `1.5h` (units s, m, h, d).
pub fn parse_soak(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let bad = |why: &str| {
        format!("soak duration `{t}` {why} (write e.g. 259200s, 7d or 3d12h; units s, m, h, d)")
    };
    if t.is_empty() {
        return Err(bad("is empty"));
    }
    // gcloud reads a bare number as seconds.
    if let Ok(secs) = t.parse::<u32>() {
        return Ok(Duration(i64::from(secs) * 1_000));
    }
    let b = t.as_bytes();
    let mut i = 0;
    let mut total = 0f64;
    while i < b.len() {
        let s = i;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
            i += 1;
        }
        let n: f64 = t[s..i].parse().map_err(|_| bad("has no number"))?;
        let unit = match b.get(i) {
            Some(b's') => 1_000.0,
            Some(b'm') => 60_000.0,
            Some(b'h') => 3_600_000.0,
            Some(b'd') => 86_400_000.0,
            Some(_) => return Err(bad("has an unknown unit")),
            None => return Err(bad("has no unit")),
        };
        i += 1;
        total += n * unit;
    }
    if !total.is_finite() || total > 1e13 {
        return Err(bad("is too large"));
    }
    Ok(Duration(total.round() as i64))
}

const CHANNELS: [&str; 4] = ["EXTENDED", "STABLE", "REGULAR", "RAPID"];

struct Builder {
    start: Time,
    /// Each distinct window as written, parsed once with its availability (fleets share a handful of
    /// windows): the window and the least availability in 32 days with the day it starts, or the
    /// field and text of its parse error.
    windows: BTreeMap<String, WindowEntry>,
    /// The key of the window being looked up, written into one reused buffer.
    window_key: String,
    /// Each distinct list of exclusions, with its index, shared by the clusters that have it.
    exclusion_sets: BTreeMap<Vec<u8>, Option<Arc<ExclusionSet>>>,
    /// The key of the exclusions being looked up, as `window_key`.
    exclusion_key: Vec<u8>,
    /// Each distinct version text parsed once: thousands of clusters run the same few versions and
    /// share one copy of each.
    versions_seen: BTreeMap<String, Version>,
    /// Fleet ids seen so far, each shared by its clusters.
    fleets: Vec<Name>,
    diags: Vec<Diagnostic>,
    notes: Vec<AssumptionNote>,
    valid: bool,
    plannable: bool,
}

impl Builder {
    /// Starts from the fleet's diagnostics (duplicate names, generators) and the clusters' labels
    /// checked against Google Cloud's rules: an error among them already makes the sequence invalid.
    fn new(start: Time, scenario: &Scenario, mut diags: Vec<Diagnostic>) -> Builder {
        crate::labels::gcp::check_clusters(scenario, &mut diags);
        let valid = !diags.iter().any(Diagnostic::is_error);
        Builder {
            start,
            windows: BTreeMap::new(),
            window_key: String::new(),
            exclusion_sets: BTreeMap::new(),
            exclusion_key: Vec::new(),
            versions_seen: BTreeMap::new(),
            fleets: Vec::new(),
            diags,
            notes: Vec::new(),
            valid,
            plannable: true,
        }
    }

    /// A CEL selector at `path`; one that does not parse is an error that leaves nothing to plan.
    fn selector(&mut self, text: &str, path: String) -> Selector {
        let (selector, error) = Selector::new(text);
        if let Some(e) = error {
            self.plannable = false;
            self.error(
                "cel-syntax",
                format!("label selector `{text}`: {}", e.message),
                path,
            );
        }
        selector
    }

    fn error(&mut self, code: &'static str, msg: String, path: String) {
        self.valid = false;
        self.diags.push(Diagnostic::error(code, msg).at(path));
    }

    fn soak(&mut self, text: Option<&str>, path: String, default: Duration) -> Duration {
        let Some(text) = text else {
            return default;
        };
        match parse_soak(text) {
            Ok(d) if d > MAX_SOAK => {
                self.error(
                    "soak-too-long",
                    format!("soak duration `{text}` ({d}) is longer than the maximum of 30 days"),
                    path,
                );
                MAX_SOAK
            }
            Ok(d) => d,
            Err(m) => {
                self.error("bad-soak-duration", m, path);
                default
            }
        }
    }

    /// The releases, sorted by time then version. Each is one target for every minor (`version`) or
    /// one per minor (`targets`); a sequence uses one form or the other.
    fn versions(&mut self, events: &[VersionEvent], path: &str) -> Vec<Release> {
        let mut out = Vec::new();
        let per_minor = events.iter().any(|e| !e.targets.is_empty());
        for (i, e) in events.iter().enumerate() {
            let p = format!("{path}.versions[{i}]");
            if per_minor && e.targets.is_empty() {
                self.error(
                    "mixed-version-forms",
                    format!("version {} is one target for every minor, but other releases of this sequence give one target per minor (`targets`): write this one as `targets` too, so each cluster's target is known", e.version),
                    format!("{p}.version"),
                );
                continue;
            }
            let targets = if per_minor {
                self.minor_targets(e, &p)
            } else {
                match Version::parse(&e.version) {
                    Ok(version) => vec![Target {
                        from: None,
                        version,
                    }],
                    Err(m) => {
                        self.error("bad-gke-version", m, format!("{p}.version"));
                        continue;
                    }
                }
            };
            if targets.is_empty() {
                continue;
            }
            let streams = match e.upgrade_type.as_deref().unwrap_or("both") {
                "both" => Stream::BOTH.to_vec(),
                "controlPlane" | "TYPE_CONTROL_PLANE" | "k8s_control_plane" => {
                    vec![Stream::ControlPlane]
                }
                "node" | "TYPE_NODE_POOL" | "k8s_node" => vec![Stream::Node],
                other => {
                    self.error(
                        "bad-upgrade-type",
                        format!("upgrade type `{other}` is not one of controlPlane, node, both"),
                        format!("{p}.upgradeType"),
                    );
                    continue;
                }
            };
            out.push(Release {
                targets,
                streams,
                at: e.at.unwrap_or(self.start).max(self.start),
            });
        }
        // By time, then versions: the order written never changes a plan.
        crate::sort::sort_by(&mut out, |a, b| {
            fn key(r: &Release) -> (Time, Option<&Version>) {
                (r.at, r.targets.iter().map(|t| &t.version).max())
            }
            key(a).cmp(&key(b)).then_with(|| a.streams.cmp(&b.streams))
        });
        if out.is_empty() && self.valid {
            self.diags.push(
                Diagnostic::info(
                    "no-versions",
                    "no version becomes an auto-upgrade target: the sequence has nothing to roll out (add `versions`)",
                )
                .at(format!("{path}.versions")),
            );
        }
        out
    }

    /// `targets: {"1.20": 1.21.14-gke.4300}`: each minor once, each target on that minor or the next
    /// (GKE upgrades one minor version at a time), sorted by minor.
    fn minor_targets(&mut self, e: &VersionEvent, p: &str) -> Vec<Target> {
        let mut out: Vec<Target> = Vec::new();
        for t in &e.targets {
            let tp = format!("{p}.targets.{}", t.minor);
            let Some(from) = super::version::parse_minor(&t.minor) else {
                self.error(
                    "bad-minor-version",
                    format!(
                        "`{}` is not a minor version (write it as MAJOR.MINOR, e.g. \"1.31\")",
                        t.minor
                    ),
                    tp,
                );
                continue;
            };
            let version = match Version::parse(&t.version) {
                Ok(v) => v,
                Err(m) => {
                    self.error("bad-gke-version", m, tp);
                    continue;
                }
            };
            let minors = i64::from(version.major) * 100 + i64::from(version.minor)
                - (i64::from(from.0) * 100 + i64::from(from.1));
            if !(0..=1).contains(&minors) {
                self.error(
                    "bad-minor-target",
                    format!(
                        "target {version} for clusters on {}: a target is on the same minor version or the next one (GKE upgrades one minor version at a time)",
                        t.minor
                    ),
                    tp,
                );
                continue;
            }
            if out.iter().any(|o| o.from == Some(from)) {
                self.error(
                    "duplicate-minor-target",
                    format!("minor version {} has two targets in one release", t.minor),
                    tp,
                );
                continue;
            }
            out.push(Target {
                from: Some(from),
                version,
            });
        }
        out.sort_by_key(|t| t.from);
        out
    }

    /// A cluster's versions, policy and durations; `None` when it cannot take part (no version).
    fn cluster(&mut self, fc: &FleetCluster, stage: usize, excluded: bool) -> Option<ClusterSetup> {
        let c = &fc.cluster;
        let p = &fc.path;
        let Some(cp_text) = c.version.as_ref().and_then(|v| v.control_plane.as_deref()) else {
            self.error(
                "missing-cluster-version",
                format!("cluster `{}` has no `version.controlPlane`: fleetplan cannot tell which upgrades it needs", c.name),
                format!("{p}.version"),
            );
            return None;
        };
        let control_plane = match self.version(cp_text) {
            Ok(v) => v,
            Err(m) => {
                self.error("bad-gke-version", m, format!("{p}.version.controlPlane"));
                return None;
            }
        };
        let node = match c.version.as_ref().and_then(|v| v.node.as_deref()) {
            None => control_plane.clone(),
            Some(t) => match self.version(t) {
                Ok(v) => v,
                Err(m) => {
                    self.error("bad-gke-version", m, format!("{p}.version.node"));
                    control_plane.clone()
                }
            },
        };
        if node > control_plane {
            self.diags.push(
                Diagnostic::warning(
                    "node-newer-than-control-plane",
                    format!("cluster `{}`: nodes run {node}, newer than the control plane {control_plane}; GKE never lets nodes pass their control plane", c.name),
                )
                .at(format!("{p}.version.node")),
            );
        }
        let channel = c
            .release_channel
            .as_deref()
            .and_then(|ch| CHANNELS.iter().copied().find(|known| *known == ch));
        if let Some(ch) = &c.release_channel {
            if channel.is_none() {
                self.error(
                    "bad-release-channel",
                    format!(
                        "release channel `{ch}` is not one of RAPID, REGULAR, STABLE, EXTENDED"
                    ),
                    format!("{p}.releaseChannel"),
                );
            }
        }
        let policy = self.policy(fc);
        let d = c.upgrade_durations.clone().unwrap_or_default();
        let per_node = d.per_node.unwrap_or(DEFAULT_PER_NODE);
        let nodes: u64 = c.node_pools.iter().map(|np| u64::from(np.nodes)).sum();
        if nodes > MAX_CLUSTER_NODES {
            self.error(
                "gke-too-many-nodes",
                format!(
                    "cluster `{}` has {nodes} nodes in its node pools; GKE supports at most {MAX_CLUSTER_NODES} nodes per cluster (and {MAX_POOL_NODES_PER_ZONE} per node pool per zone); planned as {MAX_CLUSTER_NODES}",
                    c.name
                ),
                format!("{p}.nodePools"),
            );
        }
        let node_batches = if c.node_pools.is_empty() {
            u64::from(DEFAULT_POOL_NODES)
        } else {
            // Pools in order until the cluster cap is spent, so a refused cluster still plans bounded work.
            let mut left = MAX_CLUSTER_NODES;
            c.node_pools
                .iter()
                .map(|np| {
                    let n = u64::from(np.nodes).min(left);
                    left -= n;
                    n.div_ceil(u64::from(np.max_surge.unwrap_or(1).max(1)))
                })
                .sum()
        };
        let fleet = self.fleet(c.fleet.as_deref().map(fleet_id).unwrap_or_default());
        Some(ClusterSetup {
            name: c.name.clone(),
            fleet,
            stage,
            excluded,
            control_plane,
            node,
            channel,
            policy,
            control_plane_duration: d.control_plane.unwrap_or(DEFAULT_CONTROL_PLANE),
            node_batches,
            per_node,
        })
    }

    /// A version text parsed once per distinct text (errors are not kept: each is reported where it is).
    fn version(&mut self, text: &str) -> Result<Version, String> {
        if let Some(v) = self.versions_seen.get(text) {
            return Ok(v.clone());
        }
        let v = Version::parse(text)?;
        self.versions_seen.insert(text.to_string(), v.clone());
        Ok(v)
    }

    /// The shared name of fleet `id`.
    fn fleet(&mut self, id: &str) -> Name {
        if let Some(f) = self.fleets.iter().find(|f| f.as_str() == id) {
            return f.clone();
        }
        // A fleet per cluster is possible (and then this list is as long as the fleet): beyond a few
        // dozen, names are not shared, so the search stays short.
        let name = Name::from(id);
        if self.fleets.len() < 64 {
            self.fleets.push(name.clone());
        }
        name
    }

    fn policy(&mut self, fc: &FleetCluster) -> Policy {
        let Some(m) = &fc.cluster.maintenance else {
            return Policy::default();
        };
        let mut window = None;
        let mut exclusions = Vec::new();
        let p = Within(fc.path, ".maintenance");
        let plan_day = self.start.0.div_euclid(DAY.0);
        if let Some(w) = &m.window {
            let mut key = std::mem::take(&mut self.window_key);
            key.clear();
            match w {
                crate::model::MaintenanceWindow::Daily { start } => {
                    key.push_str("d ");
                    key.push_str(start);
                }
                crate::model::MaintenanceWindow::Recurring {
                    start,
                    end,
                    recurrence,
                } => {
                    for (i, part) in [start, end, recurrence].into_iter().enumerate() {
                        key.push_str(if i == 0 { "r " } else { "\n" });
                        key.push_str(part);
                    }
                }
            }
            let entry = match self.windows.get(&key) {
                Some(e) => e.clone(),
                None => {
                    let e = Window::parse(w, plan_day).map(|w| {
                        let (least, from) = w.least_availability();
                        (Arc::new(w), least, from)
                    });
                    self.windows.insert(key.clone(), e.clone());
                    e
                }
            };
            self.window_key = key;
            match entry {
                Ok((w, least, from)) => {
                    if least < window::MIN_AVAILABILITY {
                        let day = Time(from * DAY.0).to_string();
                        self.error(
                            "maintenance-window-too-short",
                            format!(
                                "{} ({} gives {} of availability in the 32 days from {}; GKE counts only spans of at least 4h)",
                                window::AVAILABILITY_ERROR,
                                w.label,
                                least,
                                &day[..10]
                            ),
                            format!("{p}.window"),
                        );
                    }
                    window = Some(w);
                }
                Err((field, m)) => {
                    let code = if field == "recurrence" {
                        "bad-rrule"
                    } else {
                        "bad-maintenance-window"
                    };
                    let sub = match w {
                        crate::model::MaintenanceWindow::Daily { .. } => "daily".to_string(),
                        crate::model::MaintenanceWindow::Recurring { .. } => field.to_string(),
                    };
                    self.error(code, m, format!("{p}.window.{sub}"));
                }
            }
        }
        if m.exclusions.len() > MAX_EXCLUSIONS {
            self.error(
                "too-many-exclusions",
                format!(
                    "cluster `{}` has {} maintenance exclusions; GKE allows at most {MAX_EXCLUSIONS}",
                    fc.cluster.name,
                    m.exclusions.len()
                ),
                format!("{p}.exclusions"),
            );
        }
        let no_upgrades = m
            .exclusions
            .iter()
            .filter(|x| x.scope == "NO_UPGRADES")
            .count();
        if no_upgrades > MAX_NO_UPGRADES {
            self.error(
                "too-many-no-upgrades-exclusions",
                format!(
                    "cluster `{}` has {no_upgrades} NO_UPGRADES exclusions; GKE allows at most {MAX_NO_UPGRADES}",
                    fc.cluster.name
                ),
                format!("{p}.exclusions"),
            );
        }
        for (i, x) in m.exclusions.iter().enumerate() {
            let xp = format!("{p}.exclusions[{i}]");
            match window::parse_exclusion(x) {
                Ok(e) => {
                    if e.scope == window::Scope::NoUpgrades
                        && e.end.since(e.start) > MAX_NO_UPGRADES_LENGTH
                    {
                        self.error(
                            "exclusion-too-long",
                            format!(
                                "exclusion `{}` is NO_UPGRADES for {}; GKE allows at most 30 days for that scope",
                                e.name,
                                e.end.since(e.start)
                            ),
                            format!("{xp}.end"),
                        );
                    }
                    exclusions.push(e);
                }
                Err((field, m)) => {
                    let code = if field == "scope" {
                        "bad-exclusion-scope"
                    } else {
                        "bad-exclusion-time"
                    };
                    self.error(code, m, format!("{xp}.{field}"));
                }
            }
        }
        Policy::shared(window, self.exclusion_set(exclusions))
    }

    /// One set (and index) for all clusters whose exclusions are the same, in the same order.
    fn exclusion_set(&mut self, list: Vec<Exclusion>) -> Option<Arc<ExclusionSet>> {
        if list.is_empty() {
            return None;
        }
        let mut key = std::mem::take(&mut self.exclusion_key);
        key.clear();
        for e in &list {
            // The name's length first, so no name can read as the fields after it; numbers as
            // their bytes, with no formatting.
            key.extend_from_slice(&e.name.len().to_le_bytes());
            key.extend_from_slice(e.name.as_bytes());
            key.extend_from_slice(&e.start.0.to_le_bytes());
            key.extend_from_slice(&e.end.0.to_le_bytes());
            key.push(e.scope as u8);
        }
        let set = match self.exclusion_sets.get(&key) {
            Some(set) => set.clone(),
            None => {
                let set = ExclusionSet::new(list);
                self.exclusion_sets.insert(key.clone(), set.clone());
                set
            }
        };
        self.exclusion_key = key;
        set
    }

    fn finish(
        mut self,
        mut stages: Vec<StageSetup>,
        mut clusters: Vec<ClusterSetup>,
        releases: Vec<Release>,
        path: &str,
        one_target: bool,
    ) -> Setup {
        let per_minor = releases
            .iter()
            .any(|r| r.targets.iter().any(|t| t.from.is_some()));
        // GKE's own order (stage, then cluster name) everywhere, whatever order the input lists
        // clusters in: every later loop (rows, same-instant events, ties) walks clusters by index.
        // By stage in one counting pass; within a stage the clusters usually come in name order
        // already (a fleet is usually listed or generated that way), and only a stage that does not
        // is sorted.
        let mut starts = vec![0usize; stages.len() + 1];
        for c in &clusters {
            starts[c.stage + 1] += 1;
        }
        for s in 1..starts.len() {
            starts[s] += starts[s - 1];
        }
        let mut next = starts.clone();
        let mut order = vec![0usize; clusters.len()];
        for (i, c) in clusters.iter().enumerate() {
            order[next[c.stage]] = i;
            next[c.stage] += 1;
        }
        for s in 0..stages.len() {
            let group = &mut order[starts[s]..starts[s + 1]];
            if group
                .windows(2)
                .any(|w| clusters[w[0]].name > clusters[w[1]].name)
            {
                crate::sort::sort_by(group, |a, b| clusters[*a].name.cmp(&clusters[*b].name));
            }
        }
        crate::sort::permute(&mut clusters, &mut order);
        for s in &mut stages {
            s.members.clear();
        }
        for (i, c) in clusters.iter().enumerate() {
            stages[c.stage].members.push(i);
        }
        let channels: BTreeSet<&str> = clusters
            .iter()
            .filter(|c| !c.excluded)
            .filter_map(|c| c.channel)
            .filter(|c| CHANNELS.contains(c))
            .collect();
        let computed = CHANNELS
            .iter()
            .find(|c| channels.contains(**c))
            .map(|c| c.to_string());
        if channels.len() > 1 {
            let list: Vec<&str> = channels.iter().copied().collect();
            self.diags.push(
                Diagnostic::warning(
                    "MIXED_RELEASE_CHANNELS_WARNING",
                    format!(
                        "the sequence's clusters use several release channels ({}); GKE takes versions from the most conservative one, {}",
                        list.join(", "),
                        computed.as_deref().unwrap_or("-")
                    ),
                )
                .at("clusters"),
            );
        }
        if clusters.iter().all(|c| c.excluded) {
            self.diags.push(
                Diagnostic::warning(
                    "NO_CLUSTERS_IN_SEQUENCE",
                    "no cluster of the scenario belongs to a fleet of this sequence",
                )
                .at(path.to_string()),
            );
        }
        if let Some(ch) = &computed {
            self.notes.push(AssumptionNote {
                field: "computedReleaseChannel".into(),
                value: format!("{ch}: the versions listed in `versions` are that channel's auto-upgrade targets"),
                defaulted: false,
            });
        }
        let anyone = |f: &dyn Fn(&ClusterSetup) -> bool| clusters.iter().any(f);
        let mut note = |field: &str, value: String, defaulted: bool| {
            self.notes.push(AssumptionNote {
                field: field.into(),
                value,
                defaulted,
            })
        };
        note(
            "upgradeDurations.controlPlane",
            format!("{DEFAULT_CONTROL_PLANE} per control-plane upgrade unless a cluster says otherwise; it runs to completion once started, even past the window"),
            true,
        );
        note(
            "upgradeDurations.perNode",
            format!("{DEFAULT_PER_NODE} per surge batch (maxSurge nodes at once, node pools one after another) unless a cluster says otherwise; no batch starts outside the window, so node upgrades pause at window end and resume in the next one"),
            true,
        );
        if anyone(&|c| c.node_batches == u64::from(DEFAULT_POOL_NODES)) {
            note(
                "nodePools",
                format!("clusters without nodePools have one pool of {DEFAULT_POOL_NODES} nodes, maxSurge 1"),
                true,
            );
        }
        note(
            "forcedSoak",
            format!("a stage soaks {FORCED_SOAK_AFTER} after its upgrades began even if clusters are still upgrading (FORCED_SOAKING); they carry on"),
            true,
        );
        note(
            "maintenance",
            "clusters without a window may upgrade at any time; a daily window has always recurred (the block that began the evening before the start is open); other windows written as HH:MM recur from the plan's start day".into(),
            true,
        );
        Setup {
            stages,
            clusters,
            releases,
            per_minor,
            one_target,
            valid: self.valid,
            plannable: self.plannable,
            computed_channel: computed,
            notes: self.notes,
            diagnostics: self.diags,
        }
    }
}

/// Custom stages: stage order as written, clusters assigned by fleet and label selector.
pub fn rollout_sequence(scenario: &Scenario, seq: &RolloutSequence, start: Time) -> Setup {
    let (fleet, diags) = scenario.fleet();
    let mut b = Builder::new(start, scenario, diags);
    let path = "strategy";
    let mut stages = Vec::new();
    let mut catch_all: BTreeMap<String, usize> = BTreeMap::new();
    let mut selectors = Vec::new();
    for (i, s) in seq.stages.iter().enumerate() {
        let sp = format!("{path}.stages[{i}]");
        let fleets: Vec<&str> = s.fleet_projects.iter().map(|f| fleet_id(f)).collect();
        match fleets.len() {
            0 => b.error(
                "stage-without-fleet",
                format!("stage {} names no fleet project (fleetProjects is required)", i + 1),
                format!("{sp}.fleetProjects"),
            ),
            1 => {}
            n => b.error(
                "stage-with-several-fleets",
                format!(
                    "stage {} lists {n} fleet projects ({}); a stage may reference at most one fleet",
                    i + 1,
                    fleets.join(", ")
                ),
                format!("{sp}.fleetProjects"),
            ),
        }
        let fleet = fleets.first().copied().unwrap_or("").to_string();
        let soak = match &s.soak_duration {
            Some(t) => b.soak(Some(t), format!("{sp}.soakDuration"), Duration::ZERO),
            None => {
                b.notes.push(AssumptionNote {
                    field: format!("{sp}.soakDuration"),
                    value: "0s: none given (the API reads an absent soakDuration as zero; gcloud's --stage-config requires one)".into(),
                    defaulted: true,
                });
                Duration::ZERO
            }
        };
        if s.label_selector.is_none() && !fleet.is_empty() {
            if let Some(first) = catch_all.get(&fleet) {
                b.error(
                    "fleet-in-two-catch-all-stages",
                    format!(
                        "fleet {fleet} is the catch-all of stage {} and of stage {}: a fleet's remaining clusters can belong to only one stage",
                        first + 1,
                        i + 1
                    ),
                    format!("{sp}.fleetProjects"),
                );
            } else {
                catch_all.insert(fleet.clone(), i);
            }
        }
        let selector = s
            .label_selector
            .as_deref()
            .map(|t| b.selector(t, format!("{sp}.labelSelector")));
        // Stage names: the number GKE uses, the fleet, and a short form of the selector.
        let name = match (
            &s.label_selector,
            selector.as_ref().and_then(Selector::short),
        ) {
            (None, _) => format!("{} {fleet}", i + 1),
            (Some(_), Some(short)) => format!("{} {fleet} {short}", i + 1),
            (Some(sel), None) => format!("{} {fleet} [{}]", i + 1, sel.trim()),
        }
        .into();
        selectors.push(selector);
        stages.push(StageSetup {
            name,
            fleet,
            selector: s.label_selector.clone(),
            soak_default: soak,
            soak_overrides: Vec::new(),
            members: Vec::new(),
        });
    }
    for (i, s) in stages.iter().enumerate() {
        if s.selector.is_some() && !s.fleet.is_empty() {
            let later = catch_all.get(&s.fleet).is_some_and(|j| *j > i);
            if !later {
                let msg = format!(
                    "stage {} selects clusters of fleet {} by label, but no later stage takes the rest of that fleet: add a stage with fleetProjects [projects/{}] and no labelSelector after it",
                    i + 1, s.fleet, s.fleet
                );
                b.error(
                    "missing-catch-all-stage",
                    msg,
                    format!("{path}.stages[{i}].labelSelector"),
                );
            }
        }
    }
    let ignored = seq
        .ignored_clusters_selector
        .as_deref()
        .map(|t| b.selector(t, format!("{path}.ignoredClustersSelector")));
    let releases = b.versions(&seq.versions, path);
    // At most one per fleet cluster: the list never doubles past what it needs.
    let mut clusters = Vec::with_capacity(fleet.len());
    let mut outside = Vec::new();
    // Stage index → (label, clusters) where CEL's "no such key" keeps a cluster out of the stage.
    let mut surprises: BTreeMap<usize, (String, Vec<&str>)> = BTreeMap::new();
    for fc in &fleet {
        let f = fc.cluster.fleet.as_deref().map(fleet_id).unwrap_or("");
        let stage = stages.iter().enumerate().position(|(i, s)| {
            if s.fleet != f {
                return false;
            }
            let Some(sel) = selectors[i].as_ref() else {
                return true;
            };
            let (selected, surprise) = sel.select(&fc.cluster.labels);
            if let Some(key) = surprise {
                let entry = surprises
                    .entry(i)
                    .or_insert_with(|| (key.to_string(), Vec::new()));
                entry.1.push(fc.cluster.name.as_str());
            }
            selected
        });
        let Some(stage) = stage else {
            outside.push(fc.cluster.name.as_str());
            continue;
        };
        let excluded = ignored
            .as_ref()
            .is_some_and(|sel| sel.matches(&fc.cluster.labels));
        if let Some(c) = b.cluster(fc, stage, excluded) {
            stages[stage].members.push(clusters.len());
            clusters.push(c);
        }
    }
    report_outside(&mut b, &mut outside);
    for (i, (key, names)) in &mut surprises {
        names.sort_unstable();
        let shown = names[..names.len().min(5)].join(", ");
        b.diags.push(
            Diagnostic::warning(
                "cel-missing-label",
                format!(
                    "stage {} reads label `{key}`, which {} cluster(s) lack ({shown}{}): CEL raises \"no such key\", so GKE does not select them in this stage although the selector reads as if it would; guard it with has(resource.labels.{key}) if they belong here",
                    i + 1,
                    names.len(),
                    if names.len() > 5 { ", …" } else { "" }
                ),
            )
            .at(format!("{path}.stages[{i}].labelSelector")),
        );
    }
    for (i, s) in stages.iter().enumerate() {
        if s.members.is_empty() && !s.fleet.is_empty() {
            b.diags.push(
                Diagnostic::warning(
                    "EMPTY_STAGE_WARNING",
                    format!(
                        "stage {} selects no cluster: GKE skips it, but its soak ({}) still passes before the next stage",
                        i + 1,
                        s.soak_default
                    ),
                )
                .at(format!("{path}.stages[{i}]")),
            );
        }
    }
    b.finish(stages, clusters, releases, path, false)
}

fn report_outside(b: &mut Builder, outside: &mut [&str]) {
    if outside.is_empty() {
        return;
    }
    outside.sort_unstable();
    let shown = outside[..outside.len().min(5)].join(", ");
    b.diags.push(
        Diagnostic::info(
            "cluster-not-in-sequence",
            format!(
                "{} cluster(s) belong to no stage of the sequence ({shown}{}): their fleet is not in it, or no stage of their fleet selects them; the sequence does not upgrade them",
                outside.len(),
                if outside.len() > 5 { ", …" } else { "" }
            ),
        )
        .at("clusters"),
    );
}

/// Fleet-based (or scope-based) chains: the order follows `upstreamFleets`.
pub fn fleet_sequence(scenario: &Scenario, seq: &FleetSequence, start: Time) -> Setup {
    let (fleet, diags) = scenario.fleet();
    let mut b = Builder::new(start, scenario, diags);
    let path = "strategy";
    let scopes = match seq.grouping.as_deref() {
        None | Some("fleet") => false,
        Some("scope") => true,
        Some(other) => {
            b.error(
                "bad-grouping",
                format!("grouping `{other}` is not `fleet` or `scope`"),
                format!("{path}.grouping"),
            );
            false
        }
    };
    let noun = if scopes { "scope" } else { "fleet" };
    let max_groups = if scopes { 3 } else { 5 };
    if seq.groups.len() > max_groups {
        b.error(
            "too-many-groups",
            format!(
                "the sequence has {} groups; a {noun}-based sequence allows at most {max_groups}",
                seq.groups.len()
            ),
            format!("{path}.groups"),
        );
    }
    let ids: Vec<&str> = seq.groups.iter().map(|g| fleet_id(&g.fleet)).collect();
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, id) in ids.iter().enumerate() {
        if let Some(first) = index.get(id) {
            b.error(
                "fleet-in-two-groups",
                format!("{noun} {id} appears in groups {} and {}: a {noun} belongs to one sequence, once", first + 1, i + 1),
                format!("{path}.groups[{i}].fleet"),
            );
        } else {
            index.insert(id, i);
        }
    }
    // upstream[i] = group index of i's upstream.
    let mut upstream: Vec<Option<usize>> = vec![None; ids.len()];
    for (i, g) in seq.groups.iter().enumerate() {
        let gp = format!("{path}.groups[{i}].upstreamFleets");
        if g.upstream_fleets.len() > 1 {
            b.error(
                "too-many-upstream-fleets",
                format!(
                    "{noun} {} lists {} upstream {noun}s; GKE allows one",
                    ids[i],
                    g.upstream_fleets.len()
                ),
                gp.clone(),
            );
        }
        if let Some(u) = g.upstream_fleets.first() {
            match index.get(fleet_id(u)) {
                Some(j) if *j == i => b.error(
                    "fleet-chain-loop",
                    format!("{noun} {} is its own upstream", ids[i]),
                    gp,
                ),
                Some(j) => upstream[i] = Some(*j),
                None => b.error(
                    "unknown-upstream-fleet",
                    format!(
                        "upstream {noun} {} of {} is not a group of this sequence",
                        fleet_id(u),
                        ids[i]
                    ),
                    gp,
                ),
            }
        }
    }
    for (j, _) in ids.iter().enumerate() {
        let downstream: Vec<usize> = (0..ids.len()).filter(|i| upstream[*i] == Some(j)).collect();
        if downstream.len() > 1 {
            let names: Vec<&str> = downstream.iter().map(|i| ids[*i]).collect();
            b.error(
                "fleet-chain-branch",
                format!(
                    "{noun} {} is upstream of {} ({}): a sequence is a linear chain, without branches",
                    ids[j],
                    names.len(),
                    names.join(", ")
                ),
                format!("{path}.groups[{}].upstreamFleets", downstream[1]),
            );
        }
    }
    // Walk the chain from its head; a loop has no head, or leaves groups unreached.
    let heads: Vec<usize> = (0..ids.len()).filter(|i| upstream[*i].is_none()).collect();
    if heads.len() > 1 && !ids.is_empty() {
        let names: Vec<&str> = heads.iter().map(|i| ids[*i]).collect();
        b.error(
            "fleet-chain-branch",
            format!(
                "{} {noun}s have no upstream ({}): a sequence is one chain with one first group",
                heads.len(),
                names.join(", ")
            ),
            format!("{path}.groups[{}].upstreamFleets", heads[1]),
        );
    }
    let mut order = Vec::new();
    let mut seen = vec![false; ids.len()];
    if let Some(&head) = heads.first() {
        let mut cur = Some(head);
        while let Some(i) = cur {
            if seen[i] {
                break;
            }
            seen[i] = true;
            order.push(i);
            cur = (0..ids.len()).find(|d| upstream[*d] == Some(i) && !seen[*d]);
        }
    }
    let unreached: Vec<usize> = (0..ids.len()).filter(|i| !seen[*i]).collect();
    if !unreached.is_empty() && b.valid {
        let names: Vec<&str> = unreached.iter().map(|i| ids[*i]).collect();
        b.error(
            "fleet-chain-loop",
            format!(
                "the upstream links of {} form a loop: no {noun} among them is first",
                names.join(", ")
            ),
            format!("{path}.groups[{}].upstreamFleets", unreached[0]),
        );
    }
    order.extend(unreached);
    let mut stages = Vec::new();
    for &i in &order {
        let g = &seq.groups[i];
        let gp = format!("{path}.groups[{i}]");
        let soak = b.soak(
            g.soaking.as_deref(),
            format!("{gp}.soaking"),
            DEFAULT_FLEET_SOAK,
        );
        if g.soaking.is_none() {
            b.notes.push(AssumptionNote {
                field: format!("{gp}.soaking"),
                value: format!("{DEFAULT_FLEET_SOAK} (GKE's default postConditions.soaking)"),
                defaulted: true,
            });
        }
        let mut overrides = Vec::new();
        for (k, o) in g.overrides.iter().enumerate() {
            let op = format!("{gp}.overrides[{k}]");
            let stream = match o.upgrade.as_str() {
                "k8s_control_plane" => Stream::ControlPlane,
                "k8s_node" => Stream::Node,
                other => {
                    b.error(
                        "bad-upgrade-name",
                        format!("upgrade `{other}` is not k8s_control_plane or k8s_node"),
                        format!("{op}.upgrade"),
                    );
                    continue;
                }
            };
            let v = match Version::parse(&o.version) {
                Ok(v) => v,
                Err(m) => {
                    b.error("bad-gke-version", m, format!("{op}.version"));
                    continue;
                }
            };
            let d = b.soak(Some(&o.soaking), format!("{op}.soaking"), soak);
            overrides.push((stream, v, d));
        }
        stages.push(StageSetup {
            name: format!("{} {}", stages.len() + 1, ids[i]).into(),
            fleet: ids[i].to_string(),
            selector: None,
            soak_default: soak,
            soak_overrides: overrides,
            members: Vec::new(),
        });
    }
    let releases = b.versions(&seq.versions, path);
    // At most one per fleet cluster: the list never doubles past what it needs.
    let mut clusters = Vec::with_capacity(fleet.len());
    let mut outside = Vec::new();
    for fc in &fleet {
        let f = fc.cluster.fleet.as_deref().map(fleet_id).unwrap_or("");
        let Some(stage) = stages.iter().position(|s| s.fleet == f) else {
            outside.push(fc.cluster.name.as_str());
            continue;
        };
        if let Some(c) = b.cluster(fc, stage, false) {
            stages[stage].members.push(clusters.len());
            clusters.push(c);
        }
    }
    report_outside(&mut b, &mut outside);
    for (i, s) in stages.iter_mut().enumerate() {
        if s.members.is_empty() {
            // An empty group qualifies nothing: versions pass through it at once.
            s.soak_default = Duration::ZERO;
            s.soak_overrides.clear();
            let what = if i == 0 {
                "it cannot qualify a version, so the upgrade proceeds to the next group without its soak"
            } else {
                "it qualifies nothing itself; versions pass through it to the next group without its soak"
            };
            b.diags.push(
                Diagnostic::warning(
                    "EMPTY_STAGE_WARNING",
                    format!("{noun} {} has no cluster: {what}", s.fleet),
                )
                .at(format!("{path}.groups[{}]", order[i])),
            );
        }
    }
    b.finish(stages, clusters, releases, path, true)
}
