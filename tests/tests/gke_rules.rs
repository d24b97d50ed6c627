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
#[wasm_bindgen_test(unsupported = test)]
fn the_bank_example_plans_as_calculated_by_hand() {
    check(
        include_str!("../../examples/gke-bank.yaml"),
        expect![[r#"
        plan community-bank run bank-sequence [Succeeded] start 2026-11-23T09:00:00Z end +18d16h00m
        stage 1 testing [Succeeded] +0m → +3d10h00m mc=2
          control-plane +0m → +9h30m control plane 1.31.5-gke.1200000 running
          node +0m → +10h00m nodes 1.31.5-gke.1200000 running
          soaking +9h30m → +3d09h30m control plane 1.31.5-gke.1200000 soaking 3d
          soaking +10h00m → +3d10h00m nodes 1.31.5-gke.1200000 soaking 3d
          cluster test-1 [Succeeded] +9h00m → +10h00m
            window-wait +0m → +9h00m window daily 18:00–22:00 UTC
            control-plane +9h00m → +9h30m control plane → 1.31.5-gke.1200000
            node +9h30m → +10h00m nodes → 1.31.5-gke.1200000
          cluster test-2 [NotStarted] - → - ALREADY_UPGRADED (control plane 1.31.5-gke.1200000, nodes 1.31.5-gke.1200000)
        stage 2 staging [Succeeded] +3d09h30m → +6d12h00m mc=2
          control-plane +3d09h30m → +3d11h30m control plane 1.31.5-gke.1200000 running
          node +3d10h00m → +3d12h00m nodes 1.31.5-gke.1200000 running
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
        stage 3 production prod-region=us-west1 [Succeeded] +6d11h30m → +9d18h00m mc=2
          control-plane +6d11h30m → +6d17h30m control plane 1.31.5-gke.1200000 running
          node +6d12h00m → +6d18h00m nodes 1.31.5-gke.1200000 running
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
        stage 4 production prod-region=europe-west1 [Succeeded] +9d17h30m → +16d11h00m mc=2
          control-plane +9d17h30m → +12d10h30m control plane 1.31.5-gke.1200000 running
          node +9d18h00m → +12d11h00m nodes 1.31.5-gke.1200000 running
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
        stage 5 production [Succeeded] +16d10h30m → +18d16h00m mc=2
          control-plane +16d10h30m → +18d15h30m control plane 1.31.5-gke.1200000 running
          node +16d11h00m → +18d16h00m nodes 1.31.5-gke.1200000 running
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
            "1 testing controlPlane 1.31.5-gke.1200000 RUNNING +0m",
            "1 testing controlPlane 1.31.5-gke.1200000 SOAKING +9h30m",
            "1 testing controlPlane 1.31.5-gke.1200000 COMPLETED +3d09h30m",
            "1 testing controlPlane 1.31.6-gke.1100000 PENDING +2d00h00m",
            "1 testing controlPlane 1.31.6-gke.1100000 RUNNING +3d09h30m",
            "1 testing controlPlane 1.31.6-gke.1100000 SOAKING +3d10h00m",
            "1 testing controlPlane 1.31.6-gke.1100000 COMPLETED +6d10h00m",
            "2 staging controlPlane 1.31.5-gke.1200000 RUNNING +3d09h30m",
            "2 staging controlPlane 1.31.5-gke.1200000 SOAKING +3d11h30m",
            "2 staging controlPlane 1.31.5-gke.1200000 COMPLETED +6d11h30m",
            "2 staging controlPlane 1.31.6-gke.1100000 PENDING +6d10h00m",
            "2 staging controlPlane 1.31.6-gke.1100000 RUNNING +6d11h30m",
            "2 staging controlPlane 1.31.6-gke.1100000 SOAKING +6d12h00m",
            "2 staging controlPlane 1.31.6-gke.1100000 COMPLETED +9d12h00m",
            "3 production controlPlane 1.31.5-gke.1200000 RUNNING +6d11h30m",
            "3 production controlPlane 1.31.5-gke.1200000 SOAKING +6d17h30m",
            "3 production controlPlane 1.31.5-gke.1200000 COMPLETED +7d17h30m",
            "3 production controlPlane 1.31.6-gke.1100000 RUNNING +9d12h00m",
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
        .find(|e| e.reason == "STAGE_BUSY" && e.stage.as_deref() == Some("2 staging"))
        .expect("staging says why it waits");
    expect!["control plane 1.31.6-gke.1100000 is available, but the stage is SOAKING control plane 1.31.5-gke.1200000: it starts a newer version only once that completes"].assert_eq(&busy.message);
}
