//! Manifest import as a user meets it: `kubectl get -o yaml` output in, scenarios and messages out.

use super::*;
use crate::diag::Severity;
use crate::model::IntOrString;

fn import_text(text: &str) -> (Vec<Scenario>, Vec<Diagnostic>) {
    let (docs, diags) = crate::source::parse(text, "m.yaml");
    assert!(diags.is_empty(), "{diags:?}");
    let refs: Vec<(&Node, &str)> = docs.iter().map(|d| (d, "m.yaml")).collect();
    import(&refs)
}

fn staged(s: &Scenario) -> &StagedRun {
    match &s.strategy {
        Strategy::KubefleetStaged(run) => run,
        other => panic!("expected a staged run, got {}", other.kind()),
    }
}

const LIST: &str = r#"apiVersion: v1
kind: List
items:
- apiVersion: cluster.kubernetes-fleet.io/v1beta1
  kind: MemberCluster
  metadata:
    name: member1
    labels:
      environment: staging
  status: {agentStatus: []}
- apiVersion: cluster.kubernetes-fleet.io/v1beta1
  kind: MemberCluster
  metadata:
    name: member2
    labels:
      environment: production
      order: "1"
- apiVersion: placement.kubernetes-fleet.io/v1beta1
  kind: ClusterStagedUpdateStrategy
  metadata:
    name: example-strategy
    managedFields: []
  spec:
    stages:
    - name: staging
      labelSelector:
        matchLabels:
          environment: staging
      afterStageTasks:
      - type: TimedWait
        waitTime: 1h
    - name: production
      labelSelector:
        matchExpressions:
        - key: environment
          operator: In
          values: [production]
      sortingLabelKey: order
      maxConcurrency: 25%
- apiVersion: placement.kubernetes-fleet.io/v1beta1
  kind: ClusterResourcePlacement
  metadata:
    name: example-placement
  spec:
    policy:
      placementType: PickN
      numberOfClusters: 2
      affinity:
        clusterAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            clusterSelectorTerms:
            - labelSelector:
                matchLabels: {environment: production}
            - labelSelector:
                matchLabels: {environment: staging}
    strategy:
      type: External
- apiVersion: placement.kubernetes-fleet.io/v1beta1
  kind: ClusterStagedUpdateRun
  metadata:
    name: example-run
  spec:
    placementName: example-placement
    resourceSnapshotIndex: "1"
    stagedRolloutStrategyName: example-strategy
- apiVersion: placement.kubernetes-fleet.io/v1beta1
  kind: ClusterResourceBinding
  metadata:
    name: example-placement-old-member-x1
    labels: {kubernetes-fleet.io/parent-CRP: example-placement}
  spec:
    state: Unscheduled
    targetCluster: old-member
- apiVersion: v1
  kind: Namespace
  metadata:
    name: test-namespace
