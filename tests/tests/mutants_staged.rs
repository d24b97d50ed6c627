//! KubeFleet staged-run rules that mutation testing (scripts/mutants.sh, bench/mutants.md) found
//! unguarded. Each test states the rule and its source, and fails if the rule changes.

use fleetplan::plan::Plan;
use fleetplan_tests::load_and_plan;
use wasm_bindgen_test::wasm_bindgen_test;

fn plan_of(yaml: &str) -> Plan {
    let (loaded, mut plans) = load_and_plan(yaml);
    assert!(
        loaded.diagnostics.iter().all(|d| !d.is_error()),
        "{:#?}",
        loaded.diagnostics
    );
    plans.remove(0)
}

fn codes(plan: &Plan) -> Vec<&str> {
    plan.diagnostics.iter().map(|d| d.code).collect()
}

/// One cluster updated in 3 minutes from `start`, then an after-stage TimedWait of `wait`.
fn one_stage_with_wait(start: &str, wait: &str) -> String {
    format!(
        r#"
start: {start}
clusters:
  - {{name: a, labels: {{env: prod}}}}
strategy:
  kind: kubefleet-staged
  stages:
    - name: prod
      labelSelector: {{matchLabels: {{env: prod}}}}
      afterStageTasks:
        - {{type: TimedWait, waitTime: {wait}}}
assumptions:
  updateDuration: 3m
"#
    )
}

/// fleetplan's weekend note (docs/scenario-format.md, `wait-over-weekend`): a wait "runs over a
/// weekend" when the half-open span [start, end) touches a Saturday or Sunday, so a wait that ends at
/// Saturday 00:00 sharp does not, and one that ends a minute later does. The first days of the Unix
/// epoch (Thursday 1970-01-01 is day 0 of the date arithmetic) plan like any other days.
/// KubeFleet: the TimedWait counts from the moment the stage's last cluster succeeded (execution.go).
#[wasm_bindgen_test(unsupported = test)]
fn a_wait_ending_at_saturday_midnight_does_not_run_over_the_weekend() {
    // Update Thu 23:57 → Fri 00:00; wait 24h → Sat 00:00.
    let plan = plan_of(&one_stage_with_wait("1970-01-01T23:57:00Z", "24h"));
    assert_eq!(
        plan.end.map(|t| t.to_string()).as_deref(),
        Some("1970-01-03T00:00:00Z")
    );
    assert!(
        !codes(&plan).contains(&"wait-over-weekend"),
        "{:#?}",
        plan.diagnostics
    );
    assert!(
        !codes(&plan).contains(&"updates-on-weekend"),
        "{:#?}",
        plan.diagnostics
    );

    // One minute more touches Saturday.
    let plan = plan_of(&one_stage_with_wait("1970-01-01T23:57:00Z", "24h1m"));
    assert_eq!(
        plan.end.map(|t| t.to_string()).as_deref(),
        Some("1970-01-03T00:01:00Z")
    );
    let weekend: Vec<&str> = plan
        .diagnostics
        .iter()
        .filter(|d| d.code == "wait-over-weekend")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(weekend.len(), 1, "{:#?}", plan.diagnostics);
    assert!(
        weekend[0].contains("1970-01-02T00:00:00Z → 1970-01-03T00:01:00Z"),
        "{}",
        weekend[0]
    );
}

/// One cluster in one stage, with `run_fields` added after the run's name (`, state: Stop`).
fn one_cluster_run(run_fields: &str) -> String {
    format!(
        r#"
clusters:
  - {{name: a, labels: {{env: prod}}}}
strategy:
  kind: kubefleet-staged
  stages:
    - name: prod
      labelSelector: {{matchLabels: {{env: prod}}}}
  run: {{name: run1{run_fields}}}
"#
    )
}

fn run_with_snapshot_index(index: &str) -> String {
    one_cluster_run(&format!(", resourceSnapshotIndex: \"{index}\""))
}

