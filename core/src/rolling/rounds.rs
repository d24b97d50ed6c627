//! The rollout controller's arithmetic for one reconcile round (`pkg/controllers/rollout/controller.go`):
//! the target N per placement type, and how many bindings may be removed or updated (maxToRemove) and
//! added (maxToAdd). Kept separate from the simulation so the formulas read as in the controller.

use crate::model::Placement;
pub use crate::plan::rolling::{Action, Counts, Move, Round};

/// `calculateRealTarget`: PickAll = the clusters the scheduler picked, PickN = numberOfClusters,
/// PickFixed = the number of names listed (found or not).
pub fn target(placement: &Placement, scheduler_targeted: usize) -> usize {
    match placement.placement_type.as_str() {
        "PickN" => placement.number_of_clusters.unwrap_or(0).max(0) as usize,
        "PickFixed" => placement.cluster_names.len(),
        _ => scheduler_targeted,
    }
}

/// `calculateMaxToRemove`: (ready − canBeUnavailable) − (N − maxUnavailable). Negative means nothing.
pub fn max_to_remove(c: &Counts, max_unavailable: i64) -> i64 {
    let lower_bound_available = c.ready as i64 - c.can_be_unavailable as i64;
    let min_available = c.target as i64 - max_unavailable;
    lower_bound_available - min_available
}

/// `calculateMaxToAdd`: N + maxSurge − canBeReady.
pub fn max_to_add(c: &Counts, max_surge: i64) -> i64 {
    c.target as i64 + max_surge - c.can_be_ready as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn formulas_match_the_controller() {
        // 4 ready clusters, maxUnavailable 1: one may go.
        let c = Counts {
            target: 4,
            ready: 4,
            can_be_unavailable: 0,
            can_be_ready: 4,
        };
        assert_eq!(max_to_remove(&c, 1), 1);
        assert_eq!(max_to_add(&c, 2), 2);
        // One of them is being deleted: it no longer counts toward availability.
        let c = Counts {
            can_be_unavailable: 1,
            ..c
        };
        assert_eq!(max_to_remove(&c, 1), 0);
        let pick_fixed = Placement {
            placement_type: "PickFixed".into(),
            cluster_names: vec!["a".into(), "missing".into()],
            ..Placement::default()
        };
        assert_eq!(target(&pick_fixed, 1), 2);
    }
}
