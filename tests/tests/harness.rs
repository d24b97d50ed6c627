//! Tests of the harness itself: the data-driven `check` helper works on both targets.

use fleetplan_tests::{check, expect};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test(unsupported = test)]
fn empty_input_is_reported_not_planned() {
    check(
        "",
        expect![[r#"
            error[no-scenario]: no scenario or KubeFleet objects found
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn the_staged_example_renders_stage_by_stage() {
    check(
        include_str!("../../examples/staged.yaml"),
        expect![[r#"
            plan staged-rollout run example-run [Succeeded] start 2026-11-23T09:00:00Z end +3h15m
            stage staging [Succeeded] +0m → +1h03m mc=1
              timed-wait +3m → +1h03m TimedWait 1h
              cluster member1 [Succeeded] +0m → +3m
            stage canary [Succeeded] +1h03m → +1h36m mc=1
              after-approval +1h06m → +1h36m example-run-after-canary
              cluster member2 [Succeeded] +1h03m → +1h06m
            stage production [Succeeded] +1h36m → +3h15m mc=2
              before-approval +1h36m → +2h06m example-run-before-production
              timed-wait +2h15m → +3h15m TimedWait 1h
              after-approval +2h15m → +2h45m example-run-after-production
              cluster member3 [Succeeded] +2h06m → +2h09m
              cluster member4 [Succeeded] +2h06m → +2h09m
              cluster member5 [Succeeded] +2h09m → +2h12m
              cluster member6 [Succeeded] +2h09m → +2h12m
              cluster member7 [Succeeded] +2h12m → +2h15m
        "#]],
    );
}
