//! KubeFleet objects (documents with `apiVersion`, alone or in a `kind: List`) imported as scenarios:
//! one scenario per update run, resolved the way the controller resolves its strategy and placement;
//! placements without any staged strategy or run roll themselves out (`kubefleet-rolling`).
//!
//! Fields the planner does not need are skipped silently (real objects carry status, managedFields and
//! more); a known field of the wrong type is reported as `Kind/name: spec.path`, and the scenario's
//! SourceMap maps scenario paths back to the object's lines so later validation errors point there too.

use std::collections::BTreeMap;

use crate::decode::{Path, Reader, DEFAULT_STRATEGY_NAME};
use crate::diag::{Diagnostic, Location, SourceMap};
use crate::label_map::LabelMap;
use crate::model::{
    Assumptions, Cluster, Placement, PreviousRun, RunSpec, Scenario, StageConfig, StagedRun,
    Strategy,
};
use crate::rolling::model::{Change, PlacedResource, RollingRun, RollingUpdateConfig};
use crate::source::{Node, Value};
use crate::staged::init::INIT_PREFIX;

/// The kinds read; everything else is reported once per kind and ignored.
pub const KINDS: &[&str] = &[
    "MemberCluster",
    "ClusterStagedUpdateStrategy",
    "StagedUpdateStrategy",
    "ClusterStagedUpdateRun",
    "StagedUpdateRun",
    "ClusterResourcePlacement",
    "ResourcePlacement",
    "ClusterResourceBinding",
    "ResourceBinding",
];

/// Label KubeFleet puts on bindings naming their placement.
const PARENT_LABEL: &str = "kubernetes-fleet.io/parent-CRP";

/// Builds one scenario per update run found in `docs` (each with the file it came from).
pub fn import(docs: &[(&Node, &str)]) -> (Vec<Scenario>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let objects = flatten(docs, &mut diags);
    let mut set = ObjectSet::default();
    let mut ignored: BTreeMap<String, (usize, Location)> = BTreeMap::new();
    for obj in &objects {
        if KINDS.contains(&obj.kind.as_str()) {
            set.read(obj, &mut diags);
        } else {
            let entry = ignored
                .entry(obj.kind.clone())
                .or_insert_with(|| (0, obj.node.location(obj.file)));
            entry.0 += 1;
        }
    }
    for (kind, (count, loc)) in ignored {
        let what = if count == 1 {
            "1 object".to_string()
        } else {
            format!("{count} objects")
        };
        let mut d = Diagnostic::info(
            "ignored-kind",
            format!(
                "ignored {what} of kind {kind}: fleetplan reads {}",
                KINDS.join(", ")
            ),
        );
        d.location = Some(loc);
        diags.push(d);
    }
    let scenarios = set.scenarios(&mut diags);
    concurrent_runs(&scenarios, &mut diags);
    (scenarios, diags)
}

/// KubeFleet lets several runs roll out one placement at once, but its docs require identical
/// strategies: otherwise the run that touches a cluster second preempts the first, which then fails.
fn concurrent_runs(scenarios: &[Scenario], diags: &mut Vec<Diagnostic>) {
    let runs: Vec<&StagedRun> = scenarios
        .iter()
        .filter_map(|s| match &s.strategy {
            Strategy::KubefleetStaged(run) => Some(run),
            _ => None,
        })
        .collect();
    for (i, a) in runs.iter().enumerate() {
        for b in &runs[i + 1..] {
            if a.placement.name != b.placement.name || a.namespace != b.namespace {
                continue;
            }
            let (ra, rb, p) = (&a.run.name, &b.run.name, &a.placement.name);
            diags.push(if a.stages == b.stages {
                Diagnostic::info(
                    "concurrent-runs",
                    format!("runs `{ra}` and `{rb}` both roll out placement `{p}` with identical strategies; KubeFleet allows this. Each is planned on its own"),
                )
            } else {
                Diagnostic::warning(
                    "concurrent-runs-differ",
                    format!(
                        "runs `{ra}` and `{rb}` both roll out placement `{p}` with different strategies; KubeFleet requires identical ones. A run whose cluster the other updated fails with \"the binding of the updating cluster ... is not up-to-date with the desired status\""
                    ),
                )
            });
        }
    }
}

