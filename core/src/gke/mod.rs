//! GKE rollout sequencing: custom-stage sequences and fleet-based chains, with versions flowing through
//! stages under maintenance windows, exclusions, soaks and the 30-day forced soak.

pub mod export;
pub mod import;
pub mod model;

use serde::Serialize;

use crate::model::Scenario;
use crate::plan::Plan;

/// What only a GKE plan carries (filled in by the simulation).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GkeDetail {}

pub fn plan_rollout_sequence(scenario: &Scenario, seq: &model::RolloutSequence) -> Plan {
    crate::plan::not_yet_planned(scenario, "gke-rollout-sequence", &seq.name)
}

pub fn plan_fleet_sequence(scenario: &Scenario, seq: &model::FleetSequence) -> Plan {
    crate::plan::not_yet_planned(scenario, "gke-fleet-sequence", &seq.name)
}
