//! GKE rules that mutation testing (scripts/mutants.sh, bench/mutants.md) found unguarded: reading and
//! writing GKE's own formats. Each test states the rule and its source, and fails if the rule changes.

use fleetplan::gke::export::{export, Format};
use fleetplan::model::Strategy;
use fleetplan::{Scenario, Source};
use wasm_bindgen_test::wasm_bindgen_test;

fn load_one(name: &str, text: &str) -> Scenario {
    let mut loaded = fleetplan::load(&[Source { name, text }]);
    assert!(
        loaded.diagnostics.iter().all(|d| !d.is_error()),
        "{:#?}",
        loaded.diagnostics
    );
    assert_eq!(loaded.scenarios.len(), 1);
    loaded.scenarios.remove(0)
}

fn sequence_name(s: &Scenario) -> &str {
    match &s.strategy {
        Strategy::GkeRolloutSequence(seq) => &seq.name,
        other => panic!("expected a rollout sequence, got {}", other.kind()),
    }
}

const STAGES: &str = r#""stages": [
    {"fleetProjects": ["projects/testing"], "soakDuration": "1.500s"},
    {"fleetProjects": ["projects/production"], "soakDuration": "259200s"}
  ]"#;

/// A RolloutSequence's resource name is `projects/{p}/locations/global/rolloutSequences/{id}` (gkehub
/// API); the sequence is known by its id. A resource without a name (a hand-written file) is named
/// after its file, like gcloud's stage config, so the plan never shows a sequence without a name.
#[wasm_bindgen_test(unsupported = test)]
fn an_api_sequence_is_named_by_its_id_or_else_by_its_file() {
    let named = format!(
        "{{\"name\": \"projects/testing/locations/global/rolloutSequences/bank-seq\", {STAGES}}}"
    );
    let s = load_one("exports/anything.json", &named);
    assert_eq!(sequence_name(&s), "bank-seq");
    assert_eq!(fleetplan::plan(&s).run, "bank-seq");

    let unnamed = format!("{{{STAGES}}}");
    let s = load_one("exports/canary-first.json", &unnamed);
    assert_eq!(sequence_name(&s), "canary-first");
    assert_eq!(fleetplan::plan(&s).run, "canary-first");
}

/// `fleetplan export --format NAME` takes exactly the names `Format::NAMES` lists, each to its own
/// format: gcloud's stage config (a YAML list of `- stage:` items), the API's RolloutSequence JSON, and
/// the clusterupgrade feature spec, which only a fleet-based chain has.
#[wasm_bindgen_test(unsupported = test)]
fn each_export_format_name_selects_that_format() {
    let s = load_one("seq.json", &format!("{{{STAGES}}}"));
    let by_name = |name: &str| {
        let format = Format::from_name(name).unwrap_or_else(|| panic!("{name} is listed"));
        export(&s, format)
    };
    assert_eq!(Format::NAMES.len(), 3);
    let stage_config = by_name("stage-config").unwrap();
    assert!(stage_config.starts_with("- stage:\n"), "{stage_config}");
    let json = by_name("rollout-sequence-json").unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["stages"][1]["soakDuration"], "259200s");
    let err = by_name("feature-spec").unwrap_err();
    assert!(err.contains("gke-fleet-sequence"), "{err}");
    for unknown in ["", "json", "Stage-Config", "stage_config"] {
        assert_eq!(Format::from_name(unknown), None, "{unknown:?}");
    }
}

/// Soaks are written as the duration they are: gcloud's `soak-duration` in the largest single unit
/// that states it exactly, falling back to (fractional) seconds; the API's protobuf Duration JSON as
/// seconds with the fraction in three digits. Reading the export back gives the same soak.
#[wasm_bindgen_test(unsupported = test)]
fn fractional_second_soaks_are_written_as_seconds() {
    let s = load_one("seq.json", &format!("{{{STAGES}}}"));
    let yaml = export(&s, Format::StageConfig).unwrap();
    assert!(yaml.contains("  soak-duration: 1.5s\n"), "{yaml}");
    assert!(yaml.contains("  soak-duration: 3d\n"), "{yaml}");
    let json = export(&s, Format::RolloutSequenceJson).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["stages"][0]["soakDuration"], "1.500s");

    let back = load_one("seq-stage-config.yaml", &yaml);
    let soaks = |s: &Scenario| match &s.strategy {
        Strategy::GkeRolloutSequence(seq) => seq
            .stages
            .iter()
            .map(|st| {
                fleetplan::time::Duration::parse(st.soak_duration.as_deref().unwrap())
                    .unwrap()
                    .millis()
            })
            .collect::<Vec<_>>(),
        _ => unreachable!(),
    };
    assert_eq!(soaks(&back), vec![1_500, 259_200_000]);
    assert_eq!(soaks(&back), soaks(&s));
}