/// A document's object, with the file it came from.
struct Object<'n> {
    kind: String,
    node: &'n Node<'n>,
    file: &'n str,
}

/// Expands `kind: List` (and `*List`) documents into their items.
fn flatten<'n>(docs: &[(&'n Node<'n>, &'n str)], diags: &mut Vec<Diagnostic>) -> Vec<Object<'n>> {
    let mut out = Vec::new();
    // Depth is bounded by the parser's nesting limit, so this stack stays small.
    let mut stack: Vec<(&Node, &str)> = docs.iter().rev().copied().collect();
    while let Some((node, file)) = stack.pop() {
        let kind = node
            .get("kind")
            .and_then(|k| k.scalar())
            .map(|s| s.text.to_string())
            .unwrap_or_default();
        if kind.is_empty() {
            let mut d = Diagnostic::warning(
                "missing-kind",
                "this object has `apiVersion` but no `kind`; it is ignored",
            );
            d.location = Some(node.location(file));
            diags.push(d);
            continue;
        }
        if kind == "List" || (kind.ends_with("List") && node.get("items").is_some()) {
            match node.get("items").map(|i| &i.value) {
                Some(Value::Seq(items)) => stack.extend(items.iter().rev().map(|i| (i, file))),
                Some(_) if !node.get("items").is_some_and(Node::is_null) => {
                    let mut d = Diagnostic::error(
                        "wrong-type",
                        format!("`items` of a {kind} must be a list"),
                    )
                    .at("items");
                    d.location = node.get("items").map(|i| i.location(file));
                    diags.push(d);
                }
                _ => {}
            }
            continue;
        }
        out.push(Object { kind, node, file });
    }
    out
}

/// What one object contributed: decoded value, its diagnostics' prefix, and scenario origins.
struct Read<T> {
    value: T,
    name: String,
    namespace: Option<String>,
    /// `Kind/name` or `Kind/namespace/name`, the prefix of this object's diagnostics.
    id: String,
    origin: Vec<(String, Location)>,
    /// The object itself, for diagnostics about it as a whole.
    at: Location,
}

#[derive(Clone)]
struct RunObject {
    spec: RunSpec,
    namespaced: bool,
    strategy_name: String,
    placement_name: String,
    /// Where `spec.stagedRolloutStrategyName` and `spec.placementName` are, for not-found errors.
    strategy_at: Location,
    placement_at: Location,
}

struct Binding {
    target: String,
    parent: Option<String>,
}

#[derive(Default)]
struct ObjectSet {
    members: Vec<Read<Cluster>>,
    strategies: Vec<Read<(bool, Vec<StageConfig>)>>,
    runs: Vec<Read<RunObject>>,
    placements: Vec<Read<(bool, Placement)>>,
    /// `spec.strategy.rollingUpdate` and the selected kinds of each placement, in `placements` order.
    rolling: Vec<(RollingUpdateConfig, Vec<PlacedResource>)>,
    bindings: Vec<Binding>,
}

