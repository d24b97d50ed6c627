//! A realistic large rollout: `clusters` generated clusters spread over `stages` rings by a `ring` label,
//! percentage concurrency, and a mix of timed waits and approvals, like a production ring strategy.

use fleetplan::label_map::LabelMap;
use fleetplan::sorted_map::SortedMap;

use fleetplan::diag::SourceMap;
use fleetplan::model::{
    Assumptions, ClusterGenerator, IntOrString, LabelSelector, LabelSpread, Placement, RunSpec,
    Scenario, SpreadMode, StageConfig, StageTask, StagedRun, Strategy,
};
use fleetplan::time::{Duration, Time, MINUTE};

pub fn fleet_scenario(clusters: u32, stages: u32) -> Scenario {
    let rings: Vec<String> = (0..stages).map(|r| r.to_string()).collect();
    let mut labels = SortedMap::new();
    labels.insert(
        "ring".to_string(),
        LabelSpread {
            values: rings.clone(),
            mode: SpreadMode::Blocks,
        },
    );
    labels.insert(
        "order".to_string(),
        LabelSpread {
            values: Vec::new(),
            mode: SpreadMode::Index,
        },
    );
    let generator = ClusterGenerator {
        count: clusters,
        name: "member-{i:06}".into(),
        first: 1,
        labels,
    };

    let stage_configs = rings
        .iter()
        .enumerate()
        .map(|(i, ring)| stage(i, ring))
        .collect();
    let run = StagedRun {
        name: "bench-strategy".into(),
        namespace: None,
        stages: stage_configs,
        run: RunSpec {
            name: "bench-run".into(),
            ..RunSpec::default()
        },
        placement: Placement::default(),
        delete_clusters: Vec::new(),
    };
    Scenario {
        name: Some(format!("bench-{clusters}x{stages}")),
        description: None,
        start: Time::parse("2026-11-23T09:00:00Z").ok(),
        start_now: false,
        clusters: Vec::new(),
        generate: vec![generator],
        strategy: Strategy::KubefleetStaged(run),
        assumptions: Assumptions {
            update_duration: Some(Duration(4 * MINUTE.0)),
            ..Assumptions::default()
        },
        origin: SourceMap::default(),
    }
}

/// Ring 0 goes one at a time in `order`; later rings widen (10%, 20%, 50%). Every third ring bakes
/// after updating, every fourth waits for an approval first: both kinds of gate are exercised.
fn stage(i: usize, ring: &str) -> StageConfig {
    let mut match_labels = LabelMap::new();
    match_labels.insert("ring", ring);
    let max_concurrency = match i {
        0 => IntOrString::Int(1),
        1..=2 => IntOrString::Str("10%".into()),
        3..=5 => IntOrString::Str("20%".into()),
        _ => IntOrString::Str("50%".into()),
    };
    let task = |kind: &str, wait: Option<&str>| StageTask {
        kind: kind.into(),
        wait_time: wait.map(Into::into),
    };
    StageConfig {
        name: format!("ring{i}"),
        label_selector: Some(LabelSelector {
            match_labels,
            match_expressions: Vec::new(),
        }),
        sorting_label_key: (i == 0).then(|| "order".to_string()),
        max_concurrency: Some(max_concurrency),
        before_stage_tasks: if i % 4 == 3 {
            vec![task("Approval", None)]
        } else {
            Vec::new()
        },
        after_stage_tasks: if i % 3 == 0 {
            vec![task("TimedWait", Some("1h"))]
        } else {
            Vec::new()
        },
    }
}
