//! A sequence written in GKE's own formats: the gcloud `--stage-config` YAML and the API's
//! RolloutSequence JSON for custom stages, one `clusterupgrade` feature JSON per fleet for a chain.
//! Reading any of them back ([`super::import`]) gives the sequence again.

use serde_json::{json, Map, Value};

use crate::gke::model::{FleetSequence, RolloutSequence};
use crate::model::{Scenario, Strategy};
use crate::time::{Duration, DAY, HOUR, MINUTE, SECOND};

/// The export formats, by their CLI names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// gcloud's `--stage-config` YAML (custom stages).
    StageConfig,
    /// The RolloutSequence resource in JSON (custom stages).
    RolloutSequenceJson,
    /// One `clusterupgrade` feature JSON per fleet (fleet-based chains), separated by `---`.
    FeatureSpec,
}

impl Format {
    pub const NAMES: &'static [&'static str] =
        &["stage-config", "rollout-sequence-json", "feature-spec"];

    pub fn from_name(name: &str) -> Option<Format> {
        match name {
            "stage-config" => Some(Format::StageConfig),
            "rollout-sequence-json" => Some(Format::RolloutSequenceJson),
            "feature-spec" => Some(Format::FeatureSpec),
            _ => None,
        }
    }
}

/// Soak of a fleet that sets none (GKE's default `postConditions.soaking`).
pub const DEFAULT_FLEET_SOAK: Duration = Duration(7 * 86_400_000);

/// One fleet's feature document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureSpec {
    pub fleet: String,
    pub json: String,
}

/// The scenario's sequence in `format`; an error sentence when the kind does not fit or a value cannot
/// be written in GKE's terms (a soak that is not a duration, a stage without a soak).
pub fn export(scenario: &Scenario, format: Format) -> Result<String, String> {
    match (&scenario.strategy, format) {
        (Strategy::GkeRolloutSequence(seq), Format::StageConfig) => stage_config_yaml(seq),
        (Strategy::GkeRolloutSequence(seq), Format::RolloutSequenceJson) => {
            rollout_sequence_json(seq)
        }
        (Strategy::GkeFleetSequence(seq), Format::FeatureSpec) => {
            let specs = feature_specs_json(seq)?;
            Ok(specs
                .iter()
                .map(|s| s.json.as_str())
                .collect::<Vec<_>>()
                .join("---\n"))
        }
        (other, _) => {
            let wanted = match format {
                Format::FeatureSpec => "gke-fleet-sequence",
                _ => "gke-rollout-sequence",
            };
            Err(format!(
                "{} writes a {wanted}, but this scenario's strategy is {}",
                Format::NAMES[format as usize],
                other.kind()
            ))
        }
    }
}

/// gcloud's stage config: a YAML list of `- stage:` items with `fleet-projects`, `label-selector` and
/// `soak-duration` beside the key, soaks in one unit (`3d`, `36h`).
pub fn stage_config_yaml(seq: &RolloutSequence) -> Result<String, String> {
    let mut out = String::new();
    let mut problems = Vec::new();
    for (i, stage) in seq.stages.iter().enumerate() {
        out.push_str("- stage:\n  fleet-projects:\n");
        for f in &stage.fleet_projects {
            out.push_str(&format!("  - {}\n", crate::yaml_out::string(f)));
        }
        if let Some(sel) = &stage.label_selector {
            out.push_str(&format!(
                "  label-selector: {}\n",
                crate::yaml_out::string(sel)
            ));
        }
        match soak(stage.soak_duration.as_deref(), i) {
            Ok(d) => out.push_str(&format!("  soak-duration: {}\n", one_unit(d))),
            Err(e) => problems.push(e),
        }
    }
    if seq.stages.is_empty() {
        problems.push("the sequence has no stages".into());
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems.join("; "))
    }
}

/// The RolloutSequence resource as the API takes it: soaks as protobuf Durations (`"259200s"`). The
/// resource lives in the first stage's fleet project (the model keeps only the sequence id).
pub fn rollout_sequence_json(seq: &RolloutSequence) -> Result<String, String> {
    let mut problems = Vec::new();
    let mut stages = Vec::new();
    for (i, stage) in seq.stages.iter().enumerate() {
        let mut s = Map::new();
        s.insert("fleetProjects".into(), json!(stage.fleet_projects));
        if let Some(sel) = &stage.label_selector {
            s.insert("clusterSelector".into(), json!({ "labelSelector": sel }));
        }
        match soak(stage.soak_duration.as_deref(), i) {
            Ok(d) => {
                s.insert("soakDuration".into(), json!(proto_duration(d)));
            }
            Err(e) => problems.push(e),
        }
        stages.push(Value::Object(s));
    }
    if !problems.is_empty() {
        return Err(problems.join("; "));
    }
    let project = seq
        .stages
        .first()
        .and_then(|s| s.fleet_projects.first())
        .map(|f| f.strip_prefix("projects/").unwrap_or(f))
        .filter(|p| !p.is_empty())
        .unwrap_or("PROJECT");
    let mut root = Map::new();
    root.insert(
        "name".into(),
        json!(format!(
            "projects/{project}/locations/global/rolloutSequences/{}",
            seq.name
        )),
    );
    if let Some(d) = &seq.display_name {
        root.insert("displayName".into(), json!(d));
    }
    root.insert("stages".into(), Value::Array(stages));
    if let Some(sel) = &seq.ignored_clusters_selector {
        root.insert(
            "ignoredClustersSelector".into(),
            json!({ "labelSelector": sel }),
        );
    }
    Ok(pretty(&Value::Object(root)))
}

