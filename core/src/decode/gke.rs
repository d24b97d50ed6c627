//! The GKE kinds of the fleetplan format: `gke-rollout-sequence` and `gke-fleet-sequence`.

use super::read::{get, Path, Reader};
use crate::gke::model::{FleetSequence, RolloutSequence};
use crate::model::Strategy;
use crate::source::Node;

const ROLLOUT_SEQUENCE_KEYS: &[&str] = &["kind", "name"];
const FLEET_SEQUENCE_KEYS: &[&str] = &["kind", "name"];

impl Reader<'_> {
    pub(crate) fn gke_rollout_sequence(&mut self, n: &Node, p: &Path) -> Strategy {
        let mut seq = RolloutSequence::default();
        if let Some(m) = self.map(n, p, ROLLOUT_SEQUENCE_KEYS) {
            if let Some(v) = get(m, "name") {
                seq.name = self.string(v, &p.field("name")).unwrap_or_default();
            }
        }
        Strategy::GkeRolloutSequence(seq)
    }

    pub(crate) fn gke_fleet_sequence(&mut self, n: &Node, p: &Path) -> Strategy {
        let mut seq = FleetSequence::default();
        if let Some(m) = self.map(n, p, FLEET_SEQUENCE_KEYS) {
            if let Some(v) = get(m, "name") {
                seq.name = self.string(v, &p.field("name")).unwrap_or_default();
            }
        }
        Strategy::GkeFleetSequence(seq)
    }
}
