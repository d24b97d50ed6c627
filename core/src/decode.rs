//! The fleetplan scenario format (documents without `apiVersion`) decoded into a [`Scenario`].
//!
//! Decoding never stops at the first problem: a field of the wrong type is reported with its path and
//! position and left at its default, so one run of the tool shows every mistake and the rest of the plan
//! still renders. Every path read is recorded in the scenario's SourceMap for later diagnostics.

mod assumptions;
mod gke;
pub(crate) mod read;
mod rolling;
mod strategy;

pub(crate) use read::{Path, Reader};

use crate::diag::{Diagnostic, Location, SourceMap};
use crate::model::{
    Assumptions, Cluster, ClusterGenerator, ClusterVersion, LabelSpread, MaintenanceExclusion,
    MaintenancePolicy, MaintenanceWindow, NodePool, Scenario, SpreadMode, StagedRun, Strategy,
    UpgradeDurations,
};
use crate::sorted_map::SortedMap;
use crate::source::{Entry, Node, Value};
use read::get;

/// Strategy kinds the format knows, for the "unknown kind" message.
pub const KINDS: &[&str] = &[
    "kubefleet-staged",
    "kubefleet-rolling",
    "gke-rollout-sequence",
    "gke-fleet-sequence",
];

/// Where encoding/json says `numberOfClusters` sits when it refuses a number beyond `int32`.
pub const NUMBER_OF_CLUSTERS_GO: &str = "PlacementPolicy.spec.policy.numberOfClusters";

/// Name given to the strategy object when a scenario does not name it.
pub const DEFAULT_STRATEGY_NAME: &str = "example-strategy";

const ROOT_KEYS: &[&str] = &[
    "name",
    "description",
    "start",
    "clusters",
    "generate",
    "strategy",
    "assumptions",
    "versions",
];
const CLUSTER_KEYS: &[&str] = &[
    "name",
    "labels",
    "fleet",
    "version",
    "releaseChannel",
    "maintenance",
    "nodePools",
    "upgradeDurations",
];
const NODE_POOL_KEYS: &[&str] = &["name", "nodes", "maxSurge"];
const UPGRADE_DURATION_KEYS: &[&str] = &["controlPlane", "perNode"];
const VERSION_KEYS: &[&str] = &["controlPlane", "node"];
const MAINTENANCE_KEYS: &[&str] = &["window", "exclusions"];
const WINDOW_KEYS: &[&str] = &["daily", "recurring", "start", "end", "recurrence"];
const RECURRING_KEYS: &[&str] = &["start", "end", "recurrence"];
const DAILY_KEYS: &[&str] = &["start"];
const EXCLUSION_KEYS: &[&str] = &["name", "start", "end", "scope"];
const GENERATOR_KEYS: &[&str] = &["count", "name", "first", "labels"];
const SPREAD_KEYS: &[&str] = &["values", "spread", "mode", "index"];
const STRATEGY_KEYS: &[&str] = &[
    "kind",
    "name",
    "namespace",
    "stages",
    "run",
    "placement",
    "deleteClusters",
];

/// One decoded fleetplan document.
#[derive(Clone, Debug)]
pub struct Document {
    /// With a default strategy when the document has none (see `has_strategy`).
    pub scenario: Scenario,
    /// False for a document that only supplies clusters, `start` or assumptions to manifests.
    pub has_strategy: bool,
    /// Top-level `versions` of a strategy-less document: GKE version events for sequences imported
    /// from GKE's own formats, which carry none (recorded under `strategy.versions`).
    pub versions: Vec<crate::gke::model::VersionEvent>,
    /// Scenario path → where it was written, for a document without `strategy` (which `input` merges
    /// into other scenarios); a scenario's own paths are in `scenario.origin`.
    pub origin: Vec<(String, Location)>,
    pub diagnostics: Vec<Diagnostic>,
}

/// How the GKE kinds of the format are decoded (`gke-rollout-sequence`, `gke-fleet-sequence`, and
/// top-level `versions`): brought in with the GKE part (see [`crate::parts`]), since most scenarios
/// are of a KubeFleet kind and the browser draws them before that code has arrived.
#[derive(Clone, Copy, Debug)]
pub struct GkeDecoder {
    strategy: for<'f> fn(&mut Reader<'f>, &Node, &Path, &str) -> Strategy,
    versions: for<'f> fn(&mut Reader<'f>, &Node, &Path) -> Vec<crate::gke::model::VersionEvent>,
}

