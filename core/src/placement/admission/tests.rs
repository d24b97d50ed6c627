//! Each layer of a placement's admission on both sides of its rule, expectations written from the
//! CRD markers and `pkg/utils/validator/placement.go`.

use super::*;

fn placement(kind: &str) -> Placement {
    Placement {
        name: "web".into(),
        placement_type: kind.into(),
        ..Placement::default()
    }
}

const AT: Paths<'static> = Paths {
    placement: "strategy.placement",
    rolling_update: "strategy.placement.rollingUpdate",
};

fn run(crp: Crp<'_>) -> (bool, Vec<String>) {
    let mut diags = Vec::new();
    let ok = admit(crp, AT, &mut diags);
    (ok, diags.into_iter().map(|d| d.message).collect())
}

fn crp(p: &Placement) -> Crp<'_> {
    Crp {
        placement: p,
        rolling_update: p.rolling_update.as_ref(),
        namespaced: false,
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn an_external_placement_with_a_rolling_update_block_is_refused_by_the_webhook() {
    let mut p = placement("PickAll");
    assert_eq!(run(crp(&p)), (true, vec![]), "External without the block");
    p.rolling_update = Some(RollingUpdateConfig::default());
    assert_eq!(
        run(crp(&p)),
        (false, vec!["admission webhook \"fleet.clusterresourceplacementv1beta1.validating\" denied the request: deny create/update v1beta1 CRP has invalid fields the rollout Strategy field  is invalid: rollingUpdateConifg is not valid for ExternalRollout strategy type".to_string()])
    );
    p.strategy_type = "RollingUpdate".into();
    assert_eq!(run(crp(&p)), (true, vec![]), "RollingUpdate with the block");
    // The ResourcePlacement's webhook is not registered: nothing refuses it there.
    p.strategy_type = "External".into();
    let ns = Crp {
        namespaced: true,
        ..crp(&p)
    };
    assert!(run(ns).0);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn an_unknown_strategy_type_is_an_enum_error_before_the_webhook() {
    let mut p = placement("PickAll");
    p.strategy_type = "Canary".into();
    let (ok, msgs) = run(crp(&p));
    assert!(!ok);
    assert_eq!(
        msgs,
        [
            "The ClusterResourcePlacement \"web\" is invalid: spec.strategy.type: Unsupported value: \"Canary\": supported values: \"RollingUpdate\", \"External\"",
            "The ClusterResourcePlacement \"web\" is invalid: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ]
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn unavailable_period_seconds_has_a_schema_minimum_of_zero() {
    let mut p = placement("PickAll");
    p.strategy_type = "RollingUpdate".into();
    for (secs, ok) in [(0, true), (-1, false)] {
        p.rolling_update = Some(RollingUpdateConfig {
            unavailable_period_seconds: Some(secs),
            ..RollingUpdateConfig::default()
        });
        let (accepted, msgs) = run(crp(&p));
        assert_eq!(accepted, ok, "{secs}");
        if !ok {
            assert_eq!(msgs, ["The ClusterResourcePlacement \"web\" is invalid: spec.strategy.rollingUpdate.unavailablePeriodSeconds: Invalid value: -1: spec.strategy.rollingUpdate.unavailablePeriodSeconds in body should be greater than or equal to 0"]);
        }
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn policy_cel_rules_name_what_each_type_forbids() {
    let mut fixed = placement("PickFixed");
    fixed.number_of_clusters = Some(2);
    assert_eq!(run(crp(&fixed)).1, ["The ClusterResourcePlacement \"web\" is invalid: spec.policy: Invalid value: \"object\": affinity, numberOfClusters, topologySpreadConstraints, and tolerations cannot be set when placementType is PickFixed"]);
    let mut all = placement("PickAll");
    all.cluster_names = vec!["a".into()];
    assert_eq!(run(crp(&all)).1, ["The ClusterResourcePlacement \"web\" is invalid: spec.policy: Invalid value: \"object\": clusterNames, numberOfClusters, and topologySpreadConstraints cannot be set when placementType is PickAll"]);
    let n = placement("PickN");
    assert_eq!(run(crp(&n)).1, ["The ClusterResourcePlacement \"web\" is invalid: spec.policy: Invalid value: \"object\": clusterNames cannot be set and numberOfClusters must be set when placementType is PickN"]);
    let mut n0 = placement("PickN");
    n0.number_of_clusters = Some(0);
    assert_eq!(
        run(crp(&n0)),
        (true, vec![]),
        "numberOfClusters 0 is at the minimum"
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn pick_fixed_names_are_checked_by_the_webhook() {
    let mut p = placement("PickFixed");
    p.cluster_names = vec!["a".into(), "Bad_Name".into(), "a".into()];
    assert_eq!(run(crp(&p)).1, ["admission webhook \"fleet.clusterresourceplacementv1beta1.validating\" denied the request: deny create/update v1beta1 CRP has invalid fields the placement policy field is invalid: [PickFixed cluster name Bad_Name is not a valid member name: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), cluster names must be unique for policy type PickFixed]"]);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn int_or_percent_strings_pass_the_pattern_but_not_always_the_webhook() {
    let mut p = placement("PickAll");
    p.strategy_type = "RollingUpdate".into();
    p.rolling_update = Some(RollingUpdateConfig {
        max_unavailable: Some(IntOrString::Str("3".into())),
        max_surge: Some(IntOrString::Int(-1)),
        ..RollingUpdateConfig::default()
    });
    assert_eq!(run(crp(&p)).1, ["admission webhook \"fleet.clusterresourceplacementv1beta1.validating\" denied the request: deny create/update v1beta1 CRP has invalid fields the rollout Strategy field  is invalid: [maxUnavailable `3` is invalid: invalid value for IntOrString: invalid type: string is not a percentage, maxSurge must be greater than or equal to 0, got `-1`]"]);
    p.rolling_update = Some(RollingUpdateConfig {
        max_unavailable: Some(IntOrString::Str("3x".into())),
        ..RollingUpdateConfig::default()
    });
    assert_eq!(run(crp(&p)).1, ["The ClusterResourcePlacement \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"3x\": spec.strategy.rollingUpdate.maxUnavailable in body should match '^((100|[0-9]{1,2})%|[0-9]+)$'"]);
    for ok in ["0", "7", "0%", "05%", "99%", "100%"] {
        assert!(matches_int_or_percent(ok), "{ok}");
    }
    for bad in ["", "%", "101%", "1000%", "-1", "1.5%", " 1"] {
        assert!(!matches_int_or_percent(bad), "{bad}");
    }
}
