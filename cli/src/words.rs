//! How plan values read in the table: lowercase words for statuses, `-` for absent times.

use fleetplan::plan::{ClusterStatus, Outcome, PhaseKind, StageStatus};
use fleetplan::time::{Duration, Time};

pub fn outcome(o: Outcome) -> &'static str {
    match o {
        Outcome::Succeeded => "succeeded",
        Outcome::Failed => "failed",
        Outcome::Blocked => "blocked",
        Outcome::Invalid => "invalid",
        Outcome::Stalled => "stalled",
    }
}

pub fn stage_status(s: StageStatus) -> &'static str {
    match s {
        StageStatus::Succeeded => "succeeded",
        StageStatus::Skipped => "skipped",
        StageStatus::Failed => "failed",
        StageStatus::Waiting => "waiting",
        StageStatus::NotStarted => "not started",
    }
}

pub fn cluster_status(s: ClusterStatus) -> &'static str {
    match s {
        ClusterStatus::Succeeded => "succeeded",
        ClusterStatus::Failed => "failed",
        ClusterStatus::Untracked => "untracked",
        ClusterStatus::NotStarted => "not started",
    }
}

pub fn phase(k: PhaseKind) -> &'static str {
    match k {
        PhaseKind::BeforeStageApproval => "before approval",
        PhaseKind::Updating => "updating",
        PhaseKind::AfterStageTimedWait => "timed wait",
        PhaseKind::AfterStageApproval => "after approval",
        PhaseKind::Stopped => "stopped",
        PhaseKind::ControlPlaneUpgrade => "control plane",
        PhaseKind::NodeUpgrade => "nodes",
        PhaseKind::MaintenanceWait => "waiting for window",
        PhaseKind::ExclusionWait => "held by exclusion",
        PhaseKind::Soaking => "soaking",
        PhaseKind::ForcedSoaking => "forced soaking",
        PhaseKind::Remove => "remove",
        PhaseKind::Update => "update",
        PhaseKind::Add => "add",
        PhaseKind::AvailabilityWait => "waiting for availability",
        PhaseKind::FailedRetrying => "failed, retried",
    }
}

pub const NONE: &str = "-";

/// GKE upgrade types as the table shows them.
pub fn upgrade_type(t: &str) -> &'static str {
    match t {
        "controlPlane" => "control plane",
        "node" => "nodes",
        _ => "?",
    }
}

pub fn time(t: Option<Time>) -> String {
    t.map_or_else(|| NONE.to_string(), |t| t.to_string())
}

/// An end that may never come: `never` says more than `-` for a gate nobody opens.
pub fn end(t: Option<Time>) -> String {
    t.map_or_else(|| "never".to_string(), |t| t.to_string())
}

pub fn duration(d: Option<Duration>) -> String {
    d.map_or_else(|| NONE.to_string(), |d| d.to_string())
}

/// `1 error`, `2 warnings`.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
