//! A large GKE sequence: `clusters` clusters over five stages (testing, staging, three production
//! regions), three versions released a week apart, daily after-hours windows at different hours, some
//! weekend-only windows and exclusions, node pools of varied size: months of rollout.

use fleetplan::label_map::LabelMap;

use fleetplan::diag::SourceMap;
use fleetplan::gke::model::{RolloutSequence, SequenceStage, VersionEvent};
use fleetplan::model::{
    Assumptions, Cluster, ClusterVersion, MaintenanceExclusion, MaintenancePolicy,
    MaintenanceWindow, NodePool, Scenario, Strategy,
};
use fleetplan::time::{Time, DAY};

pub fn gke_scenario(clusters: u32) -> Scenario {
    let start = Time::parse("2026-11-23T09:00:00Z").unwrap_or_default();
    let list = (0..clusters)
        .map(|i| {
            let (fleet, region) = match i % 10 {
                0 => ("testing", ""),
                1 => ("staging", ""),
                2..=4 => ("production", "us-west1"),
                5..=7 => ("production", "europe-west1"),
                _ => ("production", "us-east1"),
            };
            let mut labels = LabelMap::new();
            if !region.is_empty() && region != "us-east1" {
                labels.insert("prod-region", region);
            }
            let window = if i % 13 == 0 {
                MaintenanceWindow::Recurring {
                    start: "00:00".into(),
                    end: "12:00".into(),
                    recurrence: "FREQ=WEEKLY;BYDAY=SA".into(),
                }
            } else {
                MaintenanceWindow::Daily {
                    start: format!("{:02}:00", 16 + i % 8),
                }
            };
            let exclusions = if i % 17 == 0 {
                vec![MaintenanceExclusion {
                    name: "freeze".into(),
                    start: "2026-12-10T00:00:00Z".into(),
                    end: "2026-12-20T00:00:00Z".into(),
                    scope: "NO_UPGRADES".into(),
                }]
            } else {
                Vec::new()
            };
            Cluster {
                name: format!("gke-{i:05}").into(),
                labels,
                fleet: Some(format!("projects/{fleet}")),
                version: Some(ClusterVersion {
                    control_plane: Some("1.31.4-gke.1000".into()),
                    node: Some("1.31.4-gke.1000".into()),
                }),
                release_channel: Some("REGULAR".into()),
                maintenance: Some(MaintenancePolicy {
                    window: Some(window),
                    exclusions,
                }),
                node_pools: vec![NodePool {
                    name: "pool".into(),
                    nodes: 3 + i % 30,
                    max_surge: Some(1 + i % 3),
                }],
                upgrade_durations: None,
            }
        })
        .collect();
    let stage = |fleet: &str, selector: Option<&str>, soak: &str| SequenceStage {
        fleet_projects: vec![format!("projects/{fleet}")],
        label_selector: selector.map(str::to_string),
        soak_duration: Some(soak.into()),
    };
    let versions = [
        "1.31.5-gke.1200000",
        "1.31.6-gke.1100000",
        "1.32.1-gke.1000000",
    ]
    .iter()
    .enumerate()
    .map(|(k, v)| VersionEvent {
        version: v.to_string(),
        targets: Vec::new(),
        upgrade_type: None,
        at: Some(start.plus(fleetplan::time::Duration(7 * DAY.0 * k as i64))),
    })
    .collect();
    Scenario {
        name: Some(format!("gke-bench-{clusters}")),
        description: None,
        start: Some(start),
        start_now: false,
        clusters: list,
        generate: Vec::new(),
        strategy: Strategy::GkeRolloutSequence(RolloutSequence {
            name: "bench".into(),
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
            versions,
        }),
        assumptions: Assumptions::default(),
        origin: SourceMap::default(),
    }
}
