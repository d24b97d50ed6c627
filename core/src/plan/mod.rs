//! The projected plan: the one output contract shared by the CLI, the web app and the tests.

mod events;
pub mod gke;
pub mod projection;
pub mod rolling;
mod serial;
mod text;

pub(crate) use events::Kept;
pub use events::{Event, EventView, Events, MessageText};
pub use text::{Counted, Labels, Message, Name, NameId};

use serde::Serialize;

use crate::diag::Diagnostic;
use crate::time::{Duration, Time};

/// Serialized through [`serial`], which reads the bars' texts from `labels`.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The strategy kind that produced this plan, e.g. `kubefleet-staged`.
    pub kind: &'static str,
    pub scenario: Option<String>,
    /// Name of the update run.
    pub run: String,
    pub start: Time,
    /// When the run finishes; `None` when it never does (invalid, failed, or waiting forever).
    pub end: Option<Time>,
    pub outcome: Outcome,
    pub stages: Vec<StagePlan>,
    /// Clusters the placement picks that no stage selects (KubeFleet then refuses the run,
    /// `cluster-in-no-stage`), sorted by name; drawn under the stages.
    pub unstaged: Vec<String>,
    pub events: Events,
    pub diagnostics: Vec<Diagnostic>,
    pub summary: Summary,
    /// Every assumption the simulation used, and whether it came from the scenario or a default.
    pub assumptions: Vec<AssumptionNote>,
    /// What only a GKE sequence has: per-stage upgrade states by version, skipped clusters, version reach.
    pub gke: Option<gke::GkeDetail>,
    /// What only a rolling update has: rounds, the available-cluster line and its budget, stalls.
    pub rolling: Option<rolling::RollingDetail>,
    /// What a plan projected from a running rollout's status adds (`fleetplan status`): facts and
    /// projections per bar, where the run stands, calibration, the range of ends.
    pub projection: Option<projection::Projection>,
    /// What [`Plan::latest_time`] would say, from a planner that gathered it while it built the
    /// bars (the GKE planner), so `fleetplan::plan` need not read every bar again (1.4% of a
    /// 100,000-cluster GKE plan); `None`: not gathered. Read and reset to `None` by
    /// `fleetplan::plan`; nothing else reads it, and it is never serialized.
    pub latest: Option<Time>,
    /// The texts the bars' labels and versions name (read them through [`Plan::label`] and
    /// [`Plan::version`]); never serialized itself, each bar's texts are.
    pub labels: Labels,
}

impl Plan {
    /// What phase `p` of this plan awaits or does, as its bar says it (`run-after-canary`,
    /// `TimedWait 1h`, `control plane → 1.31.5-gke.1`). Read through the plan, which holds the text.
    pub fn label(&self, p: &Phase) -> &str {
        self.labels.text(p.label)
    }

    /// The version phase `p` of this plan moves (GKE), if any.
    pub fn version(&self, p: &Phase) -> Option<&str> {
        p.version.map(|v| self.labels.text(v))
    }

