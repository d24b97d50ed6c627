//! The GKE kinds of a scenario: custom-stage rollout sequences, fleet-based chains, and the versions
//! released into them. Raw text is kept where GKE validates it (soak durations, CEL selectors, fleet
//! references), so validation can quote the value the user wrote.

use serde::Serialize;

use crate::time::Time;

/// `kind: gke-rollout-sequence`: a RolloutSequence with custom stages.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RolloutSequence {
    /// The sequence id (`projects/{p}/locations/global/rolloutSequences/{name}`).
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    pub stages: Vec<SequenceStage>,
    /// CEL over `resource.labels`: clusters left out of the sequence (EXCLUDED_BY_FILTER).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored_clusters_selector: Option<String>,
    /// Versions that become the channel's auto-upgrade target while the sequence runs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<VersionEvent>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SequenceStage {
    /// `projects/{project}` or a bare project id, as written. GKE allows one fleet per stage.
    pub fleet_projects: Vec<String>,
    /// CEL over `resource.labels`; `None` = every remaining cluster of the fleet (a catch-all stage).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<String>,
    /// As written: `259200s`, `7d`, `3d12h`. Required by gcloud; at most 30 days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub soak_duration: Option<String>,
}

/// `kind: gke-fleet-sequence`: the clusterupgrade fleet feature on each fleet of a chain.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetSequence {
    pub name: String,
    /// `fleet` (default: each group is a fleet, up to five) or `scope` (team scopes, up to three).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grouping: Option<String>,
    /// One entry per fleet (or scope) with its clusterupgrade feature spec; the order given is not the
    /// order of the chain: `upstreamFleets` links them, and validation rejects loops and branches.
    pub groups: Vec<FleetGroup>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<VersionEvent>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetGroup {
    /// The fleet's project (or the scope's name when grouping is `scope`).
    pub fleet: String,
    /// `upstreamFleets`: at most one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub upstream_fleets: Vec<String>,
    /// `postConditions.soaking`, as written; default 7d, at most 30d.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub soaking: Option<String>,
    /// `gkeUpgradeOverrides[]`: a soak for one version of one upgrade type (0 = skip ahead).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<UpgradeOverride>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeOverride {
    /// `k8s_control_plane` or `k8s_node`, as written.
    pub upgrade: String,
    pub version: String,
    pub soaking: String,
}

/// A release: a version becoming the release channel's auto-upgrade target at `at` (default: the
/// scenario start), or one target per minor version.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionEvent {
    /// A GKE version such as `1.31.5-gke.1023000`, the target whatever minor a cluster runs. Empty when
    /// `targets` are given.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// One target per minor version, as GKE's release notes give them (`1.20` → `1.21.14-gke.4300`,
    /// `1.22` → `1.23.8-gke.1900`): a cluster running that minor gets that target. Written as a map.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "targets_as_map"
    )]
    pub targets: Vec<MinorTarget>,
    /// `controlPlane`, `node` or `both` (default: both), as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upgrade_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<Time>,
}

/// One entry of a release's per-minor targets, both as written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MinorTarget {
    /// `1.20`: clusters running this minor version…
    pub minor: String,
    /// …get this version as their auto-upgrade target.
    pub version: String,
}

fn targets_as_map<S: serde::Serializer>(targets: &[MinorTarget], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(targets.len()))?;
    for t in targets {
        m.serialize_entry(&t.minor, &t.version)?;
    }
    m.end()
}
