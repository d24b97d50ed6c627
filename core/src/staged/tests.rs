//! Engine-level checks on scenarios built from model types (the data-driven suite lives in tests/).

use crate::label_map::LabelMap;

use crate::model::*;
use crate::plan::{Outcome, PhaseKind};
use crate::time::{Duration, Time};

fn cluster(name: &str, labels: &[(&str, &str)]) -> Cluster {
    Cluster {
        name: name.into(),
        labels: labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Default::default()
    }
}

fn select(env: &str) -> Option<LabelSelector> {
    Some(LabelSelector {
        match_labels: LabelMap::from([("environment", env)]),
        ..Default::default()
    })
}

fn task(kind: &str, wait: Option<&str>) -> StageTask {
    StageTask {
        kind: kind.into(),
        wait_time: wait.map(Into::into),
    }
}

/// The KubeFleet docs' staging → canary → production strategy.
pub fn seed() -> Scenario {
    let mut clusters = vec![
        cluster("member1", &[("environment", "staging")]),
        cluster("member2", &[("environment", "canary")]),
    ];
    for i in 3..=7 {
        let order = (10 - i).to_string();
        clusters.push(cluster(
            &format!("member{i}"),
            &[("environment", "production"), ("order", &order)],
        ));
    }
    let stages = vec![
        StageConfig {
            name: "staging".into(),
            label_selector: select("staging"),
            after_stage_tasks: vec![task("TimedWait", Some("1h"))],
            ..Default::default()
        },
        StageConfig {
            name: "canary".into(),
            label_selector: select("canary"),
            after_stage_tasks: vec![task("Approval", None)],
            ..Default::default()
        },
        StageConfig {
            name: "production".into(),
            label_selector: select("production"),
            sorting_label_key: Some("order".into()),
            max_concurrency: Some(IntOrString::Int(2)),
            before_stage_tasks: vec![task("Approval", None)],
            after_stage_tasks: vec![task("Approval", None), task("TimedWait", Some("1h"))],
        },
    ];
    Scenario {
        name: Some("seed".into()),
        description: None,
        start: Some(Time::parse("2026-11-23T09:00:00Z").unwrap()),
        start_now: false,
        clusters,
        generate: vec![],
        strategy: Strategy::KubefleetStaged(StagedRun {
            name: "example-strategy".into(),
            stages,
            run: RunSpec::default(),
            placement: Placement::default(),
            ..Default::default()
        }),
        assumptions: Assumptions {
            update_duration: Some(Duration::parse("3m").unwrap()),
            approvals: ApprovalModel {
                delay: Some(Duration::parse("30m").unwrap()),
                ..Default::default()
            },
            ..Default::default()
        },
        origin: Default::default(),
    }
}

fn t(s: &str) -> Option<Time> {
    Some(Time::parse(s).unwrap())
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn seed_example_timeline() {
    let plan = crate::plan(&seed());
    assert_eq!(plan.outcome, Outcome::Succeeded, "{:#?}", plan.diagnostics);
    let prod = &plan.stages[2];
    let order: Vec<&str> = prod.clusters.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        order,
        ["member7", "member6", "member5", "member4", "member3"],
        "sorted by the order label"
    );
    assert_eq!(
        plan.stages[0].end,
        t("2026-11-23T10:03:00Z"),
        "staging: 3m update + 1h wait"
    );
    assert_eq!(
        plan.stages[1].end,
        t("2026-11-23T10:36:00Z"),
        "canary: 3m + 30m approval"
    );
    assert_eq!(
        prod.clusters[0].start,
        t("2026-11-23T11:06:00Z"),
        "after the before-stage approval"
    );
    assert_eq!(
        prod.clusters[2].start,
        t("2026-11-23T11:09:00Z"),
        "two at a time"
    );
    assert_eq!(prod.clusters[4].end, t("2026-11-23T11:15:00Z"));
    assert_eq!(
        plan.end,
        t("2026-11-23T12:15:00Z"),
        "the 1h TimedWait outlasts the 30m approval"
    );
    let kinds: Vec<PhaseKind> = prod.phases.iter().map(|p| p.kind).collect();
    assert_eq!(
        kinds,
        [
            PhaseKind::BeforeStageApproval,
            PhaseKind::Updating,
            PhaseKind::AfterStageTimedWait,
            PhaseKind::AfterStageApproval
        ]
    );
    assert!(
        plan.events.windows(2).all(|w| w[0].at <= w[1].at),
        "events in time order"
    );
}
