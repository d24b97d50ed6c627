//! Decoding and round-tripping of the `kubefleet-rolling` kind.

use crate::input::{load, Source};
use crate::model::{IntOrString, Strategy};
use crate::yaml_out::scenario_to_yaml;

fn load_one(text: &str) -> crate::Scenario {
    load(&[Source {
        name: "r.yaml",
        text,
    }])
    .scenarios
    .remove(0)
}

const FULL: &str = r#"
clusters:
  - {name: w1, labels: {loc: west}}
  - {name: e1, labels: {loc: east}}
strategy:
  kind: kubefleet-rolling
  placement: {name: web, type: PickN, numberOfClusters: 1, affinity: "loc=east"}
  rollingUpdate: {maxUnavailable: 0, maxSurge: "50%", unavailablePeriodSeconds: 15}
  resources: [Deployment, {kind: Service, type: LoadBalancer}, Job]
  change:
    update: false
    from: {type: PickFixed, clusterNames: [w1]}
    failedToApply: [w1]
assumptions: {applyDuration: 10s, updateDuration: 2m, failures: [e1]}
"#;

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn every_rolling_field_decodes() {
    let s = load_one(FULL);
    let Strategy::KubefleetRolling(run) = &s.strategy else {
        panic!("{:?}", s.strategy)
    };
    assert_eq!(run.placement.name, "web");
    assert_eq!(run.placement.strategy_type, "RollingUpdate");
    assert_eq!(
        run.rolling_update.max_unavailable,
        Some(IntOrString::Int(0))
    );
    assert_eq!(
        run.rolling_update.max_surge,
        Some(IntOrString::Str("50%".into()))
    );
    assert_eq!(run.rolling_update.unavailable_period_seconds, Some(15));
    assert_eq!(run.resources.len(), 3);
    assert_eq!(
        run.resources[1].service_type.as_deref(),
        Some("LoadBalancer")
    );
    assert!(!run.change.update);
    let from = run.change.from.as_ref().unwrap();
    assert_eq!(
        from.name, "web",
        "the earlier policy belongs to the same placement"
    );
    assert_eq!(from.cluster_names, ["w1"]);
    assert_eq!(run.change.failed_to_apply, ["w1"]);
    assert!(s.assumptions.apply_duration.is_some());
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn a_rolling_scenario_round_trips_through_yaml() {
    let mut original = load_one(FULL);
    let text = scenario_to_yaml(&original);
    let loaded = load(&[Source {
        name: "out.yaml",
        text: &text,
    }]);
    assert!(
        loaded.diagnostics.is_empty(),
        "{:?}\n{text}",
        loaded.diagnostics
    );
    let mut back = loaded.scenarios.into_iter().next().unwrap();
    original.origin = Default::default();
    back.origin = Default::default();
    assert_eq!(back, original, "{text}");
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn unknown_rolling_fields_are_warned_about() {
    let loaded = load(&[Source {
        name: "r.yaml",
        text: "strategy: {kind: kubefleet-rolling, rollingUpdate: {maxSurg: 1}}\n",
    }]);
    assert!(
        loaded
            .diagnostics
            .iter()
            .any(|d| d.code == "unknown-field" && d.message.contains("did you mean `maxSurge`")),
        "{:?}",
        loaded.diagnostics
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn a_placement_alone_rolls_itself_out_with_its_rolling_update_settings() {
    let text = r#"
apiVersion: cluster.kubernetes-fleet.io/v1beta1
kind: MemberCluster
metadata: {name: m1, labels: {env: prod}}
---
apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterResourcePlacement
metadata: {name: web}
spec:
  resourceSelectors: [{group: apps, kind: Deployment, name: web, version: v1}, {group: batch, kind: Job, name: j, version: v1}]
  policy: {placementType: PickAll}
  strategy: {rollingUpdate: {maxUnavailable: "3", unavailablePeriodSeconds: 30}}
---
apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterResourcePlacement
metadata: {name: staged-only}
spec:
  resourceSelectors: [{group: "", kind: Namespace, name: ns, version: v1}]
  strategy: {type: External}
"#;
    let loaded = load(&[Source {
        name: "crp.yaml",
        text,
    }]);
    assert_eq!(
        loaded.scenarios.len(),
        1,
        "External placements wait for staged runs"
    );
    let Strategy::KubefleetRolling(run) = &loaded.scenarios[0].strategy else {
        panic!("{:?}", loaded.scenarios[0].strategy)
    };
    assert_eq!(run.placement.name, "web");
    assert_eq!(run.placement.strategy_type, "RollingUpdate");
    assert_eq!(run.rolling_update.unavailable_period_seconds, Some(30));
    let kinds: Vec<&str> = run.resources.iter().map(|r| r.kind.as_str()).collect();
    assert_eq!(kinds, ["Deployment", "Job"]);
    let plan = crate::plan(&loaded.scenarios[0]);
    let d = plan
        .diagnostics
        .iter()
        .find(|d| d.code == "placement-webhook")
        .expect("the webhook's message");
    assert_eq!(d.message, "admission webhook \"fleet.clusterresourceplacementv1beta1.validating\" denied the request: deny create/update v1beta1 CRP has invalid fields the rollout Strategy field  is invalid: maxUnavailable `3` is invalid: invalid value for IntOrString: invalid type: string is not a percentage");
    assert_eq!(
        d.location.as_ref().map(|l| (l.line, l.column)),
        Some((12, 46)),
        "points into the object"
    );
}
