//! One data-driven test per rule of KubeFleet staged update runs (../shared/reference/kubefleet.md):
//! a scenario in, the plan's compact rendering out.

use fleetplan_tests::{check, expect};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test(unsupported = test)]
fn cluster_in_no_stage_fails_initialization_with_the_real_message() {
    check(
        r#"
start: 2026-11-23T09:00:00Z
clusters:
  - {name: a, labels: {env: prod}}
  - {name: b, labels: {env: dev}}
  - {name: c, labels: {env: dev}}
strategy:
  kind: kubefleet-staged
  stages:
    - name: prod
      labelSelector: {matchLabels: {env: prod}}
"#,
        expect![[r#"
            plan - run example-run [Invalid] start 2026-11-23T09:00:00Z end +3m
            stage prod [Succeeded] +0m → +3m mc=1
              cluster a [Succeeded] +0m → +3m
            error[cluster-in-no-stage] strategy.stages: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: some clusters are not placed in any stage, total 2, showing up to 10: b, c
            info[timeline-despite-errors]: the controller would refuse to initialize this run; the timeline shows the stages as far as they could be computed
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn not_placed_message_shows_at_most_ten_names_sorted_by_bytes() {
    check(
        r#"
generate:
  - {count: 12, name: "c-{i}", labels: {env: x}}
strategy:
  kind: kubefleet-staged
  stages:
    - name: none
      labelSelector: {matchLabels: {env: y}}
"#,
        expect![[r#"
            plan - run example-run [Invalid] start 2026-01-05T09:00:00Z end +0m
            stage none [Skipped] +0m → +0m mc=1
            info[empty-stage] strategy.stages[0].labelSelector: stage `none` selects no scheduled cluster: the run skips it together with its before- and after-stage tasks
            error[cluster-in-no-stage] strategy.stages: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: some clusters are not placed in any stage, total 12, showing up to 10: c-1, c-10, c-11, c-12, c-2, c-3, c-4, c-5, c-6, c-7
            info[timeline-despite-errors]: the controller would refuse to initialize this run; the timeline shows the stages as far as they could be computed
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn a_cluster_matched_by_two_stages_is_an_error() {
    check(
        r#"
clusters:
  - {name: a, labels: {env: prod, canary: "true"}}
  - {name: b, labels: {env: prod}}
strategy:
  kind: kubefleet-staged
  stages:
    - name: canary
      labelSelector: {matchLabels: {canary: "true"}}
    - name: prod
      labelSelector: {matchLabels: {env: prod}}
"#,
        expect![[r#"
            plan - run example-run [Invalid] start 2026-01-05T09:00:00Z end +6m
            stage canary [Succeeded] +0m → +3m mc=1
              cluster a [Succeeded] +0m → +3m
            stage prod [Succeeded] +3m → +6m mc=1
              cluster b [Succeeded] +3m → +6m
            error[cluster-in-two-stages] strategy.stages[1].labelSelector: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: cluster `a` appears in more than one stages
            info[timeline-despite-errors]: the controller would refuse to initialize this run; the timeline shows the stages as far as they could be computed
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn nil_selector_selects_none_and_empty_selector_selects_all() {
    check(
        r#"
clusters:
  - {name: a}
  - {name: b}
strategy:
  kind: kubefleet-staged
  stages:
    - name: nothing
    - name: everything
      labelSelector: {}
"#,
        expect![[r#"
            plan - run example-run [Succeeded] start 2026-01-05T09:00:00Z end +6m
            stage nothing [Skipped] +0m → +0m mc=1
            stage everything [Succeeded] +0m → +6m mc=1
              cluster a [Succeeded] +0m → +3m
              cluster b [Succeeded] +3m → +6m
            warning[stage-without-selector] strategy.stages[0]: stage `nothing` has no labelSelector, so it selects no cluster (an absent selector selects none; `{}` selects all)
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn sorting_label_orders_numerically_with_ties_by_name() {
    // strconv.Atoi reads "02" as 2 and "007" as 7; ties (x and z, both 2) go by name. Atoi would
    // also take "+2" or "-3", but no label value can start with a sign (see the label tests below).
    check(
        r#"
clusters:
  - {name: z, labels: {order: "2"}}
  - {name: y, labels: {order: "10"}}
  - {name: x, labels: {order: "02"}}
  - {name: w, labels: {order: "0"}}
  - {name: v, labels: {order: "007"}}
strategy:
  kind: kubefleet-staged
  stages:
    - name: all
      labelSelector: {}
      sortingLabelKey: order
"#,
        expect![[r#"
            plan - run example-run [Succeeded] start 2026-01-05T09:00:00Z end +15m
            stage all [Succeeded] +0m → +15m mc=1
              cluster w [Succeeded] +0m → +3m
              cluster x [Succeeded] +3m → +6m
              cluster z [Succeeded] +6m → +9m
              cluster v [Succeeded] +9m → +12m
              cluster y [Succeeded] +12m → +15m
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn a_fleet_listed_in_name_order_is_ordered_as_any_other() {
    // The same rule when the fleet is already listed in name order (the usual case, which the
    // planner orders without comparing names): ties of the sorting label by name, and a stage
    // without one in name order, whichever stage the clusters fall in.
    check(
        r#"
clusters:
  - {name: a, labels: {order: "2", ring: "0"}}
  - {name: b, labels: {order: "0", ring: "0"}}
  - {name: c, labels: {order: "2", ring: "0"}}
  - {name: d, labels: {order: "1", ring: "0"}}
  - {name: e, labels: {ring: "1"}}
  - {name: f, labels: {ring: "2"}}
  - {name: g, labels: {ring: "1"}}
strategy:
  kind: kubefleet-staged
  stages:
    - name: first
      labelSelector: {matchLabels: {ring: "0"}}
      sortingLabelKey: order
    - name: rest
      labelSelector: {matchExpressions: [{key: ring, operator: In, values: ["1", "2"]}]}
"#,
        expect![[r#"
            plan - run example-run [Succeeded] start 2026-01-05T09:00:00Z end +21m
            stage first [Succeeded] +0m → +12m mc=1
              cluster b [Succeeded] +0m → +3m
              cluster d [Succeeded] +3m → +6m
              cluster a [Succeeded] +6m → +9m
              cluster c [Succeeded] +9m → +12m
            stage rest [Succeeded] +12m → +21m mc=1
              cluster e [Succeeded] +12m → +15m
              cluster f [Succeeded] +15m → +18m
              cluster g [Succeeded] +18m → +21m
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn without_sorting_label_clusters_go_in_byte_order_of_names() {
    check(
        r#"
clusters:
  - {name: cluster-2}
  - {name: cluster-10}
  - {name: Cluster-3}
strategy:
  kind: kubefleet-staged
  stages:
    - name: all
      labelSelector: {}
"#,
        expect![[r#"
            plan - run example-run [Succeeded] start 2026-01-05T09:00:00Z end +9m
            stage all [Succeeded] +0m → +9m mc=1
              cluster Cluster-3 [Succeeded] +0m → +3m
              cluster cluster-10 [Succeeded] +3m → +6m
              cluster cluster-2 [Succeeded] +6m → +9m
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn missing_or_non_integer_sorting_labels_fail_initialization() {
    check(
        r#"
clusters:
  - {name: a, labels: {order: "1"}}
  - {name: b}
  - {name: c, labels: {order: "1.0"}}
  - {name: d, labels: {order: "99999999999999999999"}}
strategy:
  kind: kubefleet-staged
  stages:
    - name: all
      labelSelector: {}
      sortingLabelKey: order
"#,
        expect![[r#"
            plan - run example-run [Invalid] start 2026-01-05T09:00:00Z end +12m
            stage all [Succeeded] +0m → +12m mc=1
              cluster b [Succeeded] +0m → +3m
              cluster c [Succeeded] +3m → +6m
              cluster d [Succeeded] +6m → +9m
              cluster a [Succeeded] +9m → +12m
            error[invalid-sorting-label] clusters[1]: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: the sorting label `order:` on cluster `b` is not valid: strconv.Atoi: parsing "": invalid syntax
            info[sorting-label-empty] clusters[1]: the value of label `order` on cluster `b` is missing (so it reads as empty); stage `all` sorts its clusters by this label, so every one of them needs an integer value
            error[invalid-sorting-label] clusters[2]: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: the sorting label `order:1.0` on cluster `c` is not valid: strconv.Atoi: parsing "1.0": invalid syntax
            error[invalid-sorting-label] clusters[3]: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: the sorting label `order:99999999999999999999` on cluster `d` is not valid: strconv.Atoi: parsing "99999999999999999999": value out of range
            info[timeline-despite-errors]: the controller would refuse to initialize this run; the timeline shows the stages as far as they could be computed
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn percent_max_concurrency_floors_with_a_minimum_of_one_and_slides() {
    check(
        r#"
generate:
  - {count: 5, name: "c{i}", labels: {ring: a}}
  - {count: 10, name: "d{i:02}", labels: {ring: b}}
strategy:
  kind: kubefleet-staged
  stages:
    - name: a
      labelSelector: {matchLabels: {ring: a}}
      maxConcurrency: "10%"
    - name: b
      labelSelector: {matchLabels: {ring: b}}
      maxConcurrency: "25%"
assumptions:
  updateDuration:
    default: 2m
    overrides:
      - {cluster: d01, duration: 5m}
"#,
        expect![[r#"
            plan - run example-run [Succeeded] start 2026-01-05T09:00:00Z end +22m
            stage a [Succeeded] +0m → +10m mc=1
              cluster c1 [Succeeded] +0m → +2m
              cluster c2 [Succeeded] +2m → +4m
              cluster c3 [Succeeded] +4m → +6m
              cluster c4 [Succeeded] +6m → +8m
              cluster c5 [Succeeded] +8m → +10m
            stage b [Succeeded] +10m → +22m mc=2
              cluster d01 [Succeeded] +10m → +15m
              cluster d02 [Succeeded] +10m → +12m
              cluster d03 [Succeeded] +12m → +14m
              cluster d04 [Succeeded] +14m → +16m
              cluster d05 [Succeeded] +15m → +17m
              cluster d06 [Succeeded] +16m → +18m
              cluster d07 [Succeeded] +17m → +19m
              cluster d08 [Succeeded] +18m → +20m
              cluster d09 [Succeeded] +19m → +21m
              cluster d10 [Succeeded] +20m → +22m
            info[max-concurrency-floor] strategy.stages[0].maxConcurrency: maxConcurrency 10% of 5 clusters rounds down to 0; the controller uses 1
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn max_concurrency_schema_rules() {
    check(
        r#"
clusters: [{name: a, labels: {s: "1"}}, {name: b, labels: {s: "2"}}, {name: c, labels: {s: "3"}}, {name: d, labels: {s: "4"}}]
strategy:
  kind: kubefleet-staged
  stages:
    - {name: one, labelSelector: {matchLabels: {s: "1"}}, maxConcurrency: 0}
    - {name: two, labelSelector: {matchLabels: {s: "2"}}, maxConcurrency: "0%"}
    - {name: three, labelSelector: {matchLabels: {s: "3"}}, maxConcurrency: "101%"}
    - {name: four, labelSelector: {matchLabels: {s: "4"}}, maxConcurrency: 50}
"#,
        expect![[r#"
            plan - run example-run [Invalid] start 2026-01-05T09:00:00Z end +12m
            stage one [Succeeded] +0m → +3m mc=1
              cluster a [Succeeded] +0m → +3m
            stage two [Succeeded] +3m → +6m mc=1
              cluster b [Succeeded] +3m → +6m
            stage three [Succeeded] +6m → +9m mc=1
              cluster c [Succeeded] +6m → +9m
            stage four [Succeeded] +9m → +12m mc=50
              cluster d [Succeeded] +9m → +12m
            error[max-concurrency-pattern] strategy.stages[1].maxConcurrency: The ClusterStagedUpdateStrategy "example-strategy" is invalid: spec.stages[1].maxConcurrency: Invalid value: "0%": spec.stages[1].maxConcurrency in body should match '^(100|[1-9][0-9]?)%$'
            error[max-concurrency-pattern] strategy.stages[2].maxConcurrency: The ClusterStagedUpdateStrategy "example-strategy" is invalid: spec.stages[2].maxConcurrency: Invalid value: "101%": spec.stages[2].maxConcurrency in body should match '^(100|[1-9][0-9]?)%$'
            error[max-concurrency-too-small] strategy.stages[0].maxConcurrency: The ClusterStagedUpdateStrategy "example-strategy" is invalid: spec.stages[0].maxConcurrency: Invalid value: "": maxConcurrency must be at least 1
            info[timeline-despite-errors]: the API server would refuse these objects, so the run would never start; the timeline shows the stages as far as they could be computed
        "#]],
    );
}

/// The refusals (errors, and the API server's note when it skips the CEL rules) of a one-cluster
/// fleet with one stage `one` carrying `tasks` and the run `run`, one line each: `code: message`.
fn refusals(tasks: &str, run: &str) -> String {
    let input = format!(
        "clusters: [{{name: a}}]\nstrategy:\n  kind: kubefleet-staged\n  run: {run}\n  stages:\n    - {{name: one, labelSelector: {{}}, {tasks}}}\n"
    );
    let (_, plans) = fleetplan_tests::load_and_plan(&input);
    plans[0]
        .diagnostics
        .iter()
        .filter(|d| d.is_error() || d.code == "cel-rules-not-checked")
        .map(|d| format!("{}: {}\n", d.code, d.message))
        .collect()
}

#[wasm_bindgen_test(unsupported = test)]
fn each_task_rule_is_reported_by_the_first_layer_that_checks_it() {
    // Order of layers: OpenAPI schema → CEL (skipped after a blocking schema error: Required,
    // NotSupported, TooLong, TooMany) → the controller's initialization, which only sees a strategy
    // the API server accepted. stageupdate_types.go: beforeStageTasks MaxItems=1 with CEL rules
    // "AfterStageTaskType is Approval, waitTime is not allowed" (the after-stage text, on before
    // tasks too) and "BeforeStageTaskType cannot be TimedWait"; afterStageTasks MaxItems=2 with
    // the Approval rule and "AfterStageTaskType is TimedWait, waitTime is required"; type
    // Enum=TimedWait;Approval; waitTime pattern (which "0s" matches).
    let run = "example-run";
    let cases = [
        "beforeStageTasks: [{type: TimedWait, waitTime: 1h}]",
        "beforeStageTasks: [{type: Approval, waitTime: 1h}]",
        "beforeStageTasks: [{type: Approval}, {type: Approval}]",
        "afterStageTasks: [{type: Approval, waitTime: 1h}]",
        "afterStageTasks: [{type: TimedWait}]",
        "afterStageTasks: [{type: Sleep}]",
        "afterStageTasks: [{type: TimedWait, waitTime: 1h}, {type: Approval}, {type: Approval}]",
        // Non-blocking schema error: the CEL rules still run, both are in the one refusal.
        "afterStageTasks: [{type: TimedWait, waitTime: 1d}, {type: Approval, waitTime: 1h}]",
        // The CRD lets these through; the controller's initialization refuses them.
        "afterStageTasks: [{type: Approval}, {type: Approval}]",
        "afterStageTasks: [{type: TimedWait, waitTime: 0s}]",
    ];
    let out: String = cases
        .iter()
        .map(|c| format!("== {c}\n{}", refusals(c, run)))
        .collect();
    expect![[r#"
        == beforeStageTasks: [{type: TimedWait, waitTime: 1h}]
        before-stage-timed-wait: The ClusterStagedUpdateStrategy "example-strategy" is invalid: spec.stages[0].beforeStageTasks: Invalid value: "array": BeforeStageTaskType cannot be TimedWait
        == beforeStageTasks: [{type: Approval, waitTime: 1h}]
        approval-wait-time: The ClusterStagedUpdateStrategy "example-strategy" is invalid: spec.stages[0].beforeStageTasks: Invalid value: "array": AfterStageTaskType is Approval, waitTime is not allowed
        == beforeStageTasks: [{type: Approval}, {type: Approval}]
        too-many-tasks: The ClusterStagedUpdateStrategy "example-strategy" is invalid: spec.stages[0].beforeStageTasks: Too many: 2: must have at most 1 item
        cel-rules-not-checked: The ClusterStagedUpdateStrategy "example-strategy" is invalid: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation
        == afterStageTasks: [{type: Approval, waitTime: 1h}]
        approval-wait-time: The ClusterStagedUpdateStrategy "example-strategy" is invalid: spec.stages[0].afterStageTasks: Invalid value: "array": AfterStageTaskType is Approval, waitTime is not allowed
        == afterStageTasks: [{type: TimedWait}]
        timed-wait-without-wait-time: The ClusterStagedUpdateStrategy "example-strategy" is invalid: spec.stages[0].afterStageTasks: Invalid value: "array": AfterStageTaskType is TimedWait, waitTime is required
        == afterStageTasks: [{type: Sleep}]
        task-type-unsupported: The ClusterStagedUpdateStrategy "example-strategy" is invalid: spec.stages[0].afterStageTasks[0].type: Unsupported value: "Sleep": supported values: "TimedWait", "Approval"
        cel-rules-not-checked: The ClusterStagedUpdateStrategy "example-strategy" is invalid: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation
        == afterStageTasks: [{type: TimedWait, waitTime: 1h}, {type: Approval}, {type: Approval}]
        too-many-tasks: The ClusterStagedUpdateStrategy "example-strategy" is invalid: spec.stages[0].afterStageTasks: Too many: 3: must have at most 2 items
        cel-rules-not-checked: The ClusterStagedUpdateStrategy "example-strategy" is invalid: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation
        == afterStageTasks: [{type: TimedWait, waitTime: 1d}, {type: Approval, waitTime: 1h}]
        wait-time-pattern: The ClusterStagedUpdateStrategy "example-strategy" is invalid: spec.stages[0].afterStageTasks[0].waitTime: Invalid value: "1d": spec.stages[0].afterStageTasks[0].waitTime in body should match '^(?:(?:0|[1-9][0-9]*)(\.[0-9]+)?(?:s|m|h))+$'
        approval-wait-time: The ClusterStagedUpdateStrategy "example-strategy" is invalid: spec.stages[0].afterStageTasks: Invalid value: "array": AfterStageTaskType is Approval, waitTime is not allowed
        == afterStageTasks: [{type: Approval}, {type: Approval}]
        invalid-after-stage-tasks: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: the after stage tasks are invalid, updateStrategy: `/example-strategy`, stage: one, err: afterStageTasks cannot have two tasks of the same type: Approval
        == afterStageTasks: [{type: TimedWait, waitTime: 0s}]
        invalid-after-stage-tasks: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: the after stage tasks are invalid, updateStrategy: `/example-strategy`, stage: one, err: task 0 of type TimedWait has wait duration <= 0
    "#]]
    .assert_eq(&out);
}

#[wasm_bindgen_test(unsupported = test)]
fn stage_names_follow_the_crd_and_duplicates_are_only_a_warning() {
    check(
        r#"
clusters: [{name: a, labels: {x: "1"}}, {name: b}]
strategy:
  kind: kubefleet-staged
  stages:
    - {name: Canary-1, labelSelector: {matchLabels: {x: "1"}}, afterStageTasks: [{type: Approval}]}
    - {name: prod, labelSelector: {matchExpressions: [{key: x, operator: DoesNotExist}]}, afterStageTasks: [{type: Approval}]}
    - {name: prod, labelSelector: {matchExpressions: [{key: x, operator: In, values: ["9"]}]}}
"#,
        expect![[r#"
            plan - run example-run [Invalid] start 2026-01-05T09:00:00Z end +2h06m
            stage Canary-1 [Succeeded] +0m → +1h03m mc=1
              after-approval +3m → +1h03m example-run-after-Canary-1
              cluster a [Succeeded] +0m → +3m
            stage prod [Succeeded] +1h03m → +2h06m mc=1
              after-approval +1h06m → +2h06m example-run-after-prod
              cluster b [Succeeded] +1h03m → +1h06m
            stage prod [Skipped] +2h06m → +2h06m mc=1
            error[stage-name-pattern] strategy.stages[0].name: The ClusterStagedUpdateStrategy "example-strategy" is invalid: spec.stages[0].name: Invalid value: "Canary-1": spec.stages[0].name in body should match '^[a-z0-9]+$'
            warning[duplicate-stage-name] strategy.stages[2].name: stages[1] and stages[2] are both named `prod`: KubeFleet documents stage names as unique but does not enforce it, and both stages' approval requests get the same name
            info[empty-stage] strategy.stages[2].labelSelector: stage `prod` selects no scheduled cluster: the run skips it together with its before- and after-stage tasks
            info[timeline-despite-errors]: the API server would refuse these objects, so the run would never start; the timeline shows the stages as far as they could be computed
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn invalid_label_selectors_use_apimachinery_texts() {
    check(
        r#"
clusters: [{name: a}]
strategy:
  kind: kubefleet-staged
  stages:
    - name: one
      labelSelector: {matchExpressions: [{key: env, operator: In}]}
    - name: two
      labelSelector: {matchExpressions: [{key: env, operator: Equals, values: [x]}]}
    - name: three
      labelSelector: {}
"#,
        expect![[r#"
            plan - run example-run [Invalid] start 2026-01-05T09:00:00Z end +3m
            stage one [Skipped] +0m → +0m mc=1
            stage two [Skipped] +0m → +0m mc=1
            stage three [Succeeded] +0m → +3m mc=1
              cluster a [Succeeded] +0m → +3m
            error[invalid-stage-selector] strategy.stages[0].labelSelector: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: the stage label selector is invalid, updateStrategy: `/example-strategy`, stage: one, err: values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty
            info[empty-stage] strategy.stages[0].labelSelector: stage `one` selects no scheduled cluster: the run skips it together with its before- and after-stage tasks
            error[invalid-stage-selector] strategy.stages[1].labelSelector: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: the stage label selector is invalid, updateStrategy: `/example-strategy`, stage: two, err: "Equals" is not a valid label selector operator
            info[empty-stage] strategy.stages[1].labelSelector: stage `two` selects no scheduled cluster: the run skips it together with its before- and after-stage tasks
            info[timeline-despite-errors]: the controller would refuse to initialize this run; the timeline shows the stages as far as they could be computed
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn empty_stages_are_skipped_with_their_tasks() {
    check(
        r#"
start: 2026-11-23T09:00:00Z
clusters: [{name: a, labels: {env: prod}}]
strategy:
  kind: kubefleet-staged
  stages:
    - name: canary
      labelSelector: {matchLabels: {env: canary}}
      beforeStageTasks: [{type: Approval}]
      afterStageTasks: [{type: TimedWait, waitTime: 1h}]
    - name: prod
      labelSelector: {matchLabels: {env: prod}}
assumptions: {updateDuration: 3m}
"#,
        expect![[r#"
            plan - run example-run [Succeeded] start 2026-11-23T09:00:00Z end +3m
            stage canary [Skipped] +0m → +0m mc=1
            stage prod [Succeeded] +0m → +3m mc=1
              cluster a [Succeeded] +0m → +3m
            info[empty-stage] strategy.stages[0].labelSelector: stage `canary` selects no scheduled cluster: the run skips it together with its before- and after-stage tasks
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn after_stage_wait_and_approval_run_in_parallel_from_the_last_cluster() {
    check(
        r#"
start: 2026-11-23T09:00:00Z
clusters: [{name: a, labels: {env: s}}, {name: b, labels: {env: s}}, {name: c, labels: {env: p}}]
strategy:
  kind: kubefleet-staged
  stages:
    - name: s
      labelSelector: {matchLabels: {env: s}}
      afterStageTasks: [{type: TimedWait, waitTime: 30m}, {type: Approval}]
    - name: p
      labelSelector: {matchLabels: {env: p}}
assumptions:
  updateDuration:
    default: 3m
    overrides: [{cluster: b, duration: 4m}]
  approvals: 2h
"#,
        expect![[r#"
            plan - run example-run [Succeeded] start 2026-11-23T09:00:00Z end +2h10m
            stage s [Succeeded] +0m → +2h07m mc=1
              timed-wait +7m → +37m TimedWait 30m
              after-approval +7m → +2h07m example-run-after-s
              cluster a [Succeeded] +0m → +3m
              cluster b [Succeeded] +3m → +7m
            stage p [Succeeded] +2h07m → +2h10m mc=1
              cluster c [Succeeded] +2h07m → +2h10m
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn approvals_wait_for_business_hours_over_the_weekend() {
    check(
        r#"
start: 2026-11-27T16:40:00Z
clusters: [{name: a, labels: {env: s}}, {name: b, labels: {env: p}}]
strategy:
  kind: kubefleet-staged
  stages:
    - name: s
      labelSelector: {matchLabels: {env: s}}
      afterStageTasks: [{type: Approval}]
    - name: p
      labelSelector: {matchLabels: {env: p}}
assumptions:
  updateDuration: 5m
  approvals:
    delay: 30m
    businessHours: {utcOffset: "+01:00", start: "09:00", end: "17:00", days: Mon-Fri}
"#,
        expect![[r#"
            plan - run example-run [Succeeded] start 2026-11-27T16:40:00Z end +2d15h55m
            stage s [Succeeded] +0m → +2d15h50m mc=1
              after-approval +5m → +2d15h50m example-run-after-s
              cluster a [Succeeded] +0m → +5m
            stage p [Succeeded] +2d15h50m → +2d15h55m mc=1
              cluster b [Succeeded] +2d15h50m → +2d15h55m
            info[wait-over-weekend] strategy.stages[0]: stage `s`: the after-stage approval (example-run-after-s) runs over a weekend, 2026-11-27T16:45:00Z → 2026-11-30T08:30:00Z (2d15h45m)
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn an_approval_nobody_grants_blocks_the_run() {
    check(
        r#"
start: 2026-11-23T09:00:00Z
clusters: [{name: a, labels: {env: s}}, {name: b, labels: {env: p}}]
strategy:
  kind: kubefleet-staged
  stages:
    - name: s
      labelSelector: {matchLabels: {env: s}}
    - name: p
      labelSelector: {matchLabels: {env: p}}
      beforeStageTasks: [{type: Approval}]
assumptions:
  approvals:
    overrides: [{stage: p, task: before, never: true}]
"#,
        expect![[r#"
            plan - run example-run [Blocked] start 2026-11-23T09:00:00Z end never
            stage s [Succeeded] +0m → +3m mc=1
              cluster a [Succeeded] +0m → +3m
            stage p [Waiting] +3m → never mc=1
              before-approval +3m → never example-run-before-p
              cluster b [NotStarted] - → -
            warning[run-blocked] assumptions.approvals: stage `p` waits forever: the before-stage approval (example-run-before-p) never completes under the assumptions
        "#]],
    );
}

/// The events of the first plan whose reason is one of `reasons`, as `+offset reason [stage/cluster]: message`.
fn events(input: &str, reasons: &[&str]) -> String {
    let (_, plans) = fleetplan_tests::load_and_plan(input);
    let plan = &plans[0];
    let mut out = String::new();
    for e in plan.events.iter().filter(|e| reasons.contains(&e.reason)) {
        let who = match (&e.stage, &e.cluster) {
            (Some(s), Some(c)) => format!(" [{s}/{c}]"),
            (Some(s), None) => format!(" [{s}]"),
            _ => String::new(),
        };
        out.push_str(&format!(
            "{} {}{who}: {}\n",
            fleetplan_tests::render::offset(plan.start, e.at),
            e.reason,
            e.message
        ));
    }
    out
}

const FAILING: &str = r#"
start: 2026-11-23T09:00:00Z
clusters: [{name: a}, {name: b}, {name: c}, {name: d}, {name: e}, {name: f, labels: {ring: later}}]
strategy:
  kind: kubefleet-staged
  stages:
    - name: all
      labelSelector: {matchExpressions: [{key: ring, operator: DoesNotExist}]}
      maxConcurrency: 2
    - name: later
      labelSelector: {matchLabels: {ring: later}}
assumptions:
  updateDuration: 3m
  failures: [{cluster: b, after: 1m}]
"#;

#[wasm_bindgen_test(unsupported = test)]
fn a_failed_cluster_keeps_its_slot_and_its_stage_never_finishes() {
    // execution.go checkClusterUpdateResult: "We have no way to know if the failed condition is
    // recoverable or not so we just let it run". By hand, window of 2, 3 minutes each:
    // +0 a and b start; +1m b fails and keeps its slot; +3m a ends, c starts; +6m c ends, d starts;
    // +9m d ends, e starts; +12m e ends. b never finishes, so neither does stage `all`, and `later`
    // never starts. b started at +0 and has not finished at +5m: the run is marked stuck then.
    check(
        FAILING,
        expect![[r#"
            plan - run example-run [Blocked] start 2026-11-23T09:00:00Z end never
            stage all [Waiting] +0m → never mc=2
              failed-retrying +1m → never b failed, retried (holds a maxConcurrency slot)
              cluster a [Succeeded] +0m → +3m
              cluster b [Failed] +0m → +1m stuck +5m its binding failed at 2026-11-23T09:01:00Z and never recovers (assumptions.failures): the controller retries it forever; it holds one maxConcurrency slot and stage all cannot finish
                updating +0m → +1m updating
                failed-retrying +1m → never failed; retried by the controller, never recovers
              cluster c [Succeeded] +3m → +6m
              cluster d [Succeeded] +6m → +9m
              cluster e [Succeeded] +9m → +12m
            stage later [NotStarted] - → never mc=1
              cluster f [NotStarted] - → -
            warning[stage-never-finishes] assumptions.failures[0]: stage all never finishes: b failed at 2026-11-23T09:01:00Z; stuck since 2026-11-23T09:05:00Z
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn the_stuck_mark_names_every_cluster_over_five_minutes_first_three_then_dots() {
    // execution.go markUpdateRunStuck / generateStuckClustersString: up to three names joined by
    // ", ", then "..." when there are more. Five clusters at once (maxConcurrency 5), all failing
    // at +1m and never recovering: at +5m all five are over the threshold. With three, no dots.
    let five = FAILING
        .replace("maxConcurrency: 2", "maxConcurrency: 5")
        .replace(
            "failures: [{cluster: b, after: 1m}]",
            "failures: [{cluster: a, after: 1m}, {cluster: b, after: 1m}, {cluster: c, after: 1m}, {cluster: d, after: 1m}, {cluster: e, after: 1m}]",
        );
    expect![[r#"
        +5m UpdateRunStuck [all/a]: The updateRun is stuck waiting for a, b, c... cluster(s) in stage all to finish updating, please check placement status for potential errors
    "#]]
    .assert_eq(&events(&five, &["UpdateRunStuck"]));
    let three = five.replace(", {cluster: d, after: 1m}, {cluster: e, after: 1m}", "");
    expect![[r#"
        +0m UpdateRunProgressing: The update run is making progress
        +5m UpdateRunStuck [all/a]: The updateRun is stuck waiting for a, b, c cluster(s) in stage all to finish updating, please check placement status for potential errors
    "#]]
    .assert_eq(&events(&three, &["UpdateRunStuck", "UpdateRunProgressing"]));
}

#[wasm_bindgen_test(unsupported = test)]
fn in_a_large_stage_the_stuck_mark_names_clusters_in_stage_order_until_the_run_ends() {
    // generateStuckClustersString lists the stage's clusters in the stage's order (by name here,
    // no sortingLabelKey), whatever order they were written or crossed the threshold in. 3,000
    // clusters all start at once (maxConcurrency 100%), written in reverse. Updates take 1h30m except
    // c0000's 10m and c0001's 4m: at +5m c0001 is done, so the mark names c0000, c0002, c0003 and
    // "...". The condition is set when a cluster crosses the threshold; c0000 finishing at +10m
    // leaves others over it, so the run stays stuck until the last update ends the run at +1h30m.
    let clusters: String = (0..3000)
        .rev()
        .map(|i| format!("  - {{name: c{i:04}}}\n"))
        .collect();
    let input = format!(
        "start: 2026-11-23T09:00:00Z\nclusters:\n{clusters}strategy:\n  kind: kubefleet-staged\n  stages:\n    - name: all\n      labelSelector: {{}}\n      maxConcurrency: 100%\nassumptions:\n  updateDuration:\n    default: 1h30m\n    overrides: [{{cluster: c0000, duration: 10m}}, {{cluster: c0001, duration: 4m}}]\n"
    );
    expect![[r#"
        +0m UpdateRunProgressing: The update run is making progress
        +5m UpdateRunStuck [all/c0000]: The updateRun is stuck waiting for c0000, c0002, c0003... cluster(s) in stage all to finish updating, please check placement status for potential errors
        +1h30m UpdateRunSucceeded: All stages are completed successfully
    "#]]
    .assert_eq(&events(
        &input,
        &["UpdateRunStuck", "UpdateRunProgressing", "UpdateRunSucceeded"],
    ));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_failed_cluster_that_recovers_frees_its_slot_and_the_run_goes_on() {
    // b fails at +1m and recovers 10m later (+11m): the window of 2 runs a, c, d, e beside it as
    // above (e ends at +12m); the stage ends when the last of them does, +12m; f runs +12m → +15m.
    // b is still unfinished at +5m: stuck from +5m until it recovers at +11m (e started at +9m is
    // then only 2 minutes in), when the run is marked progressing again.
    let input = FAILING.replace("after: 1m}", "after: 1m, recoversAfter: 10m}");
    check(
        &input,
        expect![[r#"
            plan - run example-run [Succeeded] start 2026-11-23T09:00:00Z end +15m
            stage all [Succeeded] +0m → +12m mc=2
              failed-retrying +1m → +11m b failed, retried (holds a maxConcurrency slot)
              cluster a [Succeeded] +0m → +3m
              cluster b [Succeeded] +0m → +11m stuck +5m its binding failed at 2026-11-23T09:01:00Z and recovers at 2026-11-23T09:11:00Z (assumptions.failures); meanwhile the controller retries it and it holds one maxConcurrency slot
                updating +0m → +1m updating
                failed-retrying +1m → +11m failed; retried by the controller until it recovers
              cluster c [Succeeded] +3m → +6m
              cluster d [Succeeded] +6m → +9m
              cluster e [Succeeded] +9m → +12m
            stage later [Succeeded] +12m → +15m mc=1
              cluster f [Succeeded] +12m → +15m
            info[update-run-stuck] assumptions.updateDuration: 1 cluster update(s) take longer than 5m (b): while each runs past 5 minutes the run's status shows Progressing=False with reason UpdateRunStuck ("The updateRun is stuck waiting for ... cluster(s) in stage ... to finish updating"); this is harmless, the controller keeps going and clears it when they finish
            info[failed-cluster-recovers] assumptions.failures[0]: b fails at 2026-11-23T09:01:00Z and recovers at 2026-11-23T09:11:00Z: the controller retries it meanwhile, it keeps its maxConcurrency slot and stage all waits for it
        "#]],
    );
    expect![[r#"
        +0m UpdateRunProgressing: The update run is making progress
        +5m UpdateRunStuck [all/b]: The updateRun is stuck waiting for b cluster(s) in stage all to finish updating, please check placement status for potential errors
        +11m UpdateRunProgressing: The update run is making progress
    "#]]
    .assert_eq(&events(&input, &["UpdateRunStuck", "UpdateRunProgressing"]));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_preempted_cluster_aborts_the_run_and_in_flight_updates_are_untracked() {
    // Only a binding taken over by another run is marked failed (execution.go: the binding of the
    // updating cluster ... is not up-to-date): the run aborts with errStagedUpdatedAborted wrapping
    // that user error. a (started with b) carries on untracked; c, d, e never start.
    let input = FAILING.replace("after: 1m}", "after: 1m, preempted: true}");
    check(
        &input,
        expect![[r#"
            plan - run example-run [Failed] start 2026-11-23T09:00:00Z end +1m
            stage all [Failed] +0m → +1m mc=2
              cluster a [Untracked] +0m → +3m
              cluster b [Failed] +0m → +1m another run took over its binding at 2026-11-23T09:01:00Z (assumptions.failures, preempted)
              cluster c [NotStarted] - → -
              cluster d [NotStarted] - → -
              cluster e [NotStarted] - → -
            stage later [NotStarted] - → never mc=1
              cluster f [NotStarted] - → -
            warning[run-fails] assumptions.failures[0]: the run fails at 2026-11-23T09:01:00Z: cannot continue the updateRun: failed to process the request due to a client error: the binding of the updating cluster `b` in the stage `all` is not up-to-date with the desired status, please check the status of binding `example-placement-b-xxxxxxxx` and see if there is a concurrent updateRun referencing the same placement and updating the same cluster
        "#]],
    );
    expect![[r#"
        +1m ClusterUpdatingFailed [all/b]: failed to process the request due to a client error: the binding of the updating cluster `b` in the stage `all` is not up-to-date with the desired status, please check the status of binding `example-placement-b-xxxxxxxx` and see if there is a concurrent updateRun referencing the same placement and updating the same cluster
        +1m StageUpdatingFailed [all]: cannot continue the updateRun: failed to process the request due to a client error: the binding of the updating cluster `b` in the stage `all` is not up-to-date with the desired status, please check the status of binding `example-placement-b-xxxxxxxx` and see if there is a concurrent updateRun referencing the same placement and updating the same cluster
        +1m UpdateRunFailed: cannot continue the updateRun: failed to process the request due to a client error: the binding of the updating cluster `b` in the stage `all` is not up-to-date with the desired status, please check the status of binding `example-placement-b-xxxxxxxx` and see if there is a concurrent updateRun referencing the same placement and updating the same cluster
    "#]]
    .assert_eq(&events(
        &input,
        &["ClusterUpdatingFailed", "StageUpdatingFailed", "UpdateRunFailed"],
    ));
}

#[wasm_bindgen_test(unsupported = test)]
fn updates_longer_than_five_minutes_mark_the_run_stuck_but_it_continues() {
    check(
        r#"
start: 2026-11-23T09:00:00Z
clusters: [{name: a}, {name: b}]
strategy:
  kind: kubefleet-staged
  stages:
    - name: all
      labelSelector: {}
assumptions:
  updateDuration:
    default: 5m
    overrides: [{cluster: b, duration: 12m}]
"#,
        expect![[r#"
            plan - run example-run [Succeeded] start 2026-11-23T09:00:00Z end +17m
            stage all [Succeeded] +0m → +17m mc=1
              cluster a [Succeeded] +0m → +5m
              cluster b [Succeeded] +5m → +17m stuck +10m
            info[update-run-stuck] assumptions.updateDuration: 1 cluster update(s) take longer than 5m (b): while each runs past 5 minutes the run's status shows Progressing=False with reason UpdateRunStuck ("The updateRun is stuck waiting for ... cluster(s) in stage ... to finish updating"); this is harmless, the controller keeps going and clears it when they finish
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn the_delete_stage_removes_unscheduled_clusters_at_once_after_the_last_stage() {
    check(
        r#"
start: 2026-11-23T09:00:00Z
clusters: [{name: a}, {name: old2}, {name: old1}]
strategy:
  kind: kubefleet-staged
  placement: {name: web, type: PickFixed, clusterNames: [a]}
  deleteClusters: [old2, old1]
  stages:
    - name: all
      labelSelector: {}
assumptions: {updateDuration: 3m, deleteDuration: 2m}
"#,
        expect![[r#"
            plan - run example-run [Succeeded] start 2026-11-23T09:00:00Z end +5m
            stage all [Succeeded] +0m → +3m mc=1
              cluster a [Succeeded] +0m → +3m
            stage kubernetes-fleet.io/deleteStage [Succeeded] +3m → +5m mc=2
              cluster old1 [Succeeded] +3m → +5m
              cluster old2 [Succeeded] +3m → +5m
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn a_stop_lets_in_flight_clusters_finish_and_restarts_a_timed_wait() {
    check(
        r#"
start: 2026-11-23T09:00:00Z
clusters: [{name: a}, {name: b}, {name: c, labels: {env: p}}]
strategy:
  kind: kubefleet-staged
  stages:
    - name: s
      labelSelector: {matchExpressions: [{key: env, operator: DoesNotExist}]}
      afterStageTasks: [{type: TimedWait, waitTime: 1h}]
    - name: p
      labelSelector: {matchLabels: {env: p}}
assumptions:
  updateDuration: 10m
  stops:
    - {at: 2026-11-23T09:05:00Z, resume: 2026-11-23T09:30:00Z}
    - {at: 2026-11-23T10:00:00Z, resume: 2026-11-23T10:10:00Z}
"#,
        expect![[r#"
            plan - run example-run [Succeeded] start 2026-11-23T09:00:00Z end +2h10m
            stage s [Succeeded] +0m → +2h00m mc=1
              stopped +5m → +30m run stopped
              timed-wait +40m → +2h00m TimedWait 1h
              stopped +1h00m → +1h10m run stopped
              cluster a [Succeeded] +0m → +10m stuck +5m
              cluster b [Succeeded] +30m → +40m stuck +35m
            stage p [Succeeded] +2h00m → +2h10m mc=1
              cluster c [Succeeded] +2h00m → +2h10m stuck +2h05m
            info[update-run-stuck] assumptions.updateDuration: 3 cluster update(s) take longer than 5m (a, b, c): while each runs past 5 minutes the run's status shows Progressing=False with reason UpdateRunStuck ("The updateRun is stuck waiting for ... cluster(s) in stage ... to finish updating"); this is harmless, the controller keeps going and clears it when they finish
            info[stop-restarts-timed-wait] assumptions.stops: the stop at 2026-11-23T10:00:00Z interrupts stage `s`'s TimedWait: the controller restarts the wait clock from the stop, so it now ends at 2026-11-23T11:00:00Z at the earliest
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn placements_decide_which_clusters_the_run_updates() {
    check(
        r#"
clusters: [{name: a, labels: {env: prod}}, {name: b, labels: {env: prod}}, {name: c, labels: {env: dev}}]
strategy:
  kind: kubefleet-staged
  placement:
    name: web
    type: PickN
    numberOfClusters: 3
    affinity: {matchLabels: {env: prod}}
    strategyType: RollingUpdate
  stages:
    - name: all
      labelSelector: {}
"#,
        expect![[r#"
            plan - run example-run [Invalid] start 2026-01-05T09:00:00Z end +6m
            stage all [Succeeded] +0m → +6m mc=1
              cluster a [Succeeded] +0m → +3m
              cluster b [Succeeded] +3m → +6m
            error[placement-not-external] strategy.placement.strategyType: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: parent placement does not have an external rollout strategy, current strategy: RollingUpdate
            info[placement-pickn-order] strategy.placement: PickN: fleetplan assumes the scheduler picks the first matching clusters by name; the real scheduler ranks them by topology spread and preferred affinity
            error[placement-count-mismatch] strategy.placement: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: the number of selected bindings 2 is not equal to the observed cluster count 3
            info[timeline-despite-errors]: the controller would refuse to initialize this run; the timeline shows the stages as far as they could be computed
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn run_fields_are_validated_layer_by_layer() {
    // ClusterStagedUpdateRun: metadata.name a DNS subdomain (ObjectMeta, before the schema); the
    // root CEL rule size(self.metadata.name) < 64 (no field: `<nil>`); state
    // Enum=Initialize;Run;Stop (blocking: the CEL rules are then skipped); the transition rules on
    // `spec` when the file describes an update (`previous`); placementName immutable;
    // resourceSnapshotIndex checked by the controller ("-1" is a string the schema accepts).
    let tasks = "afterStageTasks: []";
    let long = "r".repeat(64);
    let cases = [
        "r".repeat(63),
        long.clone(),
        format!("{{name: {long}, state: Go}}"),
        "{name: Run_1}".to_string(),
        "{name: r, resourceSnapshotIndex: \"-1\"}".to_string(),
        "{name: r, state: Stop, previous: {state: Initialize}}".to_string(),
        "{name: r, state: Initialize, previous: {state: Run}}".to_string(),
        "{name: r, state: Initialize, previous: {state: Stop}}".to_string(),
        "{name: r, state: Run, previous: {state: Stop, placementName: other}}".to_string(),
    ];
    let out: String = cases
        .iter()
        .map(|run| format!("== {run}\n{}", refusals(tasks, run)))
        .collect();
    expect![[r#"
        == rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr
        == rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr
        run-name-too-long: The ClusterStagedUpdateRun "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr" is invalid: <nil>: Invalid value: "object": metadata.name max length is 63
        == {name: rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr, state: Go}
        run-state-unsupported: The ClusterStagedUpdateRun "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr" is invalid: spec.state: Unsupported value: "Go": supported values: "Initialize", "Run", "Stop"
        cel-rules-not-checked: The ClusterStagedUpdateRun "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr" is invalid: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation
        == {name: Run_1}
        run-name: The ClusterStagedUpdateRun "Run_1" is invalid: metadata.name: Invalid value: "Run_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
        == {name: r, resourceSnapshotIndex: "-1"}
        invalid-resource-snapshot-index: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: invalid resource snapshot index `-1` provided, expected an integer >= 0
        == {name: r, state: Stop, previous: {state: Initialize}}
        run-state-transition: The ClusterStagedUpdateRun "r" is invalid: spec: Invalid value: "object": invalid state transition: cannot transition from Initialize to Stop
        == {name: r, state: Initialize, previous: {state: Run}}
        run-state-transition: The ClusterStagedUpdateRun "r" is invalid: spec: Invalid value: "object": invalid state transition: cannot transition from Run to Initialize
        == {name: r, state: Initialize, previous: {state: Stop}}
        run-state-transition: The ClusterStagedUpdateRun "r" is invalid: spec: Invalid value: "object": invalid state transition: cannot transition from Stop to Initialize
        == {name: r, state: Run, previous: {state: Stop, placementName: other}}
        run-field-immutable: The ClusterStagedUpdateRun "r" is invalid: spec.placementName: Invalid value: "string": placementName is immutable
    "#]]
    .assert_eq(&out);
}

#[wasm_bindgen_test(unsupported = test)]
fn seeded_jitter_is_deterministic_and_keyed_by_cluster() {
    let yaml = r#"
start: 2026-11-23T09:00:00Z
generate: [{count: 4, name: "c{i}"}]
strategy:
  kind: kubefleet-staged
  stages: [{name: all, labelSelector: {}, maxConcurrency: 4}]
assumptions:
  updateDuration: {default: 10m, jitter: {seed: 7, spread: 0.5}}
"#;
    let (_, first) = fleetplan_tests::load_and_plan(yaml);
    let (_, second) = fleetplan_tests::load_and_plan(yaml);
    assert_eq!(first, second, "same seed, same plan");
    let ends: Vec<_> = first[0].stages[0].clusters.iter().map(|c| c.end).collect();
    assert!(
        ends.windows(2).any(|w| w[0] != w[1]),
        "jitter spreads the durations: {ends:?}"
    );
    let (_, reseeded) = fleetplan_tests::load_and_plan(&yaml.replace("seed: 7", "seed: 8"));
    assert_ne!(
        first[0].end, reseeded[0].end,
        "another seed, another spread"
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn member_cluster_labels_follow_apimachinery_syntax() {
    // The API server refuses a MemberCluster whose labels break IsQualifiedName / IsValidLabelValue
    // (apimachinery v0.34 validation.go), in kubectl's words (`The MemberCluster "x" is invalid:
    // metadata.labels: Invalid value: ...`); the run is then planned over a fleet that cannot exist.
    // A value starting with a sign ("+2") is refused too, although strconv.Atoi would read it.
    // Generated clusters: checked once per generator, named after its first cluster.
    check(
        r#"
clusters:
  - {name: a, labels: {env: "has space", "bad key!": x, order: "+2"}}
  - {name: b, labels: {"example.com/ok": "v-1", "Example.com/x": y}}
generate:
  - {count: 2, name: "g{i}", labels: {tier: ["web", "-db"]}}
strategy:
  kind: kubefleet-staged
  stages: [{name: all, labelSelector: {}}]
"#,
        expect![[r#"
            plan - run example-run [Invalid] start 2026-01-05T09:00:00Z end +12m
            stage all [Succeeded] +0m → +12m mc=1
              cluster a [Succeeded] +0m → +3m
              cluster b [Succeeded] +3m → +6m
              cluster g1 [Succeeded] +6m → +9m
              cluster g2 [Succeeded] +9m → +12m
            error[member-cluster-label] clusters[0].labels.bad key!: The MemberCluster "a" is invalid: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
            error[member-cluster-label] clusters[0].labels.env: The MemberCluster "a" is invalid: metadata.labels: Invalid value: "has space": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
            error[member-cluster-label] clusters[0].labels.order: The MemberCluster "a" is invalid: metadata.labels: Invalid value: "+2": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
            error[member-cluster-label] clusters[1].labels.Example.com/x: The MemberCluster "b" is invalid: metadata.labels: Invalid value: "Example.com/x": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
            error[member-cluster-label] generate[0].labels.tier: The MemberCluster "g2" is invalid: metadata.labels: Invalid value: "-db": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
            info[timeline-despite-errors]: the API server would refuse these objects, so the run would never start; the timeline shows the stages as far as they could be computed
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn under_report_diff_a_cluster_is_done_when_its_diff_is_reported() {
    // execution.go checkClusterUpdateResult: Available=True or DiffReported=True ends a cluster's
    // update. Under ReportDiff nothing is applied: each cluster takes applyDuration (20s), not
    // updateDuration (10m), one at a time: +0 → +20s → +40s → +1m.
    check(
        r#"
start: 2026-11-23T09:00:00Z
clusters: [{name: a}, {name: b}, {name: c}]
strategy:
  kind: kubefleet-staged
  placement: {name: web, applyStrategy: ReportDiff}
  stages: [{name: all, labelSelector: {}}]
assumptions: {updateDuration: 10m, applyDuration: 20s}
"#,
        expect![[r#"
            plan - run example-run [Succeeded] start 2026-11-23T09:00:00Z end +1m
            stage all [Succeeded] +0m → +1m mc=1
              cluster a [Succeeded] +0m → +0m20s
              cluster b [Succeeded] +0m20s → +0m40s
              cluster c [Succeeded] +0m40s → +1m
            info[report-diff] strategy.placement.applyStrategy: the placement's apply strategy is ReportDiff: nothing is applied to the member clusters; a cluster counts as updated as soon as its binding reports the diff (DiffReported), here 20s after it starts (applyDuration), not updateDuration
        "#]],
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn the_stuck_mark_needs_strictly_more_than_five_minutes() {
    // execution.go: `timeElapsed > updateRunStuckThreshold` (5m). A 5m update is never marked; one of
    // 5m1s is marked at +5m after it started.
    let input = r#"
start: 2026-11-23T09:00:00Z
clusters: [{name: a}, {name: b}]
strategy:
  kind: kubefleet-staged
  stages: [{name: all, labelSelector: {}}]
assumptions:
  updateDuration: {default: 5m, overrides: [{cluster: b, duration: 5m1s}]}
"#;
    let (_, plans) = fleetplan_tests::load_and_plan(input);
    let stuck: Vec<(&str, Option<String>)> = plans[0].stages[0]
        .clusters
        .iter()
        .map(|c| {
            let at = c
                .stuck_at
                .map(|t| fleetplan_tests::render::offset(plans[0].start, t));
            (c.name.as_str(), at)
        })
        .collect();
    assert_eq!(stuck, [("a", None), ("b", Some("+10m".to_string()))]);
}

#[wasm_bindgen_test(unsupported = test)]
fn the_not_placed_message_lists_ten_names_and_the_eleventh_is_cut() {
    // initialization.go: "some clusters are not placed in any stage, total %d, showing up to 10: %s".
    let message = |count: usize| {
        let input = format!(
            "generate: [{{count: {count}, name: \"x{{i:02}}\"}}]\nstrategy:\n  kind: kubefleet-staged\n  stages: [{{name: none, labelSelector: {{matchLabels: {{env: y}}}}}}]\n"
        );
        let (_, plans) = fleetplan_tests::load_and_plan(&input);
        plans[0]
            .diagnostics
            .iter()
            .find(|d| d.code == "cluster-in-no-stage")
            .map(|d| d.message.rsplit(": ").next().unwrap_or("").to_string())
    };
    assert_eq!(
        message(10).as_deref(),
        Some("x01, x02, x03, x04, x05, x06, x07, x08, x09, x10")
    );
    assert_eq!(
        message(11).as_deref(),
        Some("x01, x02, x03, x04, x05, x06, x07, x08, x09, x10")
    );
    let total = |count: usize| {
        let input = format!(
            "generate: [{{count: {count}, name: \"x{{i:02}}\"}}]\nstrategy:\n  kind: kubefleet-staged\n  stages: [{{name: none, labelSelector: {{matchLabels: {{env: y}}}}}}]\n"
        );
        let (_, plans) = fleetplan_tests::load_and_plan(&input);
        plans[0].diagnostics.iter().any(|d| {
            d.message
                .contains(&format!("total {count}, showing up to 10"))
        })
    };
    assert!(total(10) && total(11));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_timed_wait_must_be_longer_than_zero_for_the_controller() {
    // "0s" matches the CRD pattern, so only initialization refuses it ("wait duration <= 0");
    // "1s" is the shortest accepted wait.
    assert_eq!(
        refusals("afterStageTasks: [{type: TimedWait, waitTime: 0s}]", "example-run"),
        "invalid-after-stage-tasks: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: the after stage tasks are invalid, updateStrategy: `/example-strategy`, stage: one, err: task 0 of type TimedWait has wait duration <= 0\n"
    );
    assert_eq!(
        refusals(
            "afterStageTasks: [{type: TimedWait, waitTime: 1s}]",
            "example-run"
        ),
        ""
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn the_stuck_message_cuts_after_three_names() {
    // generateStuckClustersString: three names as they are, four or more: the first three and "...".
    let failing = |n: usize| {
        let names: Vec<String> = ["a", "b", "c", "d", "e"][..n]
            .iter()
            .map(|c| format!("{{cluster: {c}, after: 1m}}"))
            .collect();
        FAILING
            .replace("maxConcurrency: 2", "maxConcurrency: 5")
            .replace(
                "failures: [{cluster: b, after: 1m}]",
                &format!("failures: [{}]", names.join(", ")),
            )
    };
    expect![[r#"
        +5m UpdateRunStuck [all/a]: The updateRun is stuck waiting for a, b, c... cluster(s) in stage all to finish updating, please check placement status for potential errors
    "#]]
    .assert_eq(&events(&failing(4), &["UpdateRunStuck"]));
}
