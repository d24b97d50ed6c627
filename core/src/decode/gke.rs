//! The GKE kinds of the fleetplan format: `gke-rollout-sequence` and `gke-fleet-sequence`, plus the
//! CEL selector check shared with the import of GKE's own formats.

use super::read::{get, Path, Reader};
use crate::cel::{Expr, Operand};
use crate::gke::model::{
    FleetGroup, FleetSequence, MinorTarget, RolloutSequence, SequenceStage, UpgradeOverride,
    VersionEvent,
};
use crate::model::Strategy;
use crate::source::{Node, Value};

/// Versions released into one sequence that fleetplan follows: the planner's work grows with their
/// square (each version meets every other in every stage), and 5,000 once took seconds.
pub const MAX_VERSION_EVENTS: usize = 1_000;

const ROLLOUT_SEQUENCE_KEYS: &[&str] = &[
    "kind",
    "name",
    "displayName",
    "stages",
    "ignoredClustersSelector",
    "versions",
];
const STAGE_KEYS: &[&str] = &["fleetProjects", "fleet", "labelSelector", "soakDuration"];
const FLEET_SEQUENCE_KEYS: &[&str] = &["kind", "name", "grouping", "groups", "versions"];
const GROUP_KEYS: &[&str] = &["fleet", "upstreamFleets", "soaking", "overrides"];
const OVERRIDE_KEYS: &[&str] = &["upgrade", "version", "soaking"];
const VERSION_KEYS: &[&str] = &["version", "targets", "upgradeType", "at"];

/// A strategy of one of the GKE kinds (`kind` is `gke-rollout-sequence` or `gke-fleet-sequence`).
pub(super) fn strategy(r: &mut Reader<'_>, n: &Node, p: &Path, kind: &str) -> Strategy {
    if kind == "gke-rollout-sequence" {
        r.gke_rollout_sequence(n, p)
    } else {
        r.gke_fleet_sequence(n, p)
    }
}

/// Top-level `versions` of a document without `strategy`.
pub(super) fn versions(r: &mut Reader<'_>, n: &Node, p: &Path) -> Vec<VersionEvent> {
    r.version_events(n, p)
}

