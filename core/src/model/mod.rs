//! The scenario: a fleet, a rollout strategy and the assumptions the simulation needs.
//!
//! Fields keep the user's raw text where the real system validates it (stage names, task types, wait
//! times, maxConcurrency), so validation can report the real error on the real value instead of the
//! decoder rejecting it early with a message the real system would never print.

pub mod gke;
mod placement;
pub mod rolling;

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;

use crate::diag::SourceMap;
use crate::label_map::LabelMap;
use crate::plan::Name;
use crate::sorted_map::SortedMap;
use crate::time::{Duration, Time};

pub use placement::{
    IntOrString, LabelSelector, LabelSelectorRequirement, Placement, RollingUpdateConfig,
};

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Scenario {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// When the run is started. `None`: [`DEFAULT_START`], stated in the plan's assumptions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<Time>,
    /// `start: now`: the run starts at the instant the front end passes in ([`Scenario::start_at`]).
    /// Written back as `start: now`; `start` is then `None`.
    #[serde(
        rename = "start",
        skip_serializing_if = "std::ops::Not::not",
        serialize_with = "ser_now"
    )]
    pub start_now: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clusters: Vec<Cluster>,
    /// Large fleets described by rule instead of listed; expanded by [`Scenario::fleet`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub generate: Vec<ClusterGenerator>,
    pub strategy: Strategy,
    pub assumptions: Assumptions,
    /// Where each field path was written, for line/column in diagnostics. Not part of the format.
    #[serde(skip)]
    pub origin: SourceMap,
}

fn ser_now<S: serde::Serializer>(_: &bool, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str("now")
}

impl Scenario {
    /// Resolves `start: now` to the instant a front end read from its clock (the core has none).
    pub fn start_at(&mut self, now: Time) {
        if self.start_now {
            self.start = Some(now);
        }
    }
}

/// Start used when a scenario gives none: Monday 2026-01-05 09:00 UTC. A constant, never the wall clock,
/// so that a plan depends only on its scenario.
pub const DEFAULT_START: Time = Time(1_767_603_600_000);

/// A member cluster. Fields beyond name and labels are carried for the GKE and rolling-update kinds.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cluster {
    /// Shared: a plan's stage members, rows and event names copy a pointer to it, so a planned
    /// cluster's name is made once (in wasm an allocation and a `memory.copy` cost several times
    /// what they do natively; bench/REPORT.md, goal 3).
    pub name: Name,
    #[serde(skip_serializing_if = "LabelMap::is_empty")]
    pub labels: LabelMap,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fleet: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<ClusterVersion>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release_channel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maintenance: Option<MaintenancePolicy>,
    /// GKE: node pools, whose size and surge decide how long a node upgrade takes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub node_pools: Vec<NodePool>,
    /// GKE: how long this cluster's upgrades take; unset parts use the defaults stated in the plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upgrade_durations: Option<UpgradeDurations>,
}

/// A GKE node pool: `nodes` nodes upgraded `max_surge` at a time (surge upgrade).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodePool {
    pub name: String,
    pub nodes: u32,
    /// Nodes upgraded at once; `None` = GKE's default of 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<u32>,
}

/// Per-cluster upgrade durations (GKE).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeDurations {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane: Option<Duration>,
    /// Time to upgrade one node (one surge batch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_node: Option<Duration>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterVersion {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MaintenancePolicy {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<MaintenanceWindow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exclusions: Vec<MaintenanceExclusion>,
}

