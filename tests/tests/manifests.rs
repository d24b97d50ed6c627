//! Real KubeFleet objects in, as `kubectl get -o yaml` gives them.

use fleetplan_tests::load;
use wasm_bindgen_test::wasm_bindgen_test;

const OBJECTS: &str = r#"
apiVersion: v1
kind: List
items:
  - apiVersion: cluster.kubernetes-fleet.io/v1beta1
    kind: MemberCluster
    metadata: {name: m1, labels: {env: canary}}
  - apiVersion: cluster.kubernetes-fleet.io/v1beta1
    kind: MemberCluster
    metadata: {name: m2, labels: {env: prod}}
  - apiVersion: placement.kubernetes-fleet.io/v1beta1
    kind: ClusterResourcePlacement
    metadata: {name: web}
    spec:
      resourceSelectors: [{group: "", kind: Namespace, version: v1, name: web}]
      strategy: {type: External}
  - apiVersion: placement.kubernetes-fleet.io/v1beta1
    kind: ClusterStagedUpdateStrategy
    metadata: {name: two-step}
    spec:
      stages:
        - {name: canary, labelSelector: {matchLabels: {env: canary}}, afterStageTasks: [{type: Approval}]}
        - {name: prod, labelSelector: {matchLabels: {env: prod}}}
  - apiVersion: placement.kubernetes-fleet.io/v1beta1
    kind: ClusterStagedUpdateStrategy
    metadata: {name: all-at-once}
    spec:
      stages:
        - {name: all, labelSelector: {}, maxConcurrency: "100%"}
  - apiVersion: placement.kubernetes-fleet.io/v1beta1
    kind: ClusterStagedUpdateRun
    metadata: {name: web-v2}
    spec: {placementName: web, stagedRolloutStrategyName: two-step, state: Run}
  - apiVersion: placement.kubernetes-fleet.io/v1beta1
    kind: ClusterStagedUpdateRun
    metadata: {name: web-hotfix}
    spec: {placementName: web, stagedRolloutStrategyName: all-at-once, state: Run}
"#;

#[wasm_bindgen_test(unsupported = test)]
fn each_run_in_a_list_becomes_a_plan() {
    let loaded = load(OBJECTS);
    let runs: Vec<String> = loaded
        .scenarios
        .iter()
        .map(|s| fleetplan::plan(s).run)
        .collect();
    assert_eq!(runs, ["web-v2", "web-hotfix"]);
}

#[wasm_bindgen_test(unsupported = test)]
fn concurrent_runs_of_one_placement_with_different_strategies_are_flagged() {
    let loaded = load(OBJECTS);
    let d = loaded
        .diagnostics
        .iter()
        .find(|d| d.code == "concurrent-runs-differ");
    let d = d.unwrap_or_else(|| panic!("no warning in {:#?}", loaded.diagnostics));
    assert!(
        d.message.contains("`web-v2` and `web-hotfix`"),
        "{}",
        d.message
    );
    let same = OBJECTS.replace(
        "stagedRolloutStrategyName: all-at-once",
        "stagedRolloutStrategyName: two-step",
    );
    let loaded = load(&same);
    assert!(
        loaded
            .diagnostics
            .iter()
            .any(|d| d.code == "concurrent-runs"),
        "{:#?}",
        loaded.diagnostics
    );
    assert!(!loaded
        .diagnostics
        .iter()
        .any(|d| d.code == "concurrent-runs-differ"));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_run_whose_strategy_is_missing_gets_the_real_error_with_its_line() {
    let broken = OBJECTS.replace(
        "stagedRolloutStrategyName: all-at-once",
        "stagedRolloutStrategyName: gone",
    );
    let loaded = load(&broken);
    let d = loaded
        .diagnostics
        .iter()
        .find(|d| d.message.contains("referenced updateStrategy not found"));
    let d = d.unwrap_or_else(|| panic!("{:#?}", loaded.diagnostics));
    assert_eq!(
        d.message,
        "cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: referenced updateStrategy not found: `/gone`"
    );
    assert!(d.location.as_ref().is_some_and(|l| l.line > 1), "{d:?}");
    assert_eq!(loaded.scenarios.len(), 1, "the other run still plans");
}

#[wasm_bindgen_test(unsupported = test)]
fn member_cluster_labels_are_refused_by_the_api_server_with_its_text() {
    // A MemberCluster whose label value has a space: metadata validation (apimachinery v0.34
    // IsValidLabelValue), reported at the label's line in the manifest.
    let loaded = load(
        r#"
apiVersion: cluster.kubernetes-fleet.io/v1beta1
kind: MemberCluster
metadata:
  name: m1
  labels:
    env: has space
---
apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterStagedUpdateStrategy
metadata: {name: s}
spec:
  stages: [{name: all, labelSelector: {}}]
"#,
    );
    let plan = fleetplan::plan(&loaded.scenarios[0]);
    let d = plan
        .diagnostics
        .iter()
        .find(|d| d.code == "member-cluster-label")
        .expect("the label is refused");
    assert_eq!(
        d.message,
        "The MemberCluster \"m1\" is invalid: metadata.labels: Invalid value: \"has space\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
    );
    let loc = d.location.as_ref().expect("located");
    assert_eq!((loc.line, loc.column), (7, 10), "{loc:?}");
    assert_eq!(plan.outcome, fleetplan::plan::Outcome::Invalid);
}
