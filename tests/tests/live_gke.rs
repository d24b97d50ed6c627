//! Live projection of GKE rollouts from the Rollout resource (one version of one upgrade type moving
//! through the sequence's stages). Expectations follow GKE's sequencing rules in
//! ../shared/reference/gke.md: a stage soaks once all its upgrades are done, the next stage takes the
//! version when the soak ends, an upgrade under way does not end before now.

use fleetplan::plan::projection::{Basis, RunState, WaitingKind};
use fleetplan::plan::Plan;
use fleetplan::status::{self, Options};
use fleetplan::time::Time;
use fleetplan::Source;
use wasm_bindgen_test::wasm_bindgen_test;

fn t(s: &str) -> Time {
    Time::parse(s).unwrap()
}

const BANK: &str = include_str!("../../examples/gke-bank.yaml");
const ROLLOUT: &str = include_str!("../../examples/gke-rollout-in-progress.json");

fn project(texts: &[&str], now: &str, forecast: bool) -> (Plan, Vec<fleetplan::Diagnostic>) {
    let sources: Vec<Source> = texts
        .iter()
        .enumerate()
        .map(|(i, text)| Source {
            name: if i == 0 { "a" } else { "b" },
            text,
        })
        .collect();
    let input = status::load(&sources, &[]);
    assert!(!input.items.is_empty(), "{:?}", input.diagnostics);
    let item = input
        .items
        .iter()
        .find(|i| i.scenario.strategy.kind().starts_with("gke"))
        .unwrap();
    let plan = status::project(item, &Options::new(t(now), forecast));
    (plan, input.diagnostics)
}

#[wasm_bindgen_test(unsupported = test)]
fn a_rollout_in_its_second_stage_keeps_facts_and_projects_the_rest() {
    let (plan, _) = project(&[BANK, ROLLOUT], "2026-11-26T20:40:00Z", true);
    let p = plan.projection.as_ref().unwrap();
    assert_eq!(plan.stages.len(), 5, "the bank sequence's five stages");
    // Stage 1 completed: its times are the Rollout's.
    assert_eq!(plan.stages[0].start, Some(t("2026-11-23T09:00:00Z")));
    assert_eq!(plan.stages[0].end, Some(t("2026-11-26T18:30:00Z")));
    assert_eq!(p.stages[0].basis, Basis::Fact);
    let test1 = plan.stages[0]
        .clusters
        .iter()
        .find(|c| c.name == "test-1")
        .unwrap();
    assert_eq!(test1.end, Some(t("2026-11-23T18:30:00Z")));
    // stage-1 succeeded at 20:25 (a fact); stage-2 upgrades since 20:00 and has not finished: not
    // before now. The stage soaks 3 days from its last upgrade: 11-29 20:40.
    let staging = &plan.stages[1];
    let s1 = staging
        .clusters
        .iter()
        .find(|c| c.name == "stage-1")
        .unwrap();
    assert_eq!(s1.end, Some(t("2026-11-26T20:25:00Z")));
    let s2 = staging
        .clusters
        .iter()
        .find(|c| c.name == "stage-2")
        .unwrap();
    // Its real start (20:00) plus the default 30m control-plane upgrade is 20:30, before now: now.
    assert_eq!(s2.end, Some(t("2026-11-26T20:40:00Z")));
    assert_eq!(
        staging.end,
        Some(
            s2.end
                .unwrap()
                .plus(fleetplan::time::Duration(3 * 86_400_000))
        )
    );
    // Earlier, it is its real start plus 30 minutes, not the window's start plus the time passed.
    let (early, _) = project(&[BANK, ROLLOUT], "2026-11-26T20:10:00Z", false);
    let s2 = early.stages[1]
        .clusters
        .iter()
        .find(|c| c.name == "stage-2")
        .unwrap();
    assert_eq!(s2.end, Some(t("2026-11-26T20:30:00Z")));
    // Production starts from staging's end, in its windows.
    assert!(plan.stages[2].start.unwrap() >= staging.end.unwrap());
    assert_eq!(p.position.state, RunState::Running);
    assert_eq!((p.position.stages_done, p.position.stages), (1, 5));
    assert_eq!(p.position.in_flight[0].cluster, "stage-2");
    assert_eq!(p.position.in_flight[0].since, t("2026-11-26T20:00:00Z"));
    let f = p.forecast.as_ref().unwrap();
    assert!(f.end.p10 <= f.end.p50 && f.end.p50 <= f.end.p90);
}

#[wasm_bindgen_test(unsupported = test)]
fn a_soaking_stage_hands_the_version_on_when_its_soak_ends() {
    let soaking = ROLLOUT
        .replace(
            r#""state": "RUNNING", "operation": "operation-1764188400000-upgrade-master"}],
      "lastUpdateTime": "2026-11-26T20:00:00Z""#,
            r#""state": "SUCCEEDED"}],
      "lastUpdateTime": "2026-11-26T20:10:00Z""#,
        )
        .replace(
            r#"{"stageNumber": 2, "state": "RUNNING""#,
            r#"{"stageNumber": 2, "state": "SOAKING""#,
        );
    let (plan, _) = project(&[BANK, &soaking], "2026-11-27T09:00:00Z", false);
    let p = plan.projection.as_ref().unwrap();
    // The soak began with the last success (20:25) and lasts 3 days.
    assert_eq!(plan.stages[1].end, Some(t("2026-11-29T20:25:00Z")));
    let w = &p.position.waiting[0];
    assert_eq!(w.kind, WaitingKind::Soak);
    assert_eq!(w.until, Some(t("2026-11-29T20:25:00Z")));
    assert_eq!(p.position.state, RunState::Waiting);
}