/// Kept as written (`HH:MM`, RRULE text); the GKE kind interprets them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum MaintenanceWindow {
    Daily {
        start: String,
    },
    Recurring {
        start: String,
        end: String,
        recurrence: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MaintenanceExclusion {
    pub name: String,
    pub start: String,
    pub end: String,
    pub scope: String,
}

/// `count` clusters named by `name` (`prod-{i}`, `prod-{i:03}`), numbered from `first`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterGenerator {
    pub count: u32,
    pub name: String,
    pub first: u32,
    /// Label key → values. One value: every cluster gets it. Several: spread over the clusters.
    #[serde(skip_serializing_if = "SortedMap::is_empty")]
    pub labels: SortedMap<String, LabelSpread>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSpread {
    pub values: Vec<String>,
    pub mode: SpreadMode,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SpreadMode {
    /// value[i mod n]: neighbours differ (`a b c a b c`).
    #[default]
    Cycle,
    /// Contiguous blocks of nearly equal size (`a a b b c c`).
    Blocks,
    /// `{i}` itself (or `{i}` plus an offset): a per-cluster integer, e.g. for sortingLabelKey.
    Index,
}

/// A cluster of [`Scenario::fleet`] and where it was declared, to point diagnostics at it. An
/// explicit cluster is borrowed from the scenario, a generated one owned: expanding a fleet copies
/// no listed cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct FleetCluster<'a> {
    pub cluster: Cow<'a, Cluster>,
    pub path: FleetPath,
}

/// Where a fleet cluster was declared: `clusters[i]` or the generator `generate[g]`. Written out
/// only when a diagnostic names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FleetPath {
    Listed(usize),
    Generated(usize),
}

impl fmt::Display for FleetPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FleetPath::Listed(i) => write!(f, "clusters[{i}]"),
            FleetPath::Generated(g) => write!(f, "generate[{g}]"),
        }
    }
}

impl From<FleetPath> for String {
    fn from(p: FleetPath) -> String {
        p.to_string()
    }
}

/// The rollout strategy; one variant per kind of real system.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind")]
pub enum Strategy {
    #[serde(rename = "kubefleet-staged")]
    KubefleetStaged(StagedRun),
    /// A ClusterResourcePlacement with the default RollingUpdate strategy.
    #[serde(rename = "kubefleet-rolling")]
    KubefleetRolling(rolling::RollingRun),
    /// GKE rollout sequencing with custom stages (RolloutSequence).
    #[serde(rename = "gke-rollout-sequence")]
    GkeRolloutSequence(gke::RolloutSequence),
    /// GKE fleet-based (or team-scope-based) sequencing: a chain of upstream fleets.
    #[serde(rename = "gke-fleet-sequence")]
    GkeFleetSequence(gke::FleetSequence),
}

impl Strategy {
    pub fn kind(&self) -> &'static str {
        match self {
            Strategy::KubefleetStaged(_) => "kubefleet-staged",
            Strategy::KubefleetRolling(_) => "kubefleet-rolling",
            Strategy::GkeRolloutSequence(_) => "gke-rollout-sequence",
            Strategy::GkeFleetSequence(_) => "gke-fleet-sequence",
        }
    }
}

/// A ClusterStagedUpdateStrategy spec together with the run that executes it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StagedRun {
    /// Name of the strategy object (errors quote it as a namespaced name).
    pub name: String,
    /// Namespace for the namespaced StagedUpdateStrategy/StagedUpdateRun; `None` = cluster-scoped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub stages: Vec<StageConfig>,
    pub run: RunSpec,
    pub placement: Placement,
    /// Clusters whose resources this run removes (unscheduled bindings): the delete stage.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub delete_clusters: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StageConfig {
    pub name: String,
    /// `None` (absent) selects no cluster; `Some(empty)` selects all of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sorting_label_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_concurrency: Option<IntOrString>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub before_stage_tasks: Vec<StageTask>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub after_stage_tasks: Vec<StageTask>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StageTask {
    /// `Approval` or `TimedWait` when valid; kept raw so validation can quote a wrong one.
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait_time: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunSpec {
    pub name: String,
    /// `Initialize`, `Run` or `Stop`, as written.
    pub state: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_snapshot_index: Option<String>,
    /// The run as it was before this change, when the input describes an update of an existing run
    /// (the CRD's transition rules compare the two).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous: Option<PreviousRun>,
}

/// What the API server knew of a run before an update: its state and the fields it keeps immutable.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PreviousRun {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement_name: Option<String>,
    #[serde(
        rename = "stagedRolloutStrategyName",
        skip_serializing_if = "Option::is_none"
    )]
    pub strategy_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_snapshot_index: Option<String>,
}

impl Default for RunSpec {
    fn default() -> Self {
        RunSpec {
            name: "example-run".into(),
            state: "Run".into(),
            resource_snapshot_index: None,
            previous: None,
        }
    }
}

