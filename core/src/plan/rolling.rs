//! What only a rolling-update plan carries: the budget, the availability line, rounds and a stall.
//! Defined here, with the rest of the plan vocabulary, so the plan never imports the rolling planner.

use serde::Serialize;

use crate::plan::{Counted, Name};
use crate::time::{Duration, Time};

/// What only a rolling-update plan carries: the budget, the available-cluster line, rounds, a stall.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RollingDetail {
    /// The placement's name (the plan's single stage row has the same name).
    pub placement: String,
    /// N: the controller's target for the placement type.
    pub target: usize,
    /// maxUnavailable resolved against N (percentages rounded up).
    pub max_unavailable: usize,
    /// maxSurge resolved against N (percentages rounded up).
    pub max_surge: usize,
    /// The settings as they apply, e.g. `25%` (the default) or `1`.
    pub max_unavailable_setting: String,
    pub max_surge_setting: String,
    /// N − maxUnavailable (0 when maxUnavailable exceeds N): the line's floor.
    pub min_available: usize,
    pub unavailable_period: Duration,
    /// Every placed resource is trackable (no `unavailablePeriodSeconds` wait).
    pub trackable: bool,
    /// Available clusters just before the rollout starts (the old resources, where they work).
    pub available_before: usize,
    /// A step function from the run's start: from `at` on, `available` clusters are available (ready
    /// bindings not being deleted, old resources included: the controller's own count).
    pub availability: Vec<AvailabilityPoint>,
    /// Every reconcile round that moved a binding.
    pub rounds: Vec<Round>,
    /// Set when the rollout waits forever.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stall: Option<Stall>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stall {
    /// When the last thing happened: from then on nothing moves.
    pub at: Time,
    /// Clusters that never reach their final state, by name.
    pub waiting: Vec<String>,
    pub reason: String,
}

/// The binding counts one round classifies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    /// N: what the placement asks for.
    pub target: usize,
    /// Bindings counted ready: bound and available (or past `unavailablePeriodSeconds`), including
    /// no-longer-picked ones that still serve.
    pub ready: usize,
    /// Ready bindings already being deleted: they may vanish at any moment.
    pub can_be_unavailable: usize,
    /// Bindings that exist on clusters and have not failed: they may be ready (in flight ones too).
    pub can_be_ready: usize,
}

/// What a round does to one binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Action {
    /// Delete a no-longer-picked binding: the cluster's resources are removed.
    Remove,
    /// Point a bound binding at the new resources: an in-place update.
    Update,
    /// Bind a newly picked cluster: its resources are placed.
    Add,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Move {
    /// The binding's name, shared (a round lists every cluster it moves).
    pub cluster: Name,
    pub action: Action,
    /// Why it moved (the round's counts in words), written when shown or serialized.
    pub why: Counted,
}

/// One reconcile round that moved at least one binding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Round {
    pub at: Time,
    #[serde(flatten)]
    pub counts: Counts,
    pub max_to_remove: i64,
    pub max_to_add: i64,
    pub moved: Vec<Move>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AvailabilityPoint {
    pub at: Time,
    /// Ready bindings not being deleted: the count maxUnavailable protects.
    pub available: usize,
    /// Clusters holding the placement's resources (old or new, ready or not): what maxSurge bounds.
    pub placed: usize,
}
