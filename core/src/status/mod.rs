//! Live rollouts: real status read beside the scenario, and the rest of the run projected from it.
//!
//! [`load`] reads what people paste or pipe: KubeFleet objects with their status (`kubectl get -o
//! yaml|json`, a `List`, several documents, or `kubectl describe` text), GKE Rollouts and the
//! clusterupgrade feature's state, fleetplan documents that add assumptions, and plain scenarios.
//! [`project`] turns one item into a [`Plan`] whose `projection` says which bars are facts, where the
//! run stands, how durations were calibrated, and the Monte Carlo's range. The core reads no clock:
//! `now` is passed in.

pub mod chart;
pub mod describe;
mod forecast;
mod gke;
mod gke_feature;
pub mod kubefleet;
mod objects;
mod rolling;
mod staged;
mod staged_facts;

use crate::diag::Diagnostic;
use crate::input::Source;
use crate::model::{Assumptions, Scenario};
use crate::plan::projection::{Position, Projection};
use crate::plan::Plan;
use crate::source::{self, Node};
use crate::time::Time;

pub use staged::{approve_command, basis, StagedItem};

/// Everything read from the input.
#[derive(Clone, Debug, Default)]
pub struct StatusInput {
    pub items: Vec<Item>,
    pub diagnostics: Vec<Diagnostic>,
}

impl StatusInput {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// One rollout to report: a running (or finished) one with its status, or a plan not started.
#[derive(Clone, Debug)]
pub struct Item {
    /// The scenario the item stands for (for the plan's name, assumptions and share links).
    pub scenario: Scenario,
    kind: ItemKind,
}

impl Item {
    /// Read from a status (a run, a placement, a Rollout), rather than a plan that has not started.
    pub fn is_live(&self) -> bool {
        !matches!(self.kind, ItemKind::NotStarted)
    }
}

#[derive(Clone, Debug)]
enum ItemKind {
    Staged(Box<StagedItem>),
    Rolling(Box<rolling::PlacementStatus>),
    Gke(Box<gke::RolloutStatus>),
    NotStarted,
}

/// How to project.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub now: Time,
    /// Run the Monte Carlo (the range of ends).
    pub forecast: bool,
    /// Only samples `first..end` of the Monte Carlo, keeping their raw ends in the plan so that a
    /// front end can draw the samples in chunks and [`combine`] them (same numbers as in one go).
    pub chunk: Option<(u32, u32)>,
}

impl Options {
    pub fn new(now: Time, forecast: bool) -> Options {
        Options {
            now,
            forecast,
            chunk: None,
        }
    }

    fn forecasting(&self) -> forecast::Forecasting {
        match (self.forecast, self.chunk) {
            (false, _) => forecast::Forecasting::Off,
            (true, None) => forecast::Forecasting::All,
            (true, Some((a, b))) => forecast::Forecasting::Chunk(a, b),
        }
    }
}

/// How many samples the item's Monte Carlo draws in all (for drawing them in chunks).
pub fn sample_count(item: &Item) -> u32 {
    crate::timing::montecarlo::Settings::from(item.scenario.assumptions.uncertainty.as_ref())
        .samples
}

/// Puts chunks' raw ends (each from a [`project`] with [`Options::chunk`], in sample order) together
/// into `plan`'s range, as if drawn in one go. `plan` is one of those projections.
pub fn combine(item: &Item, plan: &mut Plan, chunks: Vec<crate::plan::projection::SampleEnds>) {
    let mut all = crate::plan::projection::SampleEnds::default();
    for c in chunks {
        all.extend(c);
    }
    let Some(p) = &mut plan.projection else {
        return;
    };
    if all.run.is_empty() {
        return;
    }
    let mut samples = forecast::Samples::from_ends(all);
    samples.finish();
    let settings =
        crate::timing::montecarlo::Settings::from(item.scenario.assumptions.uncertainty.as_ref());
    let observed = p
        .calibration
        .iter()
        .filter(|c| c.applied && c.field.starts_with("updateDuration"))
        .count();
    let approvals = p
        .calibration
        .iter()
        .any(|c| c.applied && c.field == "approvals.delay");
    p.forecast = Some(forecast::summary(
        &settings,
        item.scenario.assumptions.uncertainty.as_ref(),
        observed,
        approvals,
        &samples,
    ));
    p.stages = staged::bases(&plan.stages, p.now, &samples, true);
    p.samples = None;
}

