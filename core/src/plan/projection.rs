//! What a plan projected from a running rollout adds (`Plan.projection`): which bars are facts read
//! from the status and which are projected, where the run stands, how assumed durations were replaced
//! by observed ones, and the range of ends from the Monte Carlo.

use serde::Serialize;

use crate::time::{Duration, Time};

/// Whether a bar is what happened or what is expected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Basis {
    /// Neither end has happened yet: both are projected.
    #[default]
    Projected,
    /// Started (a fact), not finished: the end is projected.
    Running,
    /// Started and finished: both ends are facts from the status.
    Fact,
}

impl Basis {
    pub fn is_projected(&self) -> bool {
        *self == Basis::Projected
    }

    /// The basis of a bar from whether its start and end are facts.
    pub fn of(started: bool, finished: bool) -> Basis {
        match (started, finished) {
            (true, true) => Basis::Fact,
            (true, false) => Basis::Running,
            _ => Basis::Projected,
        }
    }
}

/// The 10th, 50th and 90th percentile of an end over the Monte Carlo's samples. `None`: at that
/// percentile the end never comes (the samples where it never does are counted as later than all).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Spread {
    pub p10: Option<Time>,
    pub p50: Option<Time>,
    pub p90: Option<Time>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Projection {
    /// The instant the projection was made for (passed in: the core has no clock).
    pub now: Time,
    /// The object the facts come from, e.g. `ClusterStagedUpdateRun/example-run`; `None` for a plan
    /// that has not started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub position: Position,
    /// One entry per stage of `Plan.stages`, in the same order.
    pub stages: Vec<StageProjection>,
    /// Durations observed replacing assumed ones, and observations too few to do so.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub calibration: Vec<CalibrationNote>,
    /// When the run would end under the same assumptions without any facts, planned from its real
    /// start: the yardstick for "behind" and "ahead".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_end: Option<Time>,
    /// Projected end minus baseline end: positive is behind the original plan, negative ahead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub behind: Option<SignedDuration>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forecast: Option<Forecast>,
    /// The Monte Carlo's raw ends, kept only when a front end asks for a chunk of the samples, to
    /// combine chunks into one range (`fleetplan::status::combine`).
    #[serde(skip)]
    pub samples: Option<SampleEnds>,
}

/// Every sample's ends: per stage (plan order of the planner's stages), per cluster when kept, and the
/// run's. `None`: never.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SampleEnds {
    pub stages: Vec<Vec<Option<Time>>>,
    pub clusters: Option<Vec<Vec<Option<Time>>>>,
    pub run: Vec<Option<Time>>,
}

impl SampleEnds {
    /// Appends another chunk's samples (of the same plan).
    pub fn extend(&mut self, other: SampleEnds) {
        if self.run.is_empty() {
            *self = other;
            return;
        }
        for (a, b) in self.stages.iter_mut().zip(other.stages) {
            a.extend(b);
        }
        match (&mut self.clusters, other.clusters) {
            (Some(a), Some(b)) => a.iter_mut().zip(b).for_each(|(x, y)| x.extend(y)),
            (a, _) => *a = None,
        }
        self.run.extend(other.run);
    }
}

/// A duration that may be negative, printed `-1h5m` / `1h5m`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct SignedDuration(pub Duration);

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StageProjection {
    pub stage: String,
    pub basis: Basis,
    /// The stage's end over the Monte Carlo.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<Spread>,
    /// One entry per cluster of the stage row, in the same order.
    pub clusters: Vec<ClusterProjection>,
    /// One basis per phase of the stage row, in the same order.
    pub phases: Vec<Basis>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterProjection {
    pub basis: Basis,
    /// The cluster's end over the Monte Carlo (only for fleets small enough to keep every sample).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<Spread>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Forecast {
    pub seed: u64,
    pub samples: usize,
    /// The run's end.
    pub end: Spread,
    /// Samples in which the run never ends (a failure that never recovers, nobody approving).
    pub never: usize,
    /// What was drawn and how, for the plan's notes.
    pub draws: Vec<String>,
}

/// Where a run stands at `now`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Position {
    pub state: RunState,
    /// The run's condition as its status shows it (reason and message), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The stage the run is in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage: Option<String>,
    pub stages_done: usize,
    pub stages: usize,
    pub clusters_done: usize,
    pub clusters: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub in_flight: Vec<InFlight>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub waiting: Vec<Waiting>,
    /// The next gate the run will reach (an approval or a TimedWait), when the projection has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<Waiting>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RunState {
    /// No status: the plan has not started.
    #[default]
    NotStarted,
    /// Initialized (state Initialize): the stages are computed, nothing runs until state Run.
    Initialized,
    Running,
    /// Waiting for an approval or a TimedWait.
    Waiting,
    /// A cluster has been updating for more than five minutes (UpdateRunStuck), or one failed and is
    /// being retried.
    Stuck,
    Stopping,
    Stopped,
    Succeeded,
    Failed,
    /// GKE: the rollout is paused or cancelled.
    Paused,
}

impl RunState {
    /// The state in words, as the CLI's table and the browser's "where it stands" panel both say it.
    pub fn words(self) -> &'static str {
        match self {
            RunState::NotStarted => "not started",
            RunState::Initialized => "initialized, not running (state Initialize)",
            RunState::Running => "running",
            RunState::Waiting => "waiting",
            RunState::Stuck => "stuck",
            RunState::Stopping => "stopping",
            RunState::Stopped => "stopped",
            RunState::Succeeded => "succeeded",
            RunState::Failed => "failed",
            RunState::Paused => "paused",
        }
    }
}

/// A cluster updating now.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InFlight {
    pub stage: String,
    pub cluster: String,
    pub since: Time,
    /// When it is projected to finish.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<Time>,
    /// Failed and retried by the controller.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
}

/// What the run waits on.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Waiting {
    pub kind: WaitingKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage: Option<String>,
    pub since: Time,
    /// What it is, in words: `approval request example-run-after-canary`, `TimedWait 1h`.
    pub what: String,
    /// When it is projected to end (a TimedWait's real end; an approval's assumed one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<Time>,
    /// The approval request to approve.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    /// The command that does what is awaited (approving the request).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum WaitingKind {
    Approval,
    TimedWait,
    Stopped,
    /// Failed clusters the controller retries; the stage cannot finish without them.
    FailedClusters,
    /// GKE: a stage soaking a version.
    Soak,
    /// GKE: the rollout is paused.
    Paused,
}

/// One assumption replaced by observations, or kept because they were too few.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CalibrationNote {
    /// What was calibrated: `updateDuration of stage canary`, `approvals`.
    pub field: String,
    /// The value used from now on.
    pub value: Duration,
    /// What it replaced.
    pub assumed: Duration,
    pub observations: usize,
    /// Whether the observations were enough to replace the assumption.
    pub applied: bool,
    /// The note as a sentence: "update 4m30s (median of 12 finished clusters) instead of the assumed 10m".
    pub text: String,
}