impl Reader<'_> {
    pub(crate) fn gke_rollout_sequence(&mut self, n: &Node, p: &Path) -> Strategy {
        let mut seq = RolloutSequence::default();
        if let Some(m) = self.map(n, p, ROLLOUT_SEQUENCE_KEYS) {
            if let Some(v) = get(m, "name") {
                seq.name = self.string(v, &p.field("name")).unwrap_or_default();
            }
            if let Some(v) = get(m, "displayName") {
                seq.display_name = self.string(v, &p.field("displayName"));
            }
            if let Some(v) = get(m, "stages") {
                let sp = p.field("stages");
                if let Some(items) = self.seq(v, &sp) {
                    seq.stages = items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| self.sequence_stage(item, &sp.index(i)))
                        .collect();
                }
            }
            if let Some(v) = get(m, "ignoredClustersSelector") {
                seq.ignored_clusters_selector =
                    self.cel_selector(v, &p.field("ignoredClustersSelector"));
            }
            if let Some(v) = get(m, "versions") {
                seq.versions = self.version_events(v, &p.field("versions"));
            }
        }
        Strategy::GkeRolloutSequence(seq)
    }

    fn sequence_stage(&mut self, n: &Node, p: &Path) -> SequenceStage {
        let mut stage = SequenceStage::default();
        let Some(m) = self.map(n, p, STAGE_KEYS) else {
            return stage;
        };
        if let Some(v) = get(m, "fleetProjects") {
            stage.fleet_projects = self.strings(v, &p.field("fleetProjects"));
        }
        // `fleet: x` is shorthand for `fleetProjects: [x]` (GKE allows one fleet per stage anyway).
        if let Some(v) = get(m, "fleet") {
            let fp = p.renamed("fleet", "fleetProjects");
            if get(m, "fleetProjects").is_some() {
                self.error(
                    "conflicting-fields",
                    "give either `fleet` or `fleetProjects`, not both",
                    &p.field("fleet"),
                    v,
                );
            } else if let Some(f) = self.string(v, &fp) {
                stage.fleet_projects = vec![f];
            }
        }
        if let Some(v) = get(m, "labelSelector") {
            stage.label_selector = self.cel_selector(v, &p.field("labelSelector"));
        }
        if let Some(v) = get(m, "soakDuration") {
            stage.soak_duration = self.scalar_text(
                v,
                &p.field("soakDuration"),
                "a duration such as 3d or 259200s",
            );
        }
        stage
    }

    pub(crate) fn gke_fleet_sequence(&mut self, n: &Node, p: &Path) -> Strategy {
        let mut seq = FleetSequence::default();
        if let Some(m) = self.map(n, p, FLEET_SEQUENCE_KEYS) {
            if let Some(v) = get(m, "name") {
                seq.name = self.string(v, &p.field("name")).unwrap_or_default();
            }
            if let Some(v) = get(m, "grouping") {
                seq.grouping = self.string(v, &p.field("grouping"));
            }
            if let Some(v) = get(m, "groups") {
                let gp = p.field("groups");
                if let Some(items) = self.seq(v, &gp) {
                    seq.groups = items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| self.fleet_group(item, &gp.index(i)))
                        .collect();
                }
            }
            if let Some(v) = get(m, "versions") {
                seq.versions = self.version_events(v, &p.field("versions"));
            }
        }
        Strategy::GkeFleetSequence(seq)
    }

    fn fleet_group(&mut self, n: &Node, p: &Path) -> FleetGroup {
        let mut group = FleetGroup::default();
        let Some(m) = self.map(n, p, GROUP_KEYS) else {
            return group;
        };
        match get(m, "fleet") {
            Some(v) => group.fleet = self.string(v, &p.field("fleet")).unwrap_or_default(),
            None => self.missing("fleet", p, n),
        }
        if let Some(v) = get(m, "upstreamFleets") {
            group.upstream_fleets = self.strings(v, &p.field("upstreamFleets"));
        }
        if let Some(v) = get(m, "soaking") {
            group.soaking = self.scalar_text(v, &p.field("soaking"), "a duration such as 7d");
        }
        if let Some(v) = get(m, "overrides") {
            let op = p.field("overrides");
            if let Some(items) = self.seq(v, &op) {
                for (i, item) in items.iter().enumerate() {
                    let ip = op.index(i);
                    let Some(om) = self.map(item, &ip, OVERRIDE_KEYS) else {
                        continue;
                    };
                    let text = |key: &str, r: &mut Self| match get(om, key) {
                        Some(x) => r.scalar_text(x, &ip.field(key), "a string"),
                        None => {
                            r.missing(key, &ip, item);
                            None
                        }
                    };
                    let upgrade = text("upgrade", self);
                    let version = text("version", self);
                    let soaking = text("soaking", self);
                    group.overrides.push(UpgradeOverride {
                        upgrade: upgrade.unwrap_or_default(),
                        version: version.unwrap_or_default(),
                        soaking: soaking.unwrap_or_default(),
                    });
                }
            }
        }
        group
    }

    /// `versions: [{version, upgradeType, at}]`; a bare string is a version released at the start.
    pub(crate) fn version_events(&mut self, n: &Node, p: &Path) -> Vec<VersionEvent> {
        let Some(mut items) = self.seq(n, p) else {
            return Vec::new();
        };
        if items.len() > MAX_VERSION_EVENTS {
            let msg = format!(
                "{} version events; fleetplan follows at most {} per sequence (a release channel names a few a month), the rest are left out",
                crate::diag::thousands(items.len()),
                crate::diag::thousands(MAX_VERSION_EVENTS)
            );
            self.error(
                "too-many-versions",
                msg,
                &p.index(MAX_VERSION_EVENTS),
                &items[MAX_VERSION_EVENTS],
            );
            items = &items[..MAX_VERSION_EVENTS];
        }
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let ip = p.index(i);
            if let Value::Scalar(_) = item.value {
                if let Some(version) = self.string(item, &ip.field("version")) {
                    out.push(VersionEvent {
                        version,
                        ..Default::default()
                    });
                }
                continue;
            }
            let Some(m) = self.map(item, &ip, VERSION_KEYS) else {
                continue;
            };
            let mut event = VersionEvent::default();
            match (get(m, "version"), get(m, "targets")) {
                (Some(v), None) => {
                    event.version = self.string(v, &ip.field("version")).unwrap_or_default()
                }
                (None, Some(t)) => event.targets = self.minor_targets(t, &ip.field("targets")),
                (Some(_), Some(t)) => self.error(
                    "conflicting-fields",
                    "give either `version` (one target for every minor) or `targets` (one per minor), not both",
                    &ip.field("targets"),
                    t,
                ),
                (None, None) => self.missing("version", &ip, item),
            }
            if let Some(v) = get(m, "upgradeType") {
                event.upgrade_type = self.string(v, &ip.field("upgradeType"));
            }
            if let Some(v) = get(m, "at") {
                event.at = self.time(v, &ip.field("at"));
            }
            out.push(event);
        }
        out
    }

    /// `targets: {"1.20": 1.21.14-gke.4300, ...}`: minor version → the target of clusters running it.
    fn minor_targets(&mut self, n: &Node, p: &Path) -> Vec<MinorTarget> {
        let Value::Map(entries) = &n.value else {
            let msg = format!(
                "`targets` must be a map of minor version to target version (\"1.20\": 1.21.14-gke.4300), found {}",
                n.describe()
            );
            self.error("wrong-type", msg, p, n);
            return Vec::new();
        };
        entries
            .iter()
            .filter_map(|e| {
                let version = self.string(&e.value, &p.field(&e.key))?;
                Some(MinorTarget {
                    minor: e.key.to_string(),
                    version,
                })
            })
            .collect()
    }

    /// A CEL selector over `resource.labels`, kept as written, so the stage stays a labelled stage (an
    /// unparsable selector must not silently turn it into a catch-all). A syntax error is the planner's
    /// to report (`cel-syntax`: the sequence is invalid, in every output); here the selector's path is
    /// recorded at the offending character inside the string, so that error points there.
    pub(crate) fn cel_selector(&mut self, n: &Node, p: &Path) -> Option<String> {
        if let Value::Map(_) = n.value {
            self.kubernetes_selector_given(n, p);
            return None;
        }
        let text = self.string(n, p)?;
        if let Err(e) = crate::cel::parse(&text) {
            let loc = self.loc_in_string(n, e.column);
            self.repoint(p, loc);
        }
        Some(text)
    }

    /// A Kubernetes label selector (`{matchLabels: …}`) where GKE wants CEL: a habit from KubeFleet.
    /// The error spells the CEL for `matchLabels` when it can.
    fn kubernetes_selector_given(&mut self, n: &Node, p: &Path) {
        let mut msg = "GKE selects clusters with a CEL expression over resource.labels, not a Kubernetes label selector".to_string();
        let terms: Option<Vec<Expr>> = n.get("matchLabels").and_then(|ml| match &ml.value {
            Value::Map(entries) if n.get("matchExpressions").is_none() && !entries.is_empty() => {
                entries
                    .iter()
                    .map(|e| {
                        let v = e.value.scalar()?.text.to_string();
                        Some(Expr::Eq(Operand::Label(e.key.to_string()), Operand::Str(v)))
                    })
                    .collect()
            }
            _ => None,
        });
        match terms {
            Some(mut t) => {
                let cel = if t.len() == 1 {
                    t.remove(0)
                } else {
                    Expr::And(t)
                };
                msg.push_str(&format!("; for these matchLabels write: {cel}"));
            }
            None => msg.push_str("; write e.g. resource.labels.canary == 'true'"),
        }
        self.error("wrong-type", msg, p, n);
    }
}
