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
    // At the value the user wrote: `stagedRolloutStrategyName: gone` of run web-hotfix, line 37 of the
    // text (OBJECTS opens with an empty line), column 59.
    let at = d.location.as_ref().map(|l| (l.line, l.column));
    assert_eq!(at, Some((37, 59)), "{d:?}");
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

/// The errors (and the API server's skipped-rules note) of every plan of `text`, `code: message`.
fn refusals(text: &str) -> Vec<String> {
    let loaded = load(text);
    loaded
        .scenarios
        .iter()
        .flat_map(|s| fleetplan::plan(s).diagnostics)
        .filter(|d| d.is_error())
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect()
}

const STRATEGY: &str = r#"
apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterStagedUpdateStrategy
metadata: {name: s}
spec:
  stages: [{name: all, labelSelector: {}}]
---
apiVersion: cluster.kubernetes-fleet.io/v1beta1
kind: MemberCluster
metadata: {name: m1}
"#;

#[wasm_bindgen_test(unsupported = test)]
fn an_external_placement_with_a_rolling_update_block_is_denied_by_the_webhook() {
    // pkg/utils/validator/placement.go: "rollingUpdateConifg is not valid for ExternalRollout
    // strategy type" (sic), wrapped as the webhook and the API server relay it.
    let text = format!(
        "{STRATEGY}---\napiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterResourcePlacement\nmetadata: {{name: web}}\nspec:\n  strategy: {{type: External, rollingUpdate: {{maxUnavailable: 1}}}}\n---\napiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateRun\nmetadata: {{name: r}}\nspec: {{placementName: web, stagedRolloutStrategyName: s, state: Run}}\n"
    );
    assert_eq!(
        refusals(&text),
        ["placement-webhook: admission webhook \"fleet.clusterresourceplacementv1beta1.validating\" denied the request: deny create/update v1beta1 CRP has invalid fields the rollout Strategy field  is invalid: rollingUpdateConifg is not valid for ExternalRollout strategy type"]
    );
    // Without the block the same placement is accepted and the run plans.
    let ok = text.replace(", rollingUpdate: {maxUnavailable: 1}", "");
    assert!(refusals(&ok).is_empty(), "{:?}", refusals(&ok));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_run_listed_twice_is_an_update_checked_by_the_transition_rules() {
    // stageupdate_types.go: Initialize → Stop is refused on update; Initialize → Run is fine.
    let run = |state: &str| {
        format!("---\napiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateRun\nmetadata: {{name: r}}\nspec: {{placementName: web, stagedRolloutStrategyName: s, state: {state}}}\n")
    };
    let text = format!("{STRATEGY}{}{}", run("Initialize"), run("Stop"));
    let loaded = load(&text);
    assert_eq!(loaded.scenarios.len(), 1, "one run, updated");
    assert_eq!(
        refusals(&text),
        ["run-state-transition: The ClusterStagedUpdateRun \"r\" is invalid: spec: Invalid value: \"object\": invalid state transition: cannot transition from Initialize to Stop"]
    );
    assert!(refusals(&format!("{STRATEGY}{}{}", run("Initialize"), run("Run"))).is_empty());
}

#[wasm_bindgen_test(unsupported = test)]
fn a_status_says_which_state_the_stored_run_is_in() {
    // A run whose status shows it running (a Progressing condition not stopped) is in Run: setting
    // its spec.state to Initialize is refused ("cannot transition from Run to Initialize"); one whose
    // Progressing reason is UpdateRunStopped is in Stop.
    let run = |state: &str, reason: &str| {
        format!("---\napiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateRun\nmetadata: {{name: r}}\nspec: {{placementName: web, stagedRolloutStrategyName: s, state: {state}}}\nstatus:\n  conditions:\n    - {{type: Initialized, status: \"True\", reason: UpdateRunInitializedSuccessfully}}\n    - {{type: Progressing, status: \"False\", reason: {reason}}}\n")
    };
    assert_eq!(
        refusals(&format!("{STRATEGY}{}", run("Initialize", "UpdateRunWaiting"))),
        ["run-state-transition: The ClusterStagedUpdateRun \"r\" is invalid: spec: Invalid value: \"object\": invalid state transition: cannot transition from Run to Initialize"]
    );
    assert_eq!(
        refusals(&format!("{STRATEGY}{}", run("Initialize", "UpdateRunStopped"))),
        ["run-state-transition: The ClusterStagedUpdateRun \"r\" is invalid: spec: Invalid value: \"object\": invalid state transition: cannot transition from Stop to Initialize"]
    );
    assert!(refusals(&format!("{STRATEGY}{}", run("Run", "UpdateRunStopped"))).is_empty());
}
