//! GKE's own formats read as scenarios: the gcloud `--stage-config` YAML, a RolloutSequence as the API
//! returns it (JSON), and the fleet `clusterupgrade` feature (one document per fleet, together a chain).
//!
//! Each is recognised by its structure ([`detect`]). Problems are reported in the input's own terms
//! (`[2].soak-duration`, `stages[0].clusterSelector.labelSelector`) while the SourceMap records the
//! scenario paths (`strategy.stages[2].soakDuration`), so the planner's later diagnostics point at the
//! imported file's lines. Soak durations are normalised to fleetplan's compact form (`259200s` and
//! `3d` both read as `3d`) when they parse; otherwise they are kept as written for validation to quote.

use crate::decode::read::get;
use crate::decode::{Path, Reader};
use crate::diag::{Diagnostic, SourceMap};
use crate::gke::model::{
    FleetGroup, FleetSequence, RolloutSequence, SequenceStage, UpgradeOverride,
};
use crate::model::{Assumptions, Scenario, Strategy};
use crate::source::{Node, Value};
use crate::time::Duration;

/// Which GKE format a document is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `gcloud container fleet rolloutsequences create --stage-config=FILE`: a list of `- stage:` items.
    StageConfig,
    /// A RolloutSequence resource (`name`, `stages[].fleetProjects`, ...), as the API returns it.
    RolloutSequence,
    /// The fleet `clusterupgrade` feature (`spec.clusterupgrade`), one document per fleet.
    FeatureSpec,
}

const STAGE_CONFIG_KEYS: &[&str] = &["stage", "fleet-projects", "label-selector", "soak-duration"];
const SEQUENCE_KEYS: &[&str] = &[
    "name",
    "displayName",
    "stages",
    "ignoredClustersSelector",
    // Set by users but not needed for planning.
    "labels",
    "annotations",
    "etag",
    // Output only.
    "uid",
    "createTime",
    "updateTime",
    "deleteTime",
    "computedReleaseChannel",
    "operationalState",
    "state",
    "reconciling",
];
const SEQUENCE_STAGE_KEYS: &[&str] = &[
    "fleetProjects",
    "clusterSelector",
    "soakDuration",
    // Output only.
    "lastQualifiedControlPlaneVersions",
    "lastQualifiedNodeVersions",
    "state",
];
const CLUSTER_SELECTOR_KEYS: &[&str] = &["labelSelector"];
const FEATURE_KEYS: &[&str] = &[
    "name",
    "fleet",
    "spec",
    "clusterupgrade",
    "labels",
    // Output only, or other parts of the Feature resource.
    "state",
    "resourceState",
    "createTime",
    "updateTime",
    "deleteTime",
    "membershipSpecs",
    "membershipStates",
    "scopeSpecs",
    "scopeStates",
    "fleetDefaultMemberConfig",
    "unreachable",
];
const FEATURE_SPEC_KEYS: &[&str] = &["clusterupgrade"];
const CLUSTER_UPGRADE_KEYS: &[&str] = &["upstreamFleets", "postConditions", "gkeUpgradeOverrides"];
const POST_CONDITIONS_KEYS: &[&str] = &["soaking"];
const OVERRIDE_KEYS: &[&str] = &["upgrade", "postConditions"];
const UPGRADE_KEYS: &[&str] = &["name", "version"];