impl ObjectSet {
    fn read(&mut self, obj: &Object, diags: &mut Vec<Diagnostic>) {
        let mut r = Reader::new(obj.file, false);
        let n = obj.node;
        let root = Path::object(String::new(), "", "");
        let metadata = dig(&mut r, n, &root, &["metadata"]);
        let meta_path = root.report_field("metadata");
        let name = metadata
            .as_ref()
            .and_then(|m| m.get("name"))
            .and_then(|v| r.string(v, &meta_path.report_field("name")));
        let namespace = metadata
            .as_ref()
            .and_then(|m| m.get("namespace"))
            .and_then(|v| r.string(v, &meta_path.report_field("namespace")));
        // Metadata origins are recorded below under scenario paths that depend on the kind.
        r.origin.clear();
        let Some(name) = name else {
            let mut d = Diagnostic::error(
                "missing-field",
                format!("{} without `metadata.name` is ignored", obj.kind),
            )
            .at("metadata.name");
            d.location = Some(n.location(obj.file));
            diags.push(d);
            diags.append(&mut r.diags);
            return;
        };
        let id = match &namespace {
            Some(ns) => format!("{}/{ns}/{name}", obj.kind),
            None => format!("{}/{name}", obj.kind),
        };
        let prefix = format!("{id}: ");
        let root = Path::object(prefix.clone(), "", "");
        let at = n.location(obj.file);
        let name_node = metadata.and_then(|m| m.get("name"));
        match obj.kind.as_str() {
            "MemberCluster" => {
                let i = self.members.len();
                let base = format!("clusters[{i}]");
                r.origin.push((base.clone(), at.clone()));
                if let Some(nn) = name_node {
                    r.note(
                        &Path::object(prefix.clone(), "metadata.name", &format!("{base}.name")),
                        nn,
                    );
                }
                let labels = match metadata.and_then(|m| m.get("labels")) {
                    Some(l) => r.labels(
                        l,
                        &Path::object(prefix.clone(), "metadata.labels", &format!("{base}.labels")),
                    ),
                    None => LabelMap::new(),
                };
                let value = Cluster {
                    name: name.as_str().into(),
                    labels,
                    ..Default::default()
                };
                self.members.push(Read {
                    value,
                    name,
                    namespace,
                    id,
                    origin: r.origin,
                    at,
                });
            }
            "ClusterStagedUpdateStrategy" | "StagedUpdateStrategy" => {
                r.origin.push(("strategy".into(), at.clone()));
                if let Some(nn) = name_node {
                    r.note(
                        &Path::object(prefix.clone(), "metadata.name", "strategy.name"),
                        nn,
                    );
                }
                let sp = Path::object(prefix.clone(), "spec", "strategy");
                let stages = match dig(&mut r, n, &root, &["spec", "stages"]) {
                    Some(s) => r.stages(s, &sp.renamed("stages", "stages")),
                    None => Vec::new(),
                };
                let value = (obj.kind.starts_with("Cluster"), stages);
                self.strategies.push(Read {
                    value,
                    name,
                    namespace,
                    id,
                    origin: r.origin,
                    at,
                });
            }
            "ClusterStagedUpdateRun" | "StagedUpdateRun" => {
                r.origin.push(("strategy.run".into(), at.clone()));
                if let Some(nn) = name_node {
                    r.note(
                        &Path::object(prefix.clone(), "metadata.name", "strategy.run.name"),
                        nn,
                    );
                }
                let field = |r: &mut Reader, key: &str, origin: &str| {
                    let v = dig(r, n, &root, &["spec", key])?;
                    let p = Path::object(prefix.clone(), &format!("spec.{key}"), origin);
                    Some((r.string(v, &p)?, v.location(obj.file)))
                };
                let (placement_name, placement_at) =
                    field(&mut r, "placementName", "strategy.placement.name")
                        .unwrap_or_else(|| (String::new(), at.clone()));
                let (strategy_name, strategy_at) =
                    field(&mut r, "stagedRolloutStrategyName", "strategy.name")
                        .unwrap_or_else(|| (String::new(), at.clone()));
                let state = field(&mut r, "state", "strategy.run.state").map(|(s, _)| s);
                let index = field(
                    &mut r,
                    "resourceSnapshotIndex",
                    "strategy.run.resourceSnapshotIndex",
                )
                .map(|(s, _)| s);
                for (value, key) in [
                    (&placement_name, "placementName"),
                    (&strategy_name, "stagedRolloutStrategyName"),
                ] {
                    if value.is_empty() {
                        let mut d =
                            Diagnostic::error("missing-field", format!("{id} needs `spec.{key}`"))
                                .at(format!("{prefix}spec.{key}"));
                        d.location = Some(at.clone());
                        r.diags.push(d);
                    }
                }
                // A status says what state the stored run is in: applying this file is then an
                // update from that state (only when the file sets `spec.state`: older runs had none).
                let previous =
                    state
                        .as_ref()
                        .and_then(|_| state_from_status(n))
                        .map(|s| PreviousRun {
                            state: Some(s.to_string()),
                            ..PreviousRun::default()
                        });
                let spec = RunSpec {
                    name: name.clone(),
                    // The API's default: a run that is created without a state only initializes.
                    state: state.unwrap_or_else(|| "Initialize".into()),
                    resource_snapshot_index: index,
                    previous,
                };
                let value = RunObject {
                    spec,
                    namespaced: !obj.kind.starts_with("Cluster"),
                    strategy_name,
                    placement_name,
                    strategy_at,
                    placement_at,
                };
                self.runs.push(Read {
                    value,
                    name,
                    namespace,
                    id,
                    origin: r.origin,
                    at,
                });
            }
            "ClusterResourcePlacement" | "ResourcePlacement" => {
                r.origin.push(("strategy.placement".into(), at.clone()));
                let mut placement = read_placement(&mut r, n, &prefix, &name);
                let rolling = read_rolling(&mut r, n, &prefix);
                // The staged run's placement keeps the block too: the webhook refuses it on External.
                let has_block = n
                    .get("spec")
                    .and_then(|s| s.get("strategy"))
                    .and_then(|s| s.get("rollingUpdate"))
                    .is_some_and(|b| !b.is_null());
                if has_block {
                    placement.rolling_update = Some(rolling.0.clone());
                }
                self.rolling.push(rolling);
                let value = (obj.kind.starts_with("Cluster"), placement);
                self.placements.push(Read {
                    value,
                    name,
                    namespace,
                    id,
                    origin: r.origin,
                    at,
                });
            }
            _ => {
                // Bindings: only unscheduled ones matter, as the clusters a run deletes from.
                let p = root.report_field("spec");
                let state = dig(&mut r, n, &root, &["spec", "state"])
                    .and_then(|v| r.string(v, &p.report_field("state")));
                let target = dig(&mut r, n, &root, &["spec", "targetCluster"])
                    .and_then(|v| r.string(v, &p.report_field("targetCluster")));
                let parent = metadata
                    .and_then(|m| m.get("labels"))
                    .and_then(|l| l.get(PARENT_LABEL))
                    .and_then(|v| v.scalar())
                    .map(|s| s.text.to_string());
                if let (Some("Unscheduled"), Some(target)) = (state.as_deref(), target) {
                    self.bindings.push(Binding { target, parent });
                }
            }
        }
        diags.append(&mut r.diags);
    }