/// Keys only a rollout's status holds (KubeFleet run and placement statuses as `kubectl` prints them,
/// YAML, JSON or `describe`; GKE rollouts and fleet feature states), each with the place of an `S` or
/// `U` in it: every key holds one, and a scenario's text seldom does.
const LIVE_KEYS: [(u8, usize, &str); 5] = [
    (b'S', 6, "stagesStatus"),
    (b'S', 0, "Stages Status:"),
    (b'S', 9, "placementStatuses"),
    (b'S', 10, "membershipStates"),
    (b'U', 7, "versionUpgrade"),
];

/// Whether `text` may hold a rollout's status (cheap, before reading it): a front end that re-plans
/// on every edit reads with [`load`] only then.
pub fn looks_live(text: &str) -> bool {
    // Runs on every edit of the whole text (and before a share link's first chart): one pass for the
    // rare bytes, eight bytes at a time (most words hold neither), then the keys around them, instead
    // of one search of the text per key.
    let bytes = text.as_bytes();
    let key_at = |at: usize| {
        let c = bytes[at];
        (c == b'S' || c == b'U')
            && LIVE_KEYS.iter().any(|&(b, offset, key)| {
                b == c && at >= offset && bytes[at - offset..].starts_with(key.as_bytes())
            })
    };
    let words = bytes.chunks_exact(8);
    let tail = bytes.len() - words.remainder().len();
    for (i, word) in words.enumerate() {
        let w = u64::from_le_bytes([
            word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7],
        ]);
        if rare_bytes(w) != 0 && (i * 8..i * 8 + 8).any(key_at) {
            return true;
        }
    }
    (tail..bytes.len()).any(key_at)
}

/// Nonzero when a byte of `word` is an `S` or a `U` (exact: each such byte's high bit).
fn rare_bytes(word: u64) -> u64 {
    crate::lines::bytes_equal(word, b'S') | crate::lines::bytes_equal(word, b'U')
}