/// The GKE format of a document without `apiVersion`, if it is one. A fleetplan scenario never has
/// top-level `stages`, `spec` or `clusterupgrade`, nor is it a list.
pub fn detect(doc: &Node) -> Option<Shape> {
    match &doc.value {
        Value::Seq(items) => {
            let stage_like = |n: &Node| {
                n.get("stage").is_some()
                    || n.get("fleet-projects").is_some()
                    || n.get("soak-duration").is_some()
            };
            let feature_like = |n: &Node| is_feature(n);
            if items.iter().any(stage_like) {
                Some(Shape::StageConfig)
            } else if !items.is_empty() && items.iter().all(|n| n.get("stages").is_some()) {
                // `gcloud … rolloutsequences list --format=json`.
                Some(Shape::RolloutSequence)
            } else if !items.is_empty() && items.iter().all(feature_like) {
                Some(Shape::FeatureSpec)
            } else {
                None
            }
        }
        Value::Map(_) if doc.get("strategy").is_some() => None,
        Value::Map(_) if is_feature(doc) => Some(Shape::FeatureSpec),
        Value::Map(_) if doc.get("stages").is_some() && !has_scenario_keys(doc) => {
            Some(Shape::RolloutSequence)
        }
        // The API's list response.
        Value::Map(_)
            if doc
                .get("rolloutSequences")
                .is_some_and(|l| matches!(l.value, Value::Seq(_))) =>
        {
            Some(Shape::RolloutSequence)
        }
        _ => None,
    }
}

/// A fleetplan scenario that forgot to wrap its `stages` in `strategy:` is still a scenario (whose
/// decoder then warns about `stages`), not a RolloutSequence.
fn has_scenario_keys(n: &Node) -> bool {
    [
        "clusters",
        "generate",
        "assumptions",
        "start",
        "description",
        "versions",
    ]
    .iter()
    .any(|k| n.get(k).is_some())
}

fn is_feature(n: &Node) -> bool {
    n.get("clusterupgrade").is_some()
        || n.get("spec")
            .is_some_and(|s| s.get("clusterupgrade").is_some())
}

/// Scenarios from GKE documents (each with its file and shape): one per stage config and per
/// RolloutSequence, and one fleet sequence from all feature documents together.
pub fn import(docs: &[(&Node, &str, Shape)]) -> (Vec<Scenario>, Vec<Diagnostic>) {
    let mut scenarios = Vec::new();
    let mut diags = Vec::new();
    let mut features: Vec<(&Node, &str)> = Vec::new();
    for (doc, file, shape) in docs {
        match shape {
            Shape::StageConfig => {
                let mut r = Reader::new(file, true);
                let seq = r.stage_config(doc, file_stem(file));
                scenarios.push(scenario(
                    Strategy::GkeRolloutSequence(seq),
                    &mut r,
                    &mut diags,
                ));
            }
            Shape::RolloutSequence => {
                let (items, list) = match (&doc.value, doc.get("rolloutSequences")) {
                    (Value::Seq(items), _) => (items.as_slice(), ""),
                    (
                        _,
                        Some(Node {
                            value: Value::Seq(items),
                            ..
                        }),
                    ) => (items.as_slice(), "rolloutSequences"),
                    _ => (std::slice::from_ref(*doc), "-"),
                };
                for (i, item) in items.iter().enumerate() {
                    let mut r = Reader::new(file, true);
                    // Problems in one of several sequences are reported as `rolloutSequences[1]: …`.
                    let prefix = match list {
                        "-" => String::new(),
                        key => format!("{key}[{i}]: "),
                    };
                    let seq = r.api_rollout_sequence(item, file_stem(file), prefix);
                    scenarios.push(scenario(
                        Strategy::GkeRolloutSequence(seq),
                        &mut r,
                        &mut diags,
                    ));
                }
            }
            Shape::FeatureSpec => match &doc.value {
                Value::Seq(items) => features.extend(items.iter().map(|n| (n, *file))),
                _ => features.push((doc, file)),
            },
        }
    }
    if let Some((_, first_file)) = features.first() {
        let mut seq = FleetSequence {
            name: file_stem(first_file).to_string(),
            ..Default::default()
        };
        let mut origin = SourceMap::default();
        for (i, (doc, file)) in features.iter().enumerate() {
            let mut r = Reader::new(file, true);
            let p = Path::root().recorded_as(format!("strategy.groups[{i}]"));
            seq.groups.push(r.feature(doc, &p));
            diags.append(&mut r.diags);
            for (path, loc) in r.origin {
                origin.insert(path, loc);
            }
        }
        let mut s = empty_scenario(Strategy::GkeFleetSequence(seq));
        s.origin = origin;
        scenarios.push(s);
    }
    (scenarios, diags)
}

