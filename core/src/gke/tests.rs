//! Scenario-level tests of GKE planning on scenarios built in Rust (the YAML suite is in
//! tests/tests/gke_rules.rs); times checked by hand.

use super::model::{RolloutSequence, SequenceStage, VersionEvent};
use crate::model::{
    Assumptions, Cluster, ClusterVersion, MaintenancePolicy, MaintenanceWindow, Scenario, Strategy,
};
use crate::plan::{Outcome, PhaseKind, Plan};
use crate::time::Time;

fn t(s: &str) -> Time {
    Time::parse(s).unwrap()
}

fn cluster(name: &str, fleet: &str, labels: &[(&str, &str)], daily: &str) -> Cluster {
    Cluster {
        name: name.into(),
        labels: labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        fleet: Some(format!("projects/{fleet}")),
        version: Some(ClusterVersion {
            control_plane: Some("1.31.4-gke.1000".into()),
            node: Some("1.31.4-gke.1000".into()),
        }),
        release_channel: Some("REGULAR".into()),
        maintenance: Some(MaintenancePolicy {
            window: Some(MaintenanceWindow::Daily {
                start: daily.into(),
            }),
            exclusions: Vec::new(),
        }),
        ..Cluster::default()
    }
}

fn stage(fleet: &str, selector: Option<&str>, soak: &str) -> SequenceStage {
    SequenceStage {
        fleet_projects: vec![format!("projects/{fleet}")],
        label_selector: selector.map(str::to_string),
        soak_duration: Some(soak.into()),
    }
}

fn bank() -> Scenario {
    let mut clusters = vec![
        cluster("test-1", "testing", &[], "18:00"),
        cluster("stage-1", "staging", &[], "20:00"),
        cluster(
            "prod-west-1",
            "production",
            &[("prod-region", "us-west1")],
            "02:00",
        ),
        cluster(
            "prod-eu-1",
            "production",
            &[("prod-region", "europe-west1")],
            "19:00",
        ),
        cluster("prod-east-1", "production", &[], "23:00"),
        cluster("prod-east-2", "production", &[], "23:00"),
    ];
    clusters[5].maintenance.as_mut().unwrap().window = Some(MaintenanceWindow::Recurring {
        start: "00:00".into(),
        end: "12:00".into(),
        recurrence: "FREQ=WEEKLY;BYDAY=SA".into(),
    });
    Scenario {
        name: Some("bank".into()),
        description: None,
        start: Some(t("2026-01-05T09:00:00Z")),
        start_now: false,
        clusters,
        generate: Vec::new(),
        strategy: Strategy::GkeRolloutSequence(RolloutSequence {
            name: "bank".into(),
            display_name: None,
            stages: vec![
                stage("testing", None, "3d"),
                stage("staging", None, "3d"),
                stage(
                    "production",
                    Some("resource.labels['prod-region'] == 'us-west1'"),
                    "3d",
                ),
                stage(
                    "production",
                    Some("resource.labels['prod-region'] == 'europe-west1'"),
                    "4d",
                ),
                stage("production", None, "0s"),
            ],
            ignored_clusters_selector: None,
            versions: vec![VersionEvent {
                version: "1.31.5-gke.1200000".into(),
                targets: Vec::new(),
                upgrade_type: None,
                at: None,
            }],
        }),
        assumptions: Assumptions::default(),
        origin: Default::default(),
    }
}

