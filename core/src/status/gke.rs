//! A GKE rollout in progress: the Rollout resource as the API (or `gcloud container fleet rollouts
//! describe --format=json`) returns it — one version of one upgrade type moving through the
//! sequence's stages — projected by the GKE planner from where it stands.
//!
//! Readings the API leaves open, stated: a stage's `endTime` is when it COMPLETED (after its soak);
//! a membership's `lastUpdateTime` is when its target last changed state, so a SUCCEEDED target
//! finished then and a RUNNING one started then; a SOAKING stage began soaking when its last target
//! succeeded.

use std::collections::HashMap;

use crate::decode::{Path, Reader};
use crate::diag::{Diagnostic, Location};
use crate::gke::simulate::Seed;
use crate::gke::validate::{Release, Setup, Stream, Target};
use crate::gke::version::Version;
use crate::model::Scenario;
use crate::plan::projection::{
    InFlight, Position, Projection, RunState, SignedDuration, Waiting, WaitingKind,
};
use crate::plan::{ClusterStatus, NameId, Phase, PhaseKind, Plan, StagePlan, StageStatus};
use crate::source::{Node, Value};
use crate::time::{Duration, Time};
use crate::timing::montecarlo::{self, Draw};

use super::forecast::{self, Forecasting, Samples};

/// One Rollout.
#[derive(Clone, Debug)]
pub struct RolloutStatus {
    pub id: String,
    pub at: Location,
    /// RUNNING, PAUSED, CANCELLED, COMPLETED, SCHEDULED.
    pub state: String,
    pub stream: Stream,
    pub version: String,
    pub sequence: Option<String>,
    pub stages: Vec<RolloutStage>,
    pub members: Vec<Member>,
    pub excluded: Vec<(String, String)>,
}

#[derive(Clone, Debug)]
pub struct RolloutStage {
    pub number: i64,
    /// PENDING, RUNNING, SOAKING, COMPLETED, PAUSED.
    pub state: String,
    pub start: Option<Time>,
    pub end: Option<Time>,
    pub soak: Option<Duration>,
}

#[derive(Clone, Debug)]
pub struct Member {
    /// The membership's last name segment, which is the cluster's name.
    pub cluster: String,
    pub stage: i64,
    /// The target's state: PENDING, RUNNING, SUCCEEDED, FAILED, PAUSED, SKIPPED, …
    pub state: String,
    pub updated: Option<Time>,
}

/// A Rollout (or a JSON list of them) rather than a RolloutSequence.
pub fn is_rollout(n: &Node) -> bool {
    n.get("versionUpgrade").is_some()
        || (n.get("membershipStates").is_some() && n.get("stages").is_some())
        || n.get("name")
            .and_then(|v| v.scalar())
            .is_some_and(|s| s.text.contains("/rollouts/"))
}

