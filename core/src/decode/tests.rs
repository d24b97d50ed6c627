//! Tests of the fleetplan format as a user meets it: what decodes to what, and what gets reported where.

use super::*;
use crate::diag::Severity;
use crate::model::{ApprovalOverride, IntOrString, LabelSelectorRequirement, StageTask, TaskSide};
use crate::time::{Duration, Time};

fn decode(text: &str) -> Document {
    let (docs, diags) = crate::source::parse(text, "s.yaml");
    assert!(diags.is_empty(), "{diags:?}");
    decode_document(&docs[0], "s.yaml")
}

fn staged(doc: &Document) -> &StagedRun {
    match &doc.scenario.strategy {
        Strategy::KubefleetStaged(run) => run,
        other => panic!("expected a staged run, got {}", other.kind()),
    }
}

const FULL: &str = include_str!("full.yaml");

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn every_field_of_the_format_decodes() {
    let doc = decode(FULL);
    assert!(doc.diagnostics.is_empty(), "{:#?}", doc.diagnostics);
    assert!(doc.has_strategy);
    let s = &doc.scenario;
    assert_eq!(s.name.as_deref(), Some("full"));
    assert_eq!(s.start, Some(Time::parse("2026-11-23T09:00:00Z").unwrap()));
    assert_eq!(s.clusters.len(), 2);
    assert_eq!(&s.clusters[0].labels["order"], "1");
    assert_eq!(
        s.clusters[0].version.as_ref().unwrap().node.as_deref(),
        Some("1.31.2-gke.100")
    );
    assert_eq!(
        s.clusters[0].maintenance.as_ref().unwrap().window,
        Some(MaintenanceWindow::Daily {
            start: "03:00".into()
        })
    );
    assert!(matches!(
        s.clusters[1].maintenance.as_ref().unwrap().window,
        Some(MaintenanceWindow::Recurring { .. })
    ));
    let gen = &s.generate[0];
    assert_eq!((gen.count, gen.first), (6, 1));
    assert_eq!(gen.labels["ring"].mode, SpreadMode::Blocks);
    assert_eq!(gen.labels["order"].mode, SpreadMode::Index);
    assert_eq!(gen.labels["region"].values, ["eastus", "westeurope"]);
    let run = staged(&doc);
    assert_eq!(run.name, "my-strategy");
    assert_eq!(run.stages.len(), 3);
    assert_eq!(
        run.stages[0].after_stage_tasks,
        vec![StageTask {
            kind: "TimedWait".into(),
            wait_time: Some("1h".into())
        }]
    );
    assert_eq!(
        run.stages[1].max_concurrency,
        Some(IntOrString::Str("25%".into()))
    );
    assert_eq!(run.stages[2].max_concurrency, Some(IntOrString::Int(2)));
    assert_eq!(
        run.stages[2]
            .label_selector
            .as_ref()
            .unwrap()
            .match_expressions,
        vec![
            LabelSelectorRequirement {
                key: "environment".into(),
                operator: "NotIn".into(),
                values: vec!["staging".into()]
            },
            LabelSelectorRequirement {
                key: "canary".into(),
                operator: "DoesNotExist".into(),
                values: vec![]
            },
        ]
    );
    assert_eq!(run.run.state, "Initialize");
    assert_eq!(run.run.resource_snapshot_index.as_deref(), Some("0"));
    assert_eq!(run.placement.placement_type, "PickN");
    assert_eq!(run.placement.number_of_clusters, Some(3));
    assert_eq!(run.placement.affinity.len(), 1);
    assert_eq!(run.delete_clusters, ["old-member"]);
    let a = &s.assumptions;
    assert_eq!(a.update_duration, Some(Duration::parse("3m").unwrap()));
    assert_eq!(a.duration_overrides.len(), 2);
    assert_eq!(a.jitter.as_ref().unwrap().seed, 42);
    let bh = a.approvals.business_hours.as_ref().unwrap();
    assert_eq!((bh.utc_offset_minutes, bh.start, bh.end), (60, 540, 1050));
    assert_eq!(bh.days, [1, 2, 3, 4, 5]);
    assert_eq!(
        a.approvals.overrides[0],
        ApprovalOverride {
            stage: "production".into(),
            task: Some(TaskSide::Before),
            delay: Some(Duration::parse("4h").unwrap()),
            never: false
        }
    );
    assert!(a.approvals.overrides[1].never);
    assert_eq!(a.failures.len(), 2);
    assert_eq!(a.failures[1].after, Some(Duration::parse("2m").unwrap()));
    assert_eq!(a.stops.len(), 1);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn absent_fields_stay_absent_and_defaults_apply() {
    let doc = decode("strategy:\n  stages:\n    - name: s\n");
    assert!(doc.diagnostics.is_empty(), "{:?}", doc.diagnostics);
    let s = &doc.scenario;
    assert_eq!(s.start, None);
    assert_eq!(s.assumptions, Assumptions::default());
    let run = staged(&doc);
    assert_eq!(run.name, "example-strategy");
    assert_eq!(run.run.name, "example-run");
    assert_eq!(run.run.state, "Run");
    assert_eq!(run.placement.name, "example-placement");
    assert_eq!(run.placement.strategy_type, "External");
    assert_eq!(
        run.stages[0].label_selector, None,
        "an absent selector selects nothing, so it must stay None"
    );
    let empty = decode("strategy:\n  stages:\n    - name: s\n      labelSelector: {}\n");
    assert_eq!(
        staged(&empty).stages[0].label_selector,
        Some(Default::default())
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn all_wrong_fields_are_reported_at_once_with_paths_and_lines() {
    let doc = decode(
        "start: tomorrow\n\
         clusters:\n\
         \x20 - name: [a]\n\
         strategy:\n\
         \x20 stages:\n\
         \x20   - name: a\n\
         \x20   - name: b\n\
         \x20     maxConcurrency: [2]\n\
         \x20     afterStageTasks: {type: Approval}\n\
         assumptions:\n\
         \x20 updateDuration: soon\n\
         \x20 jitter: {seed: -1, spread: 1.5}\n",
    );
    let errors: Vec<(&str, usize)> = doc
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            (
                d.path.as_deref().unwrap(),
                d.location.as_ref().unwrap().line,
            )
        })
        .collect();
    assert_eq!(
        errors,
        [
            ("start", 1),
            ("clusters[0].name", 3),
            ("strategy.stages[1].maxConcurrency", 8),
            ("strategy.stages[1].afterStageTasks", 9),
            ("assumptions.updateDuration", 11),
            ("assumptions.jitter.seed", 12),
            ("assumptions.jitter.spread", 12),
        ]
    );
    let mc = doc
        .diagnostics
        .iter()
        .find(|d| d.path.as_deref() == Some("strategy.stages[1].maxConcurrency"))
        .unwrap();
    assert_eq!(
        mc.message,
        "`maxConcurrency` must be an integer or a percentage string such as \"25%\", found a list"
    );
    assert_eq!(mc.location.as_ref().unwrap().column, 23);
    // The rest still decoded.
    assert_eq!(staged(&doc).stages.len(), 2);
    assert_eq!(staged(&doc).stages[1].name, "b");
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn unknown_fields_warn_with_a_suggestion() {
    let doc = decode("strategy:\n  stagse: []\n  colour: red\nasumptions: {}\n");
    let msgs: Vec<&str> = doc.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "unknown field `asumptions` in the scenario; did you mean `assumptions`?",
            "unknown field `stagse` in `strategy`; did you mean `stages`?",
            "unknown field `colour` in `strategy`",
        ]
    );
    assert!(doc
        .diagnostics
        .iter()
        .all(|d| d.severity == Severity::Warning && d.code == "unknown-field"));
    let stagse = &doc.diagnostics[1];
    assert_eq!(stagse.path.as_deref(), Some("strategy.stagse"));
    assert_eq!(
        (
            stagse.location.as_ref().unwrap().line,
            stagse.location.as_ref().unwrap().column
        ),
        (2, 3)
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn label_values_written_as_numbers_are_read_as_text_with_a_warning() {
    let doc = decode("clusters:\n  - name: a\n    labels: {order: 1, canary: true, zone: \"007\"}\nstrategy: {}\n");
    let labels = &doc.scenario.clusters[0].labels;
    assert_eq!(&labels["order"], "1");
    assert_eq!(&labels["canary"], "true");
    assert_eq!(&labels["zone"], "007");
    let warnings: Vec<&str> = doc.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(warnings, ["label-not-string", "label-not-string"]);
    assert_eq!(
        doc.diagnostics[0].path.as_deref(),
        Some("clusters[0].labels.order")
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn wait_times_and_max_concurrency_stay_raw_for_the_engine() {
    let doc = decode("strategy:\n  stages:\n    - name: s\n      maxConcurrency: 0\n      afterStageTasks: [{type: TimedWait, waitTime: 30}, {type: Bogus}]\n");
    assert!(doc.diagnostics.is_empty());
    let stage = &staged(&doc).stages[0];
    assert_eq!(stage.max_concurrency, Some(IntOrString::Int(0)));
    assert_eq!(stage.after_stage_tasks[0].wait_time.as_deref(), Some("30"));
    assert_eq!(stage.after_stage_tasks[1].kind, "Bogus");
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn kubectl_selector_errors_point_into_the_string() {
    let doc = decode("strategy:\n  stages:\n    - name: s\n      labelSelector: \"env in (a,b\"\n");
    let d = &doc.diagnostics[0];
    assert_eq!(d.code, "selector-syntax");
    assert_eq!(d.path.as_deref(), Some("strategy.stages[0].labelSelector"));
    let loc = d.location.as_ref().unwrap();
    // The quote is at column 22, the text starts at 23, and the error is at its 12th character.
    assert_eq!((loc.line, loc.column), (4, 34));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn unknown_strategy_kind_lists_the_known_ones() {
    let doc = decode("strategy: {kind: kubefleet-stagd}\n");
    assert_eq!(doc.diagnostics[0].message, "unknown strategy kind `kubefleet-stagd`; known kinds: kubefleet-staged, kubefleet-rolling, gke-rollout-sequence, gke-fleet-sequence (did you mean `kubefleet-staged`?)");
    assert_eq!(doc.diagnostics[0].severity, Severity::Error);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn shorthands_decode_like_their_long_forms() {
    let short = decode(
        "strategy: {run: r, placement: p}\nassumptions: {updateDuration: 3m, approvals: 30m}\n",
    );
    let long = decode(
        "strategy: {run: {name: r}, placement: {name: p}}\nassumptions: {updateDuration: {default: 3m}, approvals: {delay: 30m}}\n",
    );
    assert_eq!(short.scenario.strategy, long.scenario.strategy);
    assert_eq!(short.scenario.assumptions, long.scenario.assumptions);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn bad_values_are_reported_with_their_path() {
    let doc = decode(
        "generate: [{count: -5, name: x}, {name: y}]\n\
         assumptions:\n\
         \x20 approvals: {businessHours: {utcOffset: \"01:00\", start: \"18:00\", end: \"17:00\", days: [Mon, Funday]}, overrides: [{stage: a, task: during}]}\n",
    );
    let paths: Vec<&str> = doc
        .diagnostics
        .iter()
        .filter_map(|d| d.path.as_deref())
        .collect();
    assert_eq!(
        paths,
        [
            "generate[0].count",
            "generate[1].count",
            "assumptions.approvals.businessHours.utcOffset",
            "assumptions.approvals.businessHours.end",
            "assumptions.approvals.businessHours.days",
            "assumptions.approvals.overrides[0].task",
        ]
    );
    assert!(doc.scenario.generate.is_empty());
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn the_source_map_points_at_each_field() {
    let doc = decode(FULL);
    let at = |p: &str| doc.scenario.origin.locate(p).map(|l| (l.line, l.column));
    assert_eq!(at("strategy.stages[1].maxConcurrency"), Some((35, 23)));
    assert_eq!(at("clusters[1]"), Some((14, 5)));
    assert_eq!(
        at("strategy.stages[0].afterStageTasks[0].waitTime"),
        Some((30, 53))
    );
    assert_eq!(at("assumptions.jitter"), Some((47, 13)));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn a_document_that_is_not_a_mapping_is_a_type_error() {
    let doc = decode("- a\n- b\n");
    assert!(doc.diagnostics.iter().any(|d| d.code == "wrong-type"));
    assert!(!doc.has_strategy);
}
