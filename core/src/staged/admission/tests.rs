//! The staged run's objects through the API server: expectations from the CRD markers of
//! `stageupdate_types.go` and the API server's wording (see `crate::admission`).

use super::*;
use crate::model::{StageConfig, StagedRun};

fn messages(run: &StagedRun) -> (Admitted, Vec<String>) {
    let mut diags = Vec::new();
    let a = admit(run, &mut diags);
    (a, diags.into_iter().map(|d| d.message).collect())
}

fn one_stage(stage: StageConfig) -> StagedRun {
    StagedRun {
        name: "s".into(),
        stages: vec![stage],
        ..StagedRun::default()
    }
}

fn task(kind: &str, wait: Option<&str>) -> StageTask {
    StageTask {
        kind: kind.into(),
        wait_time: wait.map(Into::into),
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn approval_with_wait_time_is_a_cel_refusal_in_after_and_before_tasks() {
    let mut stage = StageConfig {
        name: "a".into(),
        after_stage_tasks: vec![task("Approval", Some("1h"))],
        ..StageConfig::default()
    };
    let (a, msgs) = messages(&one_stage(stage.clone()));
    assert!(!a.strategy && a.run && a.placement);
    assert_eq!(msgs, ["The ClusterStagedUpdateStrategy \"s\" is invalid: spec.stages[0].afterStageTasks: Invalid value: \"array\": AfterStageTaskType is Approval, waitTime is not allowed"]);
    stage.after_stage_tasks.clear();
    stage.before_stage_tasks = vec![task("Approval", Some("1h"))];
    assert_eq!(messages(&one_stage(stage)).1, ["The ClusterStagedUpdateStrategy \"s\" is invalid: spec.stages[0].beforeStageTasks: Invalid value: \"array\": AfterStageTaskType is Approval, waitTime is not allowed"]);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn a_blocking_schema_error_hides_the_cel_rules() {
    // Two before-stage tasks exceed MaxItems=1 (blocking): the TimedWait rule is not evaluated.
    let stage = StageConfig {
        name: "a".into(),
        before_stage_tasks: vec![task("TimedWait", Some("1h")), task("Approval", None)],
        ..StageConfig::default()
    };
    assert_eq!(messages(&one_stage(stage)).1, [
        "The ClusterStagedUpdateStrategy \"s\" is invalid: spec.stages[0].beforeStageTasks: Too many: 2: must have at most 1 item",
        "The ClusterStagedUpdateStrategy \"s\" is invalid: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
    ]);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn max_concurrency_is_at_least_one_by_a_cel_rule_on_an_int_or_string() {
    for (n, refused) in [(1, false), (0, true), (-1, true)] {
        let stage = StageConfig {
            name: "a".into(),
            max_concurrency: Some(IntOrString::Int(n)),
            ..StageConfig::default()
        };
        let (a, msgs) = messages(&one_stage(stage));
        assert_eq!(!a.strategy, refused, "{n}");
        if refused {
            assert_eq!(msgs, ["The ClusterStagedUpdateStrategy \"s\" is invalid: spec.stages[0].maxConcurrency: Invalid value: \"\": maxConcurrency must be at least 1"]);
        }
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn stage_names_get_both_length_and_pattern_errors() {
    let long = "A".repeat(64);
    let (_, msgs) = messages(&one_stage(StageConfig {
        name: long.clone(),
        ..StageConfig::default()
    }));
    assert_eq!(msgs[0], "The ClusterStagedUpdateStrategy \"s\" is invalid: spec.stages[0].name: Too long: may not be more than 63 bytes");
    assert_eq!(msgs[1], format!("The ClusterStagedUpdateStrategy \"s\" is invalid: spec.stages[0].name: Invalid value: \"{long}\": spec.stages[0].name in body should match '^[a-z0-9]+$'"));
    // 63 lowercase characters are fine.
    let (a, _) = messages(&one_stage(StageConfig {
        name: "a".repeat(63),
        ..StageConfig::default()
    }));
    assert!(a.strategy);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn run_state_transitions_are_cel_rules_on_the_spec() {
    let mut run = one_stage(StageConfig {
        name: "a".into(),
        ..StageConfig::default()
    });
    let allowed = [
        ("Initialize", "Run"),
        ("Run", "Stop"),
        ("Stop", "Run"),
        ("Run", "Run"),
        ("Initialize", "Initialize"),
    ];
    let refused = [
        ("Initialize", "Stop"),
        ("Run", "Initialize"),
        ("Stop", "Initialize"),
    ];
    for (from, to) in allowed {
        run.run.state = to.into();
        run.run.previous = Some(crate::model::PreviousRun {
            state: Some(from.into()),
            ..Default::default()
        });
        assert!(messages(&run).0.run, "{from} → {to}");
    }
    for (from, to) in refused {
        run.run.state = to.into();
        run.run.previous = Some(crate::model::PreviousRun {
            state: Some(from.into()),
            ..Default::default()
        });
        assert_eq!(messages(&run).1, [format!("The ClusterStagedUpdateRun \"example-run\" is invalid: spec: Invalid value: \"object\": invalid state transition: cannot transition from {from} to {to}")]);
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn the_run_name_is_at_most_63_characters_by_a_rule_on_the_whole_object() {
    let mut run = one_stage(StageConfig {
        name: "a".into(),
        ..StageConfig::default()
    });
    run.run.name = "r".repeat(63);
    assert!(messages(&run).0.run);
    run.run.name = "r".repeat(64);
    assert_eq!(messages(&run).1, [format!("The ClusterStagedUpdateRun \"{}\" is invalid: <nil>: Invalid value: \"object\": metadata.name max length is 63", run.run.name)]);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn at_most_31_stages() {
    let stage = |i: usize| StageConfig {
        name: format!("s{i}"),
        ..StageConfig::default()
    };
    let mut run = one_stage(stage(0));
    run.stages = (0..31).map(stage).collect();
    assert!(messages(&run).0.strategy, "31 stages");
    run.stages.push(stage(31));
    assert_eq!(messages(&run).1, [
        "The ClusterStagedUpdateStrategy \"s\" is invalid: spec.stages: Too many: 32: must have at most 31 items",
        "The ClusterStagedUpdateStrategy \"s\" is invalid: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
    ]);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn wait_times_follow_the_crd_pattern() {
    // ^(?:(?:0|[1-9][0-9]*)(\.[0-9]+)?(?:s|m|h))+$: h, m, s only, no leading zero, decimals allowed.
    for ok in ["0s", "1s", "1h30m", "1.5h", "90s", "10m", "0.5m"] {
        let stage = StageConfig {
            name: "a".into(),
            after_stage_tasks: vec![task("TimedWait", Some(ok))],
            ..StageConfig::default()
        };
        assert!(messages(&one_stage(stage)).0.strategy, "{ok}");
    }
    for bad in ["1d", "01h", "30", "1ms", "1.h", "h", "1 h", "-1h"] {
        let stage = StageConfig {
            name: "a".into(),
            after_stage_tasks: vec![task("TimedWait", Some(bad))],
            ..StageConfig::default()
        };
        assert_eq!(
            messages(&one_stage(stage)).1,
            [format!("The ClusterStagedUpdateStrategy \"s\" is invalid: spec.stages[0].afterStageTasks[0].waitTime: Invalid value: \"{bad}\": spec.stages[0].afterStageTasks[0].waitTime in body should match '^(?:(?:0|[1-9][0-9]*)(\\.[0-9]+)?(?:s|m|h))+$'")],
            "{bad}"
        );
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn the_placement_name_is_at_most_255_bytes() {
    let mut run = one_stage(StageConfig {
        name: "a".into(),
        ..StageConfig::default()
    });
    // 255 characters in labels of 63 or fewer (a valid DNS subdomain as well).
    let label = "p".repeat(63);
    run.placement.name = format!("{label}.{label}.{label}.{}", "p".repeat(63));
    assert_eq!(run.placement.name.len(), 255);
    assert!(messages(&run).0.run);
    run.placement.name.push('p');
    let (a, msgs) = messages(&run);
    assert!(!a.run);
    assert!(msgs.contains(&"The ClusterStagedUpdateRun \"example-run\" is invalid: spec.placementName: Too long: may not be more than 255 bytes".to_string()), "{msgs:?}");
}
