//! GKE rollout sequences as text: the fleetplan kinds, GKE's own formats (gcloud stage config, the API's
//! RolloutSequence JSON, the clusterupgrade feature spec), and what each mistake reports where.

use fleetplan::gke::model::{
    FleetGroup, FleetSequence, RolloutSequence, SequenceStage, UpgradeOverride, VersionEvent,
};
use fleetplan::model::{NodePool, Strategy, UpgradeDurations};
use fleetplan::time::{Duration, Time};
use fleetplan::{Diagnostic, Scenario, Source};
use wasm_bindgen_test::wasm_bindgen_test;

fn load(name: &str, text: &str) -> fleetplan::Loaded {
    fleetplan::load(&[Source { name, text }])
}

fn rollout(s: &Scenario) -> &RolloutSequence {
    match &s.strategy {
        Strategy::GkeRolloutSequence(seq) => seq,
        other => panic!("expected a rollout sequence, got {}", other.kind()),
    }
}

fn fleet_seq(s: &Scenario) -> &FleetSequence {
    match &s.strategy {
        Strategy::GkeFleetSequence(seq) => seq,
        other => panic!("expected a fleet sequence, got {}", other.kind()),
    }
}

/// `file:line:column code message` per diagnostic, for compact assertions.
fn show(diags: &[Diagnostic]) -> Vec<String> {
    diags
        .iter()
        .map(|d| {
            let at = d
                .location
                .as_ref()
                .map(|l| format!("{}:{}:{}", l.file, l.line, l.column))
                .unwrap_or_default();
            format!("{at} {} {}", d.code, d.message)
        })
        .collect()
}

const SCENARIO: &str = r#"name: bank
start: 2026-11-23T09:00:00Z
clusters:
  - name: test-1
    fleet: testing
    version: {controlPlane: 1.31.5-gke.100, node: 1.31.5-gke.100}
    releaseChannel: REGULAR
    maintenance: {window: {daily: "22:00"}}
    nodePools: [{name: default, nodes: 6, maxSurge: 2}, {name: gpu, nodes: 2}]
    upgradeDurations: {controlPlane: 30m, perNode: 8m}
  - name: prod-us
    fleet: production
    labels: {prod-region: us-west1}
strategy:
  kind: gke-rollout-sequence
  name: bank-sequence
  displayName: Bank sequence
  ignoredClustersSelector: "resource.labels.sandbox == 'true'"
  stages:
    - {fleetProjects: [projects/testing], soakDuration: 3d}
    - {fleet: projects/staging, soakDuration: 259200s}
    - fleetProjects: projects/production
      labelSelector: resource.labels['prod-region'] == 'us-west1'
      soakDuration: 3d12h
    - {fleetProjects: [projects/production], soakDuration: 0}
  versions:
    - 1.32.1-gke.200
    - {version: 1.32.2-gke.300, upgradeType: controlPlane, at: 2026-11-30T00:00:00Z}
"#;

#[wasm_bindgen_test(unsupported = test)]
fn a_rollout_sequence_decodes_every_field() {
    let loaded = load("bank.yaml", SCENARIO);
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    let s = &loaded.scenarios[0];
    let seq = rollout(s);
    assert_eq!(
        *seq,
        RolloutSequence {
            name: "bank-sequence".into(),
            display_name: Some("Bank sequence".into()),
            ignored_clusters_selector: Some("resource.labels.sandbox == 'true'".into()),
            stages: vec![
                SequenceStage {
                    fleet_projects: vec!["projects/testing".into()],
                    label_selector: None,
                    soak_duration: Some("3d".into()),
                },
                SequenceStage {
                    fleet_projects: vec!["projects/staging".into()],
                    label_selector: None,
                    soak_duration: Some("259200s".into()),
                },
                SequenceStage {
                    fleet_projects: vec!["projects/production".into()],
                    label_selector: Some("resource.labels['prod-region'] == 'us-west1'".into()),
                    soak_duration: Some("3d12h".into()),
                },
                SequenceStage {
                    fleet_projects: vec!["projects/production".into()],
                    label_selector: None,
                    soak_duration: Some("0".into()),
                },
            ],
            versions: vec![
                VersionEvent {
                    version: "1.32.1-gke.200".into(),
                    upgrade_type: None,
                    at: None,
                },
                VersionEvent {
                    version: "1.32.2-gke.300".into(),
                    upgrade_type: Some("controlPlane".into()),
                    at: Some(Time::parse("2026-11-30T00:00:00Z").unwrap()),
                },
            ],
        }
    );
    let c = &s.clusters[0];
    assert_eq!(c.fleet.as_deref(), Some("testing"));
    assert_eq!(c.release_channel.as_deref(), Some("REGULAR"));
    assert_eq!(
        c.node_pools,
        [
            NodePool {
                name: "default".into(),
                nodes: 6,
                max_surge: Some(2)
            },
            NodePool {
                name: "gpu".into(),
                nodes: 2,
                max_surge: None
            }
        ]
    );
    assert_eq!(
        c.upgrade_durations,
        Some(UpgradeDurations {
            control_plane: Some(Duration::parse("30m").unwrap()),
            per_node: Some(Duration::parse("8m").unwrap()),
        })
    );
    let at = |p: &str| s.origin.locate(p).map(|l| (l.line, l.column));
    assert_eq!(at("strategy.stages[2].labelSelector"), Some((23, 22)));
    assert_eq!(at("strategy.stages[1].fleetProjects"), Some((21, 15)));
    assert_eq!(at("strategy.versions[1].at"), Some((28, 64)));
    assert_eq!(at("clusters[0].nodePools[1].nodes"), Some((9, 76)));
    assert_eq!(at("clusters[0].upgradeDurations.perNode"), Some((10, 52)));
}

