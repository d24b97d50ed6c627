//! KubeFleet rolling updates: round-by-round rollout of a placement under maxUnavailable and maxSurge.

pub mod model;

use serde::Serialize;

use crate::model::Scenario;
use crate::plan::Plan;

/// What only a rolling-update plan carries (filled in by the simulation).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RollingDetail {}

pub fn plan(scenario: &Scenario, run: &model::RollingRun) -> Plan {
    crate::plan::not_yet_planned(scenario, "kubefleet-rolling", &run.placement.name)
}