/// `spec.resourceSnapshotIndex` is optional, empty meaning the latest snapshot; otherwise the
/// controller reads it with Go's strconv.Atoi and refuses anything that is not an integer >= 0:
/// "invalid resource snapshot index `%s` provided, expected an integer >= 0"
/// (pkg/controllers/updaterun/initialization.go; ../shared/reference/kubefleet.md).
#[wasm_bindgen_test(unsupported = test)]
fn resource_snapshot_index_is_empty_or_an_integer_of_at_least_zero() {
    for ok in ["", "0", "3", "+5", "007"] {
        let (loaded, plans) = load_and_plan(&run_with_snapshot_index(ok));
        let all: Vec<_> = loaded
            .diagnostics
            .iter()
            .chain(&plans[0].diagnostics)
            .collect();
        assert!(
            all.iter()
                .all(|d| d.code != "invalid-resource-snapshot-index" && !d.is_error()),
            "{ok:?}: {all:#?}"
        );
    }
    for bad in ["-1", "abc", "1.0", " 1"] {
        let (_, plans) = load_and_plan(&run_with_snapshot_index(bad));
        let d = plans[0]
            .diagnostics
            .iter()
            .find(|d| d.code == "invalid-resource-snapshot-index")
            .unwrap_or_else(|| panic!("{bad:?}: {:#?}", plans[0].diagnostics));
        assert!(d.is_error());
        assert!(
            d.message.ends_with(&format!(
                "invalid resource snapshot index `{bad}` provided, expected an integer >= 0"
            )),
            "{}",
            d.message
        );
    }
}

fn failures_note(failures: &str) -> (String, bool) {
    let yaml = format!(
        r#"
start: 2026-11-23T09:00:00Z
clusters: [{{name: a}}, {{name: b}}, {{name: c}}, {{name: d}}]
strategy:
  kind: kubefleet-staged
  stages:
    - name: all
      labelSelector: {{}}
      maxConcurrency: 4
assumptions:
  updateDuration: 3m
{failures}
"#
    );
    let (_, plans) = load_and_plan(&yaml);
    let notes: Vec<_> = plans[0]
        .assumptions
        .iter()
        .filter(|n| n.field == "failures")
        .collect();
    assert_eq!(notes.len(), 1, "{:#?}", plans[0].assumptions);
    (notes[0].value.clone(), notes[0].defaulted)
}

/// The plan states what it assumed about failures, one clause per assumed failure in the order
/// written, with docs/scenario-format.md's `failures[]` defaults spelled out: `after` absent means
/// the update fails when it would have finished; `recoversAfter` absent means it never recovers (the
/// controller retries it forever, execution.go checkClusterUpdateResult); `preempted` means another
/// run took over the binding, which aborts the run. No failures written: every update succeeds, and
/// the note says it is fleetplan's default.
#[wasm_bindgen_test(unsupported = test)]
fn the_failure_assumptions_are_stated_in_the_plan() {
    assert_eq!(
        failures_note(""),
        ("none: every update succeeds".to_string(), true)
    );
    let (value, defaulted) = failures_note(
        "  failures: [b, {cluster: c, after: 2m, recoversAfter: 10m}, {cluster: d, after: 1m, preempted: true}, {cluster: a, recoversAfter: 1h30m}]",
    );
    assert_eq!(
        value,
        "b: fails when its update would finish, never recovers; \
         c: fails 2m after it starts, recovers 10m later; \
         d: another run takes over its binding 1m after it starts (the run aborts); \
         a: fails when its update would finish, recovers 1h30m later"
    );
    assert!(!defaulted);
}

/// `spec.state` (kubefleet.md, ClusterStagedUpdateRun): Initialize computes and records the stages
/// without executing, nothing updates until the state is set to Run; Stop starts no cluster until it
/// is set back to Run. The plan shows the run as if it ran, so it warns at `strategy.run.state`
/// when the state written would hold it; Run, or no state (older releases ran at once), says nothing.
#[wasm_bindgen_test(unsupported = test)]
fn a_run_held_by_its_state_is_said_to_be() {
    let state_warnings = |state: &str| -> Vec<String> {
        let (_, plans) = load_and_plan(&one_cluster_run(state));
        plans[0]
            .diagnostics
            .iter()
            .filter(|d| d.code.starts_with("run-state"))
            .map(|d| {
                assert!(!d.is_error(), "{d:#?}");
                format!("{} {}", d.code, d.path.as_deref().unwrap_or("-"))
            })
            .collect()
    };
    assert_eq!(
        state_warnings(", state: Initialize"),
        ["run-state-initialize strategy.run.state"]
    );
    assert_eq!(
        state_warnings(", state: Stop"),
        ["run-state-stop strategy.run.state"]
    );
    assert_eq!(state_warnings(", state: Run"), Vec::<String>::new());
    assert_eq!(state_warnings(""), Vec::<String>::new());
    let (_, plans) = load_and_plan(&one_cluster_run(", state: Initialize"));
    let d = plans[0]
        .diagnostics
        .iter()
        .find(|d| d.code == "run-state-initialize")
        .unwrap();
    assert!(
        d.message
            .contains("nothing updates until the state is set to Run"),
        "{}",
        d.message
    );
}
