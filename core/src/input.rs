//! Reading input text (fleetplan scenarios, KubeFleet manifests, YAML or JSON) into scenarios.
//!
//! All sources form one set of documents, so a fleet in one file and a strategy in another work. A
//! document with `apiVersion` is a KubeFleet object; one shaped like a GKE format (a gcloud stage
//! config, a RolloutSequence, a clusterupgrade feature) is imported by `gke::import`; any other is
//! fleetplan's own format. A fleetplan document without `strategy` supplies `start`, assumptions,
//! extra clusters (and GKE versions) to the scenarios built from manifests and GKE formats.

use crate::decode::{self, Document};
use crate::diag::{Diagnostic, Location};
use crate::gke::import::Shape;
use crate::gke::model::VersionEvent;
use crate::model::{Assumptions, Cluster, ClusterGenerator, Scenario, Strategy};
use crate::parts::{Missing, Parts};
use crate::source::{self, Node};
use crate::time::Time;

/// One input text and the name to report it by (a file path, `<stdin>`, `example:NAME`).
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

#[derive(Clone, Debug, Default)]
pub struct Loaded {
    pub scenarios: Vec<Scenario>,
    pub diagnostics: Vec<Diagnostic>,
    /// Parts the input needs that the caller of [`load_with`] lacks (then nothing past parsing was
    /// read: ask again with them). Always empty from [`load`].
    pub missing: Vec<Missing>,
}