pub(crate) const GKE_DECODER: GkeDecoder = GkeDecoder {
    strategy: gke::strategy,
    versions: gke::versions,
};

const GKE_KINDS: &[&str] = &["gke-rollout-sequence", "gke-fleet-sequence"];

/// Whether decoding `doc` needs the GKE part: a strategy of a GKE kind, or top-level `versions`.
pub fn needs_gke(doc: &Node) -> bool {
    let kind = doc
        .get("strategy")
        .and_then(|s| s.get("kind"))
        .and_then(|k| k.scalar())
        .map(|k| k.text.as_ref());
    kind.is_some_and(|k| GKE_KINDS.contains(&k)) || doc.get("versions").is_some()
}

/// Decodes one fleetplan-format document read from `file`.
pub fn decode_document(doc: &Node, file: &str) -> Document {
    decode_document_with(doc, file, Some(GKE_DECODER))
}

/// [`decode_document`] for a caller that may lack the GKE kinds' decoding: then a document that
/// [`needs_gke`] must not be given (its GKE fields would be read as nothing).
pub fn decode_document_with(doc: &Node, file: &str, gke: Option<GkeDecoder>) -> Document {
    // A scenario's paths go straight into its source map; a document without `strategy` keeps them
    // in a list too, which `input` merges into the scenarios built from manifests.
    let mut r = if doc.get("strategy").is_some() {
        Reader::recording(file, true)
    } else {
        Reader::new(file, true)
    };
    r.gke = gke;
    let root = Path::root();
    let mut scenario = Scenario {
        name: None,
        description: None,
        start: None,
        start_now: false,
        clusters: Vec::new(),
        generate: Vec::new(),
        strategy: Strategy::KubefleetStaged(StagedRun {
            name: DEFAULT_STRATEGY_NAME.into(),
            ..Default::default()
        }),
        assumptions: Assumptions::default(),
        origin: SourceMap::default(),
    };
    let mut has_strategy = false;
    let mut versions = Vec::new();
    if let Some(m) = r.map(doc, &root, ROOT_KEYS) {
        if let Some(v) = get(m, "name") {
            scenario.name = r.string(v, &root.field("name"));
        }
        if let Some(v) = get(m, "description") {
            scenario.description = r.string(v, &root.field("description"));
        }
        if let Some(v) = get(m, "start") {
            // `now`: the instant the front end passes in (the core reads no clock).
            if v.scalar().is_some_and(|s| s.text == "now") {
                r.note(&root.field("start"), v);
                scenario.start_now = true;
            } else {
                scenario.start = r.time(v, &root.field("start"));
            }
        }
        if let Some(v) = get(m, "clusters") {
            scenario.clusters = r.clusters(v, &root.field("clusters"));
        }
        if let Some(v) = get(m, "generate") {
            scenario.generate = r.generators(v, &root.field("generate"));
        }
        if let Some(v) = get(m, "strategy") {
            has_strategy = true;
            scenario.strategy = r.strategy(v, &root.field("strategy"));
        }
        if let Some(v) = get(m, "assumptions") {
            scenario.assumptions = r.assumptions(v, &root.field("assumptions"));
        }
        if let Some(v) = get(m, "versions") {
            let vp = root.renamed("versions", "strategy.versions");
            if let Some(g) = r.gke {
                versions = (g.versions)(&mut r, v, &vp);
            }
            if has_strategy {
                r.warning(
                    "misplaced-field",
                    "top-level `versions` only adds versions to a sequence imported from GKE's formats (in a document without `strategy`); here it is ignored: put it under `strategy`",
                    &root.field("versions"),
                    v,
                );
                versions.clear();
            }
        }
    } else if !doc.is_null() {
        // `map` reported the type; say what a scenario looks like too.
        r.diags.push(Diagnostic::info("scenario-shape", "a fleetplan scenario is a mapping with `clusters`, `strategy` and `assumptions`; see docs/scenario-format.md"));
    }
    let origin = match r.take_source_map() {
        Some(mut map) => {
            map.shrink_to_fit();
            scenario.origin = map;
            Vec::new()
        }
        None => {
            let bytes = r.origin.iter().map(|(p, _)| p.len()).sum();
            scenario.origin.reserve(r.origin.len(), bytes);
            for (path, loc) in &r.origin {
                scenario.origin.insert(path.clone(), loc.clone());
            }
            r.origin
        }
    };
    Document {
        scenario,
        has_strategy,
        versions,
        origin,
        diagnostics: r.diags,
    }
}