fn empty_scenario(strategy: Strategy) -> Scenario {
    Scenario {
        name: None,
        description: None,
        start: None,
        start_now: false,
        clusters: Vec::new(),
        generate: Vec::new(),
        strategy,
        assumptions: Assumptions::default(),
        origin: SourceMap::default(),
    }
}

fn scenario(strategy: Strategy, r: &mut Reader, diags: &mut Vec<Diagnostic>) -> Scenario {
    let mut s = empty_scenario(strategy);
    for (path, loc) in r.origin.drain(..) {
        s.origin.insert(path, loc);
    }
    diags.append(&mut r.diags);
    s
}

/// `dir/bank-stages.yaml` → `bank-stages`: the name of a sequence whose format carries none.
fn file_stem(file: &str) -> &str {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = base.split('.').next().unwrap_or(base);
    // `<stdin>` and other made-up source names are no name for a sequence.
    if stem.is_empty() || stem.starts_with('<') {
        "imported-sequence"
    } else {
        stem
    }
}

/// A protobuf Duration in JSON: seconds with up to nine fraction digits and an `s` (`"259200s"`).
fn is_proto_duration(text: &str) -> bool {
    let Some(num) = text.strip_suffix('s') else {
        return false;
    };
    let num = num.strip_prefix('-').unwrap_or(num);
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.len() <= 9
        && frac.bytes().all(|b| b.is_ascii_digit())
        && !(num.contains('.') && frac.is_empty())
}

/// The compact form of a soak of whole seconds (`259200s` → `3d`); the raw text otherwise. A
/// fractional soak (`1.500s`) stays as written: its compact form (`1s500ms`) has a unit, `ms`, that a
/// soak (gcloud's s, m, h, d) does not take.
pub fn normalize_soak(text: &str) -> String {
    match Duration::parse(text) {
        Ok(d) if d.0 % 1_000 == 0 => d.to_string(),
        _ => text.to_string(),
    }
}

