//! Which clusters the placement schedules (the run's "selected" clusters), per placement type, and
//! the API's checks of the policy. Shared by staged runs and rolling updates.

pub mod admission;

use std::collections::HashMap;

use crate::diag::Diagnostic;
use crate::model::{FleetCluster, Placement};
use crate::selector;

/// Fleet indexes of the scheduled clusters, in fleet order, plus what the scheduling implies.
pub fn schedule(
    placement: &Placement,
    fleet: &[FleetCluster],
    diags: &mut Vec<Diagnostic>,
) -> Vec<usize> {
    schedule_at(placement, fleet, "strategy.placement", diags)
}

/// [`schedule`] for a placement written at `at` (a rolling update's earlier policy lives elsewhere).
pub fn schedule_at(
    placement: &Placement,
    fleet: &[FleetCluster],
    at: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<usize> {
    let terms: Vec<selector::Compiled> = placement
        .affinity
        .iter()
        .map(|term| selector::Compiled::new(Some(term)))
        .collect();
    let affine = |fc: &FleetCluster| {
        terms.is_empty() || terms.iter().any(|term| term.matches(&fc.cluster.labels))
    };
    match placement.placement_type.as_str() {
        "PickFixed" => {
            let index: HashMap<&str, usize> = fleet
                .iter()
                .enumerate()
                .map(|(i, fc)| (fc.cluster.name.as_str(), i))
                .collect();
            let mut picked = Vec::new();
            for (i, name) in placement.cluster_names.iter().enumerate() {
                match index.get(name.as_str()) {
                    Some(&idx) => picked.push(idx),
                    None => diags.push(
                        Diagnostic::warning(
                            "placement-unknown-cluster",
                            format!("PickFixed names cluster `{name}`, which is not a member cluster of this fleet: the scheduler cannot place it"),
                        )
                        .at(format!("{at}.clusterNames[{i}]")),
                    ),
                }
            }
            crate::sort::sort(&mut picked);
            picked.dedup();
            picked
        }
        "PickN" => {
            let mut candidates: Vec<usize> =
                (0..fleet.len()).filter(|&i| affine(&fleet[i])).collect();
            crate::sort::sort_by(&mut candidates, |&a, &b| {
                fleet[a]
                    .cluster
                    .name
                    .as_bytes()
                    .cmp(fleet[b].cluster.name.as_bytes())
            });
            let wanted = placement
                .number_of_clusters
                .map_or(0, |n| usize::try_from(n).unwrap_or(0));
            candidates.truncate(wanted);
            diags.push(
                Diagnostic::info(
                    "placement-pickn-order",
                    "PickN: fleetplan assumes the scheduler picks the first matching clusters by name; the real scheduler ranks them by topology spread and preferred affinity",
                )
                .at(at),
            );
            crate::sort::sort(&mut candidates);
            candidates
        }
        _ => (0..fleet.len()).filter(|&i| affine(&fleet[i])).collect(),
    }
}

/// How many clusters the policy snapshot expects (`PolicyObservedClusterCount`): `None` for PickAll.
pub fn expected_count(placement: &Placement) -> Option<usize> {
    match placement.placement_type.as_str() {
        "PickN" => Some(
            placement
                .number_of_clusters
                .map_or(0, |n| usize::try_from(n).unwrap_or(0)),
        ),
        "PickFixed" => Some(placement.cluster_names.len()),
        _ => None,
    }
}
