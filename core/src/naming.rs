//! What a diagnostic is about, named as its author wrote it: `cluster prod-3`, `MemberCluster/prod-3`,
//! `stage canary`, `generator 2 (aks-{i:04})`, rather than only a field path such as `clusters[4]`.
//!
//! One function derives the name from the path and the scenario, so no message has to repeat it.

use crate::diag::Diagnostic;
use crate::model::{Scenario, Strategy};

/// `(index, rest)` when `path` is `prefix[index]` followed by `rest`.
fn indexed<'p>(path: &'p str, prefix: &str) -> Option<(usize, &'p str)> {
    let rest = path.strip_prefix(prefix)?.strip_prefix('[')?;
    let (digits, rest) = rest.split_once(']')?;
    Some((digits.parse().ok()?, rest))
}

/// The object at `path` in scenario `s`, named for people; `None` when the path names no object.
pub fn subject(s: &Scenario, path: &str) -> Option<String> {
    // Imported objects keep their own `Kind/name` (the MemberCluster a user can `kubectl get`).
    if let Some(object) = s.origin.object(path) {
        return Some(object.to_string());
    }
    if let Some((i, _)) = indexed(path, "clusters") {
        return s
            .clusters
            .get(i)
            .filter(|c| !c.name.is_empty())
            .map(|c| format!("cluster {}", c.name));
    }
    if let Some((i, _)) = indexed(path, "generate") {
        return s
            .generate
            .get(i)
            .map(|g| format!("generator {} ({})", i + 1, g.name));
    }
    if let Some((i, _)) = indexed(path, "assumptions.failures") {
        return s
            .assumptions
            .failures
            .get(i)
            .map(|f| format!("the failure of {}", f.cluster));
    }
    match &s.strategy {
        Strategy::KubefleetStaged(run) => {
            if let Some((i, _)) = indexed(path, "strategy.stages") {
                return run.stages.get(i).map(|st| {
                    if st.name.is_empty() {
                        format!("stage {}", i + 1)
                    } else {
                        format!("stage {}", st.name)
                    }
                });
            }
            if let Some((i, _)) = indexed(path, "strategy.deleteClusters") {
                return run
                    .delete_clusters
                    .get(i)
                    .map(|c| format!("deleted cluster {c}"));
            }
            (path.starts_with("strategy.placement") && !run.placement.name.is_empty())
                .then(|| format!("placement {}", run.placement.name))
        }
        Strategy::KubefleetRolling(run) => (path.starts_with("strategy.placement")
            && !run.placement.name.is_empty())
        .then(|| format!("placement {}", run.placement.name)),
        Strategy::GkeRolloutSequence(q) => {
            if let Some((i, _)) = indexed(path, "strategy.stages") {
                return q.stages.get(i).map(|st| match st.fleet_projects.first() {
                    Some(f) => format!("stage {} ({f})", i + 1),
                    None => format!("stage {}", i + 1),
                });
            }
            let (i, _) = indexed(path, "strategy.versions")?;
            q.versions.get(i).map(|v| format!("version {}", v.version))
        }
        Strategy::GkeFleetSequence(q) => {
            if let Some((i, _)) = indexed(path, "strategy.groups") {
                return q.groups.get(i).map(|g| format!("fleet {}", g.fleet));
            }
            let (i, _) = indexed(path, "strategy.versions")?;
            q.versions.get(i).map(|v| format!("version {}", v.version))
        }
    }
}

/// Names the subject of every diagnostic that has a path and no subject yet.
pub fn name_subjects(s: &Scenario, diagnostics: &mut [Diagnostic]) {
    for d in diagnostics.iter_mut().filter(|d| d.subject.is_none()) {
        if let Some(p) = &d.path {
            d.subject = subject(s, p).map(|n| Box::new(crate::diag::Subject(n)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{load, Source};

    fn scenario(name: &str, text: &str) -> Scenario {
        let loaded = load(&[Source { name, text }]);
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        loaded.scenarios.into_iter().next().unwrap()
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn paths_name_the_objects_as_written() {
        let s = scenario("s.yaml", crate::examples::get("staged").unwrap().text);
        assert_eq!(
            subject(&s, "clusters[4].labels").as_deref(),
            Some("cluster member5")
        );
        assert_eq!(
            subject(&s, "strategy.stages[1].maxConcurrency").as_deref(),
            Some("stage canary")
        );
        assert_eq!(subject(&s, "clusters[40]"), None, "no such cluster");
        assert_eq!(subject(&s, "assumptions.updateDuration"), None);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn imported_objects_keep_their_kind_and_name() {
        let s = scenario(
            "objects.yaml",
            crate::examples::get("kubefleet-manifests").unwrap().text,
        );
        let first = &s.clusters[0].name;
        assert_eq!(
            subject(&s, "clusters[0].labels").as_deref(),
            Some(format!("MemberCluster/{first}").as_str())
        );
        let stage = match &s.strategy {
            Strategy::KubefleetStaged(r) => r.stages[0].name.clone(),
            _ => unreachable!(),
        };
        assert_eq!(
            subject(&s, "strategy.stages[0].labelSelector"),
            Some(format!("stage {stage}"))
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_planners_diagnostic_names_the_cluster_it_is_about() {
        // member5 (the fifth listed cluster, `clusters[4]`) has an empty `order` label, which the
        // production stage sorts by: KubeFleet's own text quotes `order:`; the subject names the
        // cluster and a second diagnostic says the value is empty.
        let text = crate::examples::get("staged")
            .unwrap()
            .text
            .replace("order: \"3\"", "order: \"\"");
        let s = scenario("s.yaml", &text);
        let plan = crate::plan(&s);
        let bad = plan
            .diagnostics
            .iter()
            .find(|d| d.code == "invalid-sorting-label")
            .expect("the controller's error");
        assert_eq!(bad.subject(), Some("cluster member5"));
        assert!(
            bad.to_string()
                .contains("(cluster member5, at clusters[4])"),
            "{bad}"
        );
        let empty = plan
            .diagnostics
            .iter()
            .find(|d| d.code == "sorting-label-empty")
            .expect("the explanation");
        assert!(empty.message.contains("is empty"), "{}", empty.message);
        assert_eq!(empty.subject(), Some("cluster member5"));
    }
}
