//! The `kubefleet-rolling` kind: a ClusterResourcePlacement with the RollingUpdate strategy, what it
//! places, and the change being rolled.

use serde::Serialize;

use crate::model::Placement;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RollingRun {
    /// The placement (name, policy, affinity); `strategyType` is `RollingUpdate` here.
    pub placement: Placement,
}
