//! The KubeFleet parts of a scenario: stages, label selectors, stage tasks, the run and the placement.
//! Shared by the fleetplan format and manifest import, which read the same `spec.stages` shape.

use std::borrow::Cow;

use super::read::{get, Path, Reader};
use super::NUMBER_OF_CLUSTERS_GO;
use crate::label_map::LabelMap;
use crate::model::{
    IntOrString, LabelSelector, LabelSelectorRequirement, Placement, PreviousRun, RunSpec,
    StageConfig, StageTask,
};
use crate::source::{Node, Resolved, Value};

pub(crate) const STAGE_KEYS: &[&str] = &[
    "name",
    "labelSelector",
    "sortingLabelKey",
    "maxConcurrency",
    "beforeStageTasks",
    "afterStageTasks",
];
const TASK_KEYS: &[&str] = &["type", "waitTime"];
/// Label maps of at most this many entries are read without a list on the heap (see `labels`).
const SMALL_LABELS: usize = 4;
const SELECTOR_KEYS: &[&str] = &["matchLabels", "matchExpressions"];
const REQUIREMENT_KEYS: &[&str] = &["key", "operator", "values"];
const RUN_KEYS: &[&str] = &["name", "state", "resourceSnapshotIndex", "previous"];
const PREVIOUS_KEYS: &[&str] = &[
    "state",
    "placementName",
    "stagedRolloutStrategyName",
    "resourceSnapshotIndex",
];
const PLACEMENT_KEYS: &[&str] = &[
    "name",
    "type",
    "placementType",
    "clusterNames",
    "numberOfClusters",
    "affinity",
    "strategyType",
    "rollingUpdate",
    "applyStrategy",
];