fn last(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

pub fn read(n: &Node, file: &str, diags: &mut Vec<Diagnostic>) -> Option<RolloutStatus> {
    let mut r = Reader::new(file, false);
    let name = n
        .get("name")
        .and_then(|v| r.string(v, &Path::object(String::new(), "name", "")))
        .unwrap_or_else(|| "rollout".into());
    let id = format!("Rollout/{}", last(&name));
    let root = Path::object(format!("{id}: "), "", "");
    let text = |r: &mut Reader, n: Option<&Node>, p: &Path| n.and_then(|v| r.string(v, p));
    let state = text(&mut r, n.get("state"), &root.report_field("state")).unwrap_or_default();
    let vu = n.get("versionUpgrade");
    let vp = root.report_field("versionUpgrade");
    let kind = text(
        &mut r,
        vu.and_then(|v| v.get("type")),
        &vp.report_field("type"),
    );
    let stream = match kind.as_deref() {
        Some("TYPE_NODE_POOL") => Stream::Node,
        Some("TYPE_CONTROL_PLANE") | None => Stream::ControlPlane,
        Some(other) => {
            let mut d = Diagnostic::warning(
                "rollout-type",
                format!("versionUpgrade.type `{other}` is neither TYPE_CONTROL_PLANE nor TYPE_NODE_POOL: read as a control-plane rollout"),
            );
            d.location = Some(r.loc(n));
            r.diags.push(d);
            Stream::ControlPlane
        }
    };
    let version = text(
        &mut r,
        vu.and_then(|v| v.get("desiredVersion")),
        &vp.report_field("desiredVersion"),
    )
    .unwrap_or_default();
    if version.is_empty() {
        r.missing("versionUpgrade.desiredVersion", &root, n);
    }
    let sequence = text(
        &mut r,
        n.get("rolloutSequence"),
        &root.report_field("rolloutSequence"),
    );
    let mut stages = Vec::new();
    if let Some(items) = n
        .get("stages")
        .and_then(|l| r.seq(l, &root.report_field("stages")))
    {
        for (i, item) in items.iter().enumerate() {
            let ip = root.report_field("stages").index(i);
            let number = item
                .get("stageNumber")
                .and_then(|v| r.int(v, &ip.report_field("stageNumber")))
                .unwrap_or(i as i64 + 1);
            let state =
                text(&mut r, item.get("state"), &ip.report_field("state")).unwrap_or_default();
            let time =
                |r: &mut Reader, k: &str| item.get(k).and_then(|v| r.time(v, &ip.report_field(k)));
            let start = time(&mut r, "startTime");
            let end = time(&mut r, "endTime");
            let soak = text(
                &mut r,
                item.get("soakDuration"),
                &ip.report_field("soakDuration"),
            )
            .and_then(|t| crate::gke::validate::parse_soak(&t).ok());
            stages.push(RolloutStage {
                number,
                state,
                start,
                end,
                soak,
            });
        }
    }
    let mut members = Vec::new();
    if let Some(Value::Map(entries)) = n.get("membershipStates").map(|m| &m.value) {
        for e in entries {
            let mp = root.report_field("membershipStates").report_field(&e.key);
            let stage = e
                .value
                .get("stageAssignment")
                .and_then(|v| r.int(v, &mp.report_field("stageAssignment")))
                .unwrap_or(0);
            let updated = e
                .value
                .get("lastUpdateTime")
                .and_then(|v| r.time(v, &mp.report_field("lastUpdateTime")));
            // A cluster's own target (not a node pool's) decides; node-pool targets of a node
            // rollout all move together in fleetplan's model, the least advanced one counts.
            let mut state = String::new();
            if let Some(Value::Seq(targets)) = e.value.get("targets").map(|t| &t.value) {
                let rank = |s: &str| match s {
                    "FAILED" => 0,
                    "PAUSED" => 1,
                    "PENDING" => 2,
                    "RUNNING" => 3,
                    "SUCCEEDED" | "SKIPPED" | "REMOVED" | "INELIGIBLE" => 4,
                    _ => 2,
                };
                for t in targets {
                    if let Some(s) = t.get("state").and_then(|v| v.scalar()) {
                        if state.is_empty() || rank(&s.text) < rank(&state) {
                            state = s.text.to_string();
                        }
                    }
                }
            }
            members.push(Member {
                cluster: last(&e.key).to_string(),
                stage,
                state: if state.is_empty() {
                    "PENDING".into()
                } else {
                    state
                },
                updated,
            });
        }
    }
    let mut excluded = Vec::new();
    if let Some(Value::Seq(items)) = n.get("excludedClusters").map(|v| &v.value) {
        for item in items {
            let m = item
                .get("membership")
                .and_then(|v| v.scalar())
                .map(|s| last(&s.text).to_string());
            let reason = item
                .get("reason")
                .and_then(|v| v.scalar())
                .map(|s| s.text.to_string());
            if let Some(m) = m {
                excluded.push((m, reason.unwrap_or_default()));
            }
        }
    }
    diags.append(&mut r.diags);
    Some(RolloutStatus {
        id,
        at: n.location(file),
        state,
        stream,
        version,
        sequence,
        stages,
        members,
        excluded,
    })
}

/// A sequence for a Rollout given alone: one stage per Rollout stage (each its own fleet, named
/// after the stage), the memberships as clusters, their versions older than the target unless
/// their target succeeded. Stated in the plan's notes.
pub fn scenario(ro: &RolloutStatus, context: &Scenario) -> Option<Scenario> {
    let v = Version::parse(&ro.version).ok()?;
    let older = if v.patch > 0 {
        format!("{}.{}.{}-gke.0", v.major, v.minor, v.patch - 1)
    } else {
        format!("{}.{}.0-gke.0", v.major, v.minor.saturating_sub(1))
    };
    let mut y = String::new();
    y.push_str(&format!(
        "name: {}\nclusters:\n",
        serde_json::Value::String(ro.sequence.as_deref().map_or("rollout", last).to_string())
    ));
    for m in &ro.members {
        let done = matches!(m.state.as_str(), "SUCCEEDED");
        let ver = if done { &ro.version } else { &older };
        y.push_str(&format!(
            "  - {{name: {}, fleet: projects/stage-{}, version: {{controlPlane: {ver}, node: {ver}}}}}\n",
            serde_json::Value::String(m.cluster.clone()),
            m.stage
        ));
    }
    y.push_str("strategy:\n  kind: gke-rollout-sequence\n  name: rollout\n  stages:\n");
    for s in &ro.stages {
        let soak = s.soak.unwrap_or_default();
        y.push_str(&format!(
            "    - {{fleetProjects: [projects/stage-{}], soakDuration: {}s}}\n",
            s.number,
            soak.0 / 1000
        ));
    }
    let (docs, _) = crate::source::parse(&y, "<the Rollout's stages>");
    let mut s = crate::decode::decode_document(docs.first()?, "<the Rollout's stages>").scenario;
    s.assumptions = context.assumptions.clone();
    Some(s)
}

pub fn project(ro: &RolloutStatus, scenario: &Scenario, now: Time, forecast: Forecasting) -> Plan {
    let mut diags = Vec::new();
    let Ok(version) = Version::parse(&ro.version) else {
        let mut plan = crate::plan(scenario);
        let mut d = Diagnostic::error(
            "status-invalid",
            format!("the Rollout's desiredVersion `{}` is not a GKE version: nothing is projected from it", ro.version),
        );
        d.location = Some(ro.at.clone());
        plan.diagnostics.push(d);
        return plan;
    };
    check(ro, now, &mut diags);
    let current = ro
        .stages
        .iter()
        .position(|s| s.state != "COMPLETED")
        .unwrap_or(ro.stages.len());
    let start = ro
        .stages
        .iter()
        .filter_map(|s| s.start)
        .min()
        .unwrap_or(now)
        .min(now);
    let stage_of: HashMap<&str, usize> = ro
        .members
        .iter()
        .filter_map(|m| {
            let i = ro.stages.iter().position(|s| s.number == m.stage)?;
            Some((m.cluster.as_str(), i))
        })
        .collect();
    let paused = matches!(ro.state.as_str(), "PAUSED" | "CANCELLED")
        || ro.stages.get(current).is_some_and(|s| s.state == "PAUSED");
    let run = |draw: Option<&Draw>, starts: &HashMap<String, Time>| {
        let mut adjust = |setup: &mut Setup| {
            adjust(
                setup, ro, &version, &stage_of, current, now, paused, draw, starts,
            )
        };
        crate::gke::plan_from(scenario, start, &mut adjust)
    };
    // Two passes: the first finds when the simulation starts each upgrade under way (its window
    // after the stage was reached), the second sizes it so that it ends at its real start plus its
    // duration, never before now.
    let Some(first) = run(None, &HashMap::new()) else {
        return crate::plan(scenario);
    };
    let starts: HashMap<String, Time> = first
        .stages
        .iter()
        .flat_map(|s| &s.clusters)
        .filter_map(|c| Some((c.name.to_string(), c.start?)))
        .collect();
    let Some(mut plan) = run(None, &starts) else {
        return crate::plan(scenario);
    };
    // The release is the Rollout itself; a sequence without `versions` is not a problem here.
    plan.diagnostics.retain(|d| d.code != "no-versions");
    facts(&mut plan, ro, &stage_of, current, now);
    if paused {
        // Nothing starts again until someone resumes it.
        plan.end = None;
        plan.outcome = crate::plan::Outcome::Blocked;
        plan.summary.total_duration = None;
    }
    let mut baseline_scenario = scenario.clone();
    baseline_scenario.start = Some(start);
    let baseline = crate::gke::plan_from(&baseline_scenario, start, &mut |setup: &mut Setup| {
        setup.releases = vec![Release {
            targets: vec![Target {
                from: None,
                version: version.clone(),
            }],
            streams: vec![ro.stream],
            at: start,
        }];
        Vec::new()
    });

    let settings = forecast.settings(scenario.assumptions.uncertainty.as_ref());
    let clusters: usize = plan.stages.iter().map(|s| s.clusters.len()).sum();
    let mut samples = Samples::new(plan.stages.len(), clusters, settings.samples as usize);
    let ran = forecast.on() && !paused && ro.state != "COMPLETED";
    let mut raw = None;
    if ran {
        let results = montecarlo::run(&settings, None, |draw| {
            let Some(mut p) = run(Some(draw), &starts) else {
                return (Vec::new(), Vec::new(), None);
            };
            facts(&mut p, ro, &stage_of, current, now);
            (
                p.stages.iter().map(|s| s.end).collect::<Vec<_>>(),
                p.stages
                    .iter()
                    .flat_map(|s| s.clusters.iter().map(|c| c.end))
                    .collect::<Vec<_>>(),
                p.end,
            )
        });
        for (s, c, e) in results {
            samples.push(&s, &c, e);
        }
        raw = forecast.keeps_samples().then(|| samples.ends().clone());
        samples.finish();
    }
    let stages = super::staged::bases(&plan.stages, now, &samples, ran);
    let position = position(ro, &plan, current, now, paused);
    let behind = match (plan.end, baseline.as_ref().and_then(|b| b.end)) {
        (Some(e), Some(b)) => Some(SignedDuration(Duration(e.0 - b.0))),
        _ => None,
    };
    plan.diagnostics.extend(diags);
    plan.projection = Some(Projection {
        now,
        source: Some(ro.id.clone()),
        position,
        stages,
        calibration: Vec::new(),
        baseline_end: baseline.and_then(|b| b.end),
        behind,
        forecast: ran.then(|| {
            forecast::summary(
                &settings,
                scenario.assumptions.uncertainty.as_ref(),
                0,
                false,
                &samples,
            )
        }),
        samples: raw,
    });
    plan
}

/// The setup from the Rollout's position: clusters that finished (and every cluster of a finished
/// stage) are on the version; the version reaches the current stage when it really did; an
/// upgrade under way cannot end before now.
#[allow(clippy::too_many_arguments)]
fn adjust(
    setup: &mut Setup,
    ro: &RolloutStatus,
    v: &Version,
    stage_of: &HashMap<&str, usize>,
    current: usize,
    now: Time,
    paused: bool,
    draw: Option<&Draw>,
    starts: &HashMap<String, Time>,
) -> Vec<Seed> {
    setup.releases.clear();
    let k = ro.stream as usize;
    for c in &mut setup.clusters {
        if let Some(d) = draw {
            // Whole seconds, as every other draw.
            let f = d.factor(&c.name);
            let scale = |x: Duration| Duration(((x.0 as f64 * f) / 1000.0).round() as i64 * 1000);
            c.control_plane_duration = scale(c.control_plane_duration);
            c.per_node = scale(c.per_node);
        }
        let member = ro.members.iter().find(|m| *m.cluster == *c.name);
        let stage = stage_of.get(c.name.as_str()).copied();
        let done =
            member.is_some_and(|m| m.state == "SUCCEEDED") || stage.is_some_and(|s| s < current);
        if done {
            if k == 0 {
                c.control_plane = v.clone();
            } else {
                c.node = v.clone();
            }
        }
        if let (Some(m), Some(s)) = (member, ro.stages.get(current)) {
            if m.state == "RUNNING" {
                // Really started at `since`; the simulation starts it at `sim` (its first pass).
                let since = m.updated.or(s.start).unwrap_or(now);
                let sim = starts.get(c.name.as_str()).copied().unwrap_or(since);
                let own = if k == 0 {
                    c.control_plane_duration
                } else {
                    Duration(c.per_node.0.saturating_mul(c.node_batches as i64))
                };
                let end = since.plus(own).max(now);
                let least = if end > sim {
                    end.since(sim)
                } else {
                    Duration::ZERO
                };
                if k == 0 {
                    c.control_plane_duration = c.control_plane_duration.max(least);
                } else if c.node_batches > 0 {
                    let per = Duration(least.0.div_euclid(c.node_batches as i64) + 1);
                    c.per_node = c.per_node.max(per);
                }
            }
        }
    }
    if paused || current >= ro.stages.len() {
        return Vec::new();
    }
    let stage = &ro.stages[current];
    let Some(reached) = stage
        .start
        .or_else(|| current.checked_sub(1).and_then(|p| ro.stages[p].end))
    else {
        return Vec::new();
    };
    if stage.state == "SOAKING" {
        let soak_start = soak_start(ro, current, stage_of).unwrap_or(reached);
        let soak = stage.soak.unwrap_or_else(|| {
            setup
                .stages
                .get(current)
                .map_or(Duration::ZERO, |s| s.soak(ro.stream, v))
        });
        return vec![Seed {
            stage: current,
            stream: ro.stream,
            version: v.clone(),
            at: soak_start.plus(soak).max(now),
        }];
    }
    if current == 0 {
        setup.releases.push(Release {
            targets: vec![Target {
                from: None,
                version: v.clone(),
            }],
            streams: vec![ro.stream],
            at: reached,
        });
        return Vec::new();
    }
    vec![Seed {
        stage: current - 1,
        stream: ro.stream,
        version: v.clone(),
        at: reached,
    }]
}

/// When a stage began soaking: its last target's success.
fn soak_start(ro: &RolloutStatus, stage: usize, stage_of: &HashMap<&str, usize>) -> Option<Time> {
    ro.members
        .iter()
        .filter(|m| stage_of.get(m.cluster.as_str()) == Some(&stage))
        .filter_map(|m| m.updated)
        .max()
}

/// Finished stages and finished clusters keep what the Rollout says.
fn facts(
    plan: &mut Plan,
    ro: &RolloutStatus,
    stage_of: &HashMap<&str, usize>,
    current: usize,
    now: Time,
) {
    let kind = match ro.stream {
        Stream::ControlPlane => PhaseKind::ControlPlaneUpgrade,
        Stream::Node => PhaseKind::NodeUpgrade,
    };
    // The texts the facts' bars name, added once and shared by the bars.
    let version = plan.labels.add(ro.version.as_str());
    let cluster_label = plan.labels.add(format!(
        "{} → {}",
        if kind == PhaseKind::ControlPlaneUpgrade {
            "control plane"
        } else {
            "nodes"
        },
        ro.version
    ));
    let stage_labels = StageBars {
        running: plan.labels.add(format!("{} running", ro.version)),
        soaking: plan.labels.add(format!("{} soaking", ro.version)),
        version,
    };
    for (i, rs) in ro.stages.iter().enumerate() {
        let Some(row) = plan.stages.get_mut(i) else {
            continue;
        };
        let done = i < current;
        for c in &mut row.clusters {
            let Some(m) = ro.members.iter().find(|m| m.cluster == c.name) else {
                continue;
            };
            if m.state == "SUCCEEDED" || (done && stage_of.get(m.cluster.as_str()) == Some(&i)) {
                let end = m.updated.unwrap_or(rs.end.unwrap_or(now)).min(now);
                let begin = rs.start.unwrap_or(end).min(end);
                c.status = ClusterStatus::Succeeded;
                c.start = Some(begin);
                c.end = Some(end);
                c.reason = None;
                c.phases = vec![Phase {
                    kind,
                    start: begin,
                    end: Some(end),
                    label: cluster_label,
                    version: Some(version),
                }];
            }
        }
        if done {
            fact_stage(row, rs, ro, stage_of, i, kind, &stage_labels);
        } else if i == current && rs.state == "SOAKING" {
            // Soaking since its last success; it ends when the soak does (never before now).
            fact_stage(row, rs, ro, stage_of, i, kind, &stage_labels);
            let soak_from = soak_start(ro, i, stage_of).or(rs.start).unwrap_or(now);
            let end = soak_from.plus(rs.soak.unwrap_or_default()).max(now);
            row.status = StageStatus::Waiting;
            row.end = Some(end);
            if let Some(p) = row.phases.last_mut() {
                p.end = Some(end);
            }
        }
    }
}

/// A finished stage's bar labels and version, in the plan's [`crate::plan::Labels`].
struct StageBars {
    running: NameId,
    soaking: NameId,
    version: NameId,
}

fn fact_stage(
    row: &mut StagePlan,
    rs: &RolloutStage,
    ro: &RolloutStatus,
    stage_of: &HashMap<&str, usize>,
    i: usize,
    kind: PhaseKind,
    labels: &StageBars,
) {
    let Some(start) = rs.start else {
        return;
    };
    let soak = soak_start(ro, i, stage_of).unwrap_or(start);
    row.status = StageStatus::Succeeded;
    row.start = Some(start);
    row.end = rs.end;
    row.phases = vec![
        Phase {
            kind,
            start,
            end: Some(soak),
            label: labels.running,
            version: Some(labels.version),
        },
        Phase {
            kind: PhaseKind::Soaking,
            start: soak,
            end: rs.end,
            label: labels.soaking,
            version: Some(labels.version),
        },
    ];
}

fn position(ro: &RolloutStatus, plan: &Plan, current: usize, now: Time, paused: bool) -> Position {
    let state = match ro.state.as_str() {
        "COMPLETED" => RunState::Succeeded,
        "CANCELLED" => RunState::Failed,
        "PAUSED" => RunState::Paused,
        "SCHEDULED" => RunState::NotStarted,
        _ if paused => RunState::Paused,
        _ => match ro.stages.get(current).map(|s| s.state.as_str()) {
            Some("SOAKING") => RunState::Waiting,
            _ => RunState::Running,
        },
    };
    let in_sequence: Vec<&Member> = ro.members.iter().collect();
    let stage_name = |i: usize| {
        plan.stages
            .get(i)
            .map_or(format!("{}", i + 1), |s| s.name.clone())
    };
    let mut p = Position {
        state,
        reason: Some(ro.state.clone()),
        message: (!ro.excluded.is_empty()).then(|| {
            format!(
                "excluded: {}",
                ro.excluded
                    .iter()
                    .map(|(c, r)| format!("{c} ({r})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }),
        stage: (current < ro.stages.len()).then(|| stage_name(current)),
        stages_done: current.min(ro.stages.len()),
        stages: ro.stages.len(),
        clusters_done: in_sequence
            .iter()
            .filter(|m| m.state == "SUCCEEDED")
            .count(),
        clusters: in_sequence.len(),
        in_flight: Vec::new(),
        waiting: Vec::new(),
        next: None,
    };
    for m in in_sequence
        .iter()
        .filter(|m| m.state == "RUNNING" || m.state == "FAILED")
    {
        let stage = ro
            .stages
            .iter()
            .position(|s| s.number == m.stage)
            .unwrap_or(current);
        p.in_flight.push(InFlight {
            stage: stage_name(stage),
            cluster: m.cluster.clone(),
            since: m.updated.unwrap_or(now),
            until: plan
                .stages
                .get(stage)
                .and_then(|s| s.clusters.iter().find(|c| c.name == m.cluster))
                .and_then(|c| c.end),
            failed: m.state == "FAILED",
        });
    }
    if let Some(s) = ro.stages.get(current) {
        let row = plan.stages.get(current);
        if s.state == "SOAKING" {
            let until = row.and_then(|r| {
                r.phases
                    .iter()
                    .rev()
                    .find(|p| matches!(p.kind, PhaseKind::Soaking | PhaseKind::ForcedSoaking))
                    .and_then(|p| p.end)
            });
            p.waiting.push(Waiting {
                kind: WaitingKind::Soak,
                stage: Some(stage_name(current)),
                since: row.and_then(|r| r.start).unwrap_or(now),
                what: format!(
                    "soaking {}{}",
                    ro.version,
                    s.soak.map_or(String::new(), |d| format!(" for {d}"))
                ),
                until,
                request: None,
                command: None,
            });
        }
        if paused {
            p.waiting.push(Waiting {
                kind: WaitingKind::Paused,
                stage: Some(stage_name(current)),
                since: s.start.unwrap_or(now),
                what: "the rollout is paused: no cluster starts until it is resumed".into(),
                until: None,
                request: None,
                command: Some(format!(
                    "gcloud container fleet rollouts resume {}",
                    last(&ro.id)
                )),
            });
        }
    }
    p
}

fn check(ro: &RolloutStatus, now: Time, diags: &mut Vec<Diagnostic>) {
    let latest = ro
        .stages
        .iter()
        .flat_map(|s| [s.start, s.end])
        .chain(ro.members.iter().map(|m| m.updated))
        .flatten()
        .max();
    if let Some(t) = latest.filter(|t| *t > now) {
        let mut d = Diagnostic::warning(
            "status-after-now",
            format!("the Rollout has times after now ({now}), up to {t}: read with a clock ahead of this one, or --now is wrong; those facts are taken as of now"),
        );
        d.location = Some(ro.at.clone());
        diags.push(d);
    }
    let assigned = ro
        .members
        .iter()
        .filter(|m| !ro.stages.iter().any(|s| s.number == m.stage));
    for m in assigned {
        let mut d = Diagnostic::warning(
            "status-unknown-stage",
            format!("cluster {} is assigned to stage {}, which the Rollout does not list: it is left out", m.cluster, m.stage),
        );
        d.location = Some(ro.at.clone());
        diags.push(d);
    }
}

/// The range of a GKE sequence that has not started: upgrade durations redrawn per sample.
pub fn forecast_not_started(scenario: &Scenario, plan: &mut Plan, forecast: Forecasting) {
    let settings = forecast.settings(scenario.assumptions.uncertainty.as_ref());
    let clusters: usize = plan.stages.iter().map(|s| s.clusters.len()).sum();
    let mut samples = Samples::new(plan.stages.len(), clusters, settings.samples as usize);
    let start = plan.start;
    let results = montecarlo::run(&settings, None, |draw| {
        let mut adjust = |setup: &mut Setup| {
            for c in &mut setup.clusters {
                let f = draw.factor(&c.name);
                let scale =
                    |x: Duration| Duration(((x.0 as f64 * f) / 1000.0).round() as i64 * 1000);
                c.control_plane_duration = scale(c.control_plane_duration);
                c.per_node = scale(c.per_node);
            }
            Vec::new()
        };
        let p = crate::gke::plan_from(scenario, start, &mut adjust);
        p.map_or((Vec::new(), Vec::new(), None), |p| {
            (
                p.stages.iter().map(|s| s.end).collect::<Vec<_>>(),
                p.stages
                    .iter()
                    .flat_map(|s| s.clusters.iter().map(|c| c.end))
                    .collect::<Vec<_>>(),
                p.end,
            )
        })
    });
    for (s, c, e) in results {
        samples.push(&s, &c, e);
    }
    super::staged::record_not_started(
        plan,
        samples,
        forecast,
        &settings,
        scenario.assumptions.uncertainty.as_ref(),
    );
}
