//! One data-driven test per rule of GKE rollout sequencing (../shared/reference/gke.md, issue 4): a
//! scenario in, the plan's compact rendering out (times relative to the start; cluster bars indented
//! under their cluster; `reach` lines say when every cluster of a fleet runs a version).
//!
//! Unless a scenario says otherwise: control plane 30m, 10m per surge batch, one pool of 3 nodes.

use fleetplan::plan::Plan;
use fleetplan_tests::{check, expect, load_and_plan};
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

/// `stage type version STATE +offset` for every state of every stage.
fn states(plan: &Plan) -> Vec<String> {
    let gke = plan.gke.as_ref().expect("a GKE plan");
    gke.stages
        .iter()
        .flat_map(|s| {
            s.upgrades.iter().flat_map(move |u| {
                u.states.iter().map(move |st| {
                    format!(
                        "{} {} {} {} {}",
                        s.stage,
                        u.upgrade_type,
                        u.version,
                        st.state,
                        fleetplan_tests::render::offset(plan.start, st.start)
                    )
                })
            })
        })
        .collect()
}

/// The community bank (examples/gke-bank.yaml), by hand. Monday 2026-11-23 09:00 = +0m.
/// testing (window 18:00–22:00): test-1 control plane 18:00–18:30 (+9h), nodes after it 18:30–19:00;
///   test-2 already runs 1.31.5 (ALREADY_UPGRADED). Soak 3d → qualified Thu 18:30 (cp) / 19:00 (nodes).
/// staging (20:00): Thu 20:00–20:30, nodes –21:00 (+3d11h–+3d12h); qualified Sun 20:30 / 21:00.
/// us-west1 (02:00): Mon 30th 02:00–02:30, 6 nodes by 2 = 3 batches –03:00 (+6d17h); soak 3d →
///   Thu Dec 3 02:30 / 03:00.
/// europe-west1 (19:00, soak 4d): prod-eu-1 Thu 19:00–20:00. prod-eu-2 waits for its window until
///   Thu 19:00, then payments-freeze (NO_UPGRADES) holds it until Sat 00:00, then the window until
///   Sat 19:00: 19:00–20:00 (+12d10h–+12d11h). Soak 4d → Wed Dec 9 19:30 / 20:00.
/// us-east1 (catch-all, 23:00, soak 0s): prod-east-1 Wed 23:00–Thu 00:00; prod-east-2 opens only on
///   Saturdays 00:00–12:00: waits from Wed 19:30 to Sat Dec 12 00:00, upgrades 00:00–01:00 (+18d16h).
/// So every production cluster runs 1.31.5-gke.1200000: control plane Sat Dec 12 00:30 (+18d15h30m),
/// nodes Sat Dec 12 01:00 (+18d16h00m).
/// Each stage is PAUSED from when the version reaches it until the first window among the clusters that
/// need it opens (every cluster held by its maintenance policy, gke.md §3), then RUNNING: testing
/// +0m–+9h, staging +3d09h30m–+3d11h, us-west1 +6d11h30m–+6d17h, europe-west1 +9d17h30m–+10d10h,
/// us-east1 +16d10h30m–+16d14h (prod-east-1's 23:00 window); cluster bars keep their whole wait.
#[wasm_bindgen_test(unsupported = test)]
fn the_bank_example_plans_as_calculated_by_hand() {
    check(
        include_str!("../../examples/gke-bank.yaml"),
        expect![[r#"
            plan community-bank run bank-sequence [Succeeded] start 2026-11-23T09:00:00Z end +18d16h00m
            stage 1 testing [Succeeded] +9h00m → +3d10h00m mc=2
              window-wait +0m → +9h00m control plane paused: every cluster held by its maintenance policy
              window-wait +0m → +9h00m nodes paused: every cluster held by its maintenance policy
              control-plane +9h00m → +9h30m control plane 1.31.5-gke.1200000 running
              node +9h00m → +10h00m nodes 1.31.5-gke.1200000 running
              soaking +9h30m → +3d09h30m control plane 1.31.5-gke.1200000 soaking 3d
              soaking +10h00m → +3d10h00m nodes 1.31.5-gke.1200000 soaking 3d
              cluster test-1 [Succeeded] +9h00m → +10h00m
                window-wait +0m → +9h00m window daily 18:00–22:00 UTC
                control-plane +9h00m → +9h30m control plane → 1.31.5-gke.1200000
                node +9h30m → +10h00m nodes → 1.31.5-gke.1200000
              cluster test-2 [NotStarted] - → - ALREADY_UPGRADED (control plane 1.31.5-gke.1200000, nodes 1.31.5-gke.1200000)
            stage 2 staging [Succeeded] +3d11h00m → +6d12h00m mc=2
              window-wait +3d09h30m → +3d11h00m control plane paused: every cluster held by its maintenance policy
              window-wait +3d10h00m → +3d11h00m nodes paused: every cluster held by its maintenance policy
              control-plane +3d11h00m → +3d11h30m control plane 1.31.5-gke.1200000 running
              node +3d11h00m → +3d12h00m nodes 1.31.5-gke.1200000 running
              soaking +3d11h30m → +6d11h30m control plane 1.31.5-gke.1200000 soaking 3d
              soaking +3d12h00m → +6d12h00m nodes 1.31.5-gke.1200000 soaking 3d
              cluster stage-1 [Succeeded] +3d11h00m → +3d12h00m
                window-wait +3d09h30m → +3d11h00m window daily 20:00–00:00 UTC
                control-plane +3d11h00m → +3d11h30m control plane → 1.31.5-gke.1200000
                node +3d11h30m → +3d12h00m nodes → 1.31.5-gke.1200000
              cluster stage-2 [Succeeded] +3d11h00m → +3d12h00m
                window-wait +3d09h30m → +3d11h00m window daily 20:00–00:00 UTC
                control-plane +3d11h00m → +3d11h30m control plane → 1.31.5-gke.1200000
                node +3d11h30m → +3d12h00m nodes → 1.31.5-gke.1200000
            stage 3 production prod-region=us-west1 [Succeeded] +6d17h00m → +9d18h00m mc=2
              window-wait +6d11h30m → +6d17h00m control plane paused: every cluster held by its maintenance policy
              window-wait +6d12h00m → +6d17h00m nodes paused: every cluster held by its maintenance policy
              control-plane +6d17h00m → +6d17h30m control plane 1.31.5-gke.1200000 running
              node +6d17h00m → +6d18h00m nodes 1.31.5-gke.1200000 running
              soaking +6d17h30m → +9d17h30m control plane 1.31.5-gke.1200000 soaking 3d
              soaking +6d18h00m → +9d18h00m nodes 1.31.5-gke.1200000 soaking 3d
              cluster prod-west-1 [Succeeded] +6d17h00m → +6d18h00m
                window-wait +6d11h30m → +6d17h00m window daily 02:00–06:00 UTC
                control-plane +6d17h00m → +6d17h30m control plane → 1.31.5-gke.1200000
                node +6d17h30m → +6d18h00m nodes → 1.31.5-gke.1200000
              cluster prod-west-2 [Succeeded] +6d17h00m → +6d18h00m
                window-wait +6d11h30m → +6d17h00m window daily 02:00–06:00 UTC
                control-plane +6d17h00m → +6d17h30m control plane → 1.31.5-gke.1200000
                node +6d17h30m → +6d18h00m nodes → 1.31.5-gke.1200000
            stage 4 production prod-region=europe-west1 [Succeeded] +10d10h00m → +16d11h00m mc=2
              window-wait +9d17h30m → +10d10h00m control plane paused: every cluster held by its maintenance policy
              window-wait +9d18h00m → +10d10h00m nodes paused: every cluster held by its maintenance policy
              control-plane +10d10h00m → +12d10h30m control plane 1.31.5-gke.1200000 running
              node +10d10h00m → +12d11h00m nodes 1.31.5-gke.1200000 running
              soaking +12d10h30m → +16d10h30m control plane 1.31.5-gke.1200000 soaking 4d
              soaking +12d11h00m → +16d11h00m nodes 1.31.5-gke.1200000 soaking 4d
              cluster prod-eu-1 [Succeeded] +10d10h00m → +10d11h00m
                window-wait +9d17h30m → +10d10h00m window daily 19:00–23:00 UTC
                control-plane +10d10h00m → +10d10h30m control plane → 1.31.5-gke.1200000
                node +10d10h30m → +10d11h00m nodes → 1.31.5-gke.1200000
              cluster prod-eu-2 [Succeeded] +12d10h00m → +12d11h00m
                window-wait +9d17h30m → +10d10h00m window daily 19:00–23:00 UTC
                exclusion-wait +10d10h00m → +11d15h00m exclusion payments-freeze (NO_UPGRADES)
                window-wait +11d15h00m → +12d10h00m window daily 19:00–23:00 UTC
                control-plane +12d10h00m → +12d10h30m control plane → 1.31.5-gke.1200000
                node +12d10h30m → +12d11h00m nodes → 1.31.5-gke.1200000
            stage 5 production [Succeeded] +16d14h00m → +18d16h00m mc=2
              window-wait +16d10h30m → +16d14h00m control plane paused: every cluster held by its maintenance policy
              window-wait +16d11h00m → +16d14h00m nodes paused: every cluster held by its maintenance policy
              control-plane +16d14h00m → +18d15h30m control plane 1.31.5-gke.1200000 running
              node +16d14h00m → +18d16h00m nodes 1.31.5-gke.1200000 running
              cluster prod-east-1 [Succeeded] +16d14h00m → +16d15h00m
                window-wait +16d10h30m → +16d14h00m window daily 23:00–03:00 UTC
                control-plane +16d14h00m → +16d14h30m control plane → 1.31.5-gke.1200000
                node +16d14h30m → +16d15h00m nodes → 1.31.5-gke.1200000
              cluster prod-east-2 [Succeeded] +18d15h00m → +18d16h00m
                window-wait +16d10h30m → +18d15h00m window Sat 00:00–12:00 UTC
                control-plane +18d15h00m → +18d15h30m control plane → 1.31.5-gke.1200000
                node +18d15h30m → +18d16h00m nodes → 1.31.5-gke.1200000
            reach controlPlane 1.31.5-gke.1200000 fleet testing (2 clusters) +9h30m
            reach controlPlane 1.31.5-gke.1200000 fleet staging (2 clusters) +3d11h30m
            reach controlPlane 1.31.5-gke.1200000 fleet production (6 clusters) +18d15h30m
            reach node 1.31.5-gke.1200000 fleet testing (2 clusters) +10h00m
            reach node 1.31.5-gke.1200000 fleet staging (2 clusters) +3d12h00m
            reach node 1.31.5-gke.1200000 fleet production (6 clusters) +18d16h00m
        "#]],
    );
}

/// examples/gke-pipelining.yaml, by hand: 1.31.5 at +0m, 1.31.6 at Wed 09:00 (+2d).
#[wasm_bindgen_test(unsupported = test)]
fn a_second_version_released_mid_rollout_pipelines_behind_the_first() {
    let plan = plan_of(include_str!("../../examples/gke-pipelining.yaml"));
    let control_plane: Vec<String> = states(&plan)
        .into_iter()
        .filter(|s| s.contains("controlPlane"))
        .collect();
    expect![[r#"
        [
            "1 testing controlPlane 1.31.5-gke.1200000 PAUSED +0m",
            "1 testing controlPlane 1.31.5-gke.1200000 RUNNING +9h00m",
            "1 testing controlPlane 1.31.5-gke.1200000 SOAKING +9h30m",
            "1 testing controlPlane 1.31.5-gke.1200000 COMPLETED +3d09h30m",
            "1 testing controlPlane 1.31.6-gke.1100000 PENDING +2d00h00m",
            "1 testing controlPlane 1.31.6-gke.1100000 RUNNING +3d09h30m",
            "1 testing controlPlane 1.31.6-gke.1100000 SOAKING +3d10h00m",
            "1 testing controlPlane 1.31.6-gke.1100000 COMPLETED +6d10h00m",
            "2 staging controlPlane 1.31.5-gke.1200000 PAUSED +3d09h30m",
            "2 staging controlPlane 1.31.5-gke.1200000 RUNNING +3d11h00m",
            "2 staging controlPlane 1.31.5-gke.1200000 SOAKING +3d11h30m",
            "2 staging controlPlane 1.31.5-gke.1200000 COMPLETED +6d11h30m",
            "2 staging controlPlane 1.31.6-gke.1100000 PENDING +6d10h00m",
            "2 staging controlPlane 1.31.6-gke.1100000 RUNNING +6d11h30m",
            "2 staging controlPlane 1.31.6-gke.1100000 SOAKING +6d12h00m",
            "2 staging controlPlane 1.31.6-gke.1100000 COMPLETED +9d12h00m",
            "3 production controlPlane 1.31.5-gke.1200000 PAUSED +6d11h30m",
            "3 production controlPlane 1.31.5-gke.1200000 RUNNING +6d17h00m",
            "3 production controlPlane 1.31.5-gke.1200000 SOAKING +6d17h30m",
            "3 production controlPlane 1.31.5-gke.1200000 COMPLETED +7d17h30m",
            "3 production controlPlane 1.31.6-gke.1100000 PAUSED +9d12h00m",
            "3 production controlPlane 1.31.6-gke.1100000 RUNNING +9d17h00m",
            "3 production controlPlane 1.31.6-gke.1100000 SOAKING +9d17h30m",
            "3 production controlPlane 1.31.6-gke.1100000 COMPLETED +10d17h30m",
        ]
    "#]]
    .assert_debug_eq(&control_plane);
    // testing starts 1.31.6 (+3d09h30m) while staging runs 1.31.5 (+3d09h30m → +3d11h30m);
    // staging, SOAKING 1.31.5 when testing qualifies 1.31.6 (+6d10h), starts it only at +6d11h30m,
    // the moment production starts 1.31.5.
    let busy = plan
        .events
        .iter()
        .find(|e| e.reason == "STAGE_BUSY" && e.stage == Some("2 staging"))
        .expect("staging says why it waits");
    expect!["control plane 1.31.6-gke.1100000 is available, but the stage is SOAKING control plane 1.31.5-gke.1200000: it starts a newer version only once that completes"].assert_eq(&busy.message.to_string());
}

/// A cluster line: `name fleet cp node window`, as YAML; `-` = no window.
fn cluster(name: &str, fleet: &str, version: &str, extra: &str) -> String {
    format!(
        "  - {{name: {name}, fleet: projects/{fleet}, version: {{controlPlane: {version}, node: {version}}}, releaseChannel: REGULAR{extra}}}\n"
    )
}

fn scenario(clusters: &[String], strategy: &str) -> String {
    format!(
        "start: 2026-11-23T09:00:00Z\nclusters:\n{}strategy:\n{strategy}",
        clusters.concat()
    )
}

const TWO_STAGES: &str = "  kind: gke-rollout-sequence
  name: seq
  stages:
    - {fleetProjects: [projects/dev], soakDuration: 1d}
    - {fleetProjects: [projects/prod], soakDuration: 1d}
";

/// Control plane and nodes are two rollouts with their own soak; a cluster's nodes start only once
/// its control plane runs the version (never past it), and the node soak starts when nodes are done.
#[wasm_bindgen_test(unsupported = test)]
fn control_plane_and_nodes_run_in_parallel_streams_and_nodes_never_pass_the_control_plane() {
    let yaml = scenario(
        &[
            cluster(
                "dev-1",
                "dev",
                "1.31.4-gke.1000",
                ", upgradeDurations: {controlPlane: 1h, perNode: 20m}",
            ),
            cluster("prod-1", "prod", "1.31.4-gke.1000", ""),
        ],
        &format!("{TWO_STAGES}  versions: [1.31.5-gke.1200000]\n"),
    );
    // dev-1: control plane +0m–+1h; 3 nodes × 20m after it, +1h–+2h. Control plane soaks from +1h,
    // nodes from +2h; prod gets each one day later: control plane +1d01h, nodes +1d02h.
    check(
        &yaml,
        expect![[r#"
        plan - run seq [Succeeded] start 2026-11-23T09:00:00Z end +2d02h30m
        stage 1 dev [Succeeded] +0m → +1d02h00m mc=1
          control-plane +0m → +1h00m control plane 1.31.5-gke.1200000 running
          node +0m → +2h00m nodes 1.31.5-gke.1200000 running
          soaking +1h00m → +1d01h00m control plane 1.31.5-gke.1200000 soaking 1d
          soaking +2h00m → +1d02h00m nodes 1.31.5-gke.1200000 soaking 1d
          cluster dev-1 [Succeeded] +0m → +2h00m
            control-plane +0m → +1h00m control plane → 1.31.5-gke.1200000
            node +1h00m → +2h00m nodes → 1.31.5-gke.1200000
        stage 2 prod [Succeeded] +1d01h00m → +2d02h30m mc=1
          control-plane +1d01h00m → +1d01h30m control plane 1.31.5-gke.1200000 running
          soaking +1d01h30m → +2d01h30m control plane 1.31.5-gke.1200000 soaking 1d
          node +1d02h00m → +1d02h30m nodes 1.31.5-gke.1200000 running
          soaking +1d02h30m → +2d02h30m nodes 1.31.5-gke.1200000 soaking 1d
          cluster prod-1 [Succeeded] +1d01h00m → +1d02h30m
            control-plane +1d01h00m → +1d01h30m control plane → 1.31.5-gke.1200000
            node +1d02h00m → +1d02h30m nodes → 1.31.5-gke.1200000
        reach controlPlane 1.31.5-gke.1200000 fleet dev (1 clusters) +1h00m
        reach controlPlane 1.31.5-gke.1200000 fleet prod (1 clusters) +1d01h30m
        reach node 1.31.5-gke.1200000 fleet dev (1 clusters) +2h00m
        reach node 1.31.5-gke.1200000 fleet prod (1 clusters) +1d02h30m
    "#]],
    );
}

/// A cluster starts an upgrade only inside its window; node batches that do not fit pause at the
/// window's end and resume in the next opening (12 nodes × 30m = 6h in a 4-hour window).
#[wasm_bindgen_test(unsupported = test)]
fn work_past_the_window_pauses_and_resumes_in_the_next_one() {
    let yaml = scenario(
        &[cluster(
            "dev-1",
            "dev",
            "1.31.4-gke.1000",
            ", maintenance: {window: {daily: \"22:00\"}}, nodePools: [{name: pool, nodes: 12}], upgradeDurations: {perNode: 30m}",
        )],
        "  kind: gke-rollout-sequence
  name: seq
  stages: [{fleetProjects: [projects/dev], soakDuration: 0s}]
  versions: [1.31.5-gke.1200000]
",
    );
    // Control plane 22:00–22:30 (+13h–+13h30m); node batches from 22:30: seven start before 02:00
    // (the last at 01:30, ending 02:00), the other five resume at 22:00 the next day: –00:30.
    check(
        &yaml,
        expect![[r#"
            plan - run seq [Succeeded] start 2026-11-23T09:00:00Z end +1d15h30m
            stage 1 dev [Succeeded] +13h00m → +1d15h30m mc=1
              window-wait +0m → +13h00m control plane paused: every cluster held by its maintenance policy
              window-wait +0m → +13h00m nodes paused: every cluster held by its maintenance policy
              control-plane +13h00m → +13h30m control plane 1.31.5-gke.1200000 running
              node +13h00m → +1d15h30m nodes 1.31.5-gke.1200000 running
              cluster dev-1 [Succeeded] +13h00m → +1d15h30m
                window-wait +0m → +13h00m window daily 22:00–02:00 UTC
                control-plane +13h00m → +13h30m control plane → 1.31.5-gke.1200000
                node +13h30m → +17h00m nodes → 1.31.5-gke.1200000
                window-wait +17h00m → +1d13h00m window daily 22:00–02:00 UTC
                node +1d13h00m → +1d15h30m nodes → 1.31.5-gke.1200000
            reach controlPlane 1.31.5-gke.1200000 fleet dev (1 clusters) +13h30m
            reach node 1.31.5-gke.1200000 fleet dev (1 clusters) +1d15h30m
        "#]],
    );
}

/// Exclusion scopes: NO_UPGRADES holds everything; NO_MINOR_UPGRADES lets patches through;
/// NO_MINOR_OR_NODE_UPGRADES lets only control-plane patches through.
#[wasm_bindgen_test(unsupported = test)]
fn exclusions_hold_only_the_upgrades_their_scope_names() {
    let freeze = |scope: &str| {
        format!(", maintenance: {{exclusions: [{{name: freeze, start: \"2026-11-23T00:00:00Z\", end: \"2026-11-25T00:00:00Z\", scope: {scope}}}]}}")
    };
    let yaml = scenario(
        &[
            cluster("all", "dev", "1.31.4-gke.1000", &freeze("NO_UPGRADES")),
            cluster(
                "minor",
                "dev",
                "1.31.4-gke.1000",
                &freeze("NO_MINOR_UPGRADES"),
            ),
            cluster(
                "node",
                "dev",
                "1.31.4-gke.1000",
                &freeze("NO_MINOR_OR_NODE_UPGRADES"),
            ),
        ],
        "  kind: gke-rollout-sequence
  name: seq
  stages: [{fleetProjects: [projects/dev], soakDuration: 0s}]
  versions: [1.31.5-gke.1200000]
",
    );
    // A patch (1.31.4 → 1.31.5): `all` waits until +1d15h for both; `minor` upgrades at once;
    // `node` upgrades its control plane at once, its nodes at +1d15h.
    check(
        &yaml,
        expect![[r#"
        plan - run seq [Succeeded] start 2026-11-23T09:00:00Z end +1d16h00m
        stage 1 dev [Succeeded] +0m → +1d16h00m mc=3
          control-plane +0m → +1d15h30m control plane 1.31.5-gke.1200000 running
          node +0m → +1d16h00m nodes 1.31.5-gke.1200000 running
          cluster all [Succeeded] +1d15h00m → +1d16h00m
            exclusion-wait +0m → +1d15h00m exclusion freeze (NO_UPGRADES)
            control-plane +1d15h00m → +1d15h30m control plane → 1.31.5-gke.1200000
            node +1d15h30m → +1d16h00m nodes → 1.31.5-gke.1200000
          cluster minor [Succeeded] +0m → +1h00m
            control-plane +0m → +30m control plane → 1.31.5-gke.1200000
            node +30m → +1h00m nodes → 1.31.5-gke.1200000
          cluster node [Succeeded] +0m → +1d15h30m
            control-plane +0m → +30m control plane → 1.31.5-gke.1200000
            exclusion-wait +30m → +1d15h00m exclusion freeze (NO_MINOR_OR_NODE_UPGRADES)
            node +1d15h00m → +1d15h30m nodes → 1.31.5-gke.1200000
        reach controlPlane 1.31.5-gke.1200000 fleet dev (3 clusters) +1d15h30m
        reach node 1.31.5-gke.1200000 fleet dev (3 clusters) +1d16h00m
    "#]],
    );
}

/// A stage soaks 30 days after its upgrades began even if a cluster is still held (FORCED_SOAKING);
/// the held cluster carries on and upgrades when its exclusion ends.
#[wasm_bindgen_test(unsupported = test)]
fn a_stage_still_upgrading_after_30_days_is_forced_to_soak() {
    let yaml = scenario(
        &[
            cluster("dev-1", "dev", "1.31.4-gke.1000", ""),
            cluster(
                "dev-2",
                "dev",
                "1.31.4-gke.1000",
                ", maintenance: {exclusions: [{name: year-end, start: \"2026-11-01T00:00:00Z\", end: \"2027-01-10T00:00:00Z\", scope: NO_MINOR_UPGRADES}]}",
            ),
            cluster("prod-1", "prod", "1.31.4-gke.1000", ""),
        ],
        &format!("{TWO_STAGES}  versions: [1.32.1-gke.1100000]\n"),
    );
    // 1.32 is a minor upgrade: dev-2 is held until 2027-01-10 (+47d15h). dev soaks from +30d
    // (forced) for 1d; prod upgrades at +31d; dev-2 upgrades at +47d15h.
    check(
        &yaml,
        expect![[r#"
        plan - run seq [Succeeded] start 2026-11-23T09:00:00Z end +47d16h00m
        stage 1 dev [Succeeded] +0m → +31d00h00m mc=2
          control-plane +0m → +30d00h00m control plane 1.32.1-gke.1100000 running
          node +0m → +30d00h00m nodes 1.32.1-gke.1100000 running
          forced-soaking +30d00h00m → +31d00h00m control plane 1.32.1-gke.1100000 forced soaking 1d
          forced-soaking +30d00h00m → +31d00h00m nodes 1.32.1-gke.1100000 forced soaking 1d
          cluster dev-1 [Succeeded] +0m → +1h00m
            control-plane +0m → +30m control plane → 1.32.1-gke.1100000
            node +30m → +1h00m nodes → 1.32.1-gke.1100000
          cluster dev-2 [Succeeded] +47d15h00m → +47d16h00m
            exclusion-wait +0m → +47d15h00m exclusion year-end (NO_MINOR_UPGRADES)
            control-plane +47d15h00m → +47d15h30m control plane → 1.32.1-gke.1100000
            node +47d15h30m → +47d16h00m nodes → 1.32.1-gke.1100000
        stage 2 prod [Succeeded] +31d00h00m → +32d01h00m mc=1
          control-plane +31d00h00m → +31d00h30m control plane 1.32.1-gke.1100000 running
          node +31d00h00m → +31d01h00m nodes 1.32.1-gke.1100000 running
          soaking +31d00h30m → +32d00h30m control plane 1.32.1-gke.1100000 soaking 1d
          soaking +31d01h00m → +32d01h00m nodes 1.32.1-gke.1100000 soaking 1d
          cluster prod-1 [Succeeded] +31d00h00m → +31d01h00m
            control-plane +31d00h00m → +31d00h30m control plane → 1.32.1-gke.1100000
            node +31d00h30m → +31d01h00m nodes → 1.32.1-gke.1100000
        reach controlPlane 1.32.1-gke.1100000 fleet dev (2 clusters) +47d15h30m
        reach controlPlane 1.32.1-gke.1100000 fleet prod (1 clusters) +31d00h30m
        reach node 1.32.1-gke.1100000 fleet dev (2 clusters) +47d16h00m
        reach node 1.32.1-gke.1100000 fleet prod (1 clusters) +31d01h00m
        info[FORCED_SOAKING]: stage 1 dev: control plane 1.32.1-gke.1100000 was still upgrading 30 days after it began; GKE soaks it anyway and the remaining clusters carry on
        info[FORCED_SOAKING]: stage 1 dev: nodes 1.32.1-gke.1100000 was still upgrading 30 days after it began; GKE soaks it anyway and the remaining clusters carry on
    "#]],
    );
}

/// Versions qualified one after the other reach the next group one after the other: prod (1.30) takes
/// 1.31.9 when dev qualifies it, then 1.32.1 one minor above its new control plane. (The one-minor cap
/// itself binds only when a free stage sees two minors at once: gke_boundaries.rs
/// `the_one_minor_cap_binds_when_a_busy_stage_sees_two_minors` and gke_fidelity.rs
/// `the_latest_version_a_paused_stage_takes_is_capped_at_one_minor`.)
#[wasm_bindgen_test(unsupported = test)]
fn the_next_group_takes_versions_qualified_one_after_the_other_in_turn() {
    let yaml = scenario(
        &[
            cluster("dev-1", "dev", "1.31.2-gke.100", ""),
            cluster("prod-1", "prod", "1.30.8-gke.100", ""),
        ],
        &format!(
            "{TWO_STAGES}  versions:\n    - {{version: 1.31.9-gke.100, upgradeType: controlPlane}}\n    - {{version: 1.32.1-gke.100, upgradeType: controlPlane, at: 2026-11-23T10:00:00Z}}\n"
        ),
    );
    // dev: 1.31.9 +0m–+30m, soak 1d → +1d00h30m; then 1.32.1 (newer, waiting since +1h):
    // +1d00h30m–+1d01h00m, soak → +2d01h00m. prod (1.30): 1.31.9 at +1d00h30m, then 1.32.1 at
    // +2d01h00m (one minor above its new control plane).
    check(
        &yaml,
        expect![[r#"
        plan - run seq [Succeeded] start 2026-11-23T09:00:00Z end +3d01h30m
        stage 1 dev [Succeeded] +0m → +2d01h00m mc=1
          control-plane +0m → +30m control plane 1.31.9-gke.100 running
          soaking +30m → +1d00h30m control plane 1.31.9-gke.100 soaking 1d
          control-plane +1d00h30m → +1d01h00m control plane 1.32.1-gke.100 running
          soaking +1d01h00m → +2d01h00m control plane 1.32.1-gke.100 soaking 1d
          cluster dev-1 [Succeeded] +0m → +1d01h00m
            control-plane +0m → +30m control plane → 1.31.9-gke.100
            control-plane +1d00h30m → +1d01h00m control plane → 1.32.1-gke.100
        stage 2 prod [Succeeded] +1d00h30m → +3d01h30m mc=1
          control-plane +1d00h30m → +1d01h00m control plane 1.31.9-gke.100 running
          soaking +1d01h00m → +2d01h00m control plane 1.31.9-gke.100 soaking 1d
          control-plane +2d01h00m → +2d01h30m control plane 1.32.1-gke.100 running
          soaking +2d01h30m → +3d01h30m control plane 1.32.1-gke.100 soaking 1d
          cluster prod-1 [Succeeded] +1d00h30m → +2d01h30m
            control-plane +1d00h30m → +1d01h00m control plane → 1.31.9-gke.100
            control-plane +2d01h00m → +2d01h30m control plane → 1.32.1-gke.100
        reach controlPlane 1.31.9-gke.100 fleet dev (1 clusters) +30m
        reach controlPlane 1.31.9-gke.100 fleet prod (1 clusters) +1d01h00m
        reach controlPlane 1.32.1-gke.100 fleet dev (1 clusters) +1d01h00m
        reach controlPlane 1.32.1-gke.100 fleet prod (1 clusters) +2d01h30m
    "#]],
    );
}

/// Skip reasons: ALREADY_UPGRADED (at or above the target), VERSION_TOO_OLD (more than one minor
/// behind), EXCLUDED_BY_FILTER (ignoredClustersSelector), INCOMPATIBLE_VERSION (nodes would pass a
/// control plane no release brings there). Skipped clusters never block the stage.
#[wasm_bindgen_test(unsupported = test)]
fn clusters_are_skipped_with_gke_reasons_and_do_not_block() {
    let yaml = scenario(
        &[
            cluster("current", "dev", "1.32.1-gke.100", ""),
            cluster("ahead", "dev", "1.32.4-gke.100", ""),
            cluster("old", "dev", "1.30.2-gke.100", ""),
            cluster(
                "sandbox",
                "dev",
                "1.31.2-gke.100",
                ", labels: {sandbox: \"true\"}",
            ),
            cluster("normal", "dev", "1.31.2-gke.100", ""),
        ],
        "  kind: gke-rollout-sequence
  name: seq
  ignoredClustersSelector: resource.labels.sandbox == 'true'
  stages: [{fleetProjects: [projects/dev], soakDuration: 0s}]
  versions:
    - {version: 1.32.1-gke.100, upgradeType: controlPlane}
    - {version: 1.32.1-gke.100, upgradeType: node, at: 2026-11-24T09:00:00Z}
",
    );
    check(
        &yaml,
        expect![[r#"
            plan - run seq [Succeeded] start 2026-11-23T09:00:00Z end +1d00h30m
            stage 1 dev [Succeeded] +0m → +1d00h30m mc=5
              control-plane +0m → +30m control plane 1.32.1-gke.100 running
              node +1d00h00m → +1d00h30m nodes 1.32.1-gke.100 running
              cluster ahead [NotStarted] - → - ALREADY_UPGRADED (control plane 1.32.1-gke.100, nodes 1.32.1-gke.100)
              cluster current [NotStarted] - → - ALREADY_UPGRADED (control plane 1.32.1-gke.100, nodes 1.32.1-gke.100)
              cluster normal [Succeeded] +0m → +1d00h30m
                control-plane +0m → +30m control plane → 1.32.1-gke.100
                node +1d00h00m → +1d00h30m nodes → 1.32.1-gke.100
              cluster old [NotStarted] - → - VERSION_TOO_OLD (control plane 1.32.1-gke.100); INCOMPATIBLE_VERSION (nodes 1.32.1-gke.100)
              cluster sandbox [NotStarted] - → - EXCLUDED_BY_FILTER
            reach controlPlane 1.32.1-gke.100 fleet dev (4 clusters) never
            reach node 1.32.1-gke.100 fleet dev (4 clusters) never
            warning[version-not-everywhere] strategy.versions: control plane 1.32.1-gke.100 never reaches 1 of 4 cluster(s) of fleet dev (old): they are skipped (see their reasons) or never finish an upgrade
            warning[version-not-everywhere] strategy.versions: nodes 1.32.1-gke.100 never reaches 1 of 4 cluster(s) of fleet dev (old): they are skipped (see their reasons) or never finish an upgrade
        "#]],
    );
}

/// An empty stage is skipped (EMPTY_STAGE_WARNING), but its soak still passes before the next stage.
#[wasm_bindgen_test(unsupported = test)]
fn an_empty_stage_is_skipped_but_its_soak_still_passes() {
    let yaml = scenario(
        &[
            cluster("dev-1", "dev", "1.31.4-gke.1000", ""),
            cluster("prod-1", "prod", "1.31.4-gke.1000", ""),
        ],
        "  kind: gke-rollout-sequence
  name: seq
  stages:
    - {fleetProjects: [projects/dev], soakDuration: 1d}
    - {fleetProjects: [projects/qa], soakDuration: 2d}
    - {fleetProjects: [projects/prod], soakDuration: 0s}
  versions: [{version: 1.31.5-gke.1200000, upgradeType: controlPlane}]
",
    );
    // dev +0m–+30m, soak → +1d00h30m; qa (empty) soaks 2d → +3d00h30m; prod +3d00h30m–+3d01h00m.
    check(
        &yaml,
        expect![[r#"
        plan - run seq [Succeeded] start 2026-11-23T09:00:00Z end +3d01h00m
        stage 1 dev [Succeeded] +0m → +1d00h30m mc=1
          control-plane +0m → +30m control plane 1.31.5-gke.1200000 running
          soaking +30m → +1d00h30m control plane 1.31.5-gke.1200000 soaking 1d
          cluster dev-1 [Succeeded] +0m → +30m
            control-plane +0m → +30m control plane → 1.31.5-gke.1200000
        stage 2 qa [Skipped] +1d00h30m → +3d00h30m mc=0
          soaking +1d00h30m → +3d00h30m control plane 1.31.5-gke.1200000 soaking 2d
        stage 3 prod [Succeeded] +3d00h30m → +3d01h00m mc=1
          control-plane +3d00h30m → +3d01h00m control plane 1.31.5-gke.1200000 running
          cluster prod-1 [Succeeded] +3d00h30m → +3d01h00m
            control-plane +3d00h30m → +3d01h00m control plane → 1.31.5-gke.1200000
        reach controlPlane 1.31.5-gke.1200000 fleet dev (1 clusters) +30m
        reach controlPlane 1.31.5-gke.1200000 fleet prod (1 clusters) +3d01h00m
        warning[EMPTY_STAGE_WARNING] strategy.stages[1]: stage 2 selects no cluster: GKE skips it, but its soak (2d) still passes before the next stage
    "#]],
    );
}

const FLEET_CHAIN: &str = "  kind: gke-fleet-sequence
  name: chain
  groups:
    - {fleet: projects/prod, upstreamFleets: [projects/dev], soaking: 2d}
    - {fleet: projects/dev}
";

/// Fleet-based: the chain follows upstreamFleets (written in any order); the default soak is 7 days;
/// an override for one version changes only that version's soak (0 = skip ahead).
#[wasm_bindgen_test(unsupported = test)]
fn fleet_chains_follow_upstream_links_with_default_soak_and_per_version_overrides() {
    let yaml = scenario(
        &[
            cluster("dev-1", "dev", "1.31.4-gke.1000", ""),
            cluster("prod-1", "prod", "1.31.4-gke.1000", ""),
        ],
        &format!(
            "{FLEET_CHAIN}    # overrides of dev's soak
  versions: [{{version: 1.31.5-gke.1200000, upgradeType: controlPlane}}, {{version: 1.31.5-gke.1200000, upgradeType: node}}]
"
        )
        .replace(
            "    - {fleet: projects/dev}\n",
            "    - {fleet: projects/dev, overrides: [{upgrade: k8s_node, version: 1.31.5-gke.1200000, soaking: 0s}]}\n",
        ),
    );
    // dev: control plane +0m–+30m soaks 7d (default) → prod at +7d00h30m; nodes +30m–+1h soak 0s
    // (override) → prod nodes at +1h, which wait for prod's control plane (+7d01h00m).
    check(
        &yaml,
        expect![[r#"
        plan - run chain [Succeeded] start 2026-11-23T09:00:00Z end +9d01h30m
        stage 1 dev [Succeeded] +0m → +7d00h30m mc=1
          control-plane +0m → +30m control plane 1.31.5-gke.1200000 running
          node +0m → +1h00m nodes 1.31.5-gke.1200000 running
          soaking +30m → +7d00h30m control plane 1.31.5-gke.1200000 soaking 7d
          cluster dev-1 [Succeeded] +0m → +1h00m
            control-plane +0m → +30m control plane → 1.31.5-gke.1200000
            node +30m → +1h00m nodes → 1.31.5-gke.1200000
        stage 2 prod [Succeeded] +1h00m → +9d01h30m mc=1
          node +1h00m → +7d01h30m nodes 1.31.5-gke.1200000 running
          control-plane +7d00h30m → +7d01h00m control plane 1.31.5-gke.1200000 running
          soaking +7d01h00m → +9d01h00m control plane 1.31.5-gke.1200000 soaking 2d
          soaking +7d01h30m → +9d01h30m nodes 1.31.5-gke.1200000 soaking 2d
          cluster prod-1 [Succeeded] +7d00h30m → +7d01h30m
            control-plane +7d00h30m → +7d01h00m control plane → 1.31.5-gke.1200000
            node +7d01h00m → +7d01h30m nodes → 1.31.5-gke.1200000
        reach controlPlane 1.31.5-gke.1200000 fleet dev (1 clusters) +30m
        reach controlPlane 1.31.5-gke.1200000 fleet prod (1 clusters) +7d01h00m
        reach node 1.31.5-gke.1200000 fleet dev (1 clusters) +1h00m
        reach node 1.31.5-gke.1200000 fleet prod (1 clusters) +7d01h30m
    "#]],
    );
}

/// Fleet-based: an empty first group cannot qualify a version, so the upgrade proceeds downstream.
#[wasm_bindgen_test(unsupported = test)]
fn an_empty_first_fleet_lets_the_upgrade_proceed_downstream() {
    let yaml = scenario(
        &[cluster("prod-1", "prod", "1.31.4-gke.1000", "")],
        &format!("{FLEET_CHAIN}  versions: [{{version: 1.31.5-gke.1200000, upgradeType: controlPlane}}]\n"),
    );
    check(
        &yaml,
        expect![[r#"
        plan - run chain [Succeeded] start 2026-11-23T09:00:00Z end +2d00h30m
        stage 1 dev [Skipped] +0m → +0m mc=0
        stage 2 prod [Succeeded] +0m → +2d00h30m mc=1
          control-plane +0m → +30m control plane 1.31.5-gke.1200000 running
          soaking +30m → +2d00h30m control plane 1.31.5-gke.1200000 soaking 2d
          cluster prod-1 [Succeeded] +0m → +30m
            control-plane +0m → +30m control plane → 1.31.5-gke.1200000
        reach controlPlane 1.31.5-gke.1200000 fleet prod (1 clusters) +30m
        warning[EMPTY_STAGE_WARNING] strategy.groups[1]: fleet dev has no cluster: it cannot qualify a version, so the upgrade proceeds to the next group without its soak
    "#]],
    );
}

/// Mixed release channels: GKE takes versions from the most conservative one, with a warning.
#[wasm_bindgen_test(unsupported = test)]
fn mixed_release_channels_warn_and_use_the_most_conservative() {
    let yaml = scenario(
        &[
            cluster("dev-1", "dev", "1.31.4-gke.1000", ""),
            cluster("prod-1", "prod", "1.31.4-gke.1000", "").replace("REGULAR", "STABLE"),
        ],
        &format!("{TWO_STAGES}  versions: [{{version: 1.31.5-gke.1200000, upgradeType: controlPlane}}]\n"),
    );
    let plan = plan_of(&yaml);
    assert_eq!(
        plan.gke
            .as_ref()
            .unwrap()
            .computed_release_channel
            .as_deref(),
        Some("STABLE")
    );
    let codes: Vec<String> = plan
        .diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    expect![[r#"
        [
            "MIXED_RELEASE_CHANNELS_WARNING: the sequence's clusters use several release channels (REGULAR, STABLE); GKE takes versions from the most conservative one, STABLE",
        ]
    "#]].assert_debug_eq(&codes);
}

/// A window that never opens (every 12 months from February, on the 30th) is refused by GKE's
/// availability rule, and the plan shows what it would mean: the stage never finishes.
#[wasm_bindgen_test(unsupported = test)]
fn a_window_that_never_opens_is_refused_and_blocks_the_sequence() {
    let yaml = scenario(
        &[cluster(
            "dev-1",
            "dev",
            "1.31.4-gke.1000",
            ", maintenance: {window: {start: \"2027-02-01T00:00:00Z\", end: \"2027-02-01T06:00:00Z\", recurrence: \"FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=30\"}}",
        )],
        "  kind: gke-rollout-sequence
  name: seq
  stages: [{fleetProjects: [projects/dev], soakDuration: 0s}]
  versions: [{version: 1.31.5-gke.1200000, upgradeType: controlPlane}]
",
    );
    check(
        &yaml,
        expect![[r#"
        plan - run seq [Invalid] start 2026-11-23T09:00:00Z end never
        stage 1 dev [Succeeded] +0m → +30d00h00m mc=1
          control-plane +0m → +30d00h00m control plane 1.31.5-gke.1200000 running
          cluster dev-1 [NotStarted] - → -
            window-wait +0m → never window every 12 months day 30 00:00–06:00 UTC
        reach controlPlane 1.31.5-gke.1200000 fleet dev (1 clusters) never
        error[maintenance-window-too-short] clusters[0].maintenance.window: Maintenance policy would go longer than 32d without 48h maintenance availability. (window every 12 months day 30 00:00–06:00 UTC gives 0s of availability in the 32 days from 2027-02-01; GKE counts only spans of at least 4h)
        warning[upgrade-never-finishes] clusters: 1 cluster(s) never finish an upgrade (dev-1): a maintenance window that does not open again within four years, or nodes waiting for a control plane that never gets there
        info[FORCED_SOAKING]: stage 1 dev: control plane 1.31.5-gke.1200000 was still upgrading 30 days after it began; GKE soaks it anyway and the remaining clusters carry on
        warning[version-not-everywhere] strategy.versions: control plane 1.31.5-gke.1200000 never reaches 1 of 1 cluster(s) of fleet dev (dev-1): they are skipped (see their reasons) or never finish an upgrade
        info[timeline-despite-errors]: GKE would refuse this sequence; the timeline shows what the stages would do as far as they could be computed
    "#]],
    );
}

/// `severity[code] path: message` of every error and warning of the plan (info left out).
fn problems(yaml: &str) -> Vec<String> {
    let (loaded, plans) = load_and_plan(yaml);
    loaded
        .diagnostics
        .iter()
        .chain(plans.iter().flat_map(|p| &p.diagnostics))
        .filter(|d| d.severity != fleetplan::Severity::Info)
        .map(|d| {
            format!(
                "{:?}[{}] {}: {}",
                d.severity,
                d.code,
                d.path.as_deref().unwrap_or("-"),
                d.message
            )
        })
        .collect()
}

fn two_clusters(strategy: &str) -> String {
    scenario(
        &[
            cluster("dev-1", "dev", "1.31.4-gke.1000", ""),
            cluster(
                "prod-1",
                "prod",
                "1.31.4-gke.1000",
                ", labels: {canary: \"true\"}",
            ),
            cluster("prod-2", "prod", "1.31.4-gke.1000", ""),
        ],
        strategy,
    )
}

/// Custom stages: a labelled stage needs a later catch-all stage of its fleet; one catch-all per
/// fleet; one fleet per stage.
#[wasm_bindgen_test(unsupported = test)]
fn stage_structure_rules() {
    let missing = two_clusters(
        "  kind: gke-rollout-sequence
  name: seq
  stages:
    - {fleetProjects: [projects/dev], soakDuration: 1d}
    - {fleetProjects: [projects/prod], labelSelector: \"resource.labels.canary == 'true'\", soakDuration: 1d}
",
    );
    expect![[r#"
        [
            "Error[missing-catch-all-stage] strategy.stages[1].labelSelector: stage 2 selects clusters of fleet prod by label, but no later stage takes the rest of that fleet: add a stage with fleetProjects [projects/prod] and no labelSelector after it",
        ]
    "#]].assert_debug_eq(&problems(&missing));
    let catch_all_before = two_clusters(
        "  kind: gke-rollout-sequence
  name: seq
  stages:
    - {fleetProjects: [projects/prod], soakDuration: 1d}
    - {fleetProjects: [projects/prod], labelSelector: \"resource.labels.canary == 'true'\", soakDuration: 1d}
    - {fleetProjects: [projects/dev], soakDuration: 1d}
",
    );
    expect![[r#"
        [
            "Error[missing-catch-all-stage] strategy.stages[1].labelSelector: stage 2 selects clusters of fleet prod by label, but no later stage takes the rest of that fleet: add a stage with fleetProjects [projects/prod] and no labelSelector after it",
            "Warning[EMPTY_STAGE_WARNING] strategy.stages[1]: stage 2 selects no cluster: GKE skips it, but its soak (1d) still passes before the next stage",
        ]
    "#]].assert_debug_eq(&problems(&catch_all_before));
    let two_catch_alls = two_clusters(
        "  kind: gke-rollout-sequence
  name: seq
  stages:
    - {fleetProjects: [projects/dev], soakDuration: 1d}
    - {fleetProjects: [projects/prod], soakDuration: 1d}
    - {fleetProjects: [projects/dev], soakDuration: 1d}
",
    );
    expect![[r#"
        [
            "Error[fleet-in-two-catch-all-stages] strategy.stages[2].fleetProjects: fleet dev is the catch-all of stage 1 and of stage 3: a fleet's remaining clusters can belong to only one stage",
            "Warning[EMPTY_STAGE_WARNING] strategy.stages[2]: stage 3 selects no cluster: GKE skips it, but its soak (1d) still passes before the next stage",
        ]
    "#]].assert_debug_eq(&problems(&two_catch_alls));
    let two_fleets = two_clusters(
        "  kind: gke-rollout-sequence
  name: seq
  stages:
    - {fleetProjects: [projects/dev, projects/prod], soakDuration: 1d}
",
    );
    expect![[r#"
        [
            "Error[stage-with-several-fleets] strategy.stages[0].fleetProjects: stage 1 lists 2 fleet projects (dev, prod); a stage may reference at most one fleet",
        ]
    "#]].assert_debug_eq(&problems(&two_fleets));
}

/// CEL oddity: reading a label a cluster lacks raises "no such key", so `!=` does not select an
/// unlabelled cluster (it falls through to the catch-all). Shown as a warning; `==` on a missing
/// label surprises nobody and stays quiet, and a `has()` guard silences it.
#[wasm_bindgen_test(unsupported = test)]
fn a_selector_reading_a_missing_label_warns_that_cel_does_not_select_the_cluster() {
    let stages = |selector: &str| {
        two_clusters(&format!(
            "  kind: gke-rollout-sequence
  name: seq
  stages:
    - {{fleetProjects: [projects/dev], soakDuration: 1d}}
    - {{fleetProjects: [projects/prod], labelSelector: \"{selector}\", soakDuration: 1d}}
    - {{fleetProjects: [projects/prod], soakDuration: 1d}}
"
        ))
    };
    expect![[r#"
        [
            "Warning[cel-missing-label] strategy.stages[1].labelSelector: stage 2 reads label `canary`, which 1 cluster(s) lack (prod-2): CEL raises \"no such key\", so GKE does not select them in this stage although the selector reads as if it would; guard it with has(resource.labels.canary) if they belong here",
        ]
    "#]].assert_debug_eq(&problems(&stages("resource.labels.canary != 'false'")));
    expect![[r#"
        []
    "#]]
    .assert_debug_eq(&problems(&stages("resource.labels.canary == 'true'")));
    expect![[r#"
        [
            "Warning[EMPTY_STAGE_WARNING] strategy.stages[2]: stage 3 selects no cluster: GKE skips it, but its soak (1d) still passes before the next stage",
        ]
    "#]].assert_debug_eq(&problems(&stages(
        "!has(resource.labels.canary) || resource.labels.canary != 'false'",
    )));
}

/// Soaks: `259200s`, `7d`, `3d12h` and a bare number of seconds are valid; at most 30 days; other
/// text is an error naming the accepted forms.
#[wasm_bindgen_test(unsupported = test)]
fn soak_durations_parse_and_are_capped_at_30_days() {
    let yaml = two_clusters(
        "  kind: gke-rollout-sequence
  name: seq
  stages:
    - {fleetProjects: [projects/dev], soakDuration: 259200s}
    - {fleetProjects: [projects/prod], labelSelector: \"resource.labels.canary == 'true'\", soakDuration: 3d12h}
    - {fleetProjects: [projects/prod], soakDuration: 7d}
",
    );
    let plan = plan_of(&yaml);
    let soaks: Vec<String> = plan
        .gke
        .as_ref()
        .unwrap()
        .stages
        .iter()
        .map(|s| s.soak.to_string())
        .collect();
    assert_eq!(soaks, ["3d", "3d12h", "7d"]);
    assert!(problems(&yaml).is_empty(), "{:?}", problems(&yaml));
    let bad = two_clusters(
        "  kind: gke-rollout-sequence
  name: seq
  stages:
    - {fleetProjects: [projects/dev], soakDuration: 31d}
    - {fleetProjects: [projects/prod], soakDuration: three days}
",
    );
    expect![[r#"
        [
            "Error[soak-too-long] strategy.stages[0].soakDuration: soak duration `31d` (31d) is longer than the maximum of 30 days",
            "Error[bad-soak-duration] strategy.stages[1].soakDuration: soak duration `three days` has no number (write e.g. 259200s, 7d or 3d12h; units s, m, h, d)",
        ]
    "#]].assert_debug_eq(&problems(&bad));
}

/// Fleet-based chains: no loops, no branches, one upstream, at most five fleets (three scopes), a
/// fleet once.
#[wasm_bindgen_test(unsupported = test)]
fn fleet_chain_rules() {
    let chain = |groups: &str| {
        two_clusters(&format!(
            "  kind: gke-fleet-sequence\n  name: chain\n  groups:\n{groups}"
        ))
    };
    let looped = chain(
        "    - {fleet: dev, upstreamFleets: [prod]}\n    - {fleet: prod, upstreamFleets: [dev]}\n",
    );
    expect![[r#"
        [
            "Error[fleet-chain-loop] strategy.groups[0].upstreamFleets: the upstream links of dev, prod form a loop: no fleet among them is first",
        ]
    "#]].assert_debug_eq(&problems(&looped));
    let branch = chain(
        "    - {fleet: dev}\n    - {fleet: prod, upstreamFleets: [dev]}\n    - {fleet: qa, upstreamFleets: [dev]}\n",
    );
    expect![[r#"
        [
            "Error[fleet-chain-branch] strategy.groups[2].upstreamFleets: fleet dev is upstream of 2 (prod, qa): a sequence is a linear chain, without branches",
            "Warning[EMPTY_STAGE_WARNING] strategy.groups[2]: fleet qa has no cluster: it qualifies nothing itself; versions pass through it to the next group without its soak",
        ]
    "#]].assert_debug_eq(&problems(&branch));
    let six: String = ["dev", "a", "b", "c", "d", "prod"]
        .windows(2)
        .map(|w| format!("    - {{fleet: {}, upstreamFleets: [{}]}}\n", w[1], w[0]))
        .collect();
    let six = chain(&format!("    - {{fleet: dev}}\n{six}"));
    expect![[r#"
        [
            "Error[too-many-groups] strategy.groups: the sequence has 6 groups; a fleet-based sequence allows at most 5",
            "Warning[EMPTY_STAGE_WARNING] strategy.groups[1]: fleet a has no cluster: it qualifies nothing itself; versions pass through it to the next group without its soak",
            "Warning[EMPTY_STAGE_WARNING] strategy.groups[2]: fleet b has no cluster: it qualifies nothing itself; versions pass through it to the next group without its soak",
            "Warning[EMPTY_STAGE_WARNING] strategy.groups[3]: fleet c has no cluster: it qualifies nothing itself; versions pass through it to the next group without its soak",
            "Warning[EMPTY_STAGE_WARNING] strategy.groups[4]: fleet d has no cluster: it qualifies nothing itself; versions pass through it to the next group without its soak",
        ]
    "#]].assert_debug_eq(&problems(&six));
    let scopes = chain(
        "    - {fleet: dev}\n    - {fleet: a, upstreamFleets: [dev]}\n    - {fleet: b, upstreamFleets: [a]}\n    - {fleet: prod, upstreamFleets: [b]}\n",
    )
    .replace("name: chain", "name: chain\n  grouping: scope");
    expect![[r#"
        [
            "Error[too-many-groups] strategy.groups: the sequence has 4 groups; a scope-based sequence allows at most 3",
            "Warning[EMPTY_STAGE_WARNING] strategy.groups[1]: scope a has no cluster: it qualifies nothing itself; versions pass through it to the next group without its soak",
            "Warning[EMPTY_STAGE_WARNING] strategy.groups[2]: scope b has no cluster: it qualifies nothing itself; versions pass through it to the next group without its soak",
        ]
    "#]].assert_debug_eq(&problems(&scopes));
    let twice = chain(
        "    - {fleet: dev}\n    - {fleet: prod, upstreamFleets: [dev]}\n    - {fleet: projects/dev, upstreamFleets: [prod], soaking: 40d}\n",
    );
    expect![[r#"
        [
            "Error[fleet-in-two-groups] strategy.groups[2].fleet: fleet dev appears in groups 1 and 3: a fleet belongs to one sequence, once",
            "Error[soak-too-long] strategy.groups[2].soaking: soak duration `40d` (40d) is longer than the maximum of 30 days",
            "Warning[EMPTY_STAGE_WARNING] strategy.groups[2]: fleet dev has no cluster: it qualifies nothing itself; versions pass through it to the next group without its soak",
        ]
    "#]].assert_debug_eq(&problems(&twice));
}

/// Maintenance policies: at least 48h of availability in any 32 days (in spans of 4h or more), a
/// supported RRULE, a known exclusion scope, at most 20 exclusions and 3 NO_UPGRADES.
#[wasm_bindgen_test(unsupported = test)]
fn maintenance_policy_rules() {
    let with = |maintenance: &str| {
        scenario(
            &[cluster(
                "dev-1",
                "dev",
                "1.31.4-gke.1000",
                &format!(", maintenance: {maintenance}"),
            )],
            "  kind: gke-rollout-sequence
  name: seq
  stages: [{fleetProjects: [projects/dev], soakDuration: 0s}]
  versions: [1.31.5-gke.1200000]
",
        )
    };
    let saturday_4h =
        with("{window: {start: \"02:00\", end: \"06:00\", recurrence: \"FREQ=WEEKLY;BYDAY=SA\"}}");
    expect![[r#"
        [
            "Error[maintenance-window-too-short] clusters[0].maintenance.window: Maintenance policy would go longer than 32d without 48h maintenance availability. (window Sat 02:00–06:00 UTC gives 16h of availability in the 32 days from 2026-11-23; GKE counts only spans of at least 4h)",
        ]
    "#]].assert_debug_eq(&problems(&saturday_4h));
    let saturday_12h =
        with("{window: {start: \"00:00\", end: \"12:00\", recurrence: \"FREQ=WEEKLY;BYDAY=SA\"}}");
    assert!(problems(&saturday_12h).is_empty());
    let bad_rule =
        with("{window: {start: \"00:00\", end: \"12:00\", recurrence: \"FREQ=HOURLY\"}}");
    expect![[r#"
        [
            "Error[bad-rrule] clusters[0].maintenance.window.recurrence: RRULE `FREQ=HOURLY`: FREQ=HOURLY is not supported for maintenance windows (use DAILY, WEEKLY or MONTHLY)",
        ]
    "#]].assert_debug_eq(&problems(&bad_rule));
    let bad_scope = with(
        "{exclusions: [{name: x, start: \"2026-12-01T00:00:00Z\", end: \"2026-12-02T00:00:00Z\", scope: NO_PATCHES}]}",
    );
    expect![[r#"
        [
            "Error[bad-exclusion-scope] clusters[0].maintenance.exclusions[0].scope: exclusion `x`: scope `NO_PATCHES` is not one of NO_UPGRADES, NO_MINOR_UPGRADES, NO_MINOR_OR_NODE_UPGRADES",
        ]
    "#]].assert_debug_eq(&problems(&bad_scope));
    let many: Vec<String> = (1..=21)
        .map(|i| {
            let scope = if i <= 4 { "NO_UPGRADES" } else { "NO_MINOR_UPGRADES" };
            format!("{{name: x{i}, start: \"2027-{i:02}-01T00:00:00Z\", end: \"2027-{i:02}-02T00:00:00Z\", scope: {scope}}}")
                .replace("2027-13", "2028-01")
                .replace("2027-14", "2028-02")
                .replace("2027-15", "2028-03")
                .replace("2027-16", "2028-04")
                .replace("2027-17", "2028-05")
                .replace("2027-18", "2028-06")
                .replace("2027-19", "2028-07")
                .replace("2027-20", "2028-08")
                .replace("2027-21", "2028-09")
        })
        .collect();
    let too_many = with(&format!("{{exclusions: [{}]}}", many.join(", ")));
    expect![[r#"
        [
            "Error[too-many-exclusions] clusters[0].maintenance.exclusions: cluster `dev-1` has 21 maintenance exclusions; GKE allows at most 20",
            "Error[too-many-no-upgrades-exclusions] clusters[0].maintenance.exclusions: cluster `dev-1` has 4 NO_UPGRADES exclusions; GKE allows at most 3",
        ]
    "#]].assert_debug_eq(&problems(&too_many));
}

/// A production cluster whose window opens only on Saturdays waits for Saturday (a MaintenanceWait
/// bar labelled with the window), and decides when the version reaches every production cluster.
#[wasm_bindgen_test(unsupported = test)]
fn a_cluster_whose_window_opens_only_on_saturdays_waits_for_saturday() {
    let yaml = scenario(
        &[
            cluster("prod-1", "prod", "1.31.4-gke.1000", ", maintenance: {window: {daily: \"02:00\"}}"),
            cluster(
                "prod-sat",
                "prod",
                "1.31.4-gke.1000",
                ", maintenance: {window: {start: \"00:00\", end: \"12:00\", recurrence: \"FREQ=WEEKLY;BYDAY=SA\"}}",
            ),
        ],
        "  kind: gke-rollout-sequence
  name: seq
  stages: [{fleetProjects: [projects/prod], soakDuration: 1d}]
  versions: [1.31.5-gke.1200000]
",
    );
    // Monday 09:00: prod-1 upgrades Tuesday 02:00–03:00 (+17h); prod-sat waits until Saturday 00:00
    // (+4d15h) and upgrades until 01:00, which is when every prod cluster has the version.
    check(
        &yaml,
        expect![[r#"
            plan - run seq [Succeeded] start 2026-11-23T09:00:00Z end +5d16h00m
            stage 1 prod [Succeeded] +17h00m → +5d16h00m mc=2
              window-wait +0m → +17h00m control plane paused: every cluster held by its maintenance policy
              window-wait +0m → +17h00m nodes paused: every cluster held by its maintenance policy
              control-plane +17h00m → +4d15h30m control plane 1.31.5-gke.1200000 running
              node +17h00m → +4d16h00m nodes 1.31.5-gke.1200000 running
              soaking +4d15h30m → +5d15h30m control plane 1.31.5-gke.1200000 soaking 1d
              soaking +4d16h00m → +5d16h00m nodes 1.31.5-gke.1200000 soaking 1d
              cluster prod-1 [Succeeded] +17h00m → +18h00m
                window-wait +0m → +17h00m window daily 02:00–06:00 UTC
                control-plane +17h00m → +17h30m control plane → 1.31.5-gke.1200000
                node +17h30m → +18h00m nodes → 1.31.5-gke.1200000
              cluster prod-sat [Succeeded] +4d15h00m → +4d16h00m
                window-wait +0m → +4d15h00m window Sat 00:00–12:00 UTC
                control-plane +4d15h00m → +4d15h30m control plane → 1.31.5-gke.1200000
                node +4d15h30m → +4d16h00m nodes → 1.31.5-gke.1200000
            reach controlPlane 1.31.5-gke.1200000 fleet prod (2 clusters) +4d15h30m
            reach node 1.31.5-gke.1200000 fleet prod (2 clusters) +4d16h00m
        "#]],
    );
}

/// The web form edits scenarios through the YAML writer: the GKE examples (windows, exclusions, node
/// pools, versions) come back identical and plan the same.
#[wasm_bindgen_test(unsupported = test)]
fn the_gke_examples_survive_the_round_trip_through_yaml_and_plan_the_same() {
    for text in [
        include_str!("../../examples/gke-bank.yaml"),
        include_str!("../../examples/gke-pipelining.yaml"),
    ] {
        let (first, plans) = load_and_plan(text);
        let yaml = fleetplan::yaml_out::scenario_to_yaml(&first.scenarios[0]);
        let (again, plans_again) = load_and_plan(&yaml);
        assert!(
            again.diagnostics.is_empty(),
            "{yaml}\n{:#?}",
            again.diagnostics
        );
        let mut second = again.scenarios[0].clone();
        second.origin = first.scenarios[0].origin.clone();
        assert_eq!(second, first.scenarios[0], "{yaml}");
        assert_eq!(plans_again[0].stages, plans[0].stages);
        assert_eq!(plans_again[0].gke, plans[0].gke);
    }
}