/// One `clusterupgrade` feature per fleet, in the order of `groups`. A group without a soak gets GKE's
/// default of 7 days written out, because the API requires `postConditions`.
pub fn feature_specs_json(seq: &FleetSequence) -> Result<Vec<FeatureSpec>, String> {
    if seq.grouping.as_deref() == Some("scope") {
        return Err("team-scope sequences are set on fleet scopes, not on the fleet feature; feature-spec exports fleet-based chains only".into());
    }
    let mut problems = Vec::new();
    let mut out = Vec::new();
    for group in &seq.groups {
        let project = group
            .fleet
            .strip_prefix("projects/")
            .unwrap_or(&group.fleet);
        if project.is_empty() || project.contains('/') {
            problems.push(format!("`{}` is not a fleet project id", group.fleet));
            continue;
        }
        let soaking = match &group.soaking {
            None => Ok(DEFAULT_FLEET_SOAK),
            Some(text) => {
                Duration::parse(text).map_err(|e| format!("fleet {}: soaking {e}", group.fleet))
            }
        };
        let mut spec = Map::new();
        if !group.upstream_fleets.is_empty() {
            spec.insert("upstreamFleets".into(), json!(group.upstream_fleets));
        }
        match soaking {
            Ok(d) => {
                spec.insert(
                    "postConditions".into(),
                    json!({ "soaking": proto_duration(d) }),
                );
            }
            Err(e) => problems.push(e),
        }
        let mut overrides = Vec::new();
        for o in &group.overrides {
            match Duration::parse(&o.soaking) {
                Ok(d) => overrides.push(json!({
                    "upgrade": {"name": o.upgrade, "version": o.version},
                    "postConditions": {"soaking": proto_duration(d)},
                })),
                Err(e) => problems.push(format!(
                    "fleet {}: override for {} {}: soaking {e}",
                    group.fleet, o.upgrade, o.version
                )),
            }
        }
        if !overrides.is_empty() {
            spec.insert("gkeUpgradeOverrides".into(), Value::Array(overrides));
        }
        let doc = json!({
            "name": format!("projects/{project}/locations/global/features/clusterupgrade"),
            "spec": {"clusterupgrade": Value::Object(spec)},
        });
        out.push(FeatureSpec {
            fleet: project.to_string(),
            json: pretty(&doc),
        });
    }
    if seq.groups.is_empty() {
        problems.push("the sequence has no groups".into());
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems.join("; "))
    }
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

/// Stage `i`'s soak, which GKE requires.
fn soak(text: Option<&str>, i: usize) -> Result<Duration, String> {
    let n = i + 1;
    let text = text.ok_or_else(|| format!("stage {n} has no soak duration, which GKE requires"))?;
    Duration::parse(text).map_err(|e| format!("stage {n}: soak {e}"))
}

/// A protobuf Duration in JSON: whole seconds, or 3 fraction digits for milliseconds.
pub fn proto_duration(d: Duration) -> String {
    let ms = d.millis();
    if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{}.{:03}s", ms / 1000, (ms % 1000).abs())
    }
}

/// The largest single unit gcloud's `soak-duration` takes that states `d` exactly (`3d`, `84h`).
fn one_unit(d: Duration) -> String {
    if d.millis() == 0 {
        return "0s".into();
    }
    for (unit, suffix) in [(DAY, "d"), (HOUR, "h"), (MINUTE, "m"), (SECOND, "s")] {
        if d.millis() % unit.millis() == 0 {
            return format!("{}{suffix}", d.millis() / unit.millis());
        }
    }
    format!("{}s", d.seconds_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn durations_in_gke_terms() {
        let d = |t: &str| Duration::parse(t).unwrap();
        assert_eq!(proto_duration(d("3d")), "259200s");
        assert_eq!(proto_duration(d("1.5s")), "1.500s");
        assert_eq!(one_unit(d("3d")), "3d");
        assert_eq!(one_unit(d("3d12h")), "84h");
        assert_eq!(one_unit(d("90s")), "90s");
        assert_eq!(one_unit(d("0s")), "0s");
    }
}