"#;

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn a_kubectl_list_becomes_one_scenario_per_run() {
    let (scenarios, diags) = import_text(LIST);
    assert_eq!(scenarios.len(), 1);
    let infos: Vec<&str> = diags.iter().map(|d| d.code).collect();
    assert_eq!(infos, ["ignored-kind"], "{diags:?}");
    assert_eq!(diags[0].severity, Severity::Info);
    let s = &scenarios[0];
    assert_eq!(
        s.clusters
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>(),
        ["member1", "member2"]
    );
    assert_eq!(&s.clusters[1].labels["order"], "1");
    let run = staged(s);
    assert_eq!(run.name, "example-strategy");
    assert_eq!(run.namespace, None);
    assert_eq!(run.stages.len(), 2);
    assert_eq!(
        run.stages[1].max_concurrency,
        Some(IntOrString::Str("25%".into()))
    );
    assert_eq!(run.run.name, "example-run");
    assert_eq!(run.run.state, "Initialize", "the API's default state");
    assert_eq!(run.run.resource_snapshot_index.as_deref(), Some("1"));
    assert_eq!(run.placement.name, "example-placement");
    assert_eq!(run.placement.placement_type, "PickN");
    assert_eq!(run.placement.number_of_clusters, Some(2));
    assert_eq!(run.placement.affinity.len(), 2);
    assert_eq!(run.placement.strategy_type, "External");
    assert_eq!(run.delete_clusters, ["old-member"]);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn scenario_paths_point_at_the_manifest_lines() {
    let (scenarios, _) = import_text(LIST);
    let at = |p: &str| scenarios[0].origin.locate(p).map(|l| l.line);
    assert_eq!(at("clusters[1]"), Some(11));
    assert_eq!(at("clusters[1].labels.order"), Some(17));
    assert_eq!(at("strategy.stages[1].maxConcurrency"), Some(39));
    assert_eq!(
        at("strategy.stages[0].afterStageTasks[0].waitTime"),
        Some(31)
    );
    assert_eq!(at("strategy.placement.strategyType"), Some(57));
    assert_eq!(
        at("strategy.run.state"),
        Some(58),
        "no state written: the run object"
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn wrong_types_are_reported_with_the_object_and_field() {
    let (_, diags) = import_text(
        "apiVersion: placement.kubernetes-fleet.io/v1beta1\n\
         kind: ClusterStagedUpdateStrategy\n\
         metadata: {name: s}\n\
         spec:\n\
         \x20 stages:\n\
         \x20   - name: a\n\
         \x20     maxConcurrency: {n: 1}\n\
         \x20     unknownField: ignored\n",
    );
    let errors: Vec<&Diagnostic> = diags.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{diags:?}");
    assert_eq!(
        errors[0].path.as_deref(),
        Some("ClusterStagedUpdateStrategy/s: spec.stages[0].maxConcurrency")
    );
    assert_eq!(errors[0].location.as_ref().map(|l| l.line), Some(7));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn a_missing_strategy_is_reported_with_the_real_text() {
    let (scenarios, diags) = import_text(
        "apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateRun\nmetadata: {name: r}\nspec: {placementName: p, stagedRolloutStrategyName: nope, state: Run}\n",
    );
    assert!(scenarios.is_empty());
    let d = diags.iter().find(|d| d.is_error()).unwrap();
    assert_eq!(
        d.message,
        format!(
            "{}referenced updateStrategy not found: `/nope`",
            crate::staged::init::INIT_PREFIX
        )
    );
    assert_eq!(d.location.as_ref().map(|l| l.line), Some(4));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn a_missing_placement_among_others_is_an_error_and_none_at_all_is_assumed() {
    let objects = "apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateStrategy\nmetadata: {name: s}\nspec: {stages: []}\n---\n\
                   apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateRun\nmetadata: {name: r}\nspec: {placementName: p, stagedRolloutStrategyName: s, state: Run}\n";
    let (scenarios, diags) = import_text(objects);
    assert_eq!(scenarios.len(), 1);
    assert_eq!(
        staged(&scenarios[0]).placement,
        Placement {
            name: "p".into(),
            ..Placement::default()
        }
    );
    assert!(diags
        .iter()
        .any(|d| d.code == "placement-assumed" && d.severity == Severity::Info));

    let other = format!("{objects}---\napiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterResourcePlacement\nmetadata: {{name: other}}\n");
    let (scenarios, diags) = import_text(&other);
    assert!(scenarios.is_empty());
    assert!(diags.iter().any(|d| d.is_error()
        && d.message
            .ends_with("client error: parent placement not found")));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn a_lone_strategy_gets_a_synthesized_run() {
    let (scenarios, diags) = import_text(
        "apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: StagedUpdateStrategy\nmetadata: {name: s, namespace: team}\nspec: {stages: [{name: a, labelSelector: {}}]}\n",
    );
    assert_eq!(scenarios.len(), 1);
    let run = staged(&scenarios[0]);
    assert_eq!(run.run.name, "s-run");
    assert_eq!(run.run.state, "Run");
    assert_eq!(run.namespace.as_deref(), Some("team"));
    assert!(diags.iter().any(|d| d.code == "run-assumed"));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn crp_strategy_type_defaults_to_rolling_update() {
    let (scenarios, _) = import_text(
        "apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateStrategy\nmetadata: {name: s}\n---\n\
         apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterResourcePlacement\nmetadata: {name: p}\nspec: {}\n---\n\
         apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateRun\nmetadata: {name: r}\nspec: {placementName: p, stagedRolloutStrategyName: s}\n",
    );
    assert_eq!(
        staged(&scenarios[0]).placement.strategy_type,
        "RollingUpdate"
    );
    assert_eq!(staged(&scenarios[0]).placement.placement_type, "PickAll");
}