impl Loaded {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// The most text one input may have, all its sources together: 16 MiB, room for the objects of some
/// thousands of member clusters with their status, or a fleetplan fleet of 300,000 listed clusters.
/// Past it nothing is read: every limit below (clusters, stages, aliases, time) is sized so that no
/// input of this size exhausts memory or time.
pub const MAX_INPUT_BYTES: usize = 16 * 1024 * 1024;

/// Reads every source: one scenario per fleetplan document with a `strategy`, plus one per KubeFleet
/// update run found among the manifests. Every problem found on the way is in `diagnostics`.
pub fn load(sources: &[Source]) -> Loaded {
    load_with(sources, &Parts::all())
}

/// [`load`] with only the optional parts the caller has (see [`crate::parts`]).
// Inlined in the browser's build: its main module reads with `load_with` alone, as before the
// memo's `load_again` (core/src/memo.rs, an on-demand part there) called this too.
#[cfg_attr(target_arch = "wasm32", inline(always))]
pub fn load_with(sources: &[Source], parts: &Parts) -> Loaded {
    if let Some(d) = too_large(sources) {
        return Loaded {
            diagnostics: vec![d],
            ..Loaded::default()
        };
    }
    let mut parsed = Vec::new();
    let mut diagnostics = Vec::new();
    for src in sources {
        let (docs, diags) = match (source::parse_fast(src.text), parts.yaml) {
            (Some(docs), _) => (docs, Vec::new()),
            (None, Some(full)) => full(src.text, src.name),
            // Nothing is read until the full reader is there (its diagnostics are part of the answer).
            (None, None) => {
                return Loaded {
                    missing: vec![Missing::Yaml],
                    ..Loaded::default()
                }
            }
        };
        diagnostics.extend(diags);
        parsed.extend(docs.into_iter().map(|d| (d, src.name)));
    }
    load_documents_with(parsed, diagnostics, parts)
}

/// [`load`] for documents already parsed (each with the name of its source), after the
/// diagnostics of parsing them.
pub fn load_documents(parsed: Vec<(Node, &str)>, diagnostics: Vec<Diagnostic>) -> Loaded {
    load_documents_with(parsed, diagnostics, &Parts::all())
}

pub(crate) fn load_documents_with(
    parsed: Vec<(Node, &str)>,
    diagnostics: Vec<Diagnostic>,
    parts: &Parts,
) -> Loaded {
    let mut out = Loaded {
        diagnostics,
        ..Loaded::default()
    };
    let mut manifests: Vec<(Node, &str)> = Vec::new();
    let mut gke: Vec<(Node, &str, Shape)> = Vec::new();
    let mut contexts: Vec<Document> = Vec::new();
    // A document of a GKE kind in fleetplan's format, left unread for want of the GKE part.
    let mut gke_kinds = false;
    let documents = parsed.len();
    for (doc, name) in parsed {
        if doc.get("apiVersion").is_some() {
            manifests.push((doc, name));
            continue;
        }
        if let Some(shape) = crate::gke::import::detect(&doc) {
            gke.push((doc, name, shape));
            continue;
        }
        if doc.get("kind").is_some() && (doc.get("metadata").is_some() || doc.get("spec").is_some())
        {
            // Clearly a Kubernetes object that lost its first line; read it as one rather than
            // burying the user in unknown-field warnings.
            let mut d = Diagnostic::warning(
                "missing-api-version",
                "this document has `kind` and `metadata`/`spec` but no `apiVersion`; read as a Kubernetes object",
            );
            d.location = Some(doc.location(name));
            out.diagnostics.push(d);
            manifests.push((doc, name));
            continue;
        }
        if parts.gke_decode.is_none() && decode::needs_gke(&doc) {
            gke_kinds = true;
            continue;
        }
        let decoded = decode::decode_document_with(&doc, name, parts.gke_decode);
        out.diagnostics.extend(decoded.diagnostics.iter().cloned());
        if decoded.has_strategy {
            out.scenarios.push(decoded.scenario);
        } else {
            contexts.push(decoded);
        }
    }
    if !manifests.is_empty() && parts.manifests.is_none() {
        out.missing.push(Missing::Manifests);
    }
    if (!gke.is_empty() && parts.gke_import.is_none()) || gke_kinds {
        out.missing.push(Missing::Gke);
    }
    if !out.missing.is_empty() {
        // An answer without those documents would be wrong, not partial: none until they can be read.
        out.scenarios.clear();
        return out;
    }
    if !manifests.is_empty() || !gke.is_empty() {
        let mut imported = Vec::new();
        if let (false, Some(import)) = (manifests.is_empty(), parts.manifests) {
            let docs: Vec<(&Node, &str)> = manifests.iter().map(|(n, f)| (n, *f)).collect();
            let (scenarios, diags) = import(&docs);
            out.diagnostics.extend(diags);
            imported.extend(scenarios);
        }
        if let (false, Some(import)) = (gke.is_empty(), parts.gke_import) {
            let docs: Vec<(&Node, &str, Shape)> = gke.iter().map(|(n, f, s)| (n, *f, *s)).collect();
            let (scenarios, diags) = import(&docs);
            out.diagnostics.extend(diags);
            imported.extend(scenarios);
        }
        let context = Context::merge(&contexts, &mut out.diagnostics);
        for mut s in imported {
            context.apply(&mut s);
            out.scenarios.push(s);
        }
    } else if !contexts.is_empty() && !out.scenarios.is_empty() {
        let mut d = Diagnostic::warning(
            "unused-document",
            "this document has no `strategy`, and there are no KubeFleet objects it could add to; it is ignored",
        );
        d.location = contexts
            .first()
            .and_then(|c| c.origin.first())
            .map(|(_, l)| l.clone());
        out.diagnostics.push(d);
    }
    if out.scenarios.is_empty() && !out.has_errors() {
        let message = if documents == 0 {
            "no scenario or KubeFleet objects found".to_string()
        } else if manifests.is_empty() {
            "no scenario or KubeFleet objects found: no document has a `strategy`, and there are no KubeFleet objects".to_string()
        } else {
            "no scenario or KubeFleet objects found: the KubeFleet objects contain no update run or update strategy".to_string()
        };
        out.diagnostics
            .push(Diagnostic::error("no-scenario", message));
    }
    crate::diag::cap(&mut out.diagnostics);
    out
}

/// The refusal of an input past [`MAX_INPUT_BYTES`], located where the limit is crossed.
// Inlined in the browser's build: its main module reads with `load_with` alone, as before the
// memo's `load_again` (core/src/memo.rs, an on-demand part there) called this too.
#[cfg_attr(target_arch = "wasm32", inline(always))]
pub(crate) fn too_large(sources: &[Source]) -> Option<Diagnostic> {
    let total: usize = sources.iter().map(|s| s.text.len()).sum();
    if total <= MAX_INPUT_BYTES {
        return None;
    }
    let mut left = MAX_INPUT_BYTES;
    let mut crossing = None;
    for src in sources {
        if src.text.len() > left {
            crossing = Some(src);
            break;
        }
        left -= src.text.len();
    }
    let src = crossing?;
    let before = &src.text.as_bytes()[..left];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = 1 + String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count();
    let mut d = Diagnostic::error(
        "input-too-large",
        format!(
            "the input goes on past {} MiB ({} bytes, here), the most fleetplan reads: nothing was read",
            MAX_INPUT_BYTES / (1024 * 1024),
            crate::diag::thousands(MAX_INPUT_BYTES)
        ),
    );
    d.location = Some(Location {
        file: src.name.to_string(),
        line,
        column,
    });
    Some(d)
}

/// What strategy-less fleetplan documents add to every manifest-derived scenario.
#[derive(Default)]
struct Context {
    name: Option<String>,
    description: Option<String>,
    start: Option<Time>,
    assumptions: Option<Assumptions>,
    clusters: Vec<Cluster>,
    generate: Vec<ClusterGenerator>,
    /// For GKE sequences imported from GKE's formats, which carry no versions.
    versions: Vec<VersionEvent>,
    /// Paths as if the context's clusters and generators were numbered from 0.
    origin: Vec<(String, Location)>,
}

impl Context {
    fn merge(docs: &[Document], diags: &mut Vec<Diagnostic>) -> Context {
        let mut ctx = Context::default();
        for doc in docs {
            let s = &doc.scenario;
            let (cluster_base, generate_base) = (ctx.clusters.len(), ctx.generate.len());
            ctx.name = ctx.name.take().or_else(|| s.name.clone());
            ctx.description = ctx.description.take().or_else(|| s.description.clone());
            if s.start.is_some() {
                if ctx.start.is_some() && ctx.start != s.start {
                    diags.push(later_wins("start", doc));
                }
                ctx.start = s.start;
            }
            if s.assumptions != Assumptions::default() {
                if ctx.assumptions.is_some() {
                    diags.push(later_wins("assumptions", doc));
                }
                ctx.assumptions = Some(s.assumptions.clone());
            }
            ctx.clusters.extend(s.clusters.iter().cloned());
            ctx.generate.extend(s.generate.iter().cloned());
            if !doc.versions.is_empty() {
                if !ctx.versions.is_empty() {
                    diags.push(later_wins("versions", doc));
                }
                ctx.versions.clone_from(&doc.versions);
            }
            for (path, loc) in &doc.origin {
                let shifted = shift(path, "clusters", cluster_base)
                    .or_else(|| shift(path, "generate", generate_base));
                ctx.origin
                    .push((shifted.unwrap_or_else(|| path.clone()), loc.clone()));
            }
        }
        ctx
    }

