//! Mapping keys that scenarios, manifests and GKE's files repeat in every item (`name`, `version`,
//! `maintenance`, …), shared as static text instead of one allocation per occurrence.
//!
//! A 10,000-cluster GKE scenario has some 130,000 keys and a few dozen distinct ones: as owned
//! strings they were 130,000 small allocations (about 4 MB with the allocator's overhead) alive
//! for as long as the tree. Keys not listed here (labels, annotations) stay owned. This is for the
//! event parser and the JSON reader's keys written with escapes; the fast readers borrow every other
//! key from the input instead.

use std::borrow::Cow;

/// A mapping key: static when it is a well-known field name, owned otherwise.
pub type Key = Cow<'static, str>;

/// `text` as a [`Key`], borrowing the static copy of a well-known field name.
pub(crate) fn key(text: String) -> Key {
    match known(&text) {
        Some(k) => Cow::Borrowed(k),
        None => Cow::Owned(text),
    }
}

/// The static copy of `text` when it is a field name of fleetplan's format, of KubeFleet's and
/// Kubernetes' objects or of GKE's files that large inputs repeat.
fn known(text: &str) -> Option<&'static str> {
    // One `match`: the compiler compares lengths first and the bytes only of names of the same length,
    // which is about three times fewer instructions than a binary search's string comparisons (every
    // key of a large input passes here).
    macro_rules! known {
        ($($name:literal),* $(,)?) => {
            match text {
                $($name => Some($name),)*
                _ => None,
            }
        };
    }
    known!(
        "affinity",
        "after",
        "afterStageTasks",
        "annotations",
        "apiVersion",
        "applyStrategy",
        "approvals",
        "assumptions",
        "beforeStageTasks",
        "clusterNames",
        "clusters",
        "conditions",
        "controlPlane",
        "count",
        "daily",
        "days",
        "description",
        "displayName",
        "duration",
        "end",
        "exclusions",
        "fleet",
        "fleetProjects",
        "generate",
        "key",
        "kind",
        "labelSelector",
        "labels",
        "lastTransitionTime",
        "maintenance",
        "matchExpressions",
        "matchLabels",
        "maxConcurrency",
        "maxSurge",
        "maxUnavailable",
        "message",
        "metadata",
        "name",
        "namespace",
        "node",
        "nodePools",
        "nodes",
        "observedGeneration",
        "operator",
        "perNode",
        "placementName",
        "reason",
        "recurrence",
        "recurring",
        "releaseChannel",
        "resourceSnapshotIndex",
        "scope",
        "selector",
        "soakDuration",
        "sortingLabelKey",
        "spec",
        "stage",
        "stages",
        "start",
        "status",
        "strategy",
        "type",
        "upgradeDurations",
        "upgradeType",
        "values",
        "version",
        "versions",
        "waitTime",
        "window",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn well_known_keys_are_shared_and_others_kept_as_written() {
        // Listed names are borrowed rather than allocated; others, and other cases, are kept.
        for name in ["affinity", "apiVersion", "name", "nodePools", "window"] {
            assert!(matches!(key(name.to_string()), Cow::Borrowed(k) if k == name));
        }
        assert!(matches!(key("prod-region".to_string()), Cow::Owned(k) if k == "prod-region"));
        assert!(matches!(key("Name".to_string()), Cow::Owned(k) if k == "Name"));
    }
}