/// Reads `sources` (and `history`: earlier runs whose statuses only calibrate durations).
pub fn load(sources: &[Source], history: &[Source]) -> StatusInput {
    let mut out = StatusInput::default();
    let docs = parse(sources, &mut out.diagnostics);
    let past = parse(history, &mut out.diagnostics);
    let mut context = Context::default();
    let mut kube: Vec<(&Node, &str)> = Vec::new();
    let mut rest: Vec<(Node, &str)> = Vec::new();
    let mut contexts: Vec<(Node, &str)> = Vec::new();
    let mut rollouts: Vec<gke::RolloutStatus> = Vec::new();
    let features: Vec<(&Node, &str)> = docs
        .iter()
        .filter(|(d, _)| gke_feature::has_state(d))
        .map(|(d, f)| (d, *f))
        .collect();
    rollouts.extend(gke_feature::rollouts(&features, &mut out.diagnostics));
    for (doc, file) in &docs {
        let listed = match &doc.value {
            crate::source::Value::Seq(items)
                if !items.is_empty() && items.iter().all(gke::is_rollout) =>
            {
                Some(items.as_slice())
            }
            _ if gke::is_rollout(doc) => Some(std::slice::from_ref(doc)),
            _ => None,
        };
        if let Some(items) = listed {
            rollouts.extend(
                items
                    .iter()
                    .filter_map(|n| gke::read(n, file, &mut out.diagnostics)),
            );
            continue;
        }
        if doc.get("apiVersion").is_some()
            || (doc.get("kind").is_some() && doc.get("status").is_some())
        {
            kube.push((doc, file));
        } else if is_context(doc) {
            let decoded = crate::decode::decode_document(doc, file);
            out.diagnostics.extend(decoded.diagnostics.iter().cloned());
            context.add(&decoded.scenario);
            contexts.push((doc.clone(), file));
        } else {
            rest.push((doc.clone(), file));
        }
    }
    let past_kube: Vec<(&Node, &str)> = past.iter().map(|(d, f)| (d, *f)).collect();
    let kube_items = staged_items(&kube, &past_kube, &context, &mut out)
        || rolling_items(&kube, &contexts, &mut out);
    if !kube_items && !kube.is_empty() {
        // KubeFleet objects without any status: planned as before the run.
        rest.extend(kube.iter().map(|(d, f)| ((*d).clone(), *f)));
    }
    if !rest.is_empty() {
        if rest
            .iter()
            .any(|(d, _)| d.get("apiVersion").is_some() || crate::gke::import::detect(d).is_some())
        {
            rest.extend(contexts);
        }
        let loaded = crate::input::load_documents(rest, Vec::new());
        out.diagnostics.extend(loaded.diagnostics);
        for scenario in loaded.scenarios {
            out.items.push(Item {
                scenario,
                kind: ItemKind::NotStarted,
            });
        }
    }
    for ro in rollouts {
        // The sequence the Rollout belongs to, when the input has one with as many stages; else a
        // sequence made from the Rollout itself.
        let stages = |s: &Scenario| match &s.strategy {
            crate::model::Strategy::GkeRolloutSequence(q) => Some(q.stages.len()),
            crate::model::Strategy::GkeFleetSequence(q) => Some(q.groups.len()),
            _ => None,
        };
        let found = out.items.iter().position(|i| {
            matches!(i.kind, ItemKind::NotStarted) && stages(&i.scenario) == Some(ro.stages.len())
        });
        let scenario = match found {
            Some(i) => Some(out.items.remove(i).scenario),
            None => {
                let s = gke::scenario(&ro, &context.get());
                if s.is_some() {
                    let mut d = Diagnostic::info(
                        "rollout-alone",
                        format!("{} is read without its sequence: one stage per Rollout stage, its memberships as clusters (their versions older than the target until it succeeded there), no maintenance windows; give the sequence and the clusters for windows and exclusions", ro.id),
                    );
                    d.location = Some(ro.at.clone());
                    out.diagnostics.push(d);
                }
                s
            }
        };
        if let Some(scenario) = scenario {
            out.items.push(Item {
                scenario,
                kind: ItemKind::Gke(Box::new(ro)),
            });
        }
    }
    if out.items.is_empty() && !out.has_errors() {
        out.diagnostics.push(Diagnostic::error(
            "no-status",
            "no rollout status or scenario found: give a run's status (kubectl get clusterstagedupdaterun NAME -o yaml, or kubectl describe), a GKE Rollout, or a scenario",
        ));
    }
    out
}

/// Projects one item at `now`.
pub fn project(item: &Item, options: &Options) -> Plan {
    match &item.kind {
        ItemKind::Staged(s) => {
            let mut plan = staged::project(s, &item.scenario, options.now, options.forecasting());
            item.scenario.origin.attach(&mut plan.diagnostics);
            plan
        }
        ItemKind::Rolling(p) => match &item.scenario.strategy {
            crate::model::Strategy::KubefleetRolling(run) => {
                let mut plan =
                    rolling::project(p, &item.scenario, run, options.now, options.forecasting());
                item.scenario.origin.attach(&mut plan.diagnostics);
                plan
            }
            _ => not_started(&item.scenario, options),
        },
        ItemKind::Gke(r) => {
            let mut plan = gke::project(r, &item.scenario, options.now, options.forecasting());
            item.scenario.origin.attach(&mut plan.diagnostics);
            plan
        }
        ItemKind::NotStarted => not_started(&item.scenario, options),
    }
}