    fn scenarios(&self, diags: &mut Vec<Diagnostic>) -> Vec<Scenario> {
        let clusters = self.clusters(diags);
        let mut out = Vec::new();
        if self.runs.is_empty() {
            if self.strategies.is_empty() {
                return self.rolling_updates(&clusters, diags);
            }
            if let Some(s) = self.synthesized_run(&clusters, diags) {
                out.push(s);
            }
            return out;
        }
        for (i, run) in self.runs.iter().enumerate() {
            let same = |o: &Read<RunObject>| {
                o.name == run.name
                    && o.namespace == run.namespace
                    && o.value.namespaced == run.value.namespaced
            };
            // A later object of the same kind and name is an update of this one: plan that instead.
            if self.runs[i + 1..].iter().any(same) {
                continue;
            }
            let Some(old) = self.runs[..i].iter().rev().find(|o| same(o)) else {
                if let Some(s) = self.scenario(run, &run.value, &clusters, diags) {
                    out.push(s);
                }
                continue;
            };
            let mut d = Diagnostic::info(
                "run-update",
                format!(
                    "{} appears more than once: the last one is read as an update of the one before, which the API server checks against it (state transitions, immutable fields)",
                    run.id
                ),
            );
            d.location = Some(run.at.clone());
            diags.push(d);
            let mut updated = run.value.clone();
            updated.spec.previous = Some(PreviousRun {
                state: Some(old.value.spec.state.clone()),
                placement_name: Some(old.value.placement_name.clone()),
                strategy_name: Some(old.value.strategy_name.clone()),
                resource_snapshot_index: old.value.spec.resource_snapshot_index.clone(),
            });
            if let Some(s) = self.scenario(run, &updated, &clusters, diags) {
                out.push(s);
            }
        }
        out
    }

