//! What the GKE goldens (examples/gke-bank.plan.json, examples/gke-pipelining.plan.json) cover beyond
//! the bars and states gke_rules.rs derives, each derived here by hand: summary figures (longest waits
//! and their order, stage ETAs, counts, total duration), the event log by reason, assumption notes. The
//! goldens stay as regression checks of the whole JSON; these tests say what is right (issue 15, item 3).

use std::collections::BTreeMap;

use fleetplan::plan::Plan;
use fleetplan_tests::load_and_plan;
use wasm_bindgen_test::wasm_bindgen_test;

fn example(name: &str) -> Plan {
    let text = fleetplan::examples::get(name)
        .map(|e| e.text)
        .unwrap_or_default();
    let (loaded, mut plans) = load_and_plan(text);
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    plans.remove(0)
}

fn event_counts(plan: &Plan) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for e in &plan.events {
        *out.entry(e.reason).or_default() += 1;
    }
    out
}

/// The bank (examples/gke-bank.yaml; times as in gke_rules.rs `the_bank_example_plans_as_calculated_by_hand`).
/// Cluster waits: test-1 9h; stage-1, stage-2 1h30m (Thu 18:30–20:00); prod-west-1, -2 5h30m (Sun
/// 20:30–Mon 02:00); prod-eu-1 16h30m (Thu 02:30–19:00); prod-eu-2 16h30m, then payments-freeze 1d5h
/// (Thu 19:00–Sat 00:00), then 19h (Sat 00:00–19:00); prod-east-1 3h30m (Wed 19:30–23:00); prod-east-2
/// 2d4h30m (Wed 19:30–Sat 00:00). The five longest, longest first, ties in stage then cluster order.
/// Stage ETAs are each stage's last qualification (nodes, 30m after the control plane): Thu Nov 26 19:00,
/// Sun Nov 29 21:00, Thu Dec 3 03:00, Wed Dec 9 20:00, Sat Dec 12 01:00 (soak 0s). Ten clusters, nine
/// upgraded (test-2 already runs the version). 18d16h from Mon 09:00 to Sat Dec 12 01:00.
#[wasm_bindgen_test(unsupported = test)]
fn the_bank_summary_by_hand() {
    let plan = example("gke-bank");
    let s = &plan.summary;
    assert_eq!(
        s.total_duration.map(|d| d.to_string()).as_deref(),
        Some("18d16h")
    );
    assert_eq!(
        (s.clusters, s.clusters_updated, s.errors, s.warnings),
        (10, 9, 0, 0)
    );
    let waits: Vec<String> = s
        .longest_waits
        .iter()
        .map(|w| {
            format!(
                "{} {} {}",
                w.label,
                w.start,
                w.duration.map_or("never".into(), |d| d.to_string())
            )
        })
        .collect();
    assert_eq!(
        waits,
        [
            "prod-east-2: window Sat 00:00–12:00 UTC 2026-12-09T19:30:00Z 2d4h30m",
            "prod-eu-2: exclusion payments-freeze (NO_UPGRADES) 2026-12-03T19:00:00Z 1d5h",
            "prod-eu-2: window daily 19:00–23:00 UTC 2026-12-05T00:00:00Z 19h",
            "prod-eu-1: window daily 19:00–23:00 UTC 2026-12-03T02:30:00Z 16h30m",
            "prod-eu-2: window daily 19:00–23:00 UTC 2026-12-03T02:30:00Z 16h30m",
        ]
    );
    let etas: Vec<String> = s
        .stage_etas
        .iter()
        .map(|e| {
            format!(
                "{} {}",
                e.stage,
                e.end.map_or("never".into(), |t| t.to_string())
            )
        })
        .collect();
    assert_eq!(
        etas,
        [
            "1 testing 2026-11-26T19:00:00Z",
            "2 staging 2026-11-29T21:00:00Z",
            "3 production prod-region=us-west1 2026-12-03T03:00:00Z",
            "4 production prod-region=europe-west1 2026-12-09T20:00:00Z",
            "5 production 2026-12-12T01:00:00Z",
        ]
    );
}

