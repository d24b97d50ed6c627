//! Both sides of every GKE threshold, cap and ordering rule (issue 15, item 1). Each test says the rule
//! and where it comes from (../shared/reference/gke.md, GKE's documentation) and derives the expected
//! times by hand; a change of the threshold (1 → 2 minors, 48h → 24h, 30 days → 29) fails a test.
//!
//! Unless a test says otherwise: the plan starts Monday 2026-11-23 00:00 UTC (+0m), a control-plane
//! upgrade takes 30m, nodes go in batches of 10m (one pool of 3 nodes, maxSurge 1).

use fleetplan::plan::{Outcome, PhaseKind, Plan};
use fleetplan_tests::load_and_plan;
use wasm_bindgen_test::wasm_bindgen_test;

const START: &str = "start: 2026-11-23T00:00:00Z\n";

fn plan(yaml: &str) -> Plan {
    let (loaded, mut plans) = load_and_plan(yaml);
    assert!(
        loaded.diagnostics.iter().all(|d| !d.is_error()),
        "{:#?}",
        loaded.diagnostics
    );
    plans.remove(0)
}

fn at(plan: &Plan, t: fleetplan::time::Time) -> String {
    fleetplan_tests::render::offset(plan.start, t)
}

/// `kind version start–end` of one cluster's upgrade bars.
fn bars(plan: &Plan, cluster: &str) -> Vec<String> {
    plan.stages
        .iter()
        .flat_map(|s| &s.clusters)
        .filter(|c| c.name == cluster)
        .flat_map(|c| &c.phases)
        .filter(|p| {
            matches!(
                p.kind,
                PhaseKind::ControlPlaneUpgrade | PhaseKind::NodeUpgrade
            )
        })
        .map(|p| {
            format!(
                "{} {} {}–{}",
                p.kind.slug(),
                plan.version(p).unwrap_or("-"),
                at(plan, p.start),
                p.end.map_or("never".into(), |e| at(plan, e))
            )
        })
        .collect()
}

/// `code path: message` of the plan's errors.
fn errors(plan: &Plan) -> Vec<String> {
    plan.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            format!(
                "{} {}: {}",
                d.code,
                d.path.as_deref().unwrap_or("-"),
                d.message
            )
        })
        .collect()
}

/// `stage type version STATE +t …` of the stage upgrades.
fn states(plan: &Plan) -> Vec<String> {
    let gke = plan.gke.as_ref().expect("a GKE plan");
    gke.stages
        .iter()
        .flat_map(|s| {
            s.upgrades.iter().map(move |u| {
                let st: Vec<String> = u
                    .states
                    .iter()
                    .map(|x| format!("{} {}", x.state, at(plan, x.start)))
                    .collect();
                format!(
                    "{} {} {}: {}",
                    s.stage,
                    u.upgrade_type,
                    u.version,
                    st.join(", ")
                )
            })
        })
        .collect()
}

fn one_cluster(extra: &str, version: &str, releases: &str) -> String {
    format!(
        "{START}clusters:
  - {{name: c, fleet: dev, version: {{controlPlane: {version}}}{extra}}}
strategy:
  kind: gke-rollout-sequence
  name: seq
  stages: [{{fleetProjects: [projects/dev], soakDuration: 0s}}]
  versions: {releases}
"
    )
}

// ---------------------------------------------------------------------------------------------------
// The one-minor control-plane cap, where it binds.

