//! The built-in example scenarios, compiled into the crate so every front end can offer them offline.

/// One example: a short name to ask for it by, a one-line title, and its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    pub name: &'static str,
    pub title: &'static str,
    pub text: &'static str,
}

/// The default scenario front ends open with.
pub const DEFAULT: &str = "staged";

/// The text of the [`DEFAULT`] example, on its own: a page that opens with it needs no other example.
pub const DEFAULT_TEXT: &str = include_str!("../../examples/staged.yaml");

/// Declares the examples once: [`all`] with their texts, and [`listed`] with their names and titles
/// alone, which a menu shows without carrying every text (the browser app fetches a text when it is
/// picked).
macro_rules! examples {
    ($($name:literal, $title:literal, $text:expr;)*) => {
        static EXAMPLES: &[Example] = &[$(Example { name: $name, title: $title, text: $text }),*];
        static LISTED: &[(&str, &str)] = &[$(($name, $title)),*];
    };
}

examples! {
    "staged", "KubeFleet docs' staging → canary → production rollout over 7 clusters",
        DEFAULT_TEXT;
    "kubefleet-manifests", "the same rollout as real KubeFleet objects (MemberCluster, CRP, strategy, run)",
        include_str!("../../examples/kubefleet-manifests.yaml");
    "large-fleet", "2,000 generated clusters in 10 rings with percentage concurrency",
        include_str!("../../examples/large-fleet.yaml");
    "gke-bank", "GKE docs' community bank: testing → staging → production by region, windows, soaks",
        include_str!("../../examples/gke-bank.yaml");
    "gke-pipelining", "GKE: a second version released mid-rollout pipelines behind the first",
        include_str!("../../examples/gke-pipelining.yaml");
    "cluster-in-no-stage", "a strategy that leaves two clusters out: KubeFleet refuses the run",
        include_str!("../../examples/cluster-in-no-stage.yaml");
    "rolling-bad-image", "RollingUpdate of a bad image over 4 clusters, maxUnavailable 1: stalls after one cluster",
        include_str!("../../examples/rolling-bad-image.yaml");
    "rolling-move-west-east", "RollingUpdate moving a placement from loc=west to loc=east with maxSurge 2",
        include_str!("../../examples/rolling-move-west-east.yaml");
}

pub fn all() -> &'static [Example] {
    EXAMPLES
}

/// Every example's `(name, title)`, in [`all`]'s order, without referring to the texts.
pub fn listed() -> &'static [(&'static str, &'static str)] {
    LISTED
}

pub fn get(name: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{load, Source};

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_menu_lists_every_example_by_name_and_title_in_order() {
        let menu: Vec<(&str, &str)> = all().iter().map(|e| (e.name, e.title)).collect();
        assert_eq!(listed(), menu.as_slice());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn every_example_loads_without_errors() {
        for e in all() {
            let loaded = load(&[Source {
                name: e.name,
                text: e.text,
            }]);
            let errors: Vec<String> = loaded
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.to_string())
                .collect();
            assert!(errors.is_empty(), "{}: {errors:#?}", e.name);
            let warnings: Vec<String> = loaded
                .diagnostics
                .iter()
                .filter(|d| d.severity == crate::Severity::Warning)
                .map(|d| d.to_string())
                .collect();
            assert!(warnings.is_empty(), "{}: {warnings:#?}", e.name);
            assert_eq!(loaded.scenarios.len(), 1, "{}", e.name);
        }
        assert!(get(DEFAULT).is_some());
        assert!(get("nope").is_none());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_manifest_example_is_the_staged_example() {
        let staged = load(&[Source {
            name: "a",
            text: get("staged").unwrap().text,
        }])
        .scenarios
        .remove(0);
        let manifests = load(&[Source {
            name: "b",
            text: get("kubefleet-manifests").unwrap().text,
        }])
        .scenarios
        .remove(0);
        assert_eq!(staged.strategy, manifests.strategy);
        assert_eq!(staged.clusters, manifests.clusters);
        assert_eq!(staged.start, manifests.start);
        assert_eq!(staged.assumptions, manifests.assumptions);
    }
}