impl Reader<'_> {
    pub(crate) fn clusters(&mut self, n: &Node, p: &Path) -> Vec<Cluster> {
        let Some(items) = self.seq(n, p) else {
            return Vec::new();
        };
        // Sized for every item (most are clusters): a list grown by doubling holds up to twice the room.
        let mut out: Vec<Cluster> = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let ip = self.index_path(p, i);
            if let Some(m) = self.map(item, &ip, CLUSTER_KEYS) {
                // Filled where it stays: a `Cluster` built apart and moved in was copied two or three
                // times (160 bytes in wasm, each copy a `memory.copy` call).
                out.push(Cluster::default());
                if let Some(c) = out.last_mut() {
                    self.cluster(m, &ip, c);
                }
            }
            self.done(ip);
        }
        out
    }

    /// Reads a cluster's fields (`m`, the entries of the mapping at `p`) into `c`.
    fn cluster(&mut self, m: &[Entry], p: &Path, c: &mut Cluster) {
        if let Some(v) = get(m, "name") {
            c.name = self.name_in(v, p, "name").unwrap_or_default();
        }
        if let Some(v) = get(m, "labels") {
            let lp = self.field_path(p, "labels");
            c.labels = self.labels(v, &lp);
            self.done(lp);
        }
        if let Some(v) = get(m, "fleet") {
            c.fleet = self.string_in(v, p, "fleet");
        }
        if let Some(v) = get(m, "version") {
            let vp = self.field_path(p, "version");
            if let Some(vm) = self.map(v, &vp, VERSION_KEYS) {
                let control_plane =
                    get(vm, "controlPlane").and_then(|x| self.string_in(x, &vp, "controlPlane"));
                let node = get(vm, "node").and_then(|x| self.string_in(x, &vp, "node"));
                c.version = Some(ClusterVersion {
                    control_plane,
                    node,
                });
            }
            self.done(vp);
        }
        if let Some(v) = get(m, "releaseChannel") {
            c.release_channel = self.string_in(v, p, "releaseChannel");
        }
        if let Some(v) = get(m, "maintenance") {
            let mp = self.field_path(p, "maintenance");
            c.maintenance = self.maintenance(v, &mp);
            self.done(mp);
        }
        if let Some(v) = get(m, "nodePools") {
            c.node_pools = self.node_pools(v, &p.field("nodePools"));
        }
        if let Some(v) = get(m, "upgradeDurations") {
            let up = p.field("upgradeDurations");
            if let Some(um) = self.map(v, &up, UPGRADE_DURATION_KEYS) {
                let control_plane = get(um, "controlPlane")
                    .and_then(|x| self.duration(x, &up.field("controlPlane")));
                let per_node =
                    get(um, "perNode").and_then(|x| self.duration(x, &up.field("perNode")));
                c.upgrade_durations = Some(UpgradeDurations {
                    control_plane,
                    per_node,
                });
            }
        }
    }

    fn node_pools(&mut self, n: &Node, p: &Path) -> Vec<NodePool> {
        let Some(items) = self.seq(n, p) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let ip = p.index(i);
            let Some(m) = self.map(item, &ip, NODE_POOL_KEYS) else {
                continue;
            };
            let mut pool = NodePool::default();
            if let Some(v) = get(m, "name") {
                pool.name = self.string_in(v, &ip, "name").unwrap_or_default();
            }
            match get(m, "nodes") {
                Some(v) => pool.nodes = self.count(v, &ip.field("nodes")).unwrap_or_default(),
                None => self.missing("nodes", &ip, item),
            }
            if let Some(v) = get(m, "maxSurge") {
                pool.max_surge = self.count(v, &ip.field("maxSurge"));
            }
            out.push(pool);
        }
        out
    }

    fn maintenance(&mut self, n: &Node, p: &Path) -> Option<MaintenancePolicy> {
        let m = self.map(n, p, MAINTENANCE_KEYS)?;
        let mut policy = MaintenancePolicy::default();
        if let Some(v) = get(m, "window") {
            let wp = self.field_path(p, "window");
            policy.window = self.window(v, &wp);
            self.done(wp);
        }
        if let Some(v) = get(m, "exclusions") {
            let xp = p.field("exclusions");
            if let Some(items) = self.seq(v, &xp) {
                for (i, item) in items.iter().enumerate() {
                    let ip = xp.index(i);
                    let Some(em) = self.map(item, &ip, EXCLUSION_KEYS) else {
                        continue;
                    };
                    let text = |key: &str, r: &mut Self| {
                        get(em, key)
                            .and_then(|x| r.string_in(x, &ip, key))
                            .unwrap_or_default()
                    };
                    let exclusion = MaintenanceExclusion {
                        name: text("name", self),
                        start: text("start", self),
                        end: text("end", self),
                        scope: text("scope", self),
                    };
                    policy.exclusions.push(exclusion);
                }
            }
        }
        Some(policy)
    }

    /// `{daily: "03:00"}`, `{start, end, recurrence}`, or the serialized `{daily: {start}}` /
    /// `{recurring: {start, end, recurrence}}`.
    fn window(&mut self, n: &Node, p: &Path) -> Option<MaintenanceWindow> {
        let m = self.map(n, p, WINDOW_KEYS)?;
        if let Some(v) = get(m, "daily") {
            let dp = self.field_path(p, "daily");
            if let Value::Scalar(_) = v.value {
                let start = self.string(v, &dp);
                self.done(dp);
                return start.map(|start| MaintenanceWindow::Daily { start });
            }
            let dm = self.map(v, &dp, DAILY_KEYS)?;
            let start = get(dm, "start")
                .and_then(|x| self.string(x, &dp.field("start")))
                .unwrap_or_default();
            return Some(MaintenanceWindow::Daily { start });
        }
        let (fields, fp) = match get(m, "recurring") {
            Some(v) => {
                let rp = p.field("recurring");
                (self.map(v, &rp, RECURRING_KEYS)?, rp)
            }
            None => (m, p.clone()),
        };
        let text =
            |key: &str, r: &mut Self| get(fields, key).and_then(|x| r.string_in(x, &fp, key));
        let start = text("start", self);
        let end = text("end", self);
        let recurrence = text("recurrence", self);
        match (start, end, recurrence) {
            (Some(start), Some(end), Some(recurrence)) => Some(MaintenanceWindow::Recurring {
                start,
                end,
                recurrence,
            }),
            _ => {
                self.error(
                    "missing-field",
                    "a maintenance window needs `daily`, or `start`, `end` and `recurrence`",
                    p,
                    n,
                );
                None
            }
        }
    }

    fn generators(&mut self, n: &Node, p: &Path) -> Vec<ClusterGenerator> {
        let Some(items) = self.seq(n, p) else {
            return Vec::new();
        };
        items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| self.generator(item, &p.index(i)))
            .collect()
    }

    fn generator(&mut self, n: &Node, p: &Path) -> Option<ClusterGenerator> {
        let m = self.map(n, p, GENERATOR_KEYS)?;
        let count = match get(m, "count") {
            Some(v) => self.count(v, &p.field("count")),
            None => {
                self.missing("count", p, n);
                None
            }
        };
        let name = match get(m, "name") {
            Some(v) => self.string(v, &p.field("name")),
            None => {
                self.missing("name", p, n);
                None
            }
        };
        let first = get(m, "first")
            .and_then(|v| self.count(v, &p.field("first")))
            .unwrap_or(1);
        let mut labels = SortedMap::new();
        if let Some(v) = get(m, "labels") {
            let lp = p.field("labels");
            match &v.value {
                Value::Map(entries) => {
                    self.note(&lp, v);
                    labels = entries
                        .iter()
                        .filter_map(|e| {
                            self.spread(&e.value, &lp.field(&e.key))
                                .map(|spread| (e.key.to_string(), spread))
                        })
                        .collect();
                }
                _ => self.wrong_type("a mapping of label keys to values", &lp, v),
            }
        }
        Some(ClusterGenerator {
            count: count?,
            name: name?,
            first,
            labels,
        })
    }

    /// One value, a list (cycled), `{values, spread: cycle|blocks}`, or `{index: true}`.
    fn spread(&mut self, n: &Node, p: &Path) -> Option<LabelSpread> {
        match &n.value {
            Value::Scalar(_) => {
                let value = self.label_value(n, p)?;
                Some(LabelSpread {
                    values: vec![value],
                    mode: SpreadMode::Cycle,
                })
            }
            Value::Seq(items) => {
                self.note(p, n);
                let values: Vec<String> = items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| self.label_value(v, &p.index(i)))
                    .collect();
                if values.is_empty() {
                    self.error(
                        "invalid-value",
                        "a generated label needs at least one value",
                        p,
                        n,
                    );
                    return None;
                }
                Some(LabelSpread {
                    values,
                    mode: SpreadMode::Cycle,
                })
            }
            Value::Map(_) => {
                let m = self.map(n, p, SPREAD_KEYS)?;
                let mut mode = SpreadMode::Cycle;
                for key in ["spread", "mode"] {
                    let Some(v) = get(m, key) else { continue };
                    let kp = p.field(key);
                    match self.string(v, &kp).as_deref() {
                        Some("cycle") => mode = SpreadMode::Cycle,
                        Some("blocks") => mode = SpreadMode::Blocks,
                        Some("index") => mode = SpreadMode::Index,
                        Some(other) => self.error(
                            "invalid-value",
                            format!("`{key}` must be `cycle` or `blocks`, found `{other}`"),
                            &kp,
                            v,
                        ),
                        None => {}
                    }
                }
                if let Some(v) = get(m, "index") {
                    if self.boolean(v, &p.field("index")) == Some(true) {
                        mode = SpreadMode::Index;
                    }
                }
                let values = match get(m, "values") {
                    Some(v) => {
                        let vp = p.field("values");
                        match &v.value {
                            Value::Seq(items) => {
                                self.note(&vp, v);
                                items
                                    .iter()
                                    .enumerate()
                                    .filter_map(|(i, x)| self.label_value(x, &vp.index(i)))
                                    .collect()
                            }
                            _ => self.label_value(v, &vp).into_iter().collect(),
                        }
                    }
                    None => Vec::new(),
                };
                if values.is_empty() && mode != SpreadMode::Index {
                    self.error(
                        "missing-field",
                        "a generated label needs `values` (or `index: true`)",
                        p,
                        n,
                    );
                    return None;
                }
                Some(LabelSpread { values, mode })
            }
        }
    }

    fn strategy(&mut self, n: &Node, p: &Path) -> Strategy {
        // Each kind has its own fields; look at `kind` first so unknown-field warnings use the right set.
        let kind = n
            .get("kind")
            .and_then(|k| k.scalar())
            .map(|k| k.text.as_ref());
        match kind {
            Some("kubefleet-rolling") => return self.rolling_strategy(n, p),
            Some(k) if GKE_KINDS.contains(&k) => {
                if let Some(g) = self.gke {
                    return (g.strategy)(self, n, p, k);
                }
                // Without the GKE part `input` asks for it before decoding such a document.
                return Strategy::KubefleetStaged(StagedRun::default());
            }
            _ => {}
        }
        let mut run = StagedRun {
            name: DEFAULT_STRATEGY_NAME.into(),
            ..Default::default()
        };
        let Some(m) = self.map(n, p, STRATEGY_KEYS) else {
            return Strategy::KubefleetStaged(run);
        };
        if let Some(v) = get(m, "kind") {
            let kp = p.field("kind");
            if let Some(kind) = self.string(v, &kp) {
                if !KINDS.contains(&kind.as_str()) {
                    let mut msg = format!(
                        "unknown strategy kind `{kind}`; known kinds: {}",
                        KINDS.join(", ")
                    );
                    if let Some(s) = read::suggest(&kind, KINDS) {
                        msg.push_str(&format!(" (did you mean `{s}`?)"));
                    }
                    self.error("unknown-kind", msg, &kp, v);
                }
            }
        }
        if let Some(v) = get(m, "name") {
            if let Some(name) = self.string(v, &p.field("name")) {
                run.name = name;
            }
        }
        if let Some(v) = get(m, "namespace") {
            run.namespace = self.string(v, &p.field("namespace"));
        }
        if let Some(v) = get(m, "stages") {
            run.stages = self.stages(v, &p.field("stages"));
        }
        if let Some(v) = get(m, "run") {
            run.run = self.run(v, &p.field("run"));
        }
        if let Some(v) = get(m, "placement") {
            run.placement = self.placement(v, &p.field("placement"));
        }
        if let Some(v) = get(m, "deleteClusters") {
            run.delete_clusters = self.strings(v, &p.field("deleteClusters"));
        }
        Strategy::KubefleetStaged(run)
    }
}

#[cfg(test)]
mod tests;
