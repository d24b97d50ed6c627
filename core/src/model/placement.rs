//! KubeFleet's placement vocabulary shared by staged runs and rolling updates: label selectors,
//! int-or-string fields and the ClusterResourcePlacement's scheduling policy.

use serde::Serialize;

use crate::label_map::LabelMap;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    #[serde(skip_serializing_if = "LabelMap::is_empty")]
    pub match_labels: LabelMap,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelectorRequirement {
    pub key: String,
    /// `In`, `NotIn`, `Exists`, `DoesNotExist` when valid; kept raw for the real error text.
    pub operator: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// apimachinery's `intstr.IntOrString`: the integer is an `int32` in the real API, so a larger
/// number never reaches a controller (the decoder refuses it, see `decode::strategy`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum IntOrString {
    Int(i32),
    Str(String),
}

/// The ClusterResourcePlacement the run rolls out: which clusters are scheduled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Placement {
    pub name: String,
    /// `PickAll` (default), `PickN`, `PickFixed`, as written.
    pub placement_type: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cluster_names: Vec<String>,
    /// `*int32` in the real API.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number_of_clusters: Option<i32>,
    /// Required cluster affinity: `clusterSelectorTerms[].labelSelector`, ORed. Empty = no affinity.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub affinity: Vec<LabelSelector>,
    /// `External` for staged runs; `RollingUpdate` is the CRP default and makes a staged run fail.
    pub strategy_type: String,
    /// A `spec.strategy.rollingUpdate` block written on a placement a staged run uses (the webhook
    /// refuses one on an `External` placement). A rolling update keeps its settings in its own
    /// `rollingUpdate` instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdateConfig>,
    /// `spec.strategy.applyStrategy.type` as written: `ClientSideApply` (the default),
    /// `ServerSideApply` or `ReportDiff` (nothing is applied; each cluster reports its diff).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub apply_strategy: Option<String>,
}

impl Placement {
    /// `ReportDiff`: a cluster is done as soon as its diff is reported.
    pub fn reports_diff(&self) -> bool {
        self.apply_strategy.as_deref() == Some("ReportDiff")
    }
}

impl Default for Placement {
    fn default() -> Self {
        Placement {
            name: "example-placement".into(),
            placement_type: "PickAll".into(),
            cluster_names: Vec::new(),
            number_of_clusters: None,
            affinity: Vec::new(),
            strategy_type: "External".into(),
            rolling_update: None,
            apply_strategy: None,
        }
    }
}

/// `spec.strategy.rollingUpdate` of a ClusterResourcePlacement.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdateConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<IntOrString>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unavailable_period_seconds: Option<i64>,
}

impl RollingUpdateConfig {
    pub fn is_empty(&self) -> bool {
        self == &RollingUpdateConfig::default()
    }
}
