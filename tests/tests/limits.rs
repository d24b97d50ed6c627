//! Hostile and huge inputs (issue 12): one regression test per finding, each input built here. Every
//! limit answers with a located diagnostic that names the limit, and the work past it is never done.
//! The limits themselves are listed in docs/limits.md; speed and memory figures live in bench/, not here.

use fleetplan::plan::{Phase, PhaseKind, Plan};
use fleetplan::{Diagnostic, Loaded};
use fleetplan_tests::load_and_plan;
use wasm_bindgen_test::wasm_bindgen_test;

/// `line:column: code: message` of every diagnostic with `code`, from loading and planning.
fn said(loaded: &Loaded, plans: &[Plan], code: &str) -> Vec<String> {
    loaded
        .diagnostics
        .iter()
        .chain(plans.iter().flat_map(|p| &p.diagnostics))
        .filter(|d| d.code == code)
        .map(located)
        .collect()
}

fn located(d: &Diagnostic) -> String {
    let at = d
        .location
        .as_ref()
        .map_or("-".to_string(), |l| format!("{}:{}", l.line, l.column));
    format!("{at}: {}", d.message)
}

/// The real API's IntOrString and PlacementPolicy.NumberOfClusters hold an `int32`
/// (apimachinery `intstr`, KubeFleet `apis/placement/v1beta1`). The API server does not enforce
/// `format: int32` on custom resources (kubernetes#136091), so the refusal comes from Go decoding the
/// object: encoding/json's UnmarshalTypeError, "json: cannot unmarshal number N into Go struct field
/// S.path of type int32"; intstr decodes the number on its own, so there the text has no field.
/// 2147483647 = 2^31 − 1 is the largest accepted.
#[wasm_bindgen_test(unsupported = test)]
fn rolling_numbers_are_int32_as_in_the_api() {
    let scenario = |n: &str, unavailable: &str, surge: &str| {
        format!(
            "clusters: [{{name: a}}]\nstrategy:\n  kind: kubefleet-rolling\n  placement: {{name: p, type: PickN, numberOfClusters: {n}}}\n  rollingUpdate: {{maxUnavailable: {unavailable}, maxSurge: {surge}}}\n  resources: [Namespace]\n  change: {{update: true}}\n"
        )
    };
    let max = i32::MAX.to_string();
    let (loaded, plans) = load_and_plan(&scenario(&max, &max, &max));
    assert_eq!(said(&loaded, &plans, "int32-range"), Vec::<String>::new());
    // N = 2^31 − 1 with maxSurge 2^31 − 1: maxToAdd = N + maxSurge − canBeReady = 4294967293, which an
    // int32 could not hold; the plan says it exactly.
    let rounds = &plans[0].rolling.as_ref().expect("a rolling plan").rounds;
    assert_eq!(rounds[0].max_to_add, 2 * i64::from(i32::MAX) - 1);

    let over = (i64::from(i32::MAX) + 1).to_string();
    let (loaded, plans) = load_and_plan(&scenario(&over, "-9223372036854775808", &over));
    assert_eq!(
        said(&loaded, &plans, "int32-range"),
        [
            "4:55: json: cannot unmarshal number 2147483648 into Go struct field PlacementPolicy.spec.policy.numberOfClusters of type int32",
            "5:35: json: cannot unmarshal number -9223372036854775808 into Go value of type int32",
            "5:67: json: cannot unmarshal number 2147483648 into Go value of type int32",
        ]
    );
}

/// GKE supports at most 65,000 nodes per cluster (and 1,000 per node pool per zone): more is refused
/// with the limit in the text, and planned as 65,000 so the work stays bounded. With maxSurge 1 and
/// 10 minutes per batch, a daily 4-hour window starts ceil(4h / 10m) = 24 batches per opening (the
/// last one runs past the close), so 65,000 nodes take ceil(65,000 / 24) = 2,709 openings: one
/// node-upgrade bar each.
#[wasm_bindgen_test(unsupported = test)]
fn gke_node_counts_stop_at_the_largest_cluster_gke_supports() {
    let scenario = |nodes: u64| {
        format!(
            "start: 2026-11-23T09:00:00Z\nclusters:\n  - name: a\n    fleet: projects/p\n    version: {{controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}}\n    maintenance: {{window: {{daily: \"02:00\"}}}}\n    nodePools: [{{name: pool, nodes: {nodes}, maxSurge: 1}}]\nstrategy:\n  kind: gke-rollout-sequence\n  stages: [{{fleet: projects/p, soakDuration: 1d}}]\n  versions: [1.31.5-gke.1200000]\n"
        )
    };
    let node_bars = |plan: &Plan| {
        plan.stages[0].clusters[0]
            .phases
            .iter()
            .filter(|p: &&Phase| p.kind == PhaseKind::NodeUpgrade)
            .count()
    };
    let (loaded, plans) = load_and_plan(&scenario(65_000));
    assert_eq!(
        said(&loaded, &plans, "gke-too-many-nodes"),
        Vec::<String>::new()
    );
    assert_eq!(node_bars(&plans[0]), 2_709);

    let (loaded, plans) = load_and_plan(&scenario(u64::from(u32::MAX)));
    assert_eq!(
        said(&loaded, &plans, "gke-too-many-nodes"),
        ["7:16: cluster `a` has 4294967295 nodes in its node pools; GKE supports at most 65000 nodes per cluster (and 1000 per node pool per zone); planned as 65000"]
    );
    assert_eq!(node_bars(&plans[0]), 2_709);
}

/// Exclusions are looked up through an index, not scanned at every step. 20,000 NO_UPGRADES
/// exclusions, one over each day's 02:00–06:00 window from the day after the start, hold the control
/// plane until the window after the last one: day 20,001 at 02:00. (GKE allows 20 exclusions, 3 of
/// them NO_UPGRADES; both are said, and the rest is still planned.)
#[wasm_bindgen_test(unsupported = test)]
fn many_exclusions_are_indexed() {
    const DAY_MS: i64 = 86_400_000;
    let first = fleetplan::time::Time::parse("2026-11-24T02:00:00Z").unwrap();
    let mut text = String::from("start: 2026-11-23T09:00:00Z\nclusters:\n  - name: a\n    fleet: projects/p\n    version: {controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}\n    maintenance:\n      window: {daily: \"02:00\"}\n      exclusions:\n");
    for day in 0..20_000 {
        let from = fleetplan::time::Time(first.0 + day * DAY_MS);
        let to = fleetplan::time::Time(from.0 + 4 * 3_600_000);
        text.push_str(&format!(
            "        - {{name: x{day}, start: \"{from}\", end: \"{to}\", scope: NO_UPGRADES}}\n"
        ));
    }
    text.push_str("strategy:\n  kind: gke-rollout-sequence\n  stages: [{fleet: projects/p, soakDuration: 1d}]\n  versions: [1.31.5-gke.1200000]\n");
    let (loaded, plans) = load_and_plan(&text);
    assert_eq!(
        said(&loaded, &plans, "too-many-exclusions"),
        ["9:9: cluster `a` has 20000 maintenance exclusions; GKE allows at most 20"]
    );
    let control_plane = plans[0].stages[0].clusters[0]
        .phases
        .iter()
        .find(|p| p.kind == PhaseKind::ControlPlaneUpgrade)
        .expect("the control plane upgrades");
    assert_eq!(control_plane.start.0, first.0 + 20_000 * DAY_MS);
}