impl Reader<'_> {
    pub(crate) fn stages(&mut self, n: &Node, p: &Path) -> Vec<StageConfig> {
        let Some(items) = self.seq(n, p) else {
            return Vec::new();
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| self.stage(item, &p.index(i)))
            .collect()
    }

    fn stage(&mut self, n: &Node, p: &Path) -> StageConfig {
        let mut stage = StageConfig::default();
        let Some(m) = self.map(n, p, STAGE_KEYS) else {
            return stage;
        };
        if let Some(v) = get(m, "name") {
            stage.name = self.string(v, &p.field("name")).unwrap_or_default();
        }
        // A null labelSelector is as absent as a missing one: both select no cluster in KubeFleet.
        if let Some(v) = get(m, "labelSelector") {
            stage.label_selector = self.selector(v, &p.field("labelSelector"));
        }
        if let Some(v) = get(m, "sortingLabelKey") {
            stage.sorting_label_key = self.string(v, &p.field("sortingLabelKey"));
        }
        if let Some(v) = get(m, "maxConcurrency") {
            stage.max_concurrency = self.int_or_string(v, &p.field("maxConcurrency"));
        }
        if let Some(v) = get(m, "beforeStageTasks") {
            stage.before_stage_tasks = self.tasks(v, &p.field("beforeStageTasks"));
        }
        if let Some(v) = get(m, "afterStageTasks") {
            stage.after_stage_tasks = self.tasks(v, &p.field("afterStageTasks"));
        }
        stage
    }

    /// `maxConcurrency`, `maxUnavailable`, `maxSurge`: kept as written; the engine applies KubeFleet's
    /// rules to them. The integer of an IntOrString is an `int32`: intstr's own UnmarshalJSON refuses
    /// a larger one, with encoding/json's text and no field path (it decodes the number alone).
    pub(crate) fn int_or_string(&mut self, n: &Node, p: &Path) -> Option<IntOrString> {
        match (&n.value, n.resolve()) {
            (_, Some(Resolved::Int(i))) => {
                self.note(p, n);
                match i32::try_from(i) {
                    Ok(v) => Some(IntOrString::Int(v)),
                    Err(_) => {
                        let msg = format!(
                            "json: cannot unmarshal number {i} into Go value of type int32"
                        );
                        self.error("int32-range", msg, p, n);
                        None
                    }
                }
            }
            (Value::Scalar(s), Some(Resolved::Str(_))) => {
                self.note(p, n);
                Some(IntOrString::Str(s.text.to_string()))
            }
            _ => {
                self.wrong_type("an integer or a percentage string such as \"25%\"", p, n);
                None
            }
        }
    }

    fn tasks(&mut self, n: &Node, p: &Path) -> Vec<StageTask> {
        let Some(items) = self.seq(n, p) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let p = p.index(i);
            let Some(m) = self.map(item, &p, TASK_KEYS) else {
                continue;
            };
            let mut task = StageTask::default();
            if let Some(v) = get(m, "type") {
                task.kind = self.string(v, &p.field("type")).unwrap_or_default();
            }
            // Any scalar is kept as text (`30` stays "30") so the engine can quote the schema error.
            if let Some(v) = get(m, "waitTime") {
                task.wait_time =
                    self.scalar_text(v, &p.field("waitTime"), "a duration string such as 1h");
            }
            out.push(task);
        }
        out
    }

    /// A label selector: the Kubernetes mapping, or kubectl's one-line syntax (`env=prod,!canary`).
    pub(crate) fn selector(&mut self, n: &Node, p: &Path) -> Option<LabelSelector> {
        if let (Value::Scalar(_), Some(Resolved::Str(text))) = (&n.value, n.resolve()) {
            self.note(p, n);
            return match crate::selector::parse_kubectl(text) {
                Ok(sel) => Some(sel),
                Err((col, msg)) => {
                    let mut d = crate::diag::Diagnostic::error(
                        "selector-syntax",
                        format!("label selector `{text}`: {msg}"),
                    )
                    .at(p.shown());
                    d.location = Some(self.loc_in_string(n, col));
                    self.diags.push(d);
                    None
                }
            };
        }
        let m = self.map(n, p, SELECTOR_KEYS)?;
        let mut sel = LabelSelector::default();
        if let Some(v) = get(m, "matchLabels") {
            sel.match_labels = self.labels(v, &p.field("matchLabels"));
        }
        if let Some(v) = get(m, "matchExpressions") {
            let p = p.field("matchExpressions");
            if let Some(items) = self.seq(v, &p) {
                for (i, item) in items.iter().enumerate() {
                    let p = p.index(i);
                    let Some(m) = self.map(item, &p, REQUIREMENT_KEYS) else {
                        continue;
                    };
                    let mut req = LabelSelectorRequirement::default();
                    if let Some(v) = get(m, "key") {
                        req.key = self.string(v, &p.field("key")).unwrap_or_default();
                    }
                    if let Some(v) = get(m, "operator") {
                        req.operator = self.string(v, &p.field("operator")).unwrap_or_default();
                    }
                    if let Some(v) = get(m, "values") {
                        let p = p.field("values");
                        if let Some(values) = self.seq(v, &p) {
                            req.values = values
                                .iter()
                                .enumerate()
                                .filter_map(|(j, v)| self.label_value(v, &p.index(j)))
                                .collect();
                        }
                    }
                    sel.match_expressions.push(req);
                }
            }
        }
        Some(sel)
    }

    /// A label map (cluster labels, matchLabels): string values, plain scalars read with a warning.
    /// Keys and values borrowed from the tree, so the map copies each once, into its own text.
    pub(crate) fn labels(&mut self, n: &Node, p: &Path) -> LabelMap {
        let Value::Map(entries) = &n.value else {
            if !n.is_null() {
                self.wrong_type("a mapping of label keys to values", p, n);
            }
            return LabelMap::new();
        };
        self.note(p, n);
        let mut read = entries.iter().filter_map(|e| {
            self.label_value_in(&e.value, p, &e.key)
                .map(|v| (&*e.key, v))
        });
        // A cluster has a few labels: they are gathered on the stack, not in a list allocated (and
        // freed) per cluster read.
        if entries.len() <= SMALL_LABELS {
            const NONE: (&str, Cow<'static, str>) = ("", Cow::Borrowed(""));
            let mut small = [NONE; SMALL_LABELS];
            let mut len = 0;
            for (slot, e) in small.iter_mut().zip(&mut read) {
                *slot = e;
                len += 1;
            }
            return LabelMap::from_read(&mut small[..len]);
        }
        LabelMap::from_read(&mut read.collect::<Vec<_>>())
    }

    /// `run: name` or `run: {name, state, resourceSnapshotIndex}`.
    pub(crate) fn run(&mut self, n: &Node, p: &Path) -> RunSpec {
        let mut run = RunSpec::default();
        if let Value::Scalar(_) = n.value {
            if let Some(name) = self.string(n, &p.field("name")) {
                run.name = name;
            }
            return run;
        }
        let Some(m) = self.map(n, p, RUN_KEYS) else {
            return run;
        };
        if let Some(v) = get(m, "name") {
            run.name = self.string(v, &p.field("name")).unwrap_or_default();
        }
        if let Some(v) = get(m, "state") {
            run.state = self.string(v, &p.field("state")).unwrap_or(run.state);
        }
        if let Some(v) = get(m, "resourceSnapshotIndex") {
            run.resource_snapshot_index = self.string(v, &p.field("resourceSnapshotIndex"));
        }
        if let Some(v) = get(m, "previous") {
            let pp = p.field("previous");
            if let Some(pm) = self.map(v, &pp, PREVIOUS_KEYS) {
                let text = |key: &str, r: &mut Self| {
                    get(pm, key).and_then(|x| r.string(x, &pp.field(key)))
                };
                run.previous = Some(PreviousRun {
                    state: text("state", self),
                    placement_name: text("placementName", self),
                    strategy_name: text("stagedRolloutStrategyName", self),
                    resource_snapshot_index: text("resourceSnapshotIndex", self),
                });
            }
        }
        run
    }

    /// `placement: name` or the mapping form.
    pub(crate) fn placement(&mut self, n: &Node, p: &Path) -> Placement {
        let mut pl = Placement::default();
        if let Value::Scalar(_) = n.value {
            if let Some(name) = self.string(n, &p.field("name")) {
                pl.name = name;
            }
            return pl;
        }
        let Some(m) = self.map(n, p, PLACEMENT_KEYS) else {
            return pl;
        };
        if let Some(v) = get(m, "name") {
            pl.name = self.string(v, &p.field("name")).unwrap_or_default();
        }
        // `type` as in the brief's shorthand, `placementType` as the model serializes it.
        for key in ["type", "placementType"] {
            if let Some(v) = get(m, key) {
                if let Some(t) = self.string(v, &p.renamed(key, "placementType")) {
                    pl.placement_type = t;
                }
            }
        }
        if let Some(v) = get(m, "clusterNames") {
            pl.cluster_names = self.strings(v, &p.field("clusterNames"));
        }
        if let Some(v) = get(m, "numberOfClusters") {
            pl.number_of_clusters =
                self.int32(v, &p.field("numberOfClusters"), NUMBER_OF_CLUSTERS_GO);
        }
        if let Some(v) = get(m, "affinity") {
            pl.affinity = self.selectors(v, &p.field("affinity"));
        }
        if let Some(v) = get(m, "strategyType") {
            if let Some(t) = self.string(v, &p.field("strategyType")) {
                pl.strategy_type = t;
            }
        }
        if let Some(v) = get(m, "rollingUpdate") {
            pl.rolling_update = Some(self.rolling_update(v, &p.field("rollingUpdate")));
        }
        if let Some(v) = get(m, "applyStrategy") {
            pl.apply_strategy = self.string(v, &p.field("applyStrategy"));
        }
        pl
    }

    /// One selector, or a list of them (ORed affinity terms).
    fn selectors(&mut self, n: &Node, p: &Path) -> Vec<LabelSelector> {
        match &n.value {
            Value::Seq(items) => {
                self.note(p, n);
                items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, item)| self.selector(item, &p.index(i)))
                    .collect()
            }
            _ => self.selector(n, p).into_iter().collect(),
        }
    }
}