const FLEET_SCENARIO: &str = r#"clusters: [{name: a, fleet: dev}]
strategy:
  kind: gke-fleet-sequence
  name: chain
  grouping: fleet
  groups:
    - {fleet: dev, soaking: 2d}
    - fleet: prod
      upstreamFleets: [dev]
      soaking: 7d
      overrides:
        - {upgrade: k8s_control_plane, version: 1.32.1-gke.200, soaking: 0s}
  versions: [{version: 1.32.1-gke.200, upgradeType: both}]
"#;

#[wasm_bindgen_test(unsupported = test)]
fn a_fleet_sequence_decodes_every_field() {
    let loaded = load("chain.yaml", FLEET_SCENARIO);
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    assert_eq!(
        *fleet_seq(&loaded.scenarios[0]),
        FleetSequence {
            name: "chain".into(),
            grouping: Some("fleet".into()),
            groups: vec![
                FleetGroup {
                    fleet: "dev".into(),
                    upstream_fleets: vec![],
                    soaking: Some("2d".into()),
                    overrides: vec![],
                },
                FleetGroup {
                    fleet: "prod".into(),
                    upstream_fleets: vec!["dev".into()],
                    soaking: Some("7d".into()),
                    overrides: vec![UpgradeOverride {
                        upgrade: "k8s_control_plane".into(),
                        version: "1.32.1-gke.200".into(),
                        soaking: "0s".into(),
                    }],
                },
            ],
            versions: vec![VersionEvent {
                version: "1.32.1-gke.200".into(),
                upgrade_type: Some("both".into()),
                at: None,
            }],
        }
    );
}

/// decode(yaml_out(s)) == s, for both kinds (the web form edits scenarios through this round trip).
#[wasm_bindgen_test(unsupported = test)]
fn both_kinds_survive_the_round_trip_through_yaml() {
    for text in [SCENARIO, FLEET_SCENARIO] {
        let first = load("a.yaml", text).scenarios.remove(0);
        let yaml = fleetplan::yaml_out::scenario_to_yaml(&first);
        let again = load("b.yaml", &yaml);
        assert!(
            again.diagnostics.is_empty(),
            "{yaml}\n{:#?}",
            again.diagnostics
        );
        let mut second = again.scenarios[0].clone();
        second.origin = first.origin.clone();
        assert_eq!(second, first, "{yaml}");
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn cel_syntax_errors_point_into_the_string() {
    let text = "strategy:\n  kind: gke-rollout-sequence\n  stages:\n    - fleetProjects: [projects/p]\n      labelSelector: \"resource.labels.canary = 'true'\"\n      soakDuration: 1d\n    - fleetProjects: [projects/p]\n      labelSelector: resource.labels.tier in ('a')\n  ignoredClustersSelector: 'has(resource.labels.x'\n";
    let loaded = load("s.yaml", text);
    assert_eq!(
        show(&loaded.diagnostics),
        [
            // The quote is at column 22; the text starts at 23; `=` is its 24th character.
            "s.yaml:5:46 cel-syntax label selector `resource.labels.canary = 'true'`: expected `==` (CEL compares with two equals signs), found `=`",
            "s.yaml:8:46 cel-syntax label selector `resource.labels.tier in ('a')`: expected a list of strings such as ['a', 'b'] (or resource.labels) after `in`",
            "s.yaml:9:50 cel-syntax label selector `has(resource.labels.x`: expected `)` to close has( at column 1, found the end of the selector",
        ]
    );
    let d = &loaded.diagnostics[0];
    assert_eq!(d.path.as_deref(), Some("strategy.stages[0].labelSelector"));
    // The text is kept: a stage with a broken selector must not become a catch-all.
    assert_eq!(
        rollout(&loaded.scenarios[0]).stages[0]
            .label_selector
            .as_deref(),
        Some("resource.labels.canary = 'true'")
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn unknown_fields_and_wrong_types_are_reported_with_suggestions() {
    let text = "strategy:\n  kind: gke-rollout-sequence\n  stages:\n    - fleetProject: [projects/p]\n      soakDuraton: 1d\n      fleet: [a]\n  version: [1.32.0]\n  versions: [{at: soon}]\n---\nstrategy:\n  kind: gke-fleet-sequence\n  groups:\n    - {upstreamFleet: [x], overrides: [{upgrade: k8s_node}]}\n";
    let loaded = load("s.yaml", text);
    assert_eq!(
        show(&loaded.diagnostics),
        [
            "s.yaml:7:3 unknown-field unknown field `version` in `strategy`; did you mean `versions`?",
            "s.yaml:4:7 unknown-field unknown field `fleetProject` in `strategy.stages[0]`; did you mean `fleetProjects`?",
            "s.yaml:5:7 unknown-field unknown field `soakDuraton` in `strategy.stages[0]`; did you mean `soakDuration`?",
            "s.yaml:6:14 wrong-type `fleet` must be a string, found a list",
            "s.yaml:8:14 missing-field `strategy.versions[0]` needs `version`",
            "s.yaml:8:19 invalid-value `soon` is not an RFC 3339 time (expected e.g. 2026-11-23T09:00:00Z)",
            "s.yaml:13:8 unknown-field unknown field `upstreamFleet` in `strategy.groups[0]`; did you mean `upstreamFleets`?",
            "s.yaml:13:7 missing-field `strategy.groups[0]` needs `fleet`",
            "s.yaml:13:40 missing-field `strategy.groups[0].overrides[0]` needs `version`",
            "s.yaml:13:40 missing-field `strategy.groups[0].overrides[0]` needs `soaking`",
        ]
    );
}
