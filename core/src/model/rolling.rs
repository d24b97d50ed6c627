//! The `kubefleet-rolling` kind: a ClusterResourcePlacement with the RollingUpdate strategy, what it
//! places, and the change being rolled.
//!
//! Values the real webhook validates (`maxUnavailable`, `maxSurge`, `unavailablePeriodSeconds`, the
//! strategy type) are kept as written so validation can quote them.

use serde::Serialize;

use super::placement::Placement;
pub use super::placement::RollingUpdateConfig;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RollingRun {
    /// The placement after the change (name, policy, affinity); `strategyType` is `RollingUpdate` here.
    pub placement: Placement,
    /// `spec.strategy.rollingUpdate`; unset fields take the API defaults (25%, 25%, 60).
    #[serde(skip_serializing_if = "RollingUpdateConfig::is_empty")]
    pub rolling_update: RollingUpdateConfig,
    /// The kinds of the placed resources: they decide whether availability is trackable.
    /// Empty: one Deployment is assumed (stated in the plan).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<PlacedResource>,
    /// What changes: new resources (in-place update), a different placement, or both.
    pub change: Change,
}

impl Default for RollingRun {
    fn default() -> Self {
        RollingRun {
            placement: Placement {
                strategy_type: "RollingUpdate".into(),
                ..Placement::default()
            },
            rolling_update: RollingUpdateConfig::default(),
            resources: Vec::new(),
            change: Change::default(),
        }
    }
}

/// One kind of placed resource; `type` only matters for a Service (ClusterIP, NodePort, LoadBalancer,
/// ExternalName).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlacedResource {
    pub kind: String,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub service_type: Option<String>,
}

/// The change the rollout carries out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    /// A new resource snapshot: clusters that stay picked get an in-place update. Default true.
    pub update: bool,
    /// The placement policy before the change (`None`: unchanged). Clusters it picked and the new
    /// policy does not are emptied; clusters only the new policy picks are added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<Placement>,
    /// Clusters whose current binding had failed to apply before the change: the controller updates
    /// them first, outside the maxUnavailable budget.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failed_to_apply: Vec<String>,
}

impl Default for Change {
    fn default() -> Self {
        Change {
            update: true,
            from: None,
            failed_to_apply: Vec::new(),
        }
    }
}
