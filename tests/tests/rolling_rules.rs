//! One data-driven test per rule of KubeFleet rolling updates (RollingUpdate section of
//! ../shared/reference/kubefleet.md): a scenario in, the plan's rounds, availability line, cluster bars
//! and diagnostics out. Every expectation below was checked by hand against the controller's formulas
//! maxToRemove = (ready − canBeUnavailable) − (N − maxUnavailable) and maxToAdd = N + maxSurge − canBeReady.

use fleetplan_tests::expect;
use fleetplan_tests::rolling::check_rolling;
use wasm_bindgen_test::wasm_bindgen_test;

/// Four clusters `c1..c4` with `env: prod`, an in-place update; `extra` is appended to the strategy.
fn four(extra: &str, assumptions: &str) -> String {
    format!(
        r#"
start: 2026-11-23T09:00:00Z
clusters:
  - {{name: c1, labels: {{env: prod}}}}
  - {{name: c2, labels: {{env: prod}}}}
  - {{name: c3, labels: {{env: prod}}}}
  - {{name: c4, labels: {{env: prod}}}}
strategy:
  kind: kubefleet-rolling
  placement: {{name: app}}
{extra}
assumptions:
  applyDuration: 30s
  updateDuration: 3m
{assumptions}
"#
    )
}

#[wasm_bindgen_test(unsupported = test)]
fn seed_example_1_a_bad_image_stalls_after_one_cluster() {
    // N = 4, maxUnavailable 1. Round at +0: ready 4, maxToRemove = (4 − 0) − (4 − 1) = 1, so member1
    // (first by name) is updated. Its new image never becomes available: ready stays 3 and
    // maxToRemove = (3 − 0) − (4 − 1) = 0 from then on. member2..4 keep the old image, available.
    check_rolling(
        include_str!("../../examples/rolling-bad-image.yaml"),
        expect![[r#"
            plan web-app [Stalled] end never
            N=4 maxUnavailable=1 (1) maxSurge=1 (25%) minAvailable=3 unavailablePeriod=1m trackable=true
            round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update member1
            available/placed: +0m 3/4
            stall +0m waiting [member1, member2, member3, member4]: member1 never becomes available, so its binding is never ready; maxToRemove = (ready 3 − canBeUnavailable 0) − (N 4 − maxUnavailable 1) = 0, so member2, member3, member4 keep the old resources and stay available
              member1 [Failed] update +0m→+0m30s applying the new resources | availability-wait +0m30s→never never becomes available (waiting for Deployment availability) — the new resources never become available (assumptions.failures): its binding never counts as ready and holds one unit of maxUnavailable forever
              member2 [NotStarted] — keeps the old resources and stays available; its in-place update never gets a turn: maxToRemove = (ready 3 − canBeUnavailable 0) − (N 4 − maxUnavailable 1) = 0
              member3 [NotStarted] — keeps the old resources and stays available; its in-place update never gets a turn: maxToRemove = (ready 3 − canBeUnavailable 0) − (N 4 − maxUnavailable 1) = 0
              member4 [NotStarted] — keeps the old resources and stays available; its in-place update never gets a turn: maxToRemove = (ready 3 − canBeUnavailable 0) − (N 4 − maxUnavailable 1) = 0
            warning[rollout-stalled] strategy.rollingUpdate: the rollout stalls at 2026-11-23T09:00:00Z: member1 never becomes available, so its binding is never ready; maxToRemove = (ready 3 − canBeUnavailable 0) − (N 4 − maxUnavailable 1) = 0, so member2, member3, member4 keep the old resources and stay available
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn seed_example_2_moving_west_to_east_surges_before_emptying() {
    // N = 4 (PickAll, 4 east clusters picked), maxUnavailable 25% of 4 = 1, maxSurge 2.
    // +0     west 4 Unscheduled and ready, east 4 Scheduled. maxToRemove = (4 − 0) − (4 − 1) = 1:
    //        remove west-1. maxToAdd = 4 + 2 − 4 (west bindings still hold resources) = 2: add east-1, east-2.
    //        Then ready 4, canBeUnavailable 1 (west-1 deleting), canBeReady 6: nothing more.
    // +1m    west-1 gone: ready 3, canBeReady 5. maxToRemove 0; maxToAdd = 6 − 5 = 1: add east-3.
    // +3m30s east-1, east-2 available (30s apply + 3m): ready 5. maxToRemove = 5 − 3 = 2: remove west-2,
    //        west-3. maxToAdd = 6 − 6 = 0.
    // +4m30s west-2, west-3 gone and east-3 available: ready 4, canBeReady 4. maxToRemove = 1: remove
    //        west-4; maxToAdd = 2: add east-4 (the last one).
    // +5m30s west-4 gone. +8m east-4 available: done. Available never below 3 = N − maxUnavailable.
    check_rolling(
        include_str!("../../examples/rolling-move-west-east.yaml"),
        expect![[r#"
            plan web-app [Succeeded] end +8m
            N=4 maxUnavailable=1 (25%) maxSurge=2 (2) minAvailable=3 unavailablePeriod=1m trackable=true
            round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=2: remove west-1, add east-1, add east-2
            round +1m ready=3 canBeUnavailable=0 canBeReady=5 maxToRemove=0 maxToAdd=1: add east-3
            round +3m30s ready=5 canBeUnavailable=0 canBeReady=6 maxToRemove=2 maxToAdd=0: remove west-2, remove west-3
            round +4m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=2: remove west-4, add east-4
            available/placed: +0m 3/6, +4m30s 3/5, +5m30s 3/4, +8m 4/4
              east-1 [Succeeded] add +0m→+0m30s placing the resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              east-2 [Succeeded] add +0m→+0m30s placing the resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              east-3 [Succeeded] add +1m→+1m30s placing the resources | availability-wait +1m30s→+4m30s waiting for Deployment availability
              east-4 [Succeeded] add +4m30s→+5m placing the resources | availability-wait +5m→+8m waiting for Deployment availability
              west-1 [Succeeded] remove +0m→+1m removing the placed resources — no longer picked: its resources were removed
              west-2 [Succeeded] remove +3m30s→+4m30s removing the placed resources — no longer picked: its resources were removed
              west-3 [Succeeded] remove +3m30s→+4m30s removing the placed resources — no longer picked: its resources were removed
              west-4 [Succeeded] remove +4m30s→+5m30s removing the placed resources — no longer picked: its resources were removed
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn defaults_are_25_percent_rounded_up_and_60_seconds() {
    // 25% of 4 rounds up to 1: one in-place update at a time, each 30s apply + 3m availability.
    check_rolling(
        &four("", ""),
        expect![[r#"
        plan app [Succeeded] end +14m
        N=4 maxUnavailable=1 (25%) maxSurge=1 (25%) minAvailable=3 unavailablePeriod=1m trackable=true
        round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c1
        round +3m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c2
        round +7m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c3
        round +10m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c4
        available/placed: +0m 3/4, +14m 4/4
          c1 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
          c2 [Succeeded] update +3m30s→+4m applying the new resources | availability-wait +4m→+7m waiting for Deployment availability
          c3 [Succeeded] update +7m→+7m30s applying the new resources | availability-wait +7m30s→+10m30s waiting for Deployment availability
          c4 [Succeeded] update +10m30s→+11m applying the new resources | availability-wait +11m→+14m waiting for Deployment availability
    "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn percentages_scale_against_n_and_round_up() {
    // 5 clusters: 25% of 5 = 1.25, rounded up to 2: two in-place updates per round.
    check_rolling(
        r#"
generate: [{count: 5, name: "c{i}"}]
strategy: {kind: kubefleet-rolling, placement: app}
assumptions: {applyDuration: 30s, updateDuration: 3m}
"#,
        expect![[r#"
            plan app [Succeeded] end +10m30s
            N=5 maxUnavailable=2 (25%) maxSurge=2 (25%) minAvailable=3 unavailablePeriod=1m trackable=true
            round +0m ready=5 canBeUnavailable=0 canBeReady=5 maxToRemove=2 maxToAdd=2: update c1, update c2
            round +3m30s ready=5 canBeUnavailable=0 canBeReady=5 maxToRemove=2 maxToAdd=2: update c3, update c4
            round +7m ready=5 canBeUnavailable=0 canBeReady=5 maxToRemove=2 maxToAdd=2: update c5
            available/placed: +0m 3/5, +7m 4/5, +10m30s 5/5
              c1 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              c2 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              c3 [Succeeded] update +3m30s→+4m applying the new resources | availability-wait +4m→+7m waiting for Deployment availability
              c4 [Succeeded] update +3m30s→+4m applying the new resources | availability-wait +4m→+7m waiting for Deployment availability
              c5 [Succeeded] update +7m→+7m30s applying the new resources | availability-wait +7m30s→+10m30s waiting for Deployment availability
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn max_unavailable_zero_blocks_in_place_updates() {
    // maxToRemove = (4 − 0) − (4 − 0) = 0 in every round, and maxSurge only adds new clusters.
    check_rolling(
        &four("  rollingUpdate: {maxUnavailable: 0, maxSurge: 2}", ""),
        expect![[r#"
            plan app [Stalled] end never
            N=4 maxUnavailable=0 (0) maxSurge=2 (2) minAvailable=4 unavailablePeriod=1m trackable=true
            available/placed: +0m 4/4
            stall +0m waiting [c1, c2, c3, c4]: maxToRemove = (ready 4 − canBeUnavailable 0) − (N 4 − maxUnavailable 0) = 0 (maxUnavailable is 0: no ready cluster may be taken out of service), so c1, c2, c3, c4 keep the old resources and stay available
              c1 [NotStarted] — keeps the old resources and stays available; its in-place update never gets a turn: maxToRemove = (ready 4 − canBeUnavailable 0) − (N 4 − maxUnavailable 0) = 0
              c2 [NotStarted] — keeps the old resources and stays available; its in-place update never gets a turn: maxToRemove = (ready 4 − canBeUnavailable 0) − (N 4 − maxUnavailable 0) = 0
              c3 [NotStarted] — keeps the old resources and stays available; its in-place update never gets a turn: maxToRemove = (ready 4 − canBeUnavailable 0) − (N 4 − maxUnavailable 0) = 0
              c4 [NotStarted] — keeps the old resources and stays available; its in-place update never gets a turn: maxToRemove = (ready 4 − canBeUnavailable 0) − (N 4 − maxUnavailable 0) = 0
            warning[rolling-max-unavailable-zero] strategy.rollingUpdate.maxUnavailable: maxUnavailable is 0: an in-place update takes a ready cluster out of service, which a budget of 0 never allows, so the 4 cluster(s) that keep the placement are never updated (maxSurge only adds new clusters)
            warning[rollout-stalled] strategy.rollingUpdate: the rollout stalls at 2026-11-23T09:00:00Z: maxToRemove = (ready 4 − canBeUnavailable 0) − (N 4 − maxUnavailable 0) = 0 (maxUnavailable is 0: no ready cluster may be taken out of service), so c1, c2, c3, c4 keep the old resources and stay available
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn max_unavailable_zero_still_moves_a_placement_through_the_surge() {
    // c1, c2 → c3, c4 (PickFixed), maxUnavailable 0, maxSurge 1 (N = 2).
    // +0: maxToRemove = (2 − 0) − (2 − 0) = 0; maxToAdd = 2 + 1 − 2 = 1: add c3.
    // +3m30s c3 ready: ready 3, maxToRemove = 3 − 2 = 1: remove c1; maxToAdd = 3 − 3 = 0.
    // +4m30s c1 gone: ready 2, canBeReady 2: maxToRemove 0, maxToAdd 1: add c4.
    // +8m c4 ready: ready 3: remove c2. +9m c2 gone: done.
    check_rolling(
        &four(
            "  rollingUpdate: {maxUnavailable: 0, maxSurge: 1}\n  change: {update: false, from: {type: PickFixed, clusterNames: [c1, c2]}}\n  placement: {name: app, type: PickFixed, clusterNames: [c3, c4]}",
            "",
        )
        .replace("  placement: {name: app}\n", ""),
        expect![[r#"
            plan app [Succeeded] end +9m
            N=2 maxUnavailable=0 (0) maxSurge=1 (1) minAvailable=2 unavailablePeriod=1m trackable=true
            round +0m ready=2 canBeUnavailable=0 canBeReady=2 maxToRemove=0 maxToAdd=1: add c3
            round +3m30s ready=3 canBeUnavailable=0 canBeReady=3 maxToRemove=1 maxToAdd=0: remove c1
            round +4m30s ready=2 canBeUnavailable=0 canBeReady=2 maxToRemove=0 maxToAdd=1: add c4
            round +8m ready=3 canBeUnavailable=0 canBeReady=3 maxToRemove=1 maxToAdd=0: remove c2
            available/placed: +0m 2/3, +9m 2/2
              c1 [Succeeded] remove +3m30s→+4m30s removing the placed resources — no longer picked: its resources were removed
              c2 [Succeeded] remove +8m→+9m removing the placed resources — no longer picked: its resources were removed
              c3 [Succeeded] add +0m→+0m30s placing the resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              c4 [Succeeded] add +4m30s→+5m placing the resources | availability-wait +5m→+8m waiting for Deployment availability
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn zero_surge_and_zero_unavailable_deadlock_a_placement_change() {
    // maxToRemove = (2 − 0) − (2 − 0) = 0 and maxToAdd = 2 + 0 − 2 = 0: nothing ever moves.
    check_rolling(
        &four(
            "  rollingUpdate: {maxUnavailable: 0, maxSurge: 0}\n  change: {update: false, from: {type: PickFixed, clusterNames: [c1, c2]}}\n  placement: {name: app, type: PickFixed, clusterNames: [c3, c4]}",
            "",
        )
        .replace("  placement: {name: app}\n", ""),
        expect![[r#"
            plan app [Stalled] end never
            N=2 maxUnavailable=0 (0) maxSurge=0 (0) minAvailable=2 unavailablePeriod=1m trackable=true
            available/placed: +0m 2/2
            stall +0m waiting [c1, c2, c3, c4]: maxToRemove = (ready 2 − canBeUnavailable 0) − (N 2 − maxUnavailable 0) = 0 (maxUnavailable is 0: no ready cluster may be taken out of service), so c1, c2 keep serving the old resources and are never emptied; maxToAdd = N 2 + maxSurge 0 − canBeReady 2 = 0, so c3, c4 are never placed
              c1 [NotStarted] — keeps serving the old resources, never emptied: maxToRemove = (ready 2 − canBeUnavailable 0) − (N 2 − maxUnavailable 0) = 0
              c2 [NotStarted] — keeps serving the old resources, never emptied: maxToRemove = (ready 2 − canBeUnavailable 0) − (N 2 − maxUnavailable 0) = 0
              c3 [NotStarted] — never placed: maxToAdd = N 2 + maxSurge 0 − canBeReady 2 = 0
              c4 [NotStarted] — never placed: maxToAdd = N 2 + maxSurge 0 − canBeReady 2 = 0
            warning[rollout-stalled] strategy.rollingUpdate: the rollout stalls at 2026-11-23T09:00:00Z: maxToRemove = (ready 2 − canBeUnavailable 0) − (N 2 − maxUnavailable 0) = 0 (maxUnavailable is 0: no ready cluster may be taken out of service), so c1, c2 keep serving the old resources and are never emptied; maxToAdd = N 2 + maxSurge 0 − canBeReady 2 = 0, so c3, c4 are never placed
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn removals_go_before_in_place_updates() {
    // Both changes at once: c1 leaves (PickFixed c2, c3, c4 + new resources), maxUnavailable 1, N = 3.
    // +0: ready 4 (c1 still serves), maxToRemove = (4 − 0) − (3 − 1) = 2: remove c1 first, then update c2.
    check_rolling(
        &four(
            "  rollingUpdate: {maxUnavailable: 1, maxSurge: 0}\n  change: {update: true, from: {type: PickAll}}\n  placement: {name: app, type: PickFixed, clusterNames: [c2, c3, c4]}",
            "",
        )
        .replace("  placement: {name: app}\n", ""),
        expect![[r#"
            plan app [Succeeded] end +10m30s
            N=3 maxUnavailable=1 (1) maxSurge=0 (0) minAvailable=2 unavailablePeriod=1m trackable=true
            round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=2 maxToAdd=-1: remove c1, update c2
            round +3m30s ready=3 canBeUnavailable=0 canBeReady=3 maxToRemove=1 maxToAdd=0: update c3
            round +7m ready=3 canBeUnavailable=0 canBeReady=3 maxToRemove=1 maxToAdd=0: update c4
            available/placed: +0m 2/4, +1m 2/3, +10m30s 3/3
              c1 [Succeeded] remove +0m→+1m removing the placed resources — no longer picked: its resources were removed
              c2 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              c3 [Succeeded] update +3m30s→+4m applying the new resources | availability-wait +4m→+7m waiting for Deployment availability
              c4 [Succeeded] update +7m→+7m30s applying the new resources | availability-wait +7m30s→+10m30s waiting for Deployment availability
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn failed_to_apply_bindings_are_updated_first_outside_the_budget() {
    // c3 had failed to apply: ready 3. maxToRemove = (3 − 0) − (4 − 1) = 0, yet c3 goes at +0.
    check_rolling(
        &four(
            "  rollingUpdate: {maxUnavailable: 1}\n  change: {failedToApply: [c3]}",
            "",
        ),
        expect![[r#"
            plan app [Succeeded] end +14m
            N=4 maxUnavailable=1 (1) maxSurge=1 (25%) minAvailable=3 unavailablePeriod=1m trackable=true
            round +0m ready=3 canBeUnavailable=0 canBeReady=3 maxToRemove=0 maxToAdd=2: update c3
            round +3m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c1
            round +7m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c2
            round +10m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c4
            available/placed: +0m 3/4, +14m 4/4
              c1 [Succeeded] update +3m30s→+4m applying the new resources | availability-wait +4m→+7m waiting for Deployment availability
              c2 [Succeeded] update +7m→+7m30s applying the new resources | availability-wait +7m30s→+10m30s waiting for Deployment availability
              c3 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              c4 [Succeeded] update +10m30s→+11m applying the new resources | availability-wait +11m→+14m waiting for Deployment availability
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn untrackable_resources_wait_unavailable_period_seconds() {
    // A Job cannot be tracked: each cluster counts as ready 90s after it was applied (no Deployment).
    check_rolling(
        &four(
            "  rollingUpdate: {maxUnavailable: 2, unavailablePeriodSeconds: 90}\n  resources: [Job, ConfigMap]",
            "",
        ),
        expect![[r#"
            plan app [Succeeded] end +4m
            N=4 maxUnavailable=2 (2) maxSurge=1 (25%) minAvailable=2 unavailablePeriod=1m30s trackable=false
            round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=2 maxToAdd=1: update c1, update c2
            round +2m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=2 maxToAdd=1: update c3, update c4
            available/placed: +0m 2/4, +4m 4/4
              c1 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+2m unavailablePeriodSeconds 90s (Job not trackable)
              c2 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+2m unavailablePeriodSeconds 90s (Job not trackable)
              c3 [Succeeded] update +2m→+2m30s applying the new resources | availability-wait +2m30s→+4m unavailablePeriodSeconds 90s (Job not trackable)
              c4 [Succeeded] update +2m→+2m30s applying the new resources | availability-wait +2m30s→+4m unavailablePeriodSeconds 90s (Job not trackable)
            info[rolling-untrackable] strategy.resources: KubeFleet cannot track the availability of Job: a cluster counts as ready unavailablePeriodSeconds after its resources were applied (after its trackable workloads are available), whether or not they work
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn a_trackable_workload_and_an_untrackable_one_wait_for_both() {
    // Deployment available 3m after apply, then the Ingress adds unavailablePeriodSeconds (default 60s).
    check_rolling(
        &four(
            "  rollingUpdate: {maxUnavailable: 4}\n  resources: [Deployment, Ingress]",
            "",
        ),
        expect![[r#"
            plan app [Succeeded] end +4m30s
            N=4 maxUnavailable=4 (4) maxSurge=1 (25%) minAvailable=0 unavailablePeriod=1m trackable=false
            round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=4 maxToAdd=1: update c1, update c2, update c3, update c4
            available/placed: +0m 0/4, +4m30s 4/4
              c1 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability | availability-wait +3m30s→+4m30s unavailablePeriodSeconds 60s (Ingress not trackable)
              c2 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability | availability-wait +3m30s→+4m30s unavailablePeriodSeconds 60s (Ingress not trackable)
              c3 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability | availability-wait +3m30s→+4m30s unavailablePeriodSeconds 60s (Ingress not trackable)
              c4 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability | availability-wait +3m30s→+4m30s unavailablePeriodSeconds 60s (Ingress not trackable)
            info[rolling-untrackable] strategy.resources: KubeFleet cannot track the availability of Ingress: a cluster counts as ready unavailablePeriodSeconds after its resources were applied (after its trackable workloads are available), whether or not they work
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn a_bad_update_of_untrackable_resources_goes_unnoticed() {
    check_rolling(
        &four(
            "  rollingUpdate: {maxUnavailable: 2}\n  resources: [{kind: Service, type: ExternalName}, CronJob]",
            "  failures: [c1]",
        ),
        expect![[r#"
            plan app [Succeeded] end +3m
            N=4 maxUnavailable=2 (2) maxSurge=1 (25%) minAvailable=2 unavailablePeriod=1m trackable=false
            round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=2 maxToAdd=1: update c1, update c2
            round +1m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=2 maxToAdd=1: update c3, update c4
            available/placed: +0m 2/4, +3m 4/4
              c1 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+1m30s unavailablePeriodSeconds 60s (Service (ExternalName), CronJob not trackable)
              c2 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+1m30s unavailablePeriodSeconds 60s (Service (ExternalName), CronJob not trackable)
              c3 [Succeeded] update +1m30s→+2m applying the new resources | availability-wait +2m→+3m unavailablePeriodSeconds 60s (Service (ExternalName), CronJob not trackable)
              c4 [Succeeded] update +1m30s→+2m applying the new resources | availability-wait +2m→+3m unavailablePeriodSeconds 60s (Service (ExternalName), CronJob not trackable)
            info[rolling-untrackable] strategy.resources: KubeFleet cannot track the availability of Service (ExternalName), CronJob: a cluster counts as ready unavailablePeriodSeconds after its resources were applied (after its trackable workloads are available), whether or not they work
            warning[rolling-failure-unnoticed] assumptions.failures[0]: the bad update on `c1` goes unnoticed: KubeFleet cannot track Service (ExternalName), CronJob: the controller counts `c1` ready unavailablePeriodSeconds after apply and rolls on
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn data_objects_are_available_as_soon_as_applied() {
    check_rolling(
        &four(
            "  rollingUpdate: {maxUnavailable: 1}\n  resources: [Namespace, ConfigMap, Secret]",
            "",
        ),
        expect![[r#"
            plan app [Succeeded] end +2m
            N=4 maxUnavailable=1 (1) maxSurge=1 (25%) minAvailable=3 unavailablePeriod=1m trackable=true
            round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c1
            round +0m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c2
            round +1m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c3
            round +1m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c4
            available/placed: +0m 3/4, +2m 4/4
              c1 [Succeeded] update +0m→+0m30s applying the new resources
              c2 [Succeeded] update +0m30s→+1m applying the new resources
              c3 [Succeeded] update +1m→+1m30s applying the new resources
              c4 [Succeeded] update +1m30s→+2m applying the new resources
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn pick_fixed_counts_missing_clusters_in_n() {
    // N = len(clusterNames) = 3, but only c1, c2 exist: minAvailable = 3 − 1 = 2 and ready is 2, so
    // maxToRemove = 2 − 2 = 0 and no in-place update ever starts.
    check_rolling(
        &four("  rollingUpdate: {maxUnavailable: 1}", "").replace(
            "  placement: {name: app}\n",
            "  placement: {name: app, type: PickFixed, clusterNames: [c1, c2, gone]}\n",
        ),
        expect![[r#"
            plan app [Stalled] end never
            N=3 maxUnavailable=1 (1) maxSurge=1 (25%) minAvailable=2 unavailablePeriod=1m trackable=true
            available/placed: +0m 2/2
            stall +0m waiting [c1, c2]: maxToRemove = (ready 2 − canBeUnavailable 0) − (N 3 − maxUnavailable 1) = 0, so c1, c2 keep the old resources and stay available
              c1 [NotStarted] — keeps the old resources and stays available; its in-place update never gets a turn: maxToRemove = (ready 2 − canBeUnavailable 0) − (N 3 − maxUnavailable 1) = 0
              c2 [NotStarted] — keeps the old resources and stays available; its in-place update never gets a turn: maxToRemove = (ready 2 − canBeUnavailable 0) − (N 3 − maxUnavailable 1) = 0
            warning[placement-unknown-cluster] strategy.placement.clusterNames[2]: PickFixed names cluster `gone`, which is not a member cluster of this fleet: the scheduler cannot place it
            warning[rolling-target-unmet] strategy.placement: the placement asks for 3 cluster(s) but only 2 can be picked: the controller still counts against N = 3, so at least 2 must stay available
            warning[rollout-stalled] strategy.rollingUpdate: the rollout stalls at 2026-11-23T09:00:00Z: maxToRemove = (ready 2 − canBeUnavailable 0) − (N 3 − maxUnavailable 1) = 0, so c1, c2 keep the old resources and stay available
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn pick_n_targets_number_of_clusters_not_the_picked_count() {
    // calculateRealTarget: PickN's N is numberOfClusters, whatever the scheduler could pick.
    // numberOfClusters 5 of four clusters: the scheduler picks all four, N = 5, maxUnavailable 1:
    // maxToRemove = (4 − 0) − (5 − 1) = 0, so no in-place update ever starts (stalled). Were N the
    // picked count (4), maxToRemove would be 1 and the rollout would finish.
    check_rolling(
        &four("  rollingUpdate: {maxUnavailable: 1}", "").replace(
            "  placement: {name: app}\n",
            "  placement: {name: app, type: PickN, numberOfClusters: 5}\n",
        ),
        expect![[r#"
            plan app [Stalled] end never
            N=5 maxUnavailable=1 (1) maxSurge=2 (25%) minAvailable=4 unavailablePeriod=1m trackable=true
            available/placed: +0m 4/4
            stall +0m waiting [c1, c2, c3, c4]: maxToRemove = (ready 4 − canBeUnavailable 0) − (N 5 − maxUnavailable 1) = 0, so c1, c2, c3, c4 keep the old resources and stay available
              c1 [NotStarted] — keeps the old resources and stays available; its in-place update never gets a turn: maxToRemove = (ready 4 − canBeUnavailable 0) − (N 5 − maxUnavailable 1) = 0
              c2 [NotStarted] — keeps the old resources and stays available; its in-place update never gets a turn: maxToRemove = (ready 4 − canBeUnavailable 0) − (N 5 − maxUnavailable 1) = 0
              c3 [NotStarted] — keeps the old resources and stays available; its in-place update never gets a turn: maxToRemove = (ready 4 − canBeUnavailable 0) − (N 5 − maxUnavailable 1) = 0
              c4 [NotStarted] — keeps the old resources and stays available; its in-place update never gets a turn: maxToRemove = (ready 4 − canBeUnavailable 0) − (N 5 − maxUnavailable 1) = 0
            info[placement-pickn-order] strategy.placement: PickN: fleetplan assumes the scheduler picks the first matching clusters by name; the real scheduler ranks them by topology spread and preferred affinity
            warning[rolling-target-unmet] strategy.placement: the placement asks for 5 cluster(s) but only 4 can be picked: the controller still counts against N = 5, so at least 4 must stay available
            warning[rollout-stalled] strategy.rollingUpdate: the rollout stalls at 2026-11-23T09:00:00Z: maxToRemove = (ready 4 − canBeUnavailable 0) − (N 5 − maxUnavailable 1) = 0, so c1, c2, c3, c4 keep the old resources and stay available
        "#]],
    );
    // numberOfClusters 2 of four: the scheduler picks c1 and c2 (fleetplan's name order, stated);
    // c3 and c4 hold no binding, before or after. N = 2, maxUnavailable 25% of 2 rounded up = 1.
    check_rolling(
        &four("", "").replace(
            "  placement: {name: app}\n",
            "  placement: {name: app, type: PickN, numberOfClusters: 2}\n",
        ),
        expect![[r#"
            plan app [Succeeded] end +7m
            N=2 maxUnavailable=1 (25%) maxSurge=1 (25%) minAvailable=1 unavailablePeriod=1m trackable=true
            round +0m ready=2 canBeUnavailable=0 canBeReady=2 maxToRemove=1 maxToAdd=1: update c1
            round +3m30s ready=2 canBeUnavailable=0 canBeReady=2 maxToRemove=1 maxToAdd=1: update c2
            available/placed: +0m 1/2, +7m 2/2
              c1 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              c2 [Succeeded] update +3m30s→+4m applying the new resources | availability-wait +4m→+7m waiting for Deployment availability
            info[placement-pickn-order] strategy.placement: PickN: fleetplan assumes the scheduler picks the first matching clusters by name; the real scheduler ranks them by topology spread and preferred affinity
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn a_schema_error_stops_the_placement_before_the_webhook() {
    // unavailablePeriodSeconds has `Minimum=0` in the CRD: the API server refuses the placement with
    // the schema's text, and the webhook (which would also refuse the negative ints) never sees it.
    check_rolling(
        &four(
            "  rollingUpdate: {maxUnavailable: -1, maxSurge: -2, unavailablePeriodSeconds: -5}",
            "",
        ),
        expect![[r#"
            plan app [Invalid] end +14m
            N=4 maxUnavailable=1 (25%) maxSurge=1 (25%) minAvailable=3 unavailablePeriod=1m trackable=true
            round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c1
            round +3m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c2
            round +7m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c3
            round +10m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c4
            available/placed: +0m 3/4, +14m 4/4
              c1 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              c2 [Succeeded] update +3m30s→+4m applying the new resources | availability-wait +4m→+7m waiting for Deployment availability
              c3 [Succeeded] update +7m→+7m30s applying the new resources | availability-wait +7m30s→+10m30s waiting for Deployment availability
              c4 [Succeeded] update +10m30s→+11m applying the new resources | availability-wait +11m→+14m waiting for Deployment availability
            error[rolling-unavailable-period] strategy.rollingUpdate.unavailablePeriodSeconds: The ClusterResourcePlacement "app" is invalid: spec.strategy.rollingUpdate.unavailablePeriodSeconds: Invalid value: -5: spec.strategy.rollingUpdate.unavailablePeriodSeconds in body should be greater than or equal to 0
            info[timeline-despite-errors]: the API server would refuse this placement; the timeline shows the rollout as it would run with the defaults in place of the rejected values
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn strings_that_fail_the_crd_pattern_are_schema_errors() {
    // "abc" and "150%" fail the CRD pattern ^((100|[0-9]{1,2})%|[0-9]+)$: a schema error, and the
    // webhook (which would refuse the "3" beside it) is never asked.
    check_rolling(
        &four(
            "  rollingUpdate: {maxUnavailable: \"3\", maxSurge: abc}",
            "",
        ),
        expect![[r#"
            plan app [Invalid] end +14m
            N=4 maxUnavailable=1 (25%) maxSurge=1 (25%) minAvailable=3 unavailablePeriod=1m trackable=true
            round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c1
            round +3m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c2
            round +7m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c3
            round +10m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c4
            available/placed: +0m 3/4, +14m 4/4
              c1 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              c2 [Succeeded] update +3m30s→+4m applying the new resources | availability-wait +4m→+7m waiting for Deployment availability
              c3 [Succeeded] update +7m→+7m30s applying the new resources | availability-wait +7m30s→+10m30s waiting for Deployment availability
              c4 [Succeeded] update +10m30s→+11m applying the new resources | availability-wait +11m→+14m waiting for Deployment availability
            error[rolling-schema] strategy.rollingUpdate.maxSurge: The ClusterResourcePlacement "app" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: "abc": spec.strategy.rollingUpdate.maxSurge in body should match '^((100|[0-9]{1,2})%|[0-9]+)$'
            info[timeline-despite-errors]: the API server would refuse this placement; the timeline shows the rollout as it would run with the defaults in place of the rejected values
        "#]],
    );
    check_rolling(
        &four("  rollingUpdate: {maxSurge: 150%}", ""),
        expect![[r#"
            plan app [Invalid] end +14m
            N=4 maxUnavailable=1 (25%) maxSurge=1 (25%) minAvailable=3 unavailablePeriod=1m trackable=true
            round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c1
            round +3m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c2
            round +7m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c3
            round +10m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c4
            available/placed: +0m 3/4, +14m 4/4
              c1 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              c2 [Succeeded] update +3m30s→+4m applying the new resources | availability-wait +4m→+7m waiting for Deployment availability
              c3 [Succeeded] update +7m→+7m30s applying the new resources | availability-wait +7m30s→+10m30s waiting for Deployment availability
              c4 [Succeeded] update +10m30s→+11m applying the new resources | availability-wait +11m→+14m waiting for Deployment availability
            error[rolling-schema] strategy.rollingUpdate.maxSurge: The ClusterResourcePlacement "app" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: "150%": spec.strategy.rollingUpdate.maxSurge in body should match '^((100|[0-9]{1,2})%|[0-9]+)$'
            info[timeline-despite-errors]: the API server would refuse this placement; the timeline shows the rollout as it would run with the defaults in place of the rejected values
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn an_unknown_strategy_type_is_an_enum_error_that_skips_the_cel_rules() {
    // `Enum=RollingUpdate;External`: NotSupported is a blocking schema error, so the CRD's CEL rules
    // are not run (apiextensions strategy.go hasBlockingErr) and the API server says so.
    check_rolling(
        &four("", "").replace(
            "  placement: {name: app}\n",
            "  placement: {name: app, strategyType: Canary}\n",
        ),
        expect![[r#"
            plan app [Invalid] end +14m
            N=4 maxUnavailable=1 (25%) maxSurge=1 (25%) minAvailable=3 unavailablePeriod=1m trackable=true
            round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c1
            round +3m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c2
            round +7m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c3
            round +10m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c4
            available/placed: +0m 3/4, +14m 4/4
              c1 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              c2 [Succeeded] update +3m30s→+4m applying the new resources | availability-wait +4m→+7m waiting for Deployment availability
              c3 [Succeeded] update +7m→+7m30s applying the new resources | availability-wait +7m30s→+10m30s waiting for Deployment availability
              c4 [Succeeded] update +10m30s→+11m applying the new resources | availability-wait +11m→+14m waiting for Deployment availability
            error[rollout-strategy-type] strategy.placement.strategyType: The ClusterResourcePlacement "app" is invalid: spec.strategy.type: Unsupported value: "Canary": supported values: "RollingUpdate", "External"
            info[cel-rules-not-checked]: The ClusterResourcePlacement "app" is invalid: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation
            info[timeline-despite-errors]: the API server would refuse this placement; the timeline shows the rollout as it would run with the defaults in place of the rejected values
        "#]],
    );
    check_rolling(
        &four("", "").replace(
            "  placement: {name: app}\n",
            "  placement: {name: app, strategyType: External}\n",
        ),
        expect![[r#"
            plan app [Invalid] end +14m
            N=4 maxUnavailable=1 (25%) maxSurge=1 (25%) minAvailable=3 unavailablePeriod=1m trackable=true
            round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c1
            round +3m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c2
            round +7m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c3
            round +10m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=1: update c4
            available/placed: +0m 3/4, +14m 4/4
              c1 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              c2 [Succeeded] update +3m30s→+4m applying the new resources | availability-wait +4m→+7m waiting for Deployment availability
              c3 [Succeeded] update +7m→+7m30s applying the new resources | availability-wait +7m30s→+10m30s waiting for Deployment availability
              c4 [Succeeded] update +10m30s→+11m applying the new resources | availability-wait +11m→+14m waiting for Deployment availability
            error[rolling-strategy-external] strategy.placement.strategyType: strategy type `External` hands this placement to staged update runs: KubeFleet's rollout controller does not roll it (use kind kubefleet-staged)
            info[timeline-despite-errors]: the API server would refuse this placement; the timeline shows the rollout as it would run with the defaults in place of the rejected values
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn surge_applies_only_to_new_clusters() {
    // maxSurge 4 does not speed up in-place updates: still one at a time under maxUnavailable 1.
    check_rolling(
        &four("  rollingUpdate: {maxUnavailable: 1, maxSurge: 4}", ""),
        expect![[r#"
            plan app [Succeeded] end +14m
            N=4 maxUnavailable=1 (1) maxSurge=4 (4) minAvailable=3 unavailablePeriod=1m trackable=true
            round +0m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=4: update c1
            round +3m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=4: update c2
            round +7m ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=4: update c3
            round +10m30s ready=4 canBeUnavailable=0 canBeReady=4 maxToRemove=1 maxToAdd=4: update c4
            available/placed: +0m 3/4, +14m 4/4
              c1 [Succeeded] update +0m→+0m30s applying the new resources | availability-wait +0m30s→+3m30s waiting for Deployment availability
              c2 [Succeeded] update +3m30s→+4m applying the new resources | availability-wait +4m→+7m waiting for Deployment availability
              c3 [Succeeded] update +7m→+7m30s applying the new resources | availability-wait +7m30s→+10m30s waiting for Deployment availability
              c4 [Succeeded] update +10m30s→+11m applying the new resources | availability-wait +11m→+14m waiting for Deployment availability
        "#]],
    );
}

/// The webhook's part of the check on what passes the schema, as `four`'s placement with `rolling`.
fn webhook_denial(rolling: &str, placement: &str) -> Vec<String> {
    let text = four(&format!("  rollingUpdate: {rolling}"), "").replace(
        "  placement: {name: app}\n",
        &format!("  placement: {placement}\n"),
    );
    let (_, plans) = fleetplan_tests::load_and_plan(&text);
    plans[0]
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            format!(
                "{} {}: {}",
                d.code,
                d.path.as_deref().unwrap_or(""),
                d.message
            )
        })
        .collect()
}

#[wasm_bindgen_test(unsupported = test)]
fn what_passes_the_schema_is_refused_by_the_placement_webhook_with_its_text() {
    // pkg/utils/validator/placement.go validateRolloutStrategy: negative ints (no schema minimum on
    // an int-or-string) and a quoted "3" (matches the pattern, but intstr only scales percentages),
    // aggregated as Go does and wrapped in "the rollout Strategy field  is invalid" (two spaces) and
    // the webhook's "deny create/update v1beta1 CRP has invalid fields".
    expect![[r#"
        [
            "placement-webhook strategy.rollingUpdate.maxUnavailable: admission webhook \"fleet.clusterresourceplacementv1beta1.validating\" denied the request: deny create/update v1beta1 CRP has invalid fields the rollout Strategy field  is invalid: [maxUnavailable must be greater than or equal to 0, got `-1`, maxSurge must be greater than or equal to 0, got `-2`]",
        ]
    "#]]
    .assert_debug_eq(&webhook_denial("{maxUnavailable: -1, maxSurge: -2}", "{name: app}"));
    expect![[r#"
        [
            "placement-webhook strategy.rollingUpdate.maxUnavailable: admission webhook \"fleet.clusterresourceplacementv1beta1.validating\" denied the request: deny create/update v1beta1 CRP has invalid fields the rollout Strategy field  is invalid: maxUnavailable `3` is invalid: invalid value for IntOrString: invalid type: string is not a percentage",
        ]
    "#]]
    .assert_debug_eq(&webhook_denial("{maxUnavailable: \"3\"}", "{name: app}"));
    // An External placement must not carry a rollingUpdate block (the typo is the webhook's).
    expect![[r#"
        [
            "placement-webhook strategy.placement.strategyType: admission webhook \"fleet.clusterresourceplacementv1beta1.validating\" denied the request: deny create/update v1beta1 CRP has invalid fields the rollout Strategy field  is invalid: rollingUpdateConifg is not valid for ExternalRollout strategy type",
            "rolling-strategy-external strategy.placement.strategyType: strategy type `External` hands this placement to staged update runs: KubeFleet's rollout controller does not roll it (use kind kubefleet-staged)",
        ]
    "#]]
    .assert_debug_eq(&webhook_denial(
        "{maxUnavailable: 1}",
        "{name: app, strategyType: External}",
    ));
}

/// pkg/utils/validator/placement.go validatePlacement: `len(name) > validation.DNS1035LabelMaxLength`
/// (63) is refused with "the name field cannot have length exceeding 63", although the schema takes
/// a DNS subdomain of up to 253. A 63-character name passes, 64 characters do not.
#[wasm_bindgen_test(unsupported = test)]
fn the_placement_webhook_refuses_a_name_over_63_characters() {
    let name = |n: usize| format!("{{name: app.{}}}", "a".repeat(n - 4));
    assert_eq!(
        webhook_denial("{maxUnavailable: 1}", &name(63)),
        Vec::<String>::new()
    );
    assert_eq!(
        webhook_denial("{maxUnavailable: 1}", &name(64)),
        ["placement-webhook strategy.placement.name: admission webhook \"fleet.clusterresourceplacementv1beta1.validating\" denied the request: deny create/update v1beta1 CRP has invalid fields the name field cannot have length exceeding 63"]
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn availability_depends_on_the_kind_as_the_work_applier_tracks_it() {
    // workapplier/availability_tracker.go: isDataResource kinds (StorageClass, CSIDriver, CSINode,
    // CSIStorageCapacity, ControllerRevision, IngressClass, LimitRange, ResourceQuota,
    // PriorityClass, …) are available at once, so each cluster is ready when applied (30s);
    // a PodDisruptionBudget is tracked by its status (fleetplan's updateDuration, 3m, after the
    // apply); a HorizontalPodAutoscaler is not trackable: ready unavailablePeriodSeconds (60s)
    // after the apply.
    let one = |kinds: &str| {
        let text = four(
            &format!("  rollingUpdate: {{maxUnavailable: 4}}\n  resources: [{kinds}]"),
            "",
        );
        let (_, plans) = fleetplan_tests::load_and_plan(&text);
        let p = &plans[0];
        p.end.map(|e| e.since(p.start).to_string())
    };
    assert_eq!(
        one("StorageClass, CSIDriver, CSINode, CSIStorageCapacity, ControllerRevision, IngressClass, LimitRange, ResourceQuota, PriorityClass").as_deref(),
        Some("30s")
    );
    assert_eq!(one("PodDisruptionBudget").as_deref(), Some("3m30s"));
    assert_eq!(one("HorizontalPodAutoscaler").as_deref(), Some("1m30s"));
}

#[wasm_bindgen_test(unsupported = test)]
fn report_diff_bindings_are_ready_once_the_diff_is_reported() {
    // controller.go isBindingReady: DiffReported=True is ready at once (no availability wait, no
    // unavailablePeriodSeconds even for a Job); IsBindingDiffReported bindings are left out of
    // canBeReady. Four clusters on the old snapshot, all diff-reported: canBeReady 0. Each round
    // maxToRemove = (4 − 0) − (4 − 1) = 1: one in-place update per 30s apply; done at +2m.
    check_rolling(
        &four(
            "  rollingUpdate: {maxUnavailable: 1}\n  resources: [Deployment, Job]",
            "",
        )
        .replace(
            "  placement: {name: app}\n",
            "  placement: {name: app, applyStrategy: ReportDiff}\n",
        ),
        expect![[r#"
            plan app [Succeeded] end +2m
            N=4 maxUnavailable=1 (1) maxSurge=1 (25%) minAvailable=3 unavailablePeriod=1m trackable=true
            round +0m ready=4 canBeUnavailable=0 canBeReady=0 maxToRemove=1 maxToAdd=5: update c1
            round +0m30s ready=4 canBeUnavailable=0 canBeReady=0 maxToRemove=1 maxToAdd=5: update c2
            round +1m ready=4 canBeUnavailable=0 canBeReady=0 maxToRemove=1 maxToAdd=5: update c3
            round +1m30s ready=4 canBeUnavailable=0 canBeReady=0 maxToRemove=1 maxToAdd=5: update c4
            available/placed: +0m 3/4, +2m 4/4
              c1 [Succeeded] update +0m→+0m30s reporting the diff
              c2 [Succeeded] update +0m30s→+1m reporting the diff
              c3 [Succeeded] update +1m→+1m30s reporting the diff
              c4 [Succeeded] update +1m30s→+2m reporting the diff
            info[report-diff] strategy.placement.applyStrategy: the placement's apply strategy is ReportDiff: nothing is applied to the member clusters; a binding is ready as soon as it reports its diff (DiffReported), after applyDuration, with no availability wait and no unavailablePeriodSeconds, and a binding whose diff is reported no longer counts in canBeReady
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn report_diff_lets_a_zero_budget_move_proceed_because_reported_bindings_leave_can_be_ready() {
    // maxUnavailable 0 and maxSurge 0 deadlock a move with applied resources (see
    // zero_surge_and_zero_unavailable_deadlock_a_placement_change): maxToAdd = N 2 + 0 − canBeReady 2
    // = 0. Under ReportDiff the two west bindings have reported their diff, so canBeReady is 0 and
    // maxToAdd = 2: east-1 and east-2 are added at +0; their diffs are reported at +30s (ready 4),
    // then maxToRemove = (4 − 0) − (2 − 0) = 2 removes west-1 and west-2, gone at +1m30s.
    check_rolling(
        r#"
start: 2026-11-23T09:00:00Z
clusters:
  - {name: east-1, labels: {loc: east}}
  - {name: east-2, labels: {loc: east}}
  - {name: west-1, labels: {loc: west}}
  - {name: west-2, labels: {loc: west}}
strategy:
  kind: kubefleet-rolling
  placement: {name: app, affinity: "loc=east", applyStrategy: ReportDiff}
  rollingUpdate: {maxUnavailable: 0, maxSurge: 0}
  change: {update: false, from: {affinity: "loc=west"}}
assumptions: {applyDuration: 30s, deleteDuration: 1m}
"#,
        expect![[r#"
            plan app [Succeeded] end +1m30s
            N=2 maxUnavailable=0 (0) maxSurge=0 (0) minAvailable=2 unavailablePeriod=1m trackable=true
            round +0m ready=2 canBeUnavailable=0 canBeReady=0 maxToRemove=0 maxToAdd=2: add east-1, add east-2
            round +0m30s ready=4 canBeUnavailable=0 canBeReady=0 maxToRemove=2 maxToAdd=2: remove west-1, remove west-2
            available/placed: +0m 2/4, +1m30s 2/2
              east-1 [Succeeded] add +0m→+0m30s reporting the diff
              east-2 [Succeeded] add +0m→+0m30s reporting the diff
              west-1 [Succeeded] remove +0m30s→+1m30s removing the placed resources — no longer picked: its resources were removed
              west-2 [Succeeded] remove +0m30s→+1m30s removing the placed resources — no longer picked: its resources were removed
            info[report-diff] strategy.placement.applyStrategy: the placement's apply strategy is ReportDiff: nothing is applied to the member clusters; a binding is ready as soon as it reports its diff (DiffReported), after applyDuration, with no availability wait and no unavailablePeriodSeconds, and a binding whose diff is reported no longer counts in canBeReady
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn unavailable_period_seconds_zero_makes_an_untrackable_cluster_ready_when_applied() {
    // isBindingReady: an untrackable binding is ready once Available has been True for
    // unavailablePeriodSeconds: with 0 at the apply itself (30s per cluster, one at a time: +2m),
    // with 1 a second later (+2m04s).
    let end = |secs: u32| {
        let text = four(
            &format!("  rollingUpdate: {{maxUnavailable: 1, unavailablePeriodSeconds: {secs}}}\n  resources: [Job]"),
            "",
        );
        let (_, plans) = fleetplan_tests::load_and_plan(&text);
        plans[0].end.map(|e| e.since(plans[0].start).to_string())
    };
    assert_eq!(end(0).as_deref(), Some("2m"));
    assert_eq!(end(1).as_deref(), Some("2m4s"));
}