/// gke.md §3: "the next group may upgrade to the latest version qualified upstream, capped: control
/// plane at most ONE minor version above the downstream group's control plane." Here prod is busy
/// soaking 1.30.9 while dev qualifies both 1.31.9 and 1.32.1, so when prod is free both are candidates:
/// dev (soak 1h): 1.30.9 +0m–+30m, qualified +1h30m; 1.31.9 (released +1h) +1h30m–+2h, qualified +3h;
/// 1.32.1 (released +2h) +3h–+3h30m, qualified +4h30m.
/// prod (soak 1d): 1.30.9 +1h30m–+2h, soaks until +1d02h. Then its control plane runs 1.30.9: 1.32.1 is
/// two minors ahead, so it takes 1.31.9 (+1d02h–+1d02h30m, soak → +2d02h30m), then 1.32.1
/// (+2d02h30m–+2d03h). With a cap of two minors it would take 1.32.1 first and skip prod-1 as
/// VERSION_TOO_OLD; with no minor at all, 1.31.9 would never be chosen.
#[wasm_bindgen_test(unsupported = test)]
fn the_one_minor_cap_binds_when_a_busy_stage_sees_two_minors() {
    let yaml = format!(
        "{START}clusters:
  - {{name: dev-1, fleet: dev, version: {{controlPlane: 1.30.2-gke.1}}}}
  - {{name: prod-1, fleet: prod, version: {{controlPlane: 1.30.2-gke.1}}}}
strategy:
  kind: gke-rollout-sequence
  name: seq
  stages:
    - {{fleetProjects: [projects/dev], soakDuration: 1h}}
    - {{fleetProjects: [projects/prod], soakDuration: 1d}}
  versions:
    - {{version: 1.30.9-gke.1, upgradeType: controlPlane}}
    - {{version: 1.31.9-gke.1, upgradeType: controlPlane, at: 2026-11-23T01:00:00Z}}
    - {{version: 1.32.1-gke.1, upgradeType: controlPlane, at: 2026-11-23T02:00:00Z}}
"
    );
    let p = plan(&yaml);
    assert_eq!(p.outcome, Outcome::Succeeded, "{:#?}", p.diagnostics);
    assert_eq!(
        bars(&p, "prod-1"),
        [
            "control-plane 1.30.9-gke.1 +1h30m–+2h00m",
            "control-plane 1.31.9-gke.1 +1d02h00m–+1d02h30m",
            "control-plane 1.32.1-gke.1 +2d02h30m–+2d03h00m",
        ]
    );
    assert!(p.gke.as_ref().is_some_and(|g| g.skipped.is_empty()));
}