/// What the simulation cannot know from the objects: durations, approvers, failures, stops.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Assumptions {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update_duration: Option<Duration>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub duration_overrides: Vec<DurationOverride>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jitter: Option<Jitter>,
    /// How long removing resources from a to-be-deleted cluster takes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delete_duration: Option<Duration>,
    /// Rolling updates: how long applying the resources to one cluster takes, before availability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub apply_duration: Option<Duration>,
    pub approvals: ApprovalModel,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<FailureSpec>,
    /// Periods during which the run is set to `Stop` and then back to `Run`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stops: Vec<StopSpec>,
    /// What the Monte Carlo range draws from; `None`: fleetplan's defaults, stated in the plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uncertainty: Option<Uncertainty>,
}

/// `assumptions.uncertainty`: how unsure the durations are, for the P10/P50/P90 range of ends.
/// Unset fields take the defaults of `timing::montecarlo`, stated in the plan's notes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Uncertainty {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub samples: Option<u32>,
    /// An update takes its expected duration × a factor in `[1 - s, 1 + s]` (triangular around 1),
    /// unless durations were observed (then they are drawn from those).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update_spread: Option<f64>,
    /// The same for the time people take to approve.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval_spread: Option<f64>,
    /// Probability that an update fails and is retried until it recovers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_rate: Option<f64>,
    /// How long such a failure lasts before the update recovers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovery: Option<Duration>,
}

/// Overrides the update duration for one cluster (`cluster`) or every cluster a selector matches.
/// A cluster-name override beats a selector override; among selectors the first match wins.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DurationOverride {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    pub duration: Duration,
}

/// Deterministic spread of update durations: each cluster's duration is scaled by a factor in
/// `[1 - spread, 1 + spread]` drawn from `seed` and the cluster's name.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Jitter {
    pub seed: u64,
    pub spread: f64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalModel {
    /// Time from an approval request's creation to its approval (counted in business hours when
    /// those are set). Default: see `staged::defaults`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delay: Option<Duration>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub business_hours: Option<BusinessHours>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<ApprovalOverride>,
}

/// Approvers work `start`..`end` local time on `days`, local time being UTC + `utc_offset_minutes`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BusinessHours {
    /// As written, e.g. `+01:00`; parsed into `utc_offset_minutes`.
    pub utc_offset: String,
    #[serde(skip)]
    pub utc_offset_minutes: i32,
    /// Minutes after local midnight.
    #[serde(serialize_with = "ser_hhmm")]
    pub start: u32,
    #[serde(serialize_with = "ser_hhmm")]
    pub end: u32,
    /// ISO weekdays 1 = Monday … 7 = Sunday.
    #[serde(serialize_with = "ser_days")]
    pub days: Vec<u8>,
}

fn ser_hhmm<S: serde::Serializer>(m: &u32, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&format_args!("{:02}:{:02}", m / 60, m % 60))
}

pub const WEEKDAY_NAMES: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

fn ser_days<S: serde::Serializer>(days: &[u8], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(days.len()))?;
    for d in days {
        seq.serialize_element(
            WEEKDAY_NAMES
                .get((*d as usize).wrapping_sub(1))
                .unwrap_or(&"?"),
        )?;
    }
    seq.end()
}

/// Per-stage approval behaviour. `task`: `before`, `after`, or `None` for both.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalOverride {
    pub stage: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskSide>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delay: Option<Duration>,
    /// Nobody approves: the run waits forever at this gate.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub never: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum TaskSide {
    Before,
    After,
}

/// The update of `cluster` fails, `after` its start (default: when it would have finished).
///
/// Staged runs: KubeFleet cannot tell whether a binding's failure is recoverable, so it keeps retrying
/// the cluster, which keeps its maxConcurrency slot; `recovers_after` says when the retried update
/// succeeds after all (never, when absent). A `preempted` failure is another run taking over the
/// cluster's binding: the only failure that aborts a staged run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FailureSpec {
    pub cluster: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Duration>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovers_after: Option<Duration>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub preempted: bool,
}

/// The run is set to `Stop` at `at` and back to `Run` at `resume` (never, when absent).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StopSpec {
    pub at: Time,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resume: Option<Time>,
}