/// A plan that has not started: the ordinary plan (from `start`, or from now for `start: now` or
/// no start), all of it projected, with the Monte Carlo's range.
fn not_started(scenario: &Scenario, options: &Options) -> Plan {
    let mut s = scenario.clone();
    s.start_at(options.now);
    let mut plan = crate::plan(&s);
    plan.projection = Some(Projection {
        now: options.now,
        source: None,
        position: Position {
            stages: plan.stages.iter().filter(|st| !st.delete_stage).count(),
            clusters: plan.summary.clusters,
            ..Position::default()
        },
        stages: Vec::new(),
        calibration: Vec::new(),
        baseline_end: plan.end,
        behind: None,
        forecast: None,
        samples: None,
    });
    if options.forecast && plan.outcome != crate::plan::Outcome::Invalid {
        match &s.strategy {
            crate::model::Strategy::KubefleetStaged(run) => {
                staged::forecast_not_started(&s, run, &mut plan, options.forecasting())
            }
            crate::model::Strategy::KubefleetRolling(run) => {
                rolling::forecast_not_started(&s, run, &mut plan, options.forecasting())
            }
            crate::model::Strategy::GkeRolloutSequence(_)
            | crate::model::Strategy::GkeFleetSequence(_) => {
                gke::forecast_not_started(&s, &mut plan, options.forecasting())
            }
        }
    }
    plan
}

/// Parses every source: `kubectl describe` text by its own reader, the rest as YAML or JSON.
fn parse<'s>(sources: &[Source<'s>], diags: &mut Vec<Diagnostic>) -> Vec<(Node<'s>, &'s str)> {
    let mut out = Vec::new();
    for src in sources {
        let (docs, d) = if describe::looks_like_describe(src.text) {
            describe::parse(src.text, src.name)
        } else {
            source::parse(src.text, src.name)
        };
        diags.extend(d);
        out.extend(docs.into_iter().map(|doc| (doc, src.name)));
    }
    out
}

/// A fleetplan document without a strategy: it adds assumptions and clusters to the status.
fn is_context(doc: &Node) -> bool {
    matches!(doc.value, crate::source::Value::Map(_))
        && doc.get("strategy").is_none()
        && crate::gke::import::detect(doc).is_none()
}

/// What strategy-less fleetplan documents add (the last one's assumptions win).
#[derive(Default)]
struct Context {
    scenario: Option<Scenario>,
}

impl Context {
    fn add(&mut self, s: &Scenario) {
        match &mut self.scenario {
            None => self.scenario = Some(s.clone()),
            Some(c) => {
                c.name = c.name.take().or_else(|| s.name.clone());
                c.description = c.description.take().or_else(|| s.description.clone());
                if s.assumptions != Assumptions::default() {
                    c.assumptions = s.assumptions.clone();
                }
                c.clusters.extend(s.clusters.iter().cloned());
                c.generate.extend(s.generate.iter().cloned());
            }
        }
    }

    fn get(&self) -> Scenario {
        self.scenario.clone().unwrap_or_else(|| Scenario {
            name: None,
            description: None,
            start: None,
            start_now: false,
            clusters: Vec::new(),
            generate: Vec::new(),
            strategy: crate::model::Strategy::KubefleetStaged(Default::default()),
            assumptions: Assumptions::default(),
            origin: Default::default(),
        })
    }
}

