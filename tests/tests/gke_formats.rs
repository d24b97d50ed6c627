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

/// The load's diagnostics, then the `cel-syntax` errors of planning each scenario: a selector that does
/// not parse is the planner's error (the sequence is invalid), located at the character in the file.
fn with_cel(loaded: &fleetplan::Loaded) -> Vec<String> {
    let mut out = show(&loaded.diagnostics);
    for s in &loaded.scenarios {
        let plan = fleetplan::plan(s);
        let cel: Vec<Diagnostic> = plan
            .diagnostics
            .into_iter()
            .filter(|d| d.code == "cel-syntax")
            .collect();
        out.extend(show(&cel));
    }
    out
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
                    targets: Vec::new(),
                    upgrade_type: None,
                    at: None,
                },
                VersionEvent {
                    version: "1.32.2-gke.300".into(),
                    targets: Vec::new(),
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

/// A release with one target per minor version (seed 003's 2022-R25), keys quoted as minors are.
const PER_MINOR: &str = r#"clusters: [{name: a, fleet: dev}]
strategy:
  kind: gke-fleet-sequence
  name: chain
  groups: [{fleet: dev}]
  versions:
    - targets: {"1.20": 1.21.14-gke.4300, "1.22": 1.23.8-gke.1900}
      at: 2026-11-30T00:00:00Z
"#;

#[wasm_bindgen_test(unsupported = test)]
fn per_minor_targets_decode_in_the_order_written() {
    let loaded = load("m.yaml", PER_MINOR);
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    let seq = fleet_seq(&loaded.scenarios[0]);
    let targets: Vec<(&str, &str)> = seq.versions[0]
        .targets
        .iter()
        .map(|t| (t.minor.as_str(), t.version.as_str()))
        .collect();
    assert_eq!(
        targets,
        [("1.20", "1.21.14-gke.4300"), ("1.22", "1.23.8-gke.1900")]
    );
    assert_eq!(seq.versions[0].version, "");
}

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
                targets: Vec::new(),
                upgrade_type: Some("both".into()),
                at: None,
            }],
        }
    );
}