impl Reader<'_> {
    /// The gcloud stage config: `- stage:` items with sibling `fleet-projects`, `label-selector`,
    /// `soak-duration`.
    fn stage_config(&mut self, doc: &Node, name: &str) -> RolloutSequence {
        let mut seq = RolloutSequence {
            name: name.to_string(),
            ..Default::default()
        };
        let base = Path::root().recorded_as("strategy.stages".into());
        let Some(items) = self.seq(doc, &base) else {
            return seq;
        };
        for (i, item) in items.iter().enumerate() {
            let p = base.index(i);
            let Some(mut m) = self.map(item, &p, STAGE_CONFIG_KEYS) else {
                continue;
            };
            let number = i + 1;
            match m.iter().find(|e| e.key == "stage") {
                None => self.warning(
                    "stage-config-shape",
                    format!("stage {number} does not start with `stage:`; gcloud's stage config writes each item as `- stage:` followed by its keys"),
                    &p,
                    item,
                ),
                Some(e) if matches!(e.value.value, Value::Map(_)) => {
                    // Keys indented under `stage:` instead of beside it: a likely slip; read them anyway.
                    let msg = format!("stage {number}: `stage:` must be empty, with `fleet-projects`, `label-selector` and `soak-duration` beside it at the same indentation, not under it");
                    self.error("stage-config-shape", msg, &p.report_field("stage"), &e.value);
                    if let Some(inner) = self.map(&e.value, &p, STAGE_CONFIG_KEYS) {
                        m = inner;
                    }
                }
                Some(e) if !e.value.is_null() => {
                    let msg = format!("stage {number}: `stage:` must be empty (found {}); its keys go beside it", e.value.describe());
                    self.error("stage-config-shape", msg, &p.report_field("stage"), &e.value);
                }
                Some(_) => {}
            }
            let mut stage = SequenceStage::default();
            match get(m, "fleet-projects") {
                Some(v) => {
                    stage.fleet_projects = self.strings(v, &p.renamed("fleet-projects", "fleetProjects"))
                }
                None => self.error(
                    "missing-field",
                    format!("stage {number} needs `fleet-projects` (a list such as [projects/my-project]); gcloud requires it"),
                    &p.renamed("fleet-projects", "fleetProjects"),
                    item,
                ),
            }
            if let Some(v) = get(m, "label-selector") {
                stage.label_selector =
                    self.cel_selector(v, &p.renamed("label-selector", "labelSelector"));
            }
            let sp = p.renamed("soak-duration", "soakDuration");
            match get(m, "soak-duration") {
                Some(v) => {
                    if let Some(text) = self.scalar_text(v, &sp, "a duration such as 7d") {
                        if let Err(e) = Duration::parse(&text) {
                            self.error("invalid-value", format!("stage {number}: soak-duration {e}; gcloud takes a number with unit s, m, h or d, such as 7d"), &sp, v);
                        }
                        stage.soak_duration = Some(normalize_soak(&text));
                    }
                }
                None => self.error(
                    "missing-field",
                    format!("stage {number} needs `soak-duration` (such as 7d; units s, m, h, d); gcloud requires it"),
                    &sp,
                    item,
                ),
            }
            seq.stages.push(stage);
        }
        if seq.stages.is_empty() {
            self.error(
                "missing-field",
                "the stage config has no stages",
                &base,
                doc,
            );
        }
        seq
    }

    /// A RolloutSequence resource as the API returns it in JSON (or YAML).
    fn api_rollout_sequence(
        &mut self,
        doc: &Node,
        fallback_name: &str,
        prefix: String,
    ) -> RolloutSequence {
        let mut seq = RolloutSequence {
            name: fallback_name.to_string(),
            ..Default::default()
        };
        let root = Path::object(prefix, "", "strategy");
        let Some(m) = self.map(doc, &root, SEQUENCE_KEYS) else {
            return seq;
        };
        if let Some(v) = get(m, "name") {
            if let Some(name) = self.string(v, &root.field("name")) {
                // `projects/p/locations/global/rolloutSequences/ID`: the model keeps the ID.
                seq.name = name.rsplit('/').next().unwrap_or(&name).to_string();
            }
        }
        if let Some(v) = get(m, "displayName") {
            seq.display_name = self.string(v, &root.field("displayName"));
        }
        if let Some(v) = get(m, "labels") {
            self.resource_labels(
                v,
                &report_only(&root.field("labels")),
                "the RolloutSequence",
            );
        }
        if let Some(v) = get(m, "ignoredClustersSelector") {
            let p = root.field("ignoredClustersSelector");
            if let Some(sm) = self.map(v, &report_only(&p), CLUSTER_SELECTOR_KEYS) {
                if let Some(s) = get(sm, "labelSelector") {
                    seq.ignored_clusters_selector =
                        self.cel_selector(s, &p.report_field("labelSelector"));
                }
            }
        }
        match get(m, "stages") {
            Some(v) => {
                let sp = root.field("stages");
                if let Some(items) = self.seq(v, &sp) {
                    for (i, item) in items.iter().enumerate() {
                        seq.stages.push(self.api_stage(item, &sp.index(i)));
                    }
                }
            }
            None => self.missing("stages", &root, doc),
        }
        seq
    }

    fn api_stage(&mut self, n: &Node, p: &Path) -> SequenceStage {
        let mut stage = SequenceStage::default();
        let Some(m) = self.map(n, p, SEQUENCE_STAGE_KEYS) else {
            return stage;
        };
        if let Some(v) = get(m, "fleetProjects") {
            stage.fleet_projects = self.strings(v, &p.field("fleetProjects"));
        }
        if let Some(v) = get(m, "clusterSelector") {
            let cp = report_only(&p.field("clusterSelector"));
            if let Some(cm) = self.map(v, &cp, CLUSTER_SELECTOR_KEYS) {
                if let Some(s) = get(cm, "labelSelector") {
                    let sp = cp
                        .field("labelSelector")
                        .at_origin(&p.field("labelSelector"));
                    stage.label_selector = self.cel_selector(s, &sp);
                }
            }
        }
        if let Some(v) = get(m, "soakDuration") {
            stage.soak_duration = self.proto_duration(v, &p.field("soakDuration"));
        }
        stage
    }

    /// A resource's `labels`: Google Cloud's label rules with gcloud's texts, each at its key.
    fn resource_labels(&mut self, n: &Node, p: &Path, owner: &str) {
        let Value::Map(entries) = &n.value else {
            if !n.is_null() {
                let msg = format!(
                    "`labels` must be a map of key: value, found {}",
                    n.describe()
                );
                self.error("wrong-type", msg, p, n);
            }
            return;
        };
        if entries.len() > crate::labels::gcp::MAX_LABELS {
            let msg = format!(
                "{owner} has {} labels; Google Cloud allows at most {} labels on a resource",
                entries.len(),
                crate::labels::gcp::MAX_LABELS
            );
            self.error("gke-too-many-labels", msg, p, n);
        }
        for e in entries {
            let value = e.value.scalar().map_or("", |s| s.text.as_ref());
            for m in crate::labels::gcp::label_errors(&e.key, value) {
                self.error("gke-label", m, &p.report_field(&e.key), &e.value);
            }
        }
    }

    /// A protobuf Duration (`"259200s"`): other syntax is an error the API would return too, but the
    /// value is still read when fleetplan understands it.
    fn proto_duration(&mut self, n: &Node, p: &Path) -> Option<String> {
        let text = self.scalar_text(n, p, "a duration in seconds such as \"259200s\"")?;
        if !is_proto_duration(&text) {
            self.error(
                "invalid-value",
                format!("`{text}` is not a protobuf Duration: the API takes seconds with an `s`, such as \"259200s\" (3 days)"),
                p,
                n,
            );
        }
        Some(normalize_soak(&text))
    }

    /// One fleet's `clusterupgrade` feature: `{name, spec: {clusterupgrade: {...}}}`, or the bare
    /// `{fleet, clusterupgrade: {...}}`.
    fn feature(&mut self, doc: &Node, p: &Path) -> FleetGroup {
        let mut group = FleetGroup::default();
        let Some(m) = self.map(doc, p, FEATURE_KEYS) else {
            return group;
        };
        if let Some(v) = get(m, "labels") {
            self.resource_labels(v, &report_only(&p.field("labels")), "the feature");
        }
        let fleet_path = p.renamed("name", "fleet");
        if let Some(v) = get(m, "fleet") {
            group.fleet = self.string(v, &p.field("fleet")).unwrap_or_default();
        } else if let Some(v) = get(m, "name") {
            if let Some(name) = self.string(v, &fleet_path) {
                match fleet_of_feature(&name) {
                    Some(f) => group.fleet = f.to_string(),
                    None => self.error(
                        "invalid-value",
                        format!("feature name `{name}` is not projects/PROJECT/locations/global/features/clusterupgrade; add a `fleet` key to say which fleet this is"),
                        &fleet_path,
                        v,
                    ),
                }
            }
        } else {
            self.error(
                "missing-field",
                "which fleet is this? the feature needs its `name` (projects/PROJECT/locations/global/features/clusterupgrade) or a `fleet` key",
                &fleet_path,
                doc,
            );
        }
        let spec = match (get(m, "clusterupgrade"), get(m, "spec")) {
            (Some(v), _) => Some((v, p.report_field("clusterupgrade"))),
            (None, Some(s)) => {
                let sp = p.report_field("spec");
                let sm = self.map(s, &sp, FEATURE_SPEC_KEYS);
                sm.and_then(|sm| get(sm, "clusterupgrade"))
                    .map(|v| (v, sp.report_field("clusterupgrade")))
            }
            (None, None) => None,
        };
        let Some((cu, cp)) = spec else {
            return group;
        };
        let Some(cm) = self.map(cu, &cp, CLUSTER_UPGRADE_KEYS) else {
            return group;
        };
        if let Some(v) = get(cm, "upstreamFleets") {
            group.upstream_fleets = self.strings(v, &cp.field("upstreamFleets"));
        }
        if let Some(v) = get(cm, "postConditions") {
            group.soaking = self.post_conditions(v, &cp.report_field("postConditions"), &cp);
        }
        if let Some(v) = get(cm, "gkeUpgradeOverrides") {
            let op = cp.renamed("gkeUpgradeOverrides", "overrides");
            if let Some(items) = self.seq(v, &op) {
                for (i, item) in items.iter().enumerate() {
                    let ip = op.index(i);
                    let Some(om) = self.map(item, &ip, OVERRIDE_KEYS) else {
                        continue;
                    };
                    let mut o = UpgradeOverride::default();
                    match get(om, "upgrade") {
                        Some(u) => {
                            let up = ip.report_field("upgrade");
                            if let Some(um) = self.map(u, &up, UPGRADE_KEYS) {
                                let name_path = up
                                    .renamed("name", "upgrade")
                                    .at_origin(&ip.field("upgrade"));
                                match get(um, "name") {
                                    Some(x) => {
                                        o.upgrade = self.string(x, &name_path).unwrap_or_default()
                                    }
                                    None => self.missing("name", &up, u),
                                }
                                match get(um, "version") {
                                    Some(x) => {
                                        o.version = self
                                            .string(
                                                x,
                                                &up.field("version")
                                                    .at_origin(&ip.field("version")),
                                            )
                                            .unwrap_or_default()
                                    }
                                    None => self.missing("version", &up, u),
                                }
                            }
                        }
                        None => self.missing("upgrade", &ip, item),
                    }
                    match get(om, "postConditions") {
                        Some(pc) => {
                            o.soaking = self
                                .post_conditions(pc, &ip.report_field("postConditions"), &ip)
                                .unwrap_or_default()
                        }
                        None => self.missing("postConditions", &ip, item),
                    }
                    group.overrides.push(o);
                }
            }
        }
        group
    }

    /// `postConditions: {soaking: "604800s"}`; `owner` is where the scenario keeps `soaking`.
    fn post_conditions(&mut self, n: &Node, p: &Path, owner: &Path) -> Option<String> {
        let m = self.map(n, p, POST_CONDITIONS_KEYS)?;
        match get(m, "soaking") {
            Some(v) => {
                self.proto_duration(v, &p.field("soaking").at_origin(&owner.field("soaking")))
            }
            None => {
                self.missing("soaking", p, n);
                None
            }
        }
    }
}