/// The staged runs with status among the objects, each an item; returns whether there were any.
fn staged_items(
    docs: &[(&Node, &str)],
    past: &[(&Node, &str)],
    context: &Context,
    out: &mut StatusInput,
) -> bool {
    let objects = objects::flatten(docs, &mut out.diagnostics);
    if !objects.iter().any(kubefleet::is_run_with_status) {
        return false;
    }
    let mut runs = Vec::new();
    let mut approvals = Vec::new();
    let mut members = Vec::new();
    let mut strategies = Vec::new();
    let d = &mut out.diagnostics;
    for obj in &objects {
        match obj.kind.as_str() {
            _ if kubefleet::is_run_with_status(obj) => {
                runs.extend(kubefleet::read_run(obj, d));
            }
            k if kubefleet::APPROVAL_KINDS.contains(&k) => {
                approvals.extend(kubefleet::read_approval(obj, d));
            }
            k if kubefleet::STRATEGY_KINDS.contains(&k) => {
                strategies.extend(kubefleet::read_strategy(obj, d));
            }
            "MemberCluster" => members.extend(kubefleet::read_member(obj, d)),
            _ => {}
        }
    }
    let mut history: Vec<kubefleet::RunStatus> = Vec::new();
    for obj in objects::flatten(past, d) {
        if kubefleet::is_run_with_status(&obj) {
            history.extend(kubefleet::read_run(&obj, d));
        }
    }
    let finished = |r: &kubefleet::RunStatus| {
        objects::find(&r.conditions, "Succeeded").is_some_and(|c| c.is_true())
    };
    // Finished runs beside running ones are history; alone, they are reported.
    let any_running = runs.iter().any(|r| !finished(r));
    let (report, done): (Vec<_>, Vec<_>) =
        runs.into_iter().partition(|r| !any_running || !finished(r));
    history.extend(done);
    let context = context.get();
    for run in report {
        let item = StagedItem {
            history: history.iter().filter(|h| h.id != run.id).cloned().collect(),
            run,
            approvals: approvals.clone(),
            members: (!members.is_empty()).then(|| members.clone()),
            strategies: strategies.clone(),
            failed: Default::default(),
        };
        let scenario = staged::scenario(&item, &context);
        out.items.push(Item {
            scenario,
            kind: ItemKind::Staged(Box::new(item)),
        });
    }
    true
}

/// Placements rolled by RollingUpdate whose status lists their clusters' rollout: each an item, its
/// scenario read from the same objects (and MemberClusters made from the status when there are none).
fn rolling_items(docs: &[(&Node, &str)], contexts: &[(Node, &str)], out: &mut StatusInput) -> bool {
    let objects = objects::flatten(docs, &mut out.diagnostics);
    let placements: Vec<rolling::PlacementStatus> = objects
        .iter()
        .filter(|o| rolling::is_rolling_status(o))
        .filter_map(|o| rolling::read(o, &mut out.diagnostics))
        .collect();
    if placements.is_empty() {
        return false;
    }
    let has_members = objects.iter().any(|o| o.kind == "MemberCluster");
    let mut all: Vec<(Node, &str)> = docs.iter().map(|(d, f)| ((*d).clone(), *f)).collect();
    all.extend(contexts.iter().cloned());
    if !has_members {
        // The status names every cluster the placement picked; without MemberClusters they are the fleet.
        let mut seen = std::collections::BTreeSet::new();
        for p in &placements {
            for (name, _) in &p.clusters {
                if seen.insert(name.clone()) {
                    let text = format!(
                        "{{\"apiVersion\":\"cluster.kubernetes-fleet.io/v1beta1\",\"kind\":\"MemberCluster\",\"metadata\":{{\"name\":{}}}}}",
                        serde_json::Value::String(name.clone())
                    );
                    all.extend(
                        source::parse(&text, MEMBERS_FROM_STATUS)
                            .0
                            .into_iter()
                            .map(|d| (d.into_owned(), MEMBERS_FROM_STATUS)),
                    );
                }
            }
        }
    }
    let loaded = crate::input::load_documents(all, Vec::new());
    out.diagnostics.extend(loaded.diagnostics);
    for p in placements {
        let scenario = loaded.scenarios.iter().find(|s| {
            matches!(&s.strategy, crate::model::Strategy::KubefleetRolling(r) if r.placement.name == p.name)
        });
        if let Some(scenario) = scenario {
            out.items.push(Item {
                scenario: scenario.clone(),
                kind: ItemKind::Rolling(Box::new(p)),
            });
        }
    }
    true
}

/// The file name of MemberClusters made from a placement's status.
const MEMBERS_FROM_STATUS: &str = "<clusters of the placement status>";