    /// The last moment the plan mentions (phase or cluster bounds, events).
    pub fn latest_time(&self) -> Time {
        let mut t = self.start;
        for s in &self.stages {
            for p in &s.phases {
                t = t.max(p.start).max(p.end.unwrap_or(p.start));
            }
            for c in &s.clusters {
                t = t.max(c.end.unwrap_or(t));
                for p in &c.phases {
                    t = t.max(p.start).max(p.end.unwrap_or(p.start));
                }
            }
        }
        self.events.last().map_or(t, |e| t.max(e.at))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    /// Every stage, and the delete stage, finished.
    Succeeded,
    /// The controller aborted the run (a staged run: another run took over a cluster's binding).
    Failed,
    /// The run waits for something that never happens (an approval nobody grants, a stop never
    /// resumed, a failed cluster that never recovers).
    Blocked,
    /// Initialization fails: the real controller would not start the run. Stages show what could be computed.
    Invalid,
    /// A rolling update waits forever on clusters that never become available; there is no end time.
    Stalled,
}

/// Serialized through [`serial`], with the plan's [`Labels`].
#[derive(Clone, Debug, PartialEq)]
pub struct StagePlan {
    pub name: String,
    pub index: usize,
    /// True for KubeFleet's final `kubernetes-fleet.io/deleteStage`.
    pub delete_stage: bool,
    /// The effective maxConcurrency (percentages resolved against this stage's cluster count).
    pub max_concurrency: usize,
    pub status: StageStatus,
    pub start: Option<Time>,
    pub end: Option<Time>,
    pub clusters: Vec<ClusterPlan>,
    /// Waiting and updating phases in time order, for the stage's summary row.
    pub phases: Vec<Phase>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum StageStatus {
    Succeeded,
    /// No cluster selected: skipped with its tasks (StageUpdatingSkippedNoClusters).
    Skipped,
    Failed,
    /// Reached but never finished (blocked by an approval, a stop, or a failed cluster the controller
    /// keeps retrying).
    Waiting,
    NotStarted,
}

/// Serialized through [`serial`], with the plan's [`Labels`].
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterPlan {
    pub name: Name,
    /// The integer value of the stage's sortingLabelKey, when the stage has one.
    pub sort_value: Option<i64>,
    pub status: ClusterStatus,
    pub start: Option<Time>,
    pub end: Option<Time>,
    /// When the run was marked stuck because this update passed 5 minutes.
    pub stuck_at: Option<Time>,
    /// This cluster's own bars (GKE control-plane/node upgrades and window waits; rolling remove/update/add
    /// and availability waits). Empty for staged runs, whose cluster bar is `start`..`end`.
    pub phases: Vec<Phase>,
    /// Why the cluster is in its state when that is not obvious (skipped: `ALREADY_UPGRADED`, stalled, …).
    pub reason: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ClusterStatus {
    Succeeded,
    Failed,
    /// Started before the run aborted; it completes on its own but the run no longer tracks it.
    Untracked,
    NotStarted,
}

/// Serialized through [`serial`], with the plan's [`Labels`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Phase {
    pub kind: PhaseKind,
    pub start: Time,
    /// `None`: never ends (an approval nobody grants).
    pub end: Option<Time>,
    /// What is awaited, e.g. the approval request name `run-after-canary` or `TimedWait 1h`: its
    /// place in the plan's [`Labels`] (read it through [`Plan::label`]); the thousands of bars of one
    /// version or window in a large plan share one text.
    pub label: NameId,
    /// The version this phase moves (GKE), so the chart can give each version its colour: its place
    /// in the plan's [`Labels`] ([`Plan::version`]).
    pub version: Option<NameId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PhaseKind {
    BeforeStageApproval,
    Updating,
    AfterStageTimedWait,
    AfterStageApproval,
    Stopped,
    /// GKE: a control-plane upgrade (stage row: the stage's RUNNING state for that version).
    ControlPlaneUpgrade,
    /// GKE: node-pool upgrades.
    NodeUpgrade,
    /// GKE: waiting for the cluster's maintenance window to open (label says which window).
    MaintenanceWait,
    /// GKE: held by a maintenance exclusion (label names it and its scope).
    ExclusionWait,
    /// GKE: a stage soaking a version after its upgrades finished.
    Soaking,
    /// GKE: soaking forced 30 days after the stage's upgrades began.
    ForcedSoaking,
    /// Rolling: resources removed from a cluster no longer picked.
    Remove,
    /// Rolling: an in-place update of resources already placed.
    Update,
    /// Rolling: resources placed on a newly picked cluster.
    Add,
    /// Rolling: applied, waiting to be available (or `unavailablePeriodSeconds` when untrackable).
    AvailabilityWait,
    /// Staged: a cluster whose binding failed; the controller keeps retrying it, it keeps its
    /// maxConcurrency slot and its stage cannot finish until it recovers (on the cluster's row and the
    /// stage's row; the label names the cluster).
    FailedRetrying,
}

impl PhaseKind {
    /// A short kebab-case name for text outputs (CSV, test renderings).
    pub fn slug(self) -> &'static str {
        match self {
            PhaseKind::BeforeStageApproval => "before-approval",
            PhaseKind::Updating => "updating",
            PhaseKind::AfterStageTimedWait => "timed-wait",
            PhaseKind::AfterStageApproval => "after-approval",
            PhaseKind::Stopped => "stopped",
            PhaseKind::ControlPlaneUpgrade => "control-plane",
            PhaseKind::NodeUpgrade => "node",
            PhaseKind::MaintenanceWait => "window-wait",
            PhaseKind::ExclusionWait => "exclusion-wait",
            PhaseKind::Soaking => "soaking",
            PhaseKind::ForcedSoaking => "forced-soaking",
            PhaseKind::Remove => "remove",
            PhaseKind::Update => "update",
            PhaseKind::Add => "add",
            PhaseKind::AvailabilityWait => "availability-wait",
            PhaseKind::FailedRetrying => "failed-retrying",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub total_duration: Option<Duration>,
    pub clusters: usize,
    pub clusters_updated: usize,
    pub errors: usize,
    pub warnings: usize,
    pub stage_etas: Vec<StageEta>,
    /// The longest waiting phases, longest first (at most five).
    pub longest_waits: Vec<Wait>,
    /// GKE: when each released version reaches every cluster of each fleet.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub version_reach: Vec<VersionReach>,
}

/// GKE: version `version` (of `upgrade_type`) runs on all `clusters` clusters of `fleet` from `at`
/// (`None`: some never get it).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionReach {
    pub version: String,
    /// `controlPlane` or `node`.
    pub upgrade_type: &'static str,
    pub fleet: String,
    pub clusters: usize,
    pub at: Option<Time>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StageEta {
    pub stage: String,
    pub end: Option<Time>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Wait {
    pub stage: String,
    pub kind: PhaseKind,
    pub label: String,
    pub start: Time,
    /// `None`: forever.
    pub duration: Option<Duration>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AssumptionNote {
    pub field: String,
    pub value: String,
    /// True when the scenario did not say and fleetplan's default was used.
    pub defaulted: bool,
}

/// The five longest waits for the summary: forever first, then longest; ties keep time order.
pub(crate) fn longest_waits(mut waits: Vec<Wait>) -> Vec<Wait> {
    crate::sort::sort_by(&mut waits, |a, b| longer_first(a.duration, b.duration));
    waits.truncate(LONGEST_WAITS);
    waits
}

/// How many waits the summary lists.
const LONGEST_WAITS: usize = 5;

/// The summary's order of waits: forever first, then the longest.
fn longer_first(a: Option<Duration>, b: Option<Duration>) -> std::cmp::Ordering {
    match (a, b) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, _) => std::cmp::Ordering::Less,
        (_, None) => std::cmp::Ordering::Greater,
        (Some(x), Some(y)) => y.cmp(&x),
    }
}

/// How many errors and warnings the summary counts.
pub(crate) fn problem_counts(diags: &[Diagnostic]) -> (usize, usize) {
    // A capped list's "… and N more" stands for N problems.
    let count = |s| {
        diags
            .iter()
            .filter(|d| d.severity == s)
            .map(Diagnostic::count)
            .sum()
    };
    (
        count(crate::diag::Severity::Error),
        count(crate::diag::Severity::Warning),
    )
}

/// Every stage's end, in stage order.
pub(crate) fn stage_etas(stages: &[StagePlan]) -> Vec<StageEta> {
    stages
        .iter()
        .map(|s| StageEta {
            stage: s.name.clone(),
            end: s.end,
        })
        .collect()
}

/// The waits among clusters' own phases (`keep` picks the kinds), labelled with the cluster: only the
/// ones [`longest_waits`] keeps, in its order, so a label is formatted for those few and not for
/// every wait of a large fleet.
pub(crate) fn cluster_waits(
    stages: &[StagePlan],
    labels: &Labels,
    keep: impl Fn(PhaseKind) -> bool,
) -> Vec<Wait> {
    let mut top = LongestWaits::default();
    for (si, s) in stages.iter().enumerate() {
        for (ci, c) in s.clusters.iter().enumerate() {
            top.offer(si, ci, &c.phases, &keep);
        }
    }
    top.waits(stages, labels)
}

/// [`cluster_waits`] gathered while the rows are built (one pass over a large plan's bars instead of
/// two): clusters offered in row order, stage by stage.
#[derive(Default)]
pub(crate) struct LongestWaits {
    /// (duration, stage, cluster, phase), kept in summary order; a wait enters ahead of the first one
    /// it beats strictly, so ties keep the order they came in, as the stable sort does.
    top: Vec<(Option<Duration>, usize, usize, usize)>,
}

impl LongestWaits {
    /// The phases of cluster `ci` of stage `si` (its row's, in order).
    pub(crate) fn offer(
        &mut self,
        si: usize,
        ci: usize,
        phases: &[Phase],
        keep: &impl Fn(PhaseKind) -> bool,
    ) {
        for (pi, p) in phases.iter().enumerate() {
            if !keep(p.kind) {
                continue;
            }
            let d = p.end.map(|e| e.since(p.start));
            let at = self
                .top
                .iter()
                .position(|t| longer_first(d, t.0) == std::cmp::Ordering::Less)
                .unwrap_or(self.top.len());
            if at < LONGEST_WAITS {
                self.top.insert(at, (d, si, ci, pi));
                self.top.truncate(LONGEST_WAITS);
            }
        }
    }

    /// The waits kept, labelled from the rows they were offered from.
    pub(crate) fn waits(self, stages: &[StagePlan], labels: &Labels) -> Vec<Wait> {
        self.top
            .into_iter()
            .map(|(duration, si, ci, pi)| {
                let (s, c) = (&stages[si], &stages[si].clusters[ci]);
                let p = &c.phases[pi];
                Wait {
                    stage: s.name.clone(),
                    kind: p.kind,
                    label: format!("{}: {}", c.name, labels.text(p.label)),
                    start: p.start,
                    duration,
                }
            })
            .collect()
    }
}