/// decode(yaml_out(s)) == s, for both kinds and for sequences imported from GKE's formats (the web form
/// edits scenarios through this round trip).
#[wasm_bindgen_test(unsupported = test)]
fn both_kinds_survive_the_round_trip_through_yaml() {
    for text in [
        SCENARIO,
        FLEET_SCENARIO,
        BANK_STAGE_CONFIG,
        BANK_SEQUENCE_JSON,
        FEATURES,
        PER_MINOR,
    ] {
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
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    assert_eq!(
        with_cel(&loaded),
        [
            // The quote is at column 22; the text starts at 23; `=` is its 24th character.
            "s.yaml:5:46 cel-syntax label selector `resource.labels.canary = 'true'`: expected `==` (CEL compares with two equals signs), found `=`",
            "s.yaml:8:46 cel-syntax label selector `resource.labels.tier in ('a')`: expected a list of strings such as ['a', 'b'] (or resource.labels) after `in`",
            "s.yaml:9:50 cel-syntax label selector `has(resource.labels.x`: expected `)` to close has( at column 1, found the end of the selector",
        ]
    );
    let plan = fleetplan::plan(&loaded.scenarios[0]);
    let d = plan.diagnostics.iter().find(|d| d.code == "cel-syntax");
    assert_eq!(
        d.and_then(|d| d.path.as_deref()),
        Some("strategy.stages[0].labelSelector")
    );
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

// ---------------------------------------------------------------------------------------------------
// GKE's own formats

const BANK_STAGE_CONFIG: &str = include_str!("../../examples/gke-bank-stage-config.yaml");
const BANK_SEQUENCE_JSON: &str = include_str!("../../examples/gke-bank-sequence.json");

fn stage(fleet: &str, selector: Option<&str>, soak: &str) -> SequenceStage {
    SequenceStage {
        fleet_projects: vec![fleet.into()],
        label_selector: selector.map(Into::into),
        soak_duration: Some(soak.into()),
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn the_bank_sequence_reads_the_same_from_the_stage_config_and_the_api_json() {
    let from_yaml = load("examples/gke-bank-stage-config.yaml", BANK_STAGE_CONFIG);
    let from_json = load("examples/gke-bank-sequence.json", BANK_SEQUENCE_JSON);
    assert!(
        from_yaml.diagnostics.is_empty(),
        "{:#?}",
        from_yaml.diagnostics
    );
    assert!(
        from_json.diagnostics.is_empty(),
        "{:#?}",
        from_json.diagnostics
    );
    let yaml = rollout(&from_yaml.scenarios[0]);
    let json = rollout(&from_json.scenarios[0]);
    let stages = vec![
        stage("projects/testing", None, "3d"),
        stage("projects/staging", None, "3d"),
        stage(
            "projects/production",
            Some("resource.labels['prod-region'] == 'us-west1'"),
            "3d",
        ),
        stage(
            "projects/production",
            Some("resource.labels['prod-region'] == 'europe-west1'"),
            "4d",
        ),
        stage("projects/production", None, "0s"),
    ];
    assert_eq!(yaml.stages, stages);
    assert_eq!(json.stages, stages);
    // The stage config carries no name: the file's is used. The API's name gives the sequence id.
    assert_eq!(yaml.name, "gke-bank-stage-config");
    assert_eq!(json.name, "bank-sequence");
    assert_eq!(
        json.display_name.as_deref(),
        Some("Community bank: testing, staging, production by region")
    );
    // Later diagnostics on the scenario find the imported file's lines.
    let s = &from_yaml.scenarios[0];
    let loc = s.origin.locate("strategy.stages[3].soakDuration").unwrap();
    assert_eq!((loc.line, loc.column), (21, 18));
    let loc = from_json.scenarios[0]
        .origin
        .locate("strategy.stages[2].labelSelector")
        .unwrap();
    assert_eq!((loc.line, loc.column), (15, 44));
}

/// export → import gives the sequence back, and the stage config export is the example file itself.
#[wasm_bindgen_test(unsupported = test)]
fn exported_sequences_import_as_they_were() {
    use fleetplan::gke::export::{export, rollout_sequence_json, stage_config_yaml, Format};
    let mut imported = load("bank-sequence.json", BANK_SEQUENCE_JSON)
        .scenarios
        .remove(0);
    let mut seq = rollout(&imported).clone();
    seq.ignored_clusters_selector = Some("resource.labels.sandbox == 'true'".into());
    seq.stages[0].soak_duration = Some("3d12h".into());
    imported.strategy = Strategy::GkeRolloutSequence(seq.clone());

    let json = rollout_sequence_json(&seq).unwrap();
    assert!(json.contains("\"soakDuration\": \"302400s\""), "{json}");
    assert!(json.contains(
        "\"name\": \"projects/testing/locations/global/rolloutSequences/bank-sequence\""
    ));
    let back = load("bank-sequence.json", &json);
    assert!(back.diagnostics.is_empty(), "{:#?}", back.diagnostics);
    assert_eq!(*rollout(&back.scenarios[0]), seq);
    assert_eq!(
        export(&imported, Format::RolloutSequenceJson).unwrap(),
        json
    );

    let yaml = stage_config_yaml(&seq).unwrap();
    let back = load("bank-sequence.yaml", &yaml);
    assert!(back.diagnostics.is_empty(), "{:#?}", back.diagnostics);
    let mut expected = seq.clone();
    // What the stage config cannot carry: the display name and the ignored-clusters selector.
    expected.display_name = None;
    expected.ignored_clusters_selector = None;
    assert_eq!(*rollout(&back.scenarios[0]), expected);
    assert!(yaml.contains("  soak-duration: 84h\n"), "{yaml}");

    let example = load("bank.yaml", BANK_STAGE_CONFIG).scenarios.remove(0);
    let without_comments: String = BANK_STAGE_CONFIG
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        export(&example, Format::StageConfig).unwrap(),
        without_comments
    );
    assert_eq!(
        export(&example, Format::FeatureSpec).unwrap_err(),
        "feature-spec writes a gke-fleet-sequence, but this scenario's strategy is gke-rollout-sequence"
    );
}

const FEATURES: &str = r#"{
  "name": "projects/bank-dev/locations/global/features/clusterupgrade",
  "spec": {"clusterupgrade": {"postConditions": {"soaking": "172800s"}}},
  "state": {"clusterupgrade": {"upgrades": []}},
  "createTime": "2026-01-01T00:00:00Z"
}
---
name: projects/bank-prod/locations/global/features/clusterupgrade
spec:
  clusterupgrade:
    upstreamFleets: [bank-dev]
    postConditions: {soaking: 604800s}
    gkeUpgradeOverrides:
      - upgrade: {name: k8s_control_plane, version: 1.32.1-gke.1200}
        postConditions: {soaking: 0s}
"#;

#[wasm_bindgen_test(unsupported = test)]
fn feature_specs_of_several_fleets_form_one_chain() {
    use fleetplan::gke::export::{feature_specs_json, Format};
    let loaded = load("chain.yaml", FEATURES);
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    assert_eq!(loaded.scenarios.len(), 1);
    let seq = fleet_seq(&loaded.scenarios[0]).clone();
    assert_eq!(
        seq,
        FleetSequence {
            name: "chain".into(),
            grouping: None,
            groups: vec![
                FleetGroup {
                    fleet: "bank-dev".into(),
                    upstream_fleets: vec![],
                    soaking: Some("2d".into()),
                    overrides: vec![],
                },
                FleetGroup {
                    fleet: "bank-prod".into(),
                    upstream_fleets: vec!["bank-dev".into()],
                    soaking: Some("7d".into()),
                    overrides: vec![UpgradeOverride {
                        upgrade: "k8s_control_plane".into(),
                        version: "1.32.1-gke.1200".into(),
                        soaking: "0s".into(),
                    }],
                },
            ],
            versions: vec![],
        }
    );
    let loc = loaded.scenarios[0]
        .origin
        .locate("strategy.groups[1].overrides[0].version")
        .unwrap();
    assert_eq!((loc.line, loc.column), (14, 53));

    // Exported one document per fleet; as a JSON list or a `---` stream they read back the same.
    let specs = feature_specs_json(&seq).unwrap();
    assert_eq!(specs.len(), 2);
    assert_eq!(specs[1].fleet, "bank-prod");
    let stream = fleetplan::gke::export::export(&loaded.scenarios[0], Format::FeatureSpec).unwrap();
    let list = format!(
        "[{}]",
        specs
            .iter()
            .map(|s| s.json.as_str())
            .collect::<Vec<_>>()
            .join(",")
    );
    for text in [stream, list] {
        let back = load("chain.json", &text);
        assert!(
            back.diagnostics.is_empty(),
            "{text}\n{:#?}",
            back.diagnostics
        );
        assert_eq!(*fleet_seq(&back.scenarios[0]), seq, "{text}");
    }

    // A fleet without a soak is exported with GKE's default, which the API requires.
    let mut bare = seq.clone();
    bare.groups[0].soaking = None;
    let json = &feature_specs_json(&bare).unwrap()[0].json;
    assert!(json.contains("\"soaking\": \"604800s\""), "{json}");
}

/// `fleetplan plan fleet.yaml stage-config.yaml`: the fleet document supplies clusters, the start,
/// assumptions and the versions the GKE formats cannot carry.
#[wasm_bindgen_test(unsupported = test)]
fn a_fleet_document_completes_an_imported_sequence() {
    let fleet = "start: 2026-11-23T09:00:00Z\nclusters:\n  - {name: t1, fleet: testing, version: {controlPlane: 1.31.5-gke.1000}}\n  - {name: p1, fleet: production, labels: {prod-region: us-west1}, version: {controlPlane: 1.31.5-gke.1000}}\nversions:\n  - {version: 1.32.1-gke.1200, at: 2026-11-24T00:00:00Z}\n";
    let loaded = fleetplan::load(&[
        Source {
            name: "fleet.yaml",
            text: fleet,
        },
        Source {
            name: "stages.yaml",
            text: BANK_STAGE_CONFIG,
        },
    ]);
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    assert_eq!(loaded.scenarios.len(), 1);
    let s = &loaded.scenarios[0];
    assert_eq!(s.clusters.len(), 2);
    assert_eq!(s.start, Some(Time::parse("2026-11-23T09:00:00Z").unwrap()));
    let seq = rollout(s);
    assert_eq!(seq.stages.len(), 5);
    assert_eq!(seq.versions[0].version, "1.32.1-gke.1200");
    let loc = s.origin.locate("strategy.versions[0].version").unwrap();
    assert_eq!((loc.file.as_str(), loc.line), ("fleet.yaml", 6));
    let loc = s.origin.locate("clusters[1].labels").unwrap();
    assert_eq!((loc.file.as_str(), loc.line), ("fleet.yaml", 4));
    // The planner's diagnostics point into whichever file the field came from.
    let plan = fleetplan::plan(s);
    assert!(
        plan.diagnostics.iter().all(|d| !d.is_error()),
        "{:#?}",
        plan.diagnostics
    );
    let empty_stage = plan
        .diagnostics
        .iter()
        .find(|d| d.path.as_deref() == Some("strategy.stages[1]"))
        .expect("the staging fleet has no cluster here");
    let loc = empty_stage.location.as_ref().unwrap();
    assert_eq!((loc.file.as_str(), loc.line), ("stages.yaml", 8));

    // In a document with its own strategy, top-level versions are a mistake worth a warning.
    let both = format!("{fleet}strategy: {{kind: gke-rollout-sequence}}\n");
    let loaded = load("both.yaml", &both);
    assert_eq!(
        show(&loaded.diagnostics),
        ["both.yaml:6:3 misplaced-field top-level `versions` only adds versions to a sequence imported from GKE's formats (in a document without `strategy`); here it is ignored: put it under `strategy`"]
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn stage_config_mistakes_are_reported_where_they_are() {
    let text = "\
- stage:
  fleet-projects: [projects/a]
- stage:
  label-selector: resource.labels.canary == true
  soak-duration: 3 days
- stage:
    fleet-projects: [projects/b]
    soak-duration: 1d
- fleet-projects: [projects/c]
  soak-durations: 1d
  soak-duration: 2d
";
    let loaded = load("stages.yaml", text);
    assert_eq!(
        with_cel(&loaded),
        [
            "stages.yaml:1:3 missing-field stage 1 needs `soak-duration` (such as 7d; units s, m, h, d); gcloud requires it",
            "stages.yaml:3:3 missing-field stage 2 needs `fleet-projects` (a list such as [projects/my-project]); gcloud requires it",
            "stages.yaml:5:18 invalid-value stage 2: soak-duration duration `3 days`: missing unit after `3` (use d, h, m, s); gcloud takes a number with unit s, m, h or d, such as 7d",
            "stages.yaml:7:5 stage-config-shape stage 3: `stage:` must be empty, with `fleet-projects`, `label-selector` and `soak-duration` beside it at the same indentation, not under it",
            "stages.yaml:10:3 unknown-field unknown field `soak-durations` in `[3]`; did you mean `soak-duration`?",
            "stages.yaml:9:3 stage-config-shape stage 4 does not start with `stage:`; gcloud's stage config writes each item as `- stage:` followed by its keys",
            "stages.yaml:4:45 cel-syntax label selector `resource.labels.canary == true`: the right side of `==` (column 24) must be a label (resource.labels.KEY) or a string",
        ]
    );
    // Still read as far as possible: four stages, the nested one included.
    let seq = rollout(&loaded.scenarios[0]);
    assert_eq!(seq.stages.len(), 4);
    assert_eq!(seq.stages[2], stage("projects/b", None, "1d"));
}

#[wasm_bindgen_test(unsupported = test)]
fn api_json_mistakes_are_reported_and_output_fields_are_not() {
    let text = r#"{
  "name": "projects/p/locations/global/rolloutSequences/s",
  "stages": [
    {"fleetProjects": ["projects/p"], "soakDuration": "3d", "state": "ACTIVE"},
    {"fleetProject": ["projects/p"], "clusterSelector": {"labelSelector": "resource.labels.a == 'x"}}
  ],
  "ignoredClustersSelector": {"labelSelector": "has(resource.labels['x'])"},
  "operationalState": {"state": "WARNING", "reasons": ["EMPTY_STAGE_WARNING"]}
}"#;
    let loaded = load("seq.json", text);
    assert_eq!(
        with_cel(&loaded),
        [
            "seq.json:4:55 invalid-value `3d` is not a protobuf Duration: the API takes seconds with an `s`, such as \"259200s\" (3 days)",
            "seq.json:5:6 unknown-field unknown field `fleetProject` in `stages[1]`; did you mean `fleetProjects`?",
            // The planner checks the stages' selectors, then ignoredClustersSelector.
            "seq.json:5:97 cel-syntax label selector `resource.labels.a == 'x`: unterminated string: expected a closing ', found the end of the selector",
            "seq.json:7:53 cel-syntax label selector `has(resource.labels['x'])`: invalid argument to has() macro: has() takes resource.labels.KEY; for this key write 'x' in resource.labels",
        ]
    );
    assert_eq!(
        rollout(&loaded.scenarios[0]).stages[0]
            .soak_duration
            .as_deref(),
        Some("3d")
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn feature_mistakes_are_reported() {
    let text = "- name: projects/a/locations/global/features/fleetobservability\n  spec: {clusterupgrade: {postConditions: {soaking: 7d}}}\n- spec: {clusterupgrade: {upstreamFleets: [a], gkeUpgradeOverrides: [{upgrade: {name: k8s_node}}]}}\n";
    let loaded = load("f.yaml", text);
    assert_eq!(
        show(&loaded.diagnostics),
        [
            "f.yaml:1:9 invalid-value feature name `projects/a/locations/global/features/fleetobservability` is not projects/PROJECT/locations/global/features/clusterupgrade; add a `fleet` key to say which fleet this is",
            "f.yaml:2:53 invalid-value `7d` is not a protobuf Duration: the API takes seconds with an `s`, such as \"259200s\" (3 days)",
            "f.yaml:3:3 missing-field which fleet is this? the feature needs its `name` (projects/PROJECT/locations/global/features/clusterupgrade) or a `fleet` key",
            "f.yaml:3:80 missing-field `spec.clusterupgrade.gkeUpgradeOverrides[0].upgrade` needs `version`",
            "f.yaml:3:70 missing-field `spec.clusterupgrade.gkeUpgradeOverrides[0]` needs `postConditions`",
        ]
    );
}

/// Damaged GKE files (cut short, a character replaced, inserted or a span deleted) give diagnostics,
/// never a panic; whatever still loads also exports without panicking.
#[wasm_bindgen_test(unsupported = test)]
fn damaged_gke_input_never_panics() {
    use fleetplan::gke::export::{export, Format};
    for (i, text) in [
        BANK_STAGE_CONFIG,
        BANK_SEQUENCE_JSON,
        FEATURES,
        SCENARIO,
        FLEET_SCENARIO,
    ]
    .into_iter()
    .enumerate()
    {
        for damaged in fleetplan_tests::damage::copies(text, 0x6b65 + i as u64, 300, 30) {
            let loaded = load("damaged.yaml", &damaged);
            let plans: Vec<fleetplan::Plan> =
                loaded.scenarios.iter().map(fleetplan::plan).collect();
            fleetplan_tests::assert_said_with_a_place(
                "damaged.yaml",
                &damaged,
                &loaded,
                &plans,
                "damaged GKE input",
            );
            for s in &loaded.scenarios {
                let _ = fleetplan::yaml_out::scenario_to_yaml(s);
                for f in [
                    Format::StageConfig,
                    Format::RolloutSequenceJson,
                    Format::FeatureSpec,
                ] {
                    let _ = export(s, f);
                }
            }
        }
    }
}

/// `rolloutsequences list --format=json` (a list) and the API's list response each give one scenario
/// per sequence; a problem names which one.
#[wasm_bindgen_test(unsupported = test)]
fn listed_rollout_sequences_are_one_scenario_each() {
    let list = r#"[
  {"name": "projects/p/locations/global/rolloutSequences/a", "stages": [{"fleetProjects": ["projects/p"], "soakDuration": "60s"}]},
  {"name": "projects/p/locations/global/rolloutSequences/b", "stages": [{"fleetProjects": ["projects/q"], "soakDuration": "1m"}]}
]"#;
    let loaded = load("list.json", list);
    let names: Vec<&str> = loaded
        .scenarios
        .iter()
        .map(|s| rollout(s).name.as_str())
        .collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(
        show(&loaded.diagnostics),
        ["list.json:3:123 invalid-value `1m` is not a protobuf Duration: the API takes seconds with an `s`, such as \"259200s\" (3 days)"]
    );
    assert_eq!(
        loaded.diagnostics[0].path.as_deref(),
        Some("[1]: stages[0].soakDuration")
    );
    let response = format!("{{\"rolloutSequences\": {list}, \"nextPageToken\": \"\"}}");
    let loaded = load("list.json", &response);
    assert_eq!(loaded.scenarios.len(), 2);
    assert_eq!(
        loaded.diagnostics[0].path.as_deref(),
        Some("rolloutSequences[1]: stages[0].soakDuration")
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn a_kubernetes_selector_where_cel_belongs_gets_the_cel_to_write() {
    let text = "strategy:\n  kind: gke-rollout-sequence\n  stages:\n    - fleet: p\n      labelSelector: {matchLabels: {canary: \"true\", prod-region: us-west1}}\n    - fleet: p\n      labelSelector: {matchExpressions: [{key: a, operator: Exists}]}\n";
    let loaded = load("s.yaml", text);
    assert_eq!(
        show(&loaded.diagnostics),
        [
            "s.yaml:5:22 wrong-type GKE selects clusters with a CEL expression over resource.labels, not a Kubernetes label selector; for these matchLabels write: resource.labels.canary == 'true' && resource.labels['prod-region'] == 'us-west1'",
            "s.yaml:7:22 wrong-type GKE selects clusters with a CEL expression over resource.labels, not a Kubernetes label selector; write e.g. resource.labels.canary == 'true'",
        ]
    );
}

/// A scenario whose `stages` lost their `strategy:` wrapper stays a scenario with a warning; it is not
/// mistaken for a RolloutSequence.
#[wasm_bindgen_test(unsupported = test)]
fn a_scenario_with_top_level_stages_is_not_a_rollout_sequence() {
    let loaded = load("s.yaml", "clusters: [{name: a}]\nstages: [{name: x}]\n");
    assert!(loaded
        .diagnostics
        .iter()
        .any(|d| d.message == "unknown field `stages` in the scenario"));
    assert!(loaded
        .scenarios
        .iter()
        .all(|s| !matches!(s.strategy, Strategy::GkeRolloutSequence(_))));
}

/// Positions inside a quoted selector count the escapes the file has and the text does not.
#[wasm_bindgen_test(unsupported = test)]
fn cel_errors_after_escapes_still_point_at_the_character() {
    let json = "{\"stages\": [{\"fleetProjects\": [\"p\"], \"soakDuration\": \"0s\",\n  \"clusterSelector\": {\"labelSelector\": \"resource.labels[\\\"a\\\"] == \\\"x\"}}]}\n";
    let yaml = "- stage:\n  fleet-projects: [p]\n  soak-duration: 0s\n  label-selector: 'resource.labels.a == ''x'' &&'\n";
    let cases = [
        // The quote opens at column 40; the `\"` before x starts 1 + 24 + 2 escapes later.
        (json, "s.json:2:67 cel-syntax label selector `resource.labels[\"a\"] == \"x`: unterminated string: expected a closing \", found the end of the selector"),
        // The quote opens at column 19; the end of the text (the closing quote) is 1 + 27 + 2 later.
        (yaml, "s.yaml:4:49 cel-syntax label selector `resource.labels.a == 'x' &&`: expected a label (resource.labels.KEY), a string, `has(`, `!` or `(`, found the end of the selector"),
    ];
    for (text, want) in cases {
        let name = if text.starts_with('{') {
            "s.json"
        } else {
            "s.yaml"
        };
        assert_eq!(with_cel(&load(name, text)), [want], "{text}");
    }
}

/// The built-in bank example and the bank files in GKE's formats describe the same sequence.
#[wasm_bindgen_test(unsupported = test)]
fn the_gke_formats_of_the_bank_match_the_built_in_example() {
    let example = fleetplan::examples::get("gke-bank").expect("the gke-bank example");
    let builtin = load("gke-bank.yaml", example.text).scenarios.remove(0);
    let imported = load("stages.yaml", BANK_STAGE_CONFIG).scenarios.remove(0);
    assert_eq!(rollout(&builtin).stages, rollout(&imported).stages);
}