    /// Member clusters in input order; a repeated name keeps the last definition, as `kubectl apply` would.
    fn clusters(&self, diags: &mut Vec<Diagnostic>) -> Vec<&Read<Cluster>> {
        let mut out: Vec<&Read<Cluster>> = Vec::new();
        for m in &self.members {
            if let Some(slot) = out.iter_mut().find(|c| c.name == m.name) {
                let mut d = Diagnostic::warning(
                    "duplicate-object",
                    format!("{} is defined twice; the last definition is used", m.id),
                );
                d.location = Some(m.at.clone());
                diags.push(d);
                *slot = m;
            } else {
                out.push(m);
            }
        }
        out
    }

    /// Placements alone (no staged strategy or run): each one whose strategy is not `External` rolls
    /// itself out with its RollingUpdate strategy; fleetplan plans a new resource snapshot rolled over
    /// the clusters it picks.
    fn rolling_updates(
        &self,
        clusters: &[&Read<Cluster>],
        diags: &mut Vec<Diagnostic>,
    ) -> Vec<Scenario> {
        let mut out = Vec::new();
        for (p, (rolling_update, resources)) in self.placements.iter().zip(&self.rolling) {
            let placement = &p.value.1;
            if placement.strategy_type == "External" {
                continue;
            }
            let mut d = Diagnostic::info(
                "rolling-assumed",
                format!(
                    "no staged update run in the input: planning {}'s own {} strategy rolling a new resource snapshot over the clusters it picks",
                    p.id,
                    if placement.strategy_type.is_empty() { "RollingUpdate" } else { &placement.strategy_type }
                ),
            );
            d.location = Some(p.at.clone());
            diags.push(d);
            let mut source_map = members_source_map(clusters);
            for (path, loc) in &p.origin {
                source_map.insert(path.clone(), loc.clone());
            }
            out.push(Scenario {
                name: None,
                description: None,
                start: None,
                start_now: false,
                clusters: clusters.iter().map(|c| c.value.clone()).collect(),
                generate: Vec::new(),
                strategy: Strategy::KubefleetRolling(RollingRun {
                    placement: placement.clone(),
                    rolling_update: rolling_update.clone(),
                    resources: resources.clone(),
                    change: Change::default(),
                }),
                assumptions: Assumptions::default(),
                origin: source_map,
            });
        }
        out
    }

