//! The rollout controller's arithmetic for one reconcile round (`pkg/controllers/rollout/controller.go`):
//! the target N per placement type, and how many bindings may be removed or updated (maxToRemove) and
//! added (maxToAdd). Kept separate from the simulation so the formulas read as in the controller.

use crate::model::Placement;
pub use crate::plan::rolling::{Action, Counts, Move, Round};

/// `calculateRealTarget`: PickAll = the clusters the scheduler picked, PickN = numberOfClusters,
/// PickFixed = the number of names listed (found or not).
pub fn target(placement: &Placement, scheduler_targeted: usize) -> usize {
    match placement.placement_type.as_str() {
        "PickN" => placement
            .number_of_clusters
            .map_or(0, |n| usize::try_from(n).unwrap_or(0)),
        "PickFixed" => placement.cluster_names.len(),
        _ => scheduler_targeted,
    }
}

/// `calculateMaxToRemove`: (ready − canBeUnavailable) − (N − maxUnavailable). Negative means nothing.
///
/// Every operand is a count of bindings (at most the fleet cap), an `int32` (N of PickN) or a value
/// scaled from one, so the result is exact in `i64`; the arithmetic is checked all the same and
/// saturates rather than wrap if that ever stops being true.
pub fn max_to_remove(c: &Counts, max_unavailable: i64) -> i64 {
    let lower_bound_available = count(c.ready).saturating_sub(count(c.can_be_unavailable));
    let min_available = count(c.target).saturating_sub(max_unavailable);
    lower_bound_available.saturating_sub(min_available)
}

/// `calculateMaxToAdd`: N + maxSurge − canBeReady (exact for the same reason as [`max_to_remove`]).
pub fn max_to_add(c: &Counts, max_surge: i64) -> i64 {
    count(c.target)
        .saturating_add(max_surge)
        .saturating_sub(count(c.can_be_ready))
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
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