/// The skip rules at their boundaries (gke.md §1 excludedClusters reasons): a control plane one minor
/// behind the target upgrades, two minors behind is VERSION_TOO_OLD; a cluster exactly at the target is
/// ALREADY_UPGRADED, one build older upgrades.
#[wasm_bindgen_test(unsupported = test)]
fn skip_reasons_on_both_sides_of_their_boundaries() {
    let yaml = format!(
        "{START}clusters:
  - {{name: one-minor, fleet: dev, version: {{controlPlane: 1.30.8-gke.1}}}}
  - {{name: two-minors, fleet: dev, version: {{controlPlane: 1.29.8-gke.1}}}}
  - {{name: at-target, fleet: dev, version: {{controlPlane: 1.31.5-gke.1200000}}}}
  - {{name: one-build-older, fleet: dev, version: {{controlPlane: 1.31.5-gke.1199999}}}}
strategy:
  kind: gke-rollout-sequence
  name: seq
  stages: [{{fleetProjects: [projects/dev], soakDuration: 0s}}]
  versions: [{{version: 1.31.5-gke.1200000, upgradeType: controlPlane}}]
"
    );
    let p = plan(&yaml);
    let skipped: Vec<String> = p
        .gke
        .as_ref()
        .map(|g| {
            g.skipped
                .iter()
                .map(|s| format!("{} {}", s.cluster, s.reason))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        skipped,
        ["at-target ALREADY_UPGRADED", "two-minors VERSION_TOO_OLD"]
    );
    assert_eq!(
        bars(&p, "one-minor"),
        ["control-plane 1.31.5-gke.1200000 +0m–+30m"]
    );
    assert_eq!(
        bars(&p, "one-build-older"),
        ["control-plane 1.31.5-gke.1200000 +0m–+30m"]
    );
}

// ---------------------------------------------------------------------------------------------------
// 48 hours of availability in any 32 days, in spans of at least 4 hours (gke.md §4).

fn window(start: &str, end: &str, rule: &str) -> String {
    one_cluster(
        &format!(", maintenance: {{window: {{start: \"{start}\", end: \"{end}\", recurrence: \"{rule}\"}}}}"),
        "1.31.4-gke.1",
        "[1.31.5-gke.1]",
    )
}

/// Saturdays 00:00–12:00: any 32 days hold at least four Saturdays (32 = 4 weeks + 4 days), so at least
/// 4 × 12h = 48h: allowed. Fifteen seconds shorter, 4 × 11h59m45s = 47h59m: refused with GKE's text.
/// The first 32 days with only four Saturdays start Sunday Nov 29 (Nov 28 – Dec 29 holds five).
#[wasm_bindgen_test(unsupported = test)]
fn forty_eight_hours_in_32_days_is_allowed_and_a_minute_less_is_not() {
    let exact = window(
        "2026-11-28T00:00:00Z",
        "2026-11-28T12:00:00Z",
        "FREQ=WEEKLY;BYDAY=SA",
    );
    assert!(
        errors(&plan(&exact)).is_empty(),
        "{:#?}",
        errors(&plan(&exact))
    );
    let short = window(
        "2026-11-28T00:00:00Z",
        "2026-11-28T11:59:45Z",
        "FREQ=WEEKLY;BYDAY=SA",
    );
    let p = plan(&short);
    assert_eq!(p.outcome, Outcome::Invalid);
    assert_eq!(
        errors(&p),
        ["maintenance-window-too-short clusters[0].maintenance.window: Maintenance policy would go longer than 32d without 48h maintenance availability. (window Sat 00:00–11:59 UTC gives 1d23h59m of availability in the 32 days from 2026-11-29; GKE counts only spans of at least 4h)"]
    );
}

/// Only spans of at least 4 hours count: a daily 4-hour window gives 32 × 4h = 128h; a daily window of
/// 3h59m gives nothing that counts.
#[wasm_bindgen_test(unsupported = test)]
fn only_spans_of_four_hours_count() {
    assert!(errors(&plan(&window("00:00", "04:00", "FREQ=DAILY"))).is_empty());
    assert_eq!(
        errors(&plan(&window("00:00", "03:59", "FREQ=DAILY"))),
        ["maintenance-window-too-short clusters[0].maintenance.window: Maintenance policy would go longer than 32d without 48h maintenance availability. (window daily 00:00–03:59 UTC gives 0s of availability in the 32 days from 2026-11-23; GKE counts only spans of at least 4h)"]
    );
}

// ---------------------------------------------------------------------------------------------------
// Windows: an upgrade starts only inside one; node batches that start before it closes run past it.

/// gke.md §4: "An upgrade starts only inside a window; work that runs past the window pauses and
/// resumes in the next one." Daily 18:00 is the block 18:00–22:00. Released 21:59 (+21h59m): the
/// control plane starts at once and runs to completion, past 22:00 (+22h29m). Released 22:00: the next
/// opening, Tuesday 18:00 (+1d18h).
#[wasm_bindgen_test(unsupported = test)]
fn an_upgrade_starts_at_the_last_minute_of_a_window_and_not_at_its_close() {
    let daily = ", maintenance: {window: {daily: \"18:00\"}}";
    let release =
        |t: &str| format!("[{{version: 1.31.5-gke.1, upgradeType: controlPlane, at: {t}}}]");
    let p = plan(&one_cluster(
        daily,
        "1.31.4-gke.1",
        &release("2026-11-23T21:59:00Z"),
    ));
    assert_eq!(
        bars(&p, "c"),
        ["control-plane 1.31.5-gke.1 +21h59m–+22h29m"]
    );
    let p = plan(&one_cluster(
        daily,
        "1.31.4-gke.1",
        &release("2026-11-23T22:00:00Z"),
    ));
    assert_eq!(
        bars(&p, "c"),
        ["control-plane 1.31.5-gke.1 +1d18h00m–+1d18h30m"]
    );
}

/// Node batches (3 nodes, one at a time, 10m each) follow the control plane. Released 21:19: control
/// plane 21:19–21:49, batches start 21:49 and 21:59 (before the close; it ends 22:09), the third waits
/// for Tuesday 18:00–18:10. Released 21:20: control plane 21:20–21:50, one batch 21:50–22:00, and the
/// second would start at 22:00, the close: two batches Tuesday 18:00–18:20.
#[wasm_bindgen_test(unsupported = test)]
fn a_node_batch_starting_before_the_close_runs_past_it_and_none_starts_at_it() {
    let daily = ", maintenance: {window: {daily: \"18:00\"}}";
    let release = |t: &str| format!("[{{version: 1.31.5-gke.1, at: {t}}}]");
    let p = plan(&one_cluster(
        daily,
        "1.31.4-gke.1",
        &release("2026-11-23T21:19:00Z"),
    ));
    assert_eq!(
        bars(&p, "c"),
        [
            "control-plane 1.31.5-gke.1 +21h19m–+21h49m",
            "node 1.31.5-gke.1 +21h49m–+22h09m",
            "node 1.31.5-gke.1 +1d18h00m–+1d18h10m",
        ]
    );
    let p = plan(&one_cluster(
        daily,
        "1.31.4-gke.1",
        &release("2026-11-23T21:20:00Z"),
    ));
    assert_eq!(
        bars(&p, "c"),
        [
            "control-plane 1.31.5-gke.1 +21h20m–+21h50m",
            "node 1.31.5-gke.1 +21h50m–+22h00m",
            "node 1.31.5-gke.1 +1d18h00m–+1d18h20m",
        ]
    );
}

/// An exclusion holds from its start (inclusive) to its end (exclusive). NO_UPGRADES 10:00–12:00:
/// released 09:59, the control plane starts at once (and runs to completion inside the exclusion);
/// released 10:00, it waits until 12:00; released 12:00, it starts at once.
#[wasm_bindgen_test(unsupported = test)]
fn an_exclusion_holds_from_its_start_until_its_end() {
    let freeze = ", maintenance: {exclusions: [{name: f, start: \"2026-11-23T10:00:00Z\", end: \"2026-11-23T12:00:00Z\", scope: NO_UPGRADES}]}";
    let release =
        |t: &str| format!("[{{version: 1.31.5-gke.1, upgradeType: controlPlane, at: {t}}}]");
    let cases = [
        (
            "2026-11-23T09:59:00Z",
            "control-plane 1.31.5-gke.1 +9h59m–+10h29m",
        ),
        (
            "2026-11-23T10:00:00Z",
            "control-plane 1.31.5-gke.1 +12h00m–+12h30m",
        ),
        (
            "2026-11-23T12:00:00Z",
            "control-plane 1.31.5-gke.1 +12h00m–+12h30m",
        ),
    ];
    for (t, want) in cases {
        let p = plan(&one_cluster(freeze, "1.31.4-gke.1", &release(t)));
        assert_eq!(bars(&p, "c"), [want], "released {t}");
    }
}

/// Exclusion scopes (gke.md §4): NO_MINOR_UPGRADES holds a minor upgrade but not a patch;
/// NO_MINOR_OR_NODE_UPGRADES holds nodes even for a patch but not a control-plane patch. A one-day
/// exclusion from +0m: what it holds starts at +1d.
#[wasm_bindgen_test(unsupported = test)]
fn exclusion_scopes_hold_exactly_what_they_name() {
    let scoped = |scope: &str| {
        format!(", maintenance: {{exclusions: [{{name: f, start: \"2026-11-23T00:00:00Z\", end: \"2026-11-24T00:00:00Z\", scope: {scope}}}]}}")
    };
    let p = plan(&one_cluster(
        &scoped("NO_MINOR_UPGRADES"),
        "1.31.4-gke.1",
        "[1.31.5-gke.1]",
    ));
    assert_eq!(
        bars(&p, "c"),
        [
            "control-plane 1.31.5-gke.1 +0m–+30m",
            "node 1.31.5-gke.1 +30m–+1h00m"
        ]
    );
    let p = plan(&one_cluster(
        &scoped("NO_MINOR_UPGRADES"),
        "1.31.4-gke.1",
        "[1.32.1-gke.1]",
    ));
    assert_eq!(
        bars(&p, "c"),
        [
            "control-plane 1.32.1-gke.1 +1d00h00m–+1d00h30m",
            "node 1.32.1-gke.1 +1d00h30m–+1d01h00m"
        ]
    );
    let p = plan(&one_cluster(
        &scoped("NO_MINOR_OR_NODE_UPGRADES"),
        "1.31.4-gke.1",
        "[1.31.5-gke.1]",
    ));
    assert_eq!(
        bars(&p, "c"),
        [
            "control-plane 1.31.5-gke.1 +0m–+30m",
            "node 1.31.5-gke.1 +1d00h00m–+1d00h30m"
        ]
    );
}

// ---------------------------------------------------------------------------------------------------
// The 30-day forced soak.

/// gke.md §3: "A group's soak starts when all its control-plane upgrades are done, or 30 days after they
/// began (FORCED_SOAKING)." dev-1 upgrades at once (+0m–+30m); dev-2's minor upgrade is held by a
/// NO_MINOR_UPGRADES exclusion. Ending at +29d23h30m, dev-2 finishes at exactly +30d: the stage soaks
/// normally then (done by the 30-day mark). Ending a minute later, dev-2 finishes at +30d00h01m: at
/// +30d the stage is forced to soak, and dev-2 carries on.
#[wasm_bindgen_test(unsupported = test)]
fn the_stage_is_forced_to_soak_30_days_after_it_began_and_not_before() {
    let yaml = |end: &str| {
        format!(
            "{START}clusters:
  - {{name: dev-1, fleet: dev, version: {{controlPlane: 1.31.4-gke.1}}}}
  - name: dev-2
    fleet: dev
    version: {{controlPlane: 1.31.4-gke.1}}
    maintenance: {{exclusions: [{{name: f, start: \"2026-11-23T00:00:00Z\", end: \"{end}\", scope: NO_MINOR_UPGRADES}}]}}
strategy:
  kind: gke-rollout-sequence
  name: seq
  stages: [{{fleetProjects: [projects/dev], soakDuration: 1d}}]
  versions: [{{version: 1.32.1-gke.1, upgradeType: controlPlane}}]
"
        )
    };
    let p = plan(&yaml("2026-12-22T23:30:00Z"));
    assert_eq!(
        states(&p),
        ["1 dev controlPlane 1.32.1-gke.1: RUNNING +0m, SOAKING +30d00h00m, COMPLETED +31d00h00m"]
    );
    let p = plan(&yaml("2026-12-22T23:31:00Z"));
    assert_eq!(
        states(&p),
        ["1 dev controlPlane 1.32.1-gke.1: RUNNING +0m, FORCED_SOAKING +30d00h00m, COMPLETED +31d00h00m"]
    );
    assert_eq!(
        bars(&p, "dev-2"),
        ["control-plane 1.32.1-gke.1 +29d23h31m–+30d00h01m"]
    );
}

// ---------------------------------------------------------------------------------------------------
// Limits, each on both sides.

fn problems(yaml: &str) -> Vec<String> {
    let (loaded, plans) = load_and_plan(yaml);
    loaded
        .diagnostics
        .iter()
        .chain(plans.iter().flat_map(|p| &p.diagnostics))
        .filter(|d| d.is_error())
        .map(|d| {
            format!(
                "{} {}: {}",
                d.code,
                d.path.as_deref().unwrap_or("-"),
                d.message
            )
        })
        .collect()
}

/// Soaks are at most 30 days (gke.md §1–2): 30d passes, 30 days and a second is refused.
#[wasm_bindgen_test(unsupported = test)]
fn a_soak_of_30_days_is_allowed_and_a_second_more_is_not() {
    let soak = |d: &str| {
        format!(
            "{START}clusters: [{{name: c, fleet: dev, version: {{controlPlane: 1.31.4-gke.1}}}}]
strategy:
  kind: gke-rollout-sequence
  name: seq
  stages: [{{fleetProjects: [projects/dev], soakDuration: {d}}}]
"
        )
    };
    assert!(problems(&soak("30d")).is_empty());
    assert!(problems(&soak("2592000s")).is_empty());
    assert_eq!(
        problems(&soak("2592001s")),
        ["soak-too-long strategy.stages[0].soakDuration: soak duration `2592001s` (30d1s) is longer than the maximum of 30 days"]
    );
    // However long, a soak fleetplan can hold is refused by the 30-day rule, with its length: up to
    // 10^10 s (10^13 ms, fleetplan's cap on a soak's number, far inside what a millisecond count
    // holds). 10^10 s = 115,740 days and 64,000 s = 115740d17h46m40s. One second more is refused
    // as a number too large to read.
    assert_eq!(
        problems(&soak("10000000000s")),
        ["soak-too-long strategy.stages[0].soakDuration: soak duration `10000000000s` (115740d17h46m40s) is longer than the maximum of 30 days"]
    );
    assert_eq!(
        problems(&soak("10000000001s")),
        ["bad-soak-duration strategy.stages[0].soakDuration: soak duration `10000000001s` is too large (write e.g. 259200s, 7d or 3d12h; units s, m, h, d)"]
    );
}

fn exclusions(list: &[(&str, &str, &str)]) -> String {
    let items: Vec<String> = list
        .iter()
        .enumerate()
        .map(|(i, (start, end, scope))| {
            format!("{{name: x{i}, start: \"{start}\", end: \"{end}\", scope: {scope}}}")
        })
        .collect();
    one_cluster(
        &format!(", maintenance: {{exclusions: [{}]}}", items.join(", ")),
        "1.31.4-gke.1",
        "[1.31.5-gke.1]",
    )
}

/// GKE: at most 20 exclusions per cluster, at most 3 of them NO_UPGRADES, and a NO_UPGRADES exclusion
/// lasts at most 30 days. Each limit passes at the limit and fails one past it.
#[wasm_bindgen_test(unsupported = test)]
fn exclusion_limits_on_both_sides() {
    let days: Vec<(String, String)> = (1..=21)
        .map(|d| {
            (
                format!("2027-01-{d:02}T00:00:00Z"),
                format!("2027-01-{d:02}T12:00:00Z"),
            )
        })
        .collect();
    let minor = |n: usize, no_upgrades: usize| {
        let list: Vec<(&str, &str, &str)> = days[..n]
            .iter()
            .enumerate()
            .map(|(i, (s, e))| {
                let scope = if i < no_upgrades {
                    "NO_UPGRADES"
                } else {
                    "NO_MINOR_UPGRADES"
                };
                (s.as_str(), e.as_str(), scope)
            })
            .collect();
        exclusions(&list)
    };
    assert!(problems(&minor(20, 3)).is_empty());
    assert_eq!(
        problems(&minor(21, 3)),
        ["too-many-exclusions clusters[0].maintenance.exclusions: cluster `c` has 21 maintenance exclusions; GKE allows at most 20"]
    );
    assert_eq!(
        problems(&minor(20, 4)),
        ["too-many-no-upgrades-exclusions clusters[0].maintenance.exclusions: cluster `c` has 4 NO_UPGRADES exclusions; GKE allows at most 3"]
    );
    assert!(problems(&exclusions(&[(
        "2027-01-01T00:00:00Z",
        "2027-01-31T00:00:00Z",
        "NO_UPGRADES"
    )]))
    .is_empty());
    assert_eq!(
        problems(&exclusions(&[(
            "2027-01-01T00:00:00Z",
            "2027-01-31T00:00:01Z",
            "NO_UPGRADES"
        )])),
        ["exclusion-too-long clusters[0].maintenance.exclusions[0].end: exclusion `x0` is NO_UPGRADES for 30d1s; GKE allows at most 30 days for that scope"]
    );
}

/// gke.md §2: a fleet-based chain has at most five groups, a scope-based one at most three.
#[wasm_bindgen_test(unsupported = test)]
fn group_limits_on_both_sides() {
    let chain = |n: usize, grouping: &str| {
        let groups: String = (0..n)
            .map(|i| {
                if i == 0 {
                    "    - {fleet: g0}\n".to_string()
                } else {
                    format!("    - {{fleet: g{i}, upstreamFleets: [g{}]}}\n", i - 1)
                }
            })
            .collect();
        let clusters: String = (0..n)
            .map(|i| {
                format!(
                    "  - {{name: c{i}, fleet: g{i}, version: {{controlPlane: 1.31.4-gke.1}}}}\n"
                )
            })
            .collect();
        format!(
            "{START}clusters:\n{clusters}strategy:\n  kind: gke-fleet-sequence\n  name: chain\n  grouping: {grouping}\n  groups:\n{groups}"
        )
    };
    assert!(problems(&chain(5, "fleet")).is_empty());
    assert_eq!(
        problems(&chain(6, "fleet")),
        ["too-many-groups strategy.groups: the sequence has 6 groups; a fleet-based sequence allows at most 5"]
    );
    assert!(problems(&chain(3, "scope")).is_empty());
    assert_eq!(
        problems(&chain(4, "scope")),
        ["too-many-groups strategy.groups: the sequence has 4 groups; a scope-based sequence allows at most 3"]
    );
}
