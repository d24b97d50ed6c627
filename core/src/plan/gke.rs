//! What only a GKE plan carries: per-stage upgrade states by version, skipped clusters, version reach.
//! Defined here, with the rest of the plan vocabulary, so the plan never imports the GKE planner.

use serde::Serialize;

use crate::time::{Duration, Time};

/// What only a GKE plan carries.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GkeDetail {
    /// The most conservative release channel among the sequence's clusters (GKE's computedReleaseChannel).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computed_release_channel: Option<String>,
    pub stages: Vec<StageDetail>,
    /// Clusters left out of a rollout (or of the whole sequence) and why.
    pub skipped: Vec<SkippedCluster>,
    /// Per released version and upgrade type: when each stage qualified it, when each fleet has it.
    pub versions: Vec<VersionDetail>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StageDetail {
    pub stage: String,
    pub fleet: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<String>,
    pub soak: Duration,
    /// Clusters assigned to the stage (including those ignoredClustersSelector leaves out).
    pub clusters: usize,
    /// One entry per upgrade type and version this stage rolled, in start order.
    pub upgrades: Vec<StageUpgrade>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StageUpgrade {
    /// `controlPlane` or `node`.
    pub upgrade_type: &'static str,
    pub version: String,
    /// The stage's states for this version, in order: PENDING (available upstream, stage busy),
    /// RUNNING, SOAKING or FORCED_SOAKING, COMPLETED. `end: null` on the last state: it holds from then
    /// on (COMPLETED), or forever (a RUNNING that never finishes).
    pub states: Vec<StateSpan>,
    /// Older versions qualified upstream that the stage skipped because this one was newer.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub supersedes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StateSpan {
    pub state: &'static str,
    pub start: Time,
    pub end: Option<Time>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SkippedCluster {
    pub cluster: String,
    pub stage: String,
    /// `controlPlane` / `node`; absent for EXCLUDED_BY_FILTER, which applies to every rollout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upgrade_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// ALREADY_UPGRADED, EXCLUDED_BY_FILTER, VERSION_TOO_OLD or INCOMPATIBLE_VERSION.
    pub reason: &'static str,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionDetail {
    pub version: String,
    pub upgrade_type: &'static str,
    /// When it became the channel's auto-upgrade target.
    pub released: Time,
    /// When each stage completed (qualified) this version or a newer one.
    pub stages: Vec<StageReach>,
    /// When every cluster of each fleet runs this version or newer.
    pub fleets: Vec<FleetReach>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StageReach {
    pub stage: String,
    pub completed: Option<Time>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetReach {
    pub fleet: String,
    /// Clusters of the fleet in the sequence (not left out by ignoredClustersSelector).
    pub clusters: usize,
    /// How many of them ever run this version or newer.
    pub reached: usize,
    /// When the last of them got there; `None` if some never do.
    pub all_at: Option<Time>,
    /// Those that never do.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}