/// The same path as reported, recorded nowhere: a wrapper object the scenario does not have, whose
/// child is recorded instead (so the SourceMap points at the selector text, not its wrapper).
fn report_only(p: &Path) -> Path {
    p.clone().recorded_as(String::new())
}

/// `projects/PROJECT/locations/global/features/clusterupgrade` → `PROJECT`.
fn fleet_of_feature(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("projects/")?;
    let (project, tail) = rest.split_once('/')?;
    (!project.is_empty()
        && tail.starts_with("locations/")
        && tail.ends_with("/features/clusterupgrade"))
    .then_some(project)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn protobuf_durations_are_seconds_with_an_s() {
        for ok in ["259200s", "0s", "1.5s", "-3s", "0.000000001s"] {
            assert!(is_proto_duration(ok), "{ok}");
        }
        for bad in ["3d", "259200", "s", "1.s", "1.0000000001s", "1h", ""] {
            assert!(!is_proto_duration(bad), "{bad}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn feature_names_give_the_fleet() {
        assert_eq!(
            fleet_of_feature("projects/bank-prod/locations/global/features/clusterupgrade"),
            Some("bank-prod")
        );
        assert_eq!(
            fleet_of_feature("projects/x/locations/global/features/other"),
            None
        );
        assert_eq!(file_stem("dir/bank-stages.yaml"), "bank-stages");
        assert_eq!(file_stem("<stdin>"), "imported-sequence");
    }
}