fn bars(plan: &Plan, cluster: &str) -> Vec<String> {
    plan.stages
        .iter()
        .flat_map(|s| &s.clusters)
        .filter(|c| c.name == cluster)
        .flat_map(|c| &c.phases)
        .map(|p| {
            format!(
                "{} {}..{} {}",
                p.kind.slug(),
                p.start,
                p.end.map_or("never".into(), |e| e.to_string()),
                plan.label(p)
            )
        })
        .collect()
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn bank_times_by_hand() {
    let plan = crate::plan(&bank());
    assert_eq!(plan.outcome, Outcome::Succeeded, "{:#?}", plan.diagnostics);
    // testing: window 18:00–22:00 → control plane Mon 18:00–18:30, nodes after it 18:30–19:00
    // (3 nodes × 10m); soak 3d → qualified Thu 18:30 (cp) and Thu 19:00 (nodes).
    assert_eq!(
        bars(&plan, "test-1"),
        [
            "window-wait 2026-01-05T09:00:00Z..2026-01-05T18:00:00Z window daily 18:00–22:00 UTC",
            "control-plane 2026-01-05T18:00:00Z..2026-01-05T18:30:00Z control plane → 1.31.5-gke.1200000",
            "node 2026-01-05T18:30:00Z..2026-01-05T19:00:00Z nodes → 1.31.5-gke.1200000",
        ]
    );
    // staging (20:00): Thu 20:00–20:30, nodes 20:30–21:00; qualified Sun 20:30 / 21:00.
    // us-west1 (02:00): Mon 12th 02:00–02:30, nodes –03:00; qualified Thu 15th 02:30 / 03:00.
    // europe-west1 (19:00, 4d): Thu 15th 19:00–19:30, –20:00; qualified Mon 19th 19:30 / 20:00.
    // catch-all (23:00): prod-east-1 Mon 19th 23:00–23:30, nodes –00:00;
    // prod-east-2 opens only on Saturdays 00:00–12:00: Sat 24th 00:00–00:30, nodes –01:00.
    assert_eq!(
        bars(&plan, "prod-east-2"),
        [
            "window-wait 2026-01-19T19:30:00Z..2026-01-24T00:00:00Z window Sat 00:00–12:00 UTC",
            "control-plane 2026-01-24T00:00:00Z..2026-01-24T00:30:00Z control plane → 1.31.5-gke.1200000",
            "node 2026-01-24T00:30:00Z..2026-01-24T01:00:00Z nodes → 1.31.5-gke.1200000",
        ]
    );
    let etas: Vec<String> = plan
        .summary
        .stage_etas
        .iter()
        .map(|e| format!("{} {}", e.stage, e.end.unwrap()))
        .collect();
    assert_eq!(
        etas,
        [
            "1 testing 2026-01-08T19:00:00Z",
            "2 staging 2026-01-11T21:00:00Z",
            "3 production prod-region=us-west1 2026-01-15T03:00:00Z",
            "4 production prod-region=europe-west1 2026-01-19T20:00:00Z",
            "5 production 2026-01-24T01:00:00Z",
        ]
    );
    let reach: Vec<String> = plan
        .summary
        .version_reach
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {}",
                r.upgrade_type,
                r.version,
                r.fleet,
                r.at.unwrap()
            )
        })
        .collect();
    assert_eq!(
        reach,
        [
            "controlPlane 1.31.5-gke.1200000 testing 2026-01-05T18:30:00Z",
            "controlPlane 1.31.5-gke.1200000 staging 2026-01-08T20:30:00Z",
            "controlPlane 1.31.5-gke.1200000 production 2026-01-24T00:30:00Z",
            "node 1.31.5-gke.1200000 testing 2026-01-05T19:00:00Z",
            "node 1.31.5-gke.1200000 staging 2026-01-08T21:00:00Z",
            "node 1.31.5-gke.1200000 production 2026-01-24T01:00:00Z",
        ]
    );
    assert_eq!(plan.end, Some(t("2026-01-24T01:00:00Z")));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn stage_rows_show_running_and_soaking_per_version() {
    let plan = crate::plan(&bank());
    let rows: Vec<String> = plan.stages[0]
        .phases
        .iter()
        .map(|p| {
            format!(
                "{} {}..{} {}",
                p.kind.slug(),
                p.start,
                p.end.unwrap(),
                plan.label(p)
            )
        })
        .collect();
    // Released Mon 09:00; test-1, the only cluster that needs it, opens its window at 18:00, so
    // the stage is PAUSED until then (gke.md §3), then runs.
    assert_eq!(
        rows,
        [
            "window-wait 2026-01-05T09:00:00Z..2026-01-05T18:00:00Z control plane paused: every cluster held by its maintenance policy",
            "window-wait 2026-01-05T09:00:00Z..2026-01-05T18:00:00Z nodes paused: every cluster held by its maintenance policy",
            "control-plane 2026-01-05T18:00:00Z..2026-01-05T18:30:00Z control plane 1.31.5-gke.1200000 running",
            "node 2026-01-05T18:00:00Z..2026-01-05T19:00:00Z nodes 1.31.5-gke.1200000 running",
            "soaking 2026-01-05T18:30:00Z..2026-01-08T18:30:00Z control plane 1.31.5-gke.1200000 soaking 3d",
            "soaking 2026-01-05T19:00:00Z..2026-01-08T19:00:00Z nodes 1.31.5-gke.1200000 soaking 3d",
        ]
    );
    assert!(plan.stages[4]
        .phases
        .iter()
        .all(|p| p.kind != PhaseKind::Soaking));
}