    fn apply(&self, s: &mut Scenario) {
        let (cluster_base, generate_base) = (s.clusters.len(), s.generate.len());
        if s.name.is_none() {
            s.name.clone_from(&self.name);
        }
        if s.description.is_none() {
            s.description.clone_from(&self.description);
        }
        if self.start.is_some() {
            s.start = self.start;
        }
        if let Some(a) = &self.assumptions {
            s.assumptions = a.clone();
        }
        s.clusters.extend(self.clusters.iter().cloned());
        s.generate.extend(self.generate.iter().cloned());
        let versions = match &mut s.strategy {
            Strategy::GkeRolloutSequence(seq) => Some(&mut seq.versions),
            Strategy::GkeFleetSequence(seq) => Some(&mut seq.versions),
            _ => None,
        };
        if let Some(v) = versions.filter(|v| v.is_empty()) {
            v.clone_from(&self.versions);
        }
        for (path, loc) in &self.origin {
            let path = shift(path, "clusters", cluster_base)
                .or_else(|| shift(path, "generate", generate_base))
                .unwrap_or_else(|| path.clone());
            s.origin.insert(path, loc.clone());
        }
    }
}

fn later_wins(field: &str, doc: &Document) -> Diagnostic {
    let mut d = Diagnostic::warning(
        "conflicting-documents",
        format!("`{field}` is given by several documents; the last one is used"),
    );
    d.location = doc
        .origin
        .iter()
        .find(|(p, _)| p == field)
        .map(|(_, l)| l.clone());
    d.at(field)
}

/// `clusters[3].labels` shifted by 2 → `clusters[5].labels`; `None` when `path` is not under `list`.
fn shift(path: &str, list: &str, by: usize) -> Option<String> {
    let rest = path.strip_prefix(list)?.strip_prefix('[')?;
    let (n, tail) = rest.split_once(']')?;
    let n: usize = n.parse().ok()?;
    Some(format!("{list}[{}]{tail}", n + by))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn empty_input_is_an_error() {
        let loaded = load(&[Source {
            name: "empty.yaml",
            text: "# nothing here\n",
        }]);
        assert!(loaded.scenarios.is_empty());
        assert_eq!(loaded.diagnostics.len(), 1);
        assert_eq!(
            loaded.diagnostics[0].message,
            "no scenario or KubeFleet objects found"
        );
        assert!(load(&[]).has_errors());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn paths_shift_by_list() {
        assert_eq!(
            shift("clusters[3].labels", "clusters", 2).as_deref(),
            Some("clusters[5].labels")
        );
        assert_eq!(shift("clusters", "clusters", 2), None);
        assert_eq!(shift("generate[0]", "clusters", 2), None);
    }

    const OBJECTS: &str = "apiVersion: cluster.kubernetes-fleet.io/v1beta1\nkind: MemberCluster\nmetadata: {name: m1, labels: {env: a}}\n---\n\
        apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateStrategy\nmetadata: {name: s}\nspec: {stages: [{name: all, labelSelector: {}}]}\n---\n\
        apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateRun\nmetadata: {name: r}\nspec: {placementName: p, stagedRolloutStrategyName: s, state: Run}\n";

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_strategy_less_document_completes_the_manifests_across_files() {
        let extra = "start: 2026-11-23T09:00:00Z\nclusters:\n  - name: extra1\n  - name: extra2\nassumptions: {updateDuration: 5m}\n";
        let loaded = load(&[
            Source {
                name: "objects.yaml",
                text: OBJECTS,
            },
            Source {
                name: "extra.yaml",
                text: extra,
            },
        ]);
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        assert_eq!(loaded.scenarios.len(), 1);
        let s = &loaded.scenarios[0];
        assert_eq!(
            s.clusters
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>(),
            ["m1", "extra1", "extra2"]
        );
        assert_eq!(s.start, Some(Time::parse("2026-11-23T09:00:00Z").unwrap()));
        assert_eq!(
            s.assumptions.update_duration,
            Some(crate::time::Duration::parse("5m").unwrap())
        );
        let loc = s.origin.locate("clusters[2]").unwrap();
        assert_eq!(
            (loc.file.as_str(), loc.line),
            ("extra.yaml", 4),
            "context clusters are renumbered after the members"
        );
        assert_eq!(s.origin.locate("clusters[0]").unwrap().file, "objects.yaml");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn fleetplan_scenarios_and_manifest_runs_load_side_by_side() {
        let scenario = "strategy: {stages: [{name: a}]}\n";
        let loaded = load(&[
            Source {
                name: "a.yaml",
                text: scenario,
            },
            Source {
                name: "b.yaml",
                text: OBJECTS,
            },
        ]);
        assert_eq!(loaded.scenarios.len(), 2);
        assert!(!loaded.has_errors());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn json_input_loads() {
        let json = "{\n\t\"strategy\": {\"stages\": [{\"name\": \"a\", \"maxConcurrency\": \"50%\"}]}\n}\n";
        let loaded = load(&[Source {
            name: "s.json",
            text: json,
        }]);
        assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
        assert_eq!(loaded.scenarios.len(), 1);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_syntax_error_is_reported_and_nothing_else_is_claimed() {
        let loaded = load(&[Source {
            name: "bad.yaml",
            text: "strategy:\n  stages: [\n",
        }]);
        assert_eq!(loaded.diagnostics.len(), 1, "{:?}", loaded.diagnostics);
        assert_eq!(loaded.diagnostics[0].code, "yaml-syntax");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_kubernetes_object_without_api_version_is_still_read_as_one() {
        let text = OBJECTS.replace(
            "apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateRun",
            "kind: ClusterStagedUpdateRun",
        );
        let loaded = load(&[Source {
            name: "o.yaml",
            text: &text,
        }]);
        assert_eq!(loaded.scenarios.len(), 1);
        assert!(loaded
            .diagnostics
            .iter()
            .any(|d| d.code == "missing-api-version"));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_byte_order_mark_is_not_part_of_the_first_key() {
        let loaded = load(&[Source {
            name: "bom.yaml",
            text: "\u{feff}strategy: {stages: []}\n",
        }]);
        assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    }

    /// Damaged versions of every example (cut short, a character replaced or inserted, a span deleted)
    /// must produce diagnostics, never a panic.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn damaged_input_never_panics() {
        let specials = [
            '[', ']', '{', '}', ':', '-', '\'', '"', '&', '*', '!', '|', '>', '\t', '\n', ' ', '#',
            '?', ',', '%', 'é',
        ];
        let mut seed: u64 = 0x5eed;
        for e in crate::examples::all() {
            let chars: Vec<char> = e.text.chars().collect();
            for round in 0..400 {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let pos = (seed >> 33) as usize % chars.len();
                let special = specials[(seed >> 20) as usize % specials.len()];
                let mut c = chars.clone();
                match round % 4 {
                    0 => c.truncate(pos),
                    1 => c[pos] = special,
                    2 => c.insert(pos, special),
                    _ => {
                        let len = ((seed >> 12) as usize % 40).min(c.len() - pos);
                        c.drain(pos..pos + len);
                    }
                }
                let text: String = c.into_iter().collect();
                let loaded = load(&[Source {
                    name: "damaged.yaml",
                    text: &text,
                }]);
                // What is wrong is said where it is: every diagnostic but those about the whole
                // input has a place, on a line the text has.
                let lines = text.split('\n').count();
                for d in &loaded.diagnostics {
                    let whole = matches!(d.code, "no-scenario" | "scenario-shape") || d.omitted > 0;
                    match &d.location {
                        Some(l) => {
                            assert!(l.line >= 1 && l.line <= lines, "{} in {lines} lines", d)
                        }
                        None => assert!(whole, "no place for {d} in {}", e.name),
                    }
                }
                for s in &loaded.scenarios {
                    let _ = crate::yaml_out::scenario_to_yaml(s);
                }
            }
        }
    }
}