/// The bank's event log by reason: one release per upgrade type; every stage PAUSED once per type (each
/// gets the version outside its clusters' windows: 09:00 vs 18:00, 18:30 vs 20:00, 20:30 vs 02:00, 02:30
/// vs 19:00, 19:30 vs 23:00), then RUNNING, SOAKING, COMPLETED (5 × 2 each); nine clusters start and
/// finish each type once (18 each); test-2 is ALREADY_UPGRADED for both; the rollout of each type
/// completes every stage once.
#[wasm_bindgen_test(unsupported = test)]
fn the_bank_events_by_hand() {
    let plan = example("gke-bank");
    let want: BTreeMap<&str, usize> = [
        ("ALREADY_UPGRADED", 2),
        ("ROLLOUT_COMPLETED", 2),
        ("STAGE_COMPLETED", 10),
        ("STAGE_PAUSED", 10),
        ("STAGE_RUNNING", 10),
        ("STAGE_SOAKING", 10),
        ("UPGRADE_STARTED", 18),
        ("UPGRADE_SUCCEEDED", 18),
        ("VERSION_RELEASED", 2),
    ]
    .into();
    assert_eq!(event_counts(&plan), want);
    assert!(plan.events.windows(2).all(|w| w[0].at <= w[1].at));
}

/// The assumption notes say what the bank does not: the start it was given, each stage's soak as
/// written, the channel the versions come from, and the defaults it relies on (durations, node pools of
/// three for the clusters without any, the forced soak, windows).
#[wasm_bindgen_test(unsupported = test)]
fn the_bank_assumptions_by_hand() {
    let plan = example("gke-bank");
    let notes: Vec<(String, bool)> = plan
        .assumptions
        .iter()
        .map(|a| (a.field.clone(), a.defaulted))
        .collect();
    let want: Vec<(String, bool)> = [
        ("start", false),
        ("soak of stage 1 testing", false),
        ("soak of stage 2 staging", false),
        ("soak of stage 3 production prod-region=us-west1", false),
        ("soak of stage 4 production prod-region=europe-west1", false),
        ("soak of stage 5 production", false),
        ("computedReleaseChannel", false),
        ("upgradeDurations.controlPlane", true),
        ("upgradeDurations.perNode", true),
        ("nodePools", true),
        ("forcedSoak", true),
        ("maintenance", true),
    ]
    .iter()
    .map(|(f, d)| (f.to_string(), *d))
    .collect();
    assert_eq!(notes, want);
    let soaks: Vec<&str> = plan.assumptions[1..6]
        .iter()
        .map(|a| a.value.as_str())
        .collect();
    assert_eq!(soaks, ["3d", "3d", "3d", "4d", "0s"]);
}

/// examples/gke-pipelining.yaml: 1.31.5 at Mon 09:00, 1.31.6 at Wed 09:00, both types; soaks 3d, 3d, 1d.
/// testing: 1.31.6 nodes wait for test-1's control plane (Thu 18:30–19:00), run 19:00–19:30, soak 3d →
/// Sun Nov 29 19:30. staging: its node stream soaks 1.31.5 until Sun 21:00, then 1.31.6 nodes
/// 21:00–21:30, soak 3d → Wed Dec 2 21:30. production gets 1.31.6 Wed 21:00 (control plane) / 21:30
/// (nodes), is PAUSED until its 02:00 window: control planes 02:00–02:30, nodes 02:30–03:00, soak 1d →
/// Fri Dec 4 03:00, 10d18h after the start. STAGE_BUSY: testing (both types) when 1.31.6 is released
/// while it soaks 1.31.5, staging (both types) when testing qualifies 1.31.6 while it soaks 1.31.5.
/// PAUSED: every stage for 1.31.5 (both types), production for 1.31.6 (both types); testing and
/// staging get 1.31.6 inside an open window.
#[wasm_bindgen_test(unsupported = test)]
fn the_pipelining_summary_and_events_by_hand() {
    let plan = example("gke-pipelining");
    let etas: Vec<String> = plan
        .summary
        .stage_etas
        .iter()
        .map(|e| {
            format!(
                "{} {}",
                e.stage,
                e.end.map_or("never".into(), |t| t.to_string())
            )
        })
        .collect();
    assert_eq!(
        etas,
        [
            "1 testing 2026-11-29T19:30:00Z",
            "2 staging 2026-12-02T21:30:00Z",
            "3 production 2026-12-04T03:00:00Z",
        ]
    );
    assert_eq!(
        plan.summary
            .total_duration
            .map(|d| d.to_string())
            .as_deref(),
        Some("10d18h")
    );
    let counts = event_counts(&plan);
    assert_eq!(counts.get("STAGE_BUSY"), Some(&4));
    assert_eq!(counts.get("STAGE_PAUSED"), Some(&8));
    assert_eq!(counts.get("STAGE_RUNNING"), Some(&12));
    assert_eq!(counts.get("UPGRADE_STARTED"), Some(&16));
    assert_eq!(counts.get("VERSION_RELEASED"), Some(&4));
}