    /// No update run in the input: with exactly one strategy, plan the run one would create for it.
    fn synthesized_run(
        &self,
        clusters: &[&Read<Cluster>],
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Scenario> {
        let strategy = match self.strategies.as_slice() {
            [] => return None,
            [one] => one,
            many => {
                let names: Vec<&str> = many.iter().map(|s| s.id.as_str()).collect();
                diags.push(Diagnostic::error(
                    "no-update-run",
                    format!(
                        "found {} update strategies ({}) but no update run; add a ClusterStagedUpdateRun naming the one to plan",
                        many.len(),
                        names.join(", ")
                    ),
                ));
                return None;
            }
        };
        let cluster_scoped = strategy.value.0;
        let candidates: Vec<&Read<(bool, Placement)>> = self
            .placements
            .iter()
            .filter(|p| p.value.0 == cluster_scoped && p.namespace == strategy.namespace)
            .collect();
        let placement_name = match candidates.as_slice() {
            [] => Placement::default().name,
            [one] => one.name.clone(),
            _ => {
                let mut d = Diagnostic::error(
                    "no-update-run",
                    format!("no update run, and several placements it could roll out; add a ClusterStagedUpdateRun for {}", strategy.id),
                );
                d.location = Some(strategy.at.clone());
                diags.push(d);
                return None;
            }
        };
        let run_name = format!("{}-run", strategy.name);
        let mut d = Diagnostic::info(
            "run-assumed",
            format!(
                "no update run in the input: planning a run `{run_name}` of strategy `{}` on placement `{placement_name}` with state Run",
                strategy.name
            ),
        );
        d.location = Some(strategy.at.clone());
        diags.push(d);
        let run = Read {
            value: RunObject {
                spec: RunSpec {
                    name: run_name.clone(),
                    state: "Run".into(),
                    resource_snapshot_index: None,
                    previous: None,
                },
                namespaced: !cluster_scoped,
                strategy_name: strategy.name.clone(),
                placement_name,
                strategy_at: strategy.at.clone(),
                placement_at: strategy.at.clone(),
            },
            name: run_name,
            namespace: strategy.namespace.clone(),
            id: String::new(),
            origin: Vec::new(),
            at: strategy.at.clone(),
        };
        self.scenario(&run, &run.value, clusters, diags)
    }

    /// The scenario of one run, or `None` when the controller could not even find its objects.
    fn scenario(
        &self,
        run: &Read<RunObject>,
        spec: &RunObject,
        clusters: &[&Read<Cluster>],
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Scenario> {
        let cluster_scoped = !spec.namespaced;
        let Some(strategy) = self.strategies.iter().rev().find(|s| {
            s.value.0 == cluster_scoped
                && s.name == spec.strategy_name
                && s.namespace == run.namespace
        }) else {
            // NamespacedName's String(): "namespace/name", so "/name" for cluster-scoped objects.
            let key = format!(
                "{}/{}",
                run.namespace.as_deref().unwrap_or(""),
                spec.strategy_name
            );
            let mut d = Diagnostic::error(
                "strategy-not-found",
                format!("{INIT_PREFIX}referenced updateStrategy not found: `{key}`"),
            )
            .at(format!("{}: spec.stagedRolloutStrategyName", run.id));
            d.location = Some(spec.strategy_at.clone());
            diags.push(d);
            return None;
        };
        let mut origin: Vec<(String, Location)> = Vec::new();
        let mut placement_id = None;
        let placement = if self.placements.is_empty() {
            let mut d = Diagnostic::info(
                "placement-assumed",
                format!(
                    "no ClusterResourcePlacement in the input: assuming `{}` picks every member cluster (PickAll) with strategy type External",
                    spec.placement_name
                ),
            );
            d.location = Some(spec.placement_at.clone());
            diags.push(d);
            origin.push(("strategy.placement".into(), spec.placement_at.clone()));
            Placement {
                name: spec.placement_name.clone(),
                ..Placement::default()
            }
        } else {
            let found = self.placements.iter().rev().find(|p| {
                p.value.0 == cluster_scoped
                    && p.name == spec.placement_name
                    && p.namespace == run.namespace
            });
            let Some(p) = found else {
                let mut d = Diagnostic::error(
                    "placement-not-found",
                    format!("{INIT_PREFIX}parent placement not found"),
                )
                .at(format!("{}: spec.placementName", run.id));
                d.location = Some(spec.placement_at.clone());
                diags.push(d);
                return None;
            };
            origin.extend(p.origin.iter().cloned());
            placement_id = Some(p.id.clone());
            p.value.1.clone()
        };
        let mut delete_clusters: Vec<String> = Vec::new();
        for b in &self.bindings {
            if b.parent.as_ref().is_none_or(|p| *p == placement.name)
                && !delete_clusters.contains(&b.target)
            {
                delete_clusters.push(b.target.clone());
            }
        }
        // Run origins after the placement's, so the run's own `placementName` line wins for that path.
        let mut all_origin = run.origin.clone();
        all_origin.extend(strategy.origin.iter().cloned());
        all_origin.extend(origin);
        let mut source_map = members_source_map(clusters);
        for (path, loc) in all_origin {
            source_map.insert(path, loc);
        }
        source_map.name_object("strategy.run", run.id.clone());
        if let Some(id) = placement_id {
            source_map.name_object("strategy.placement", id);
        }
        let name = if strategy.name.is_empty() {
            DEFAULT_STRATEGY_NAME.to_string()
        } else {
            strategy.name.clone()
        };
        Some(Scenario {
            name: None,
            description: None,
            start: None,
            start_now: false,
            clusters: clusters.iter().map(|c| c.value.clone()).collect(),
            generate: Vec::new(),
            strategy: Strategy::KubefleetStaged(StagedRun {
                name,
                namespace: strategy.namespace.clone(),
                stages: strategy.value.1.clone(),
                run: spec.spec.clone(),
                placement,
                delete_clusters,
            }),
            assumptions: Assumptions::default(),
            origin: source_map,
        })
    }
}

/// `spec.policy` and `spec.strategy.type` of a ClusterResourcePlacement / ResourcePlacement.
fn read_placement(r: &mut Reader, n: &Node, prefix: &str, name: &str) -> Placement {
    // Unlike fleetplan's shorthand, the object's defaults are the API's: RollingUpdate unless External.
    let mut pl = Placement {
        name: name.to_string(),
        strategy_type: "RollingUpdate".into(),
        ..Placement::default()
    };
    let root = Path::object(prefix.to_string(), "", "");
    let policy = Path::object(prefix.to_string(), "spec.policy", "strategy.placement");
    if let Some(v) = dig(r, n, &root, &["spec", "policy", "placementType"]) {
        if let Some(t) = r.string(v, &policy.renamed("placementType", "placementType")) {
            pl.placement_type = t;
        }
    }
    if let Some(v) = dig(r, n, &root, &["spec", "policy", "clusterNames"]) {
        pl.cluster_names = r.strings(v, &policy.field("clusterNames"));
    }
    if let Some(v) = dig(r, n, &root, &["spec", "policy", "numberOfClusters"]) {
        pl.number_of_clusters = r.int32(
            v,
            &policy.field("numberOfClusters"),
            crate::decode::NUMBER_OF_CLUSTERS_GO,
        );
    }
    let terms_keys = [
        "spec",
        "policy",
        "affinity",
        "clusterAffinity",
        "requiredDuringSchedulingIgnoredDuringExecution",
        "clusterSelectorTerms",
    ];
    if let Some(v) = dig(r, n, &root, &terms_keys) {
        let tp = Path::object(
            prefix.to_string(),
            "spec.policy.affinity.clusterAffinity.requiredDuringSchedulingIgnoredDuringExecution.clusterSelectorTerms",
            "strategy.placement.affinity",
        );
        if let Some(terms) = r.seq(v, &tp) {
            for (i, term) in terms.iter().enumerate() {
                let ip = tp.index(i);
                match term.get("labelSelector").filter(|s| !s.is_null()) {
                    Some(sel) => {
                        if let Some(s) = r.selector(sel, &ip.report_field("labelSelector")) {
                            pl.affinity.push(s);
                        }
                    }
                    None => {
                        let msg = "a cluster selector term without `labelSelector` (property selectors) is not simulated; the term is ignored";
                        r.warning("unsupported-term", msg, &ip, term);
                    }
                }
            }
        }
    }
    if let Some(v) = dig(r, n, &root, &["spec", "strategy", "applyStrategy", "type"]) {
        let sp = Path::object(
            prefix.to_string(),
            "spec.strategy.applyStrategy.type",
            "strategy.placement.applyStrategy",
        );
        pl.apply_strategy = r.string(v, &sp);
    }
    if let Some(v) = dig(r, n, &root, &["spec", "strategy", "type"]) {
        let sp = Path::object(
            prefix.to_string(),
            "spec.strategy.type",
            "strategy.placement.strategyType",
        );
        if let Some(t) = r.string(v, &sp) {
            pl.strategy_type = t;
        }
    }
    pl
}

/// `spec.strategy.rollingUpdate` (kept as written, for the webhook's checks) and the kinds
/// `spec.resourceSelectors` select. A selected Namespace places everything in it, which the object does
/// not say: then no kinds are taken and the plan assumes a Deployment (and says so).
fn read_rolling(
    r: &mut Reader,
    n: &Node,
    prefix: &str,
) -> (RollingUpdateConfig, Vec<PlacedResource>) {
    let mut ru = RollingUpdateConfig::default();
    let root = Path::object(prefix.to_string(), "", "");
    let base = Path::object(
        prefix.to_string(),
        "spec.strategy.rollingUpdate",
        "strategy.rollingUpdate",
    );
    if let Some(v) = dig(
        r,
        n,
        &root,
        &["spec", "strategy", "rollingUpdate", "maxUnavailable"],
    ) {
        ru.max_unavailable = r.int_or_string(v, &base.field("maxUnavailable"));
    }
    if let Some(v) = dig(
        r,
        n,
        &root,
        &["spec", "strategy", "rollingUpdate", "maxSurge"],
    ) {
        ru.max_surge = r.int_or_string(v, &base.field("maxSurge"));
    }
    if let Some(v) = dig(
        r,
        n,
        &root,
        &[
            "spec",
            "strategy",
            "rollingUpdate",
            "unavailablePeriodSeconds",
        ],
    ) {
        ru.unavailable_period_seconds = r.int(v, &base.field("unavailablePeriodSeconds"));
    }
    let mut kinds: Vec<PlacedResource> = Vec::new();
    if let Some(Value::Seq(items)) = n
        .get("spec")
        .and_then(|s| s.get("resourceSelectors"))
        .map(|v| &v.value)
    {
        for item in items {
            let Some(kind) = item.get("kind").and_then(|k| k.scalar()) else {
                continue;
            };
            if kind.text == "Namespace" {
                return (ru, Vec::new());
            }
            if !kinds.iter().any(|k| k.kind == kind.text) {
                kinds.push(PlacedResource {
                    kind: kind.text.to_string(),
                    service_type: None,
                });
            }
        }
    }
    (ru, kinds)
}

/// The state a stored run is in, read off its `status.conditions` (execution.go, stop.go): a
/// Progressing condition stopped or stopping means Stop, any other Progressing reason means the run
/// ran (Run); only Initialized=True means it was created with Initialize.
fn state_from_status(run: &Node) -> Option<&'static str> {
    let Value::Seq(conditions) = &run.get("status")?.get("conditions")?.value else {
        return None;
    };
    let text = |c: &Node, key: &str| {
        c.get(key)
            .and_then(|v| v.scalar())
            .map(|s| s.text.to_string())
    };
    let mut initialized = false;
    for c in conditions {
        match (text(c, "type").as_deref(), text(c, "reason").as_deref()) {
            (Some("Progressing"), Some("UpdateRunStopped" | "UpdateRunStopping")) => {
                return Some("Stop")
            }
            (Some("Progressing"), Some(_)) => return Some("Run"),
            (Some("Initialized"), _) if text(c, "status").as_deref() == Some("True") => {
                initialized = true
            }
            _ => {}
        }
    }
    initialized.then_some("Initialize")
}

/// Follows `keys` through nested mappings, reporting any step that is not a mapping.
fn dig<'n>(r: &mut Reader, n: &'n Node<'n>, base: &Path, keys: &[&str]) -> Option<&'n Node<'n>> {
    let mut node = n;
    let mut path = base.clone();
    for key in keys {
        let entries = match &node.value {
            Value::Map(entries) => entries,
            _ if node.is_null() => return None,
            _ => {
                r.wrong_type("a mapping", &path, node);
                return None;
            }
        };
        node = &entries.iter().find(|e| e.key == *key)?.value;
        path = path.report_field(key);
    }
    (!node.is_null()).then_some(node)
}

/// Where each member cluster's fields were written, under the scenario's `clusters[i]` paths.
/// Members were numbered in input order; renumber when a duplicate shifted them.
fn members_source_map(clusters: &[&Read<Cluster>]) -> SourceMap {
    let mut source_map = SourceMap::default();
    for (i, c) in clusters.iter().enumerate() {
        for (path, loc) in &c.origin {
            let renumbered = match path.split_once(']') {
                Some((_, tail)) => format!("clusters[{i}]{tail}"),
                None => path.clone(),
            };
            source_map.insert(renumbered, loc.clone());
        }
        source_map.name_object(format!("clusters[{i}]"), c.id.clone());
    }
    source_map
}

#[cfg(test)]
mod tests;