#[wasm_bindgen_test(unsupported = test)]
fn a_rollout_alone_is_read_with_a_sequence_made_from_it() {
    let (plan, diags) = project(&[ROLLOUT], "2026-11-26T20:40:00Z", false);
    assert!(diags.iter().any(|d| d.code == "rollout-alone"));
    assert_eq!(plan.stages.len(), 5);
    assert_eq!(plan.stages[0].end, Some(t("2026-11-26T18:30:00Z")));
    assert!(plan.end.is_some());
}

#[wasm_bindgen_test(unsupported = test)]
fn a_paused_rollout_says_so_and_how_to_resume() {
    let paused = ROLLOUT.replacen(r#""state": "RUNNING","#, r#""state": "PAUSED","#, 1);
    let (plan, _) = project(&[BANK, &paused], "2026-11-26T20:40:00Z", false);
    let p = plan.projection.as_ref().unwrap();
    assert_eq!(p.position.state, RunState::Paused);
    assert_eq!(plan.end, None);
    let w = p
        .position
        .waiting
        .iter()
        .find(|w| w.kind == WaitingKind::Paused)
        .unwrap();
    assert_eq!(
        w.command.as_deref(),
        Some("gcloud container fleet rollouts resume cp-1-31-5-gke-1200000")
    );
}

/// Fleet-based sequencing: each fleet's clusterupgrade feature with its state (per upgrade the
/// fleet's code and since when, and its memberships').
const FEATURES: &str = r#"{
  "name": "projects/bank-dev/locations/global/features/clusterupgrade",
  "spec": {"clusterupgrade": {"postConditions": {"soaking": "172800s"}}},
  "state": {"clusterupgrade": {"upgrades": [
    {"upgrade": {"name": "k8s_control_plane", "version": "1.31.5-gke.1200000"}, "status": {"code": "COMPLETE", "updateTime": "2026-11-25T10:00:00Z"}}
  ]}},
  "membershipStates": {
    "projects/1/locations/us-central1/memberships/dev-1": {"clusterupgrade": {"upgrades": [
      {"upgrade": {"name": "k8s_control_plane", "version": "1.31.5-gke.1200000"}, "status": {"code": "COMPLETE", "updateTime": "2026-11-23T10:00:00Z"}}
    ]}}
  }
}
---
{
  "name": "projects/bank-prod/locations/global/features/clusterupgrade",
  "spec": {"clusterupgrade": {"upstreamFleets": ["bank-dev"], "postConditions": {"soaking": "604800s"}}},
  "state": {"clusterupgrade": {"upgrades": [
    {"upgrade": {"name": "k8s_control_plane", "version": "1.31.5-gke.1200000"}, "status": {"code": "IN_PROGRESS", "updateTime": "2026-11-25T10:00:00Z"}}
  ]}},
  "membershipStates": {
    "projects/2/locations/us-central1/memberships/prod-1": {"clusterupgrade": {"upgrades": [
      {"upgrade": {"name": "k8s_control_plane", "version": "1.31.5-gke.1200000"}, "status": {"code": "COMPLETE", "updateTime": "2026-11-25T10:30:00Z"}}
    ]}},
    "projects/2/locations/us-central1/memberships/prod-2": {"clusterupgrade": {"upgrades": [
      {"upgrade": {"name": "k8s_control_plane", "version": "1.31.5-gke.1200000"}, "status": {"code": "IN_PROGRESS", "updateTime": "2026-11-25T10:30:00Z"}}
    ]}}
  }
}
"#;

const FLEET_CLUSTERS: &str = "clusters:\n  - {name: dev-1, fleet: projects/bank-dev, version: {controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}, releaseChannel: REGULAR}\n  - {name: prod-1, fleet: projects/bank-prod, version: {controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}, releaseChannel: REGULAR}\n  - {name: prod-2, fleet: projects/bank-prod, version: {controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}, releaseChannel: REGULAR}\n";

#[wasm_bindgen_test(unsupported = test)]
fn fleet_based_sequencing_is_read_from_the_features_state() {
    let (plan, _) = project(&[FEATURES, FLEET_CLUSTERS], "2026-11-25T11:00:00Z", false);
    let p = plan.projection.as_ref().unwrap();
    assert_eq!(plan.kind, "gke-fleet-sequence");
    // bank-dev COMPLETE since 11-25 10:00 (after its 2-day soak): a fact.
    assert_eq!(plan.stages[0].end, Some(t("2026-11-25T10:00:00Z")));
    assert_eq!(p.stages[0].basis, Basis::Fact);
    // bank-prod: prod-1 done at 10:30; prod-2 still upgrading, not before now; then 7 days' soak.
    let prod = &plan.stages[1];
    let prod1 = prod.clusters.iter().find(|c| c.name == "prod-1").unwrap();
    assert_eq!(prod1.end, Some(t("2026-11-25T10:30:00Z")));
    let prod2 = prod.clusters.iter().find(|c| c.name == "prod-2").unwrap();
    assert!(prod2.end.unwrap() >= t("2026-11-25T11:00:00Z"));
    assert_eq!(
        plan.end,
        Some(
            prod2
                .end
                .unwrap()
                .plus(fleetplan::time::Duration(7 * 86_400_000))
        )
    );
    assert_eq!(p.position.stage.as_deref(), Some(prod.name.as_str()));
}
