//! Live projection of KubeFleet rolling updates from a ClusterResourcePlacement's status. The
//! per-cluster conditions follow the rollout controller's rules (`RolloutStarted` when a round picks
//! the binding, else `RolloutNotStartedYet`; `Applied`; `Available`); expectations are derived by
//! hand from the rolling rules of ../shared/reference/kubefleet.md.

use fleetplan::plan::projection::{Basis, RunState, WaitingKind};
use fleetplan::plan::Plan;
use fleetplan::status::{self, Options};
use fleetplan::time::Time;
use fleetplan::Source;
use wasm_bindgen_test::wasm_bindgen_test;

fn t(s: &str) -> Time {
    Time::parse(s).unwrap()
}

fn project(text: &str, now: &str) -> Plan {
    let input = status::load(
        &[Source {
            name: "crp.yaml",
            text,
        }],
        &[],
    );
    assert!(!input.items.is_empty(), "{:?}", input.diagnostics);
    status::project(&input.items[0], &Options::new(t(now), true))
}

fn cluster(
    name: &str,
    started: Option<&str>,
    applied: Option<(&str, bool)>,
    available: Option<&str>,
) -> String {
    let mut c = format!("  - clusterName: {name}\n    conditions:\n");
    match started {
        Some(at) => c.push_str(&format!("    - {{type: RolloutStarted, status: \"True\", reason: RolloutStarted, lastTransitionTime: \"{at}\", observedGeneration: 2}}\n")),
        None => c.push_str("    - {type: RolloutStarted, status: \"False\", reason: RolloutNotStartedYet, lastTransitionTime: \"2026-11-24T09:00:00Z\", observedGeneration: 2}\n"),
    }
    if let Some((at, ok)) = applied {
        let (s, r) = if ok {
            ("True", "AllWorkHaveBeenApplied")
        } else {
            ("False", "ApplyFailed")
        };
        c.push_str(&format!("    - {{type: Applied, status: \"{s}\", reason: {r}, lastTransitionTime: \"{at}\", observedGeneration: 2}}\n"));
    }
    if let Some(at) = available {
        c.push_str(&format!("    - {{type: Available, status: \"True\", reason: AllWorkAreAvailable, lastTransitionTime: \"{at}\", observedGeneration: 2}}\n"));
    }
    c
}

fn crp(clusters: &[String], assumptions: &str) -> String {
    format!(
        "apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterResourcePlacement\nmetadata: {{name: web, generation: 2}}\nspec:\n  resourceSelectors:\n  - {{group: apps, version: v1, kind: Deployment, name: web}}\n  policy: {{placementType: PickAll}}\n  strategy:\n    type: RollingUpdate\n    rollingUpdate: {{maxUnavailable: 1}}\nstatus:\n  placementStatuses:\n{}---\n{assumptions}",
        clusters.concat()
    )
}

const ASSUME: &str = "assumptions: {updateDuration: 5m, uncertainty: {updateSpread: 0}}\n";

#[wasm_bindgen_test(unsupported = test)]
fn a_rolling_update_continues_one_cluster_at_a_time_from_where_it_stands() {
    let text = crp(
        &[
            cluster(
                "a",
                Some("2026-11-24T09:00:00Z"),
                Some(("2026-11-24T09:00:30Z", true)),
                Some("2026-11-24T09:05:30Z"),
            ),
            cluster(
                "b",
                Some("2026-11-24T09:05:30Z"),
                Some(("2026-11-24T09:06:00Z", true)),
                None,
            ),
            cluster("c", None, None, None),
            cluster("d", None, None, None),
        ],
        ASSUME,
    );
    let plan = project(&text, "2026-11-24T09:07:00Z");
    let p = plan.projection.as_ref().unwrap();
    let row = &plan.stages[0];
    // a: a fact. b: applied at 09:06, available 5m later (the assumed updateDuration from applied).
    assert_eq!(p.stages[0].clusters[0].basis, Basis::Fact);
    assert_eq!(row.clusters[0].end, Some(t("2026-11-24T09:05:30Z")));
    assert_eq!(row.clusters[1].end, Some(t("2026-11-24T09:11:00Z")));
    // maxUnavailable 1: c starts when b is ready (09:11), applies 30s (default), 5m: 09:16:30; d: 09:22:00.
    assert_eq!(row.clusters[2].end, Some(t("2026-11-24T09:16:30Z")));
    assert_eq!(plan.end, Some(t("2026-11-24T09:22:00Z")));
    assert_eq!(plan.start, t("2026-11-24T09:00:00Z"));
    assert_eq!(p.position.state, RunState::Running);
    assert_eq!((p.position.clusters_done, p.position.clusters), (1, 4));
    assert_eq!(p.position.in_flight[0].cluster, "b");
    // The same durations from the first cluster's start: the run is on time.
    assert_eq!(p.baseline_end, plan.end);
    let f = p.forecast.as_ref().unwrap();
    assert_eq!((f.end.p10, f.end.p90), (plan.end, plan.end));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_cluster_whose_resources_failed_holds_the_budget_and_stalls_the_rollout() {
    let text = crp(
        &[
            cluster(
                "a",
                Some("2026-11-24T09:00:00Z"),
                Some(("2026-11-24T09:00:30Z", false)),
                None,
            ),
            cluster("b", None, None, None),
        ],
        ASSUME,
    );
    let plan = project(&text, "2026-11-24T09:07:00Z");
    let p = plan.projection.as_ref().unwrap();
    assert_eq!(p.position.state, RunState::Stuck);
    assert_eq!(p.position.waiting[0].kind, WaitingKind::FailedClusters);
    // maxUnavailable 1 is held by a forever: b never gets its turn, the rollout never ends.
    assert_eq!(plan.end, None);
}

#[wasm_bindgen_test(unsupported = test)]
fn a_rolling_update_not_started_gets_a_range() {
    let plan = project(
        include_str!("../../examples/rolling-move-west-east.yaml"),
        "2026-11-20T00:00:00Z",
    );
    let p = plan.projection.as_ref().unwrap();
    assert_eq!(p.position.state, RunState::NotStarted);
    let f = p.forecast.as_ref().expect("a range for a plan not started");
    let (p10, p50, p90) = (f.end.p10.unwrap(), f.end.p50.unwrap(), f.end.p90.unwrap());
    assert!(p10 <= p50 && p50 <= p90);
    assert!(p10 < p90, "the default ±25% makes a range");
}