/// Versions 1.31.5 (Mon) and 1.31.6 (released Wed 7th, while testing soaks 1.31.5).
fn pipelining() -> Scenario {
    let mut s = bank();
    let Strategy::GkeRolloutSequence(seq) = &mut s.strategy else {
        unreachable!()
    };
    seq.versions.push(VersionEvent {
        version: "1.31.6-gke.1100000".into(),
        targets: Vec::new(),
        upgrade_type: Some("controlPlane".into()),
        at: Some(t("2026-01-07T09:00:00Z")),
    });
    s
}

fn states(plan: &Plan, stage: usize) -> Vec<String> {
    let d = plan.gke.as_ref().unwrap();
    d.stages[stage]
        .upgrades
        .iter()
        .filter(|u| u.upgrade_type == "controlPlane")
        .flat_map(|u| {
            u.states
                .iter()
                .map(move |s| format!("{} {} {}", u.version, s.state, s.start))
        })
        .collect()
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn a_second_version_pipelines_behind_the_first() {
    let plan = crate::plan(&pipelining());
    assert_eq!(plan.outcome, Outcome::Succeeded, "{:#?}", plan.diagnostics);
    // testing is PAUSED from the release until test-1's window opens (Mon 18:00), soaks 1.31.5
    // until Thu 18:30: 1.31.6 waits (PENDING since Wed 09:00), then starts inside the open window at
    // once: 18:30–19:00, soak 3d → qualified Sun 19:00.
    assert_eq!(
        states(&plan, 0),
        [
            "1.31.5-gke.1200000 PAUSED 2026-01-05T09:00:00Z",
            "1.31.5-gke.1200000 RUNNING 2026-01-05T18:00:00Z",
            "1.31.5-gke.1200000 SOAKING 2026-01-05T18:30:00Z",
            "1.31.5-gke.1200000 COMPLETED 2026-01-08T18:30:00Z",
            "1.31.6-gke.1100000 PENDING 2026-01-07T09:00:00Z",
            "1.31.6-gke.1100000 RUNNING 2026-01-08T18:30:00Z",
            "1.31.6-gke.1100000 SOAKING 2026-01-08T19:00:00Z",
            "1.31.6-gke.1100000 COMPLETED 2026-01-11T19:00:00Z",
        ]
    );
    // staging gets 1.31.5 Thu 18:30 (while testing starts 1.31.6), is PAUSED until its 20:00
    // window, soaks it until Sun 20:30: 1.31.6, qualified at Sun 19:00, is PENDING until then (a
    // soaking stage starts nothing newer), then runs at once in the open window.
    assert_eq!(
        states(&plan, 1),
        [
            "1.31.5-gke.1200000 PAUSED 2026-01-08T18:30:00Z",
            "1.31.5-gke.1200000 RUNNING 2026-01-08T20:00:00Z",
            "1.31.5-gke.1200000 SOAKING 2026-01-08T20:30:00Z",
            "1.31.5-gke.1200000 COMPLETED 2026-01-11T20:30:00Z",
            "1.31.6-gke.1100000 PENDING 2026-01-11T19:00:00Z",
            "1.31.6-gke.1100000 RUNNING 2026-01-11T20:30:00Z",
            "1.31.6-gke.1100000 SOAKING 2026-01-11T21:00:00Z",
            "1.31.6-gke.1100000 COMPLETED 2026-01-14T21:00:00Z",
        ]
    );
    assert!(plan
        .events
        .iter()
        .any(|e| e.reason == "STAGE_BUSY" && e.at == t("2026-01-11T19:00:00Z")));
    // us-west1 gets 1.31.5 at Sun 20:30 while staging starts 1.31.6: both flow at once; its
    // clusters' window opens Mon 02:00.
    assert_eq!(
        states(&plan, 2)[..2],
        [
            "1.31.5-gke.1200000 PAUSED 2026-01-11T20:30:00Z",
            "1.31.5-gke.1200000 RUNNING 2026-01-12T02:00:00Z"
        ]
    );
}
