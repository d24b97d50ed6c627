//! A KubeFleet rolling update in progress, read from its ClusterResourcePlacement's status
//! (`placementStatuses[]` with each cluster's RolloutStarted / Applied / Available conditions), and
//! projected by the rolling planner from where each cluster stands.

use crate::decode::{Path, Reader};
use crate::diag::{Diagnostic, Location};
use crate::model::rolling::RollingRun;
use crate::model::Scenario;
use crate::plan::projection::{
    InFlight, Position, Projection, RunState, SignedDuration, Waiting, WaitingKind,
};
use crate::plan::{Outcome, Plan};
use crate::rolling::resume::{Fact, Resume};
use crate::time::{Duration, Time};
use crate::timing::calibrate::{Calibration, Observations, Pending, UpdateObservation};
use crate::timing::montecarlo;
use crate::timing::{Hooks, Timing};

use super::forecast::{self, Forecasting, Samples};
use super::objects::{conditions, find, meta, Condition, Object};

/// A placement with the rollout status of each cluster.
#[derive(Clone, Debug)]
pub struct PlacementStatus {
    pub id: String,
    pub name: String,
    pub generation: Option<i64>,
    pub at: Location,
    pub file: String,
    pub clusters: Vec<(String, Vec<Condition>)>,
    pub conditions: Vec<Condition>,
}

pub const KINDS: &[&str] = &["ClusterResourcePlacement", "ResourcePlacement"];

/// A placement whose status lists per-cluster rollout conditions, rolled by RollingUpdate.
pub fn is_rolling_status(obj: &Object) -> bool {
    KINDS.contains(&obj.kind.as_str())
        && obj
            .node
            .get("status")
            .is_some_and(|s| s.get("placementStatuses").is_some())
        && obj
            .node
            .get("spec")
            .and_then(|s| s.get("strategy"))
            .and_then(|s| s.get("type"))
            .and_then(|t| t.scalar())
            .is_none_or(|t| t.text != "External")
}

pub fn read(obj: &Object, diags: &mut Vec<Diagnostic>) -> Option<PlacementStatus> {
    let mut r = Reader::new(obj.file, false);
    let m = meta(&mut r, obj);
    let out = m.map(|m| {
        let root = Path::object(format!("{}: ", m.id), "status", "");
        let status = obj.node.get("status");
        let mut clusters = Vec::new();
        if let Some(items) = status
            .and_then(|s| s.get("placementStatuses"))
            .and_then(|l| r.seq(l, &root.report_field("placementStatuses")))
        {
            for (i, item) in items.iter().enumerate() {
                let ip = || root.report_field("placementStatuses").index(i);
                let Some(name) = item
                    .get("clusterName")
                    .and_then(|v| r.string(v, &ip().report_field("clusterName")))
                else {
                    continue;
                };
                let conds = conditions(&mut r, item.get("conditions"), || {
                    ip().report_field("conditions")
                });
                clusters.push((name, conds));
            }
        }
        let conds = conditions(&mut r, status.and_then(|s| s.get("conditions")), || {
            root.report_field("conditions")
        });
        PlacementStatus {
            id: m.id,
            name: m.name,
            generation: m.generation,
            at: obj.node.location(obj.file),
            file: obj.file.to_string(),
            clusters,
            conditions: conds,
        }
    });
    diags.append(&mut r.diags);
    out
}

/// Each cluster's fact from its conditions.
pub fn facts(p: &PlacementStatus) -> Vec<(String, Fact)> {
    p.clusters
        .iter()
        .map(|(name, conds)| {
            let t = |k: &str| find(conds, k).filter(|c| c.is_true()).and_then(|c| c.since);
            let started = t("RolloutStarted");
            let applied = t("Applied");
            let failed = find(conds, "Applied")
                .filter(|c| c.is_false())
                .and_then(|c| c.since);
            let fact = match (started, t("Available"), failed) {
                (Some(s), Some(a), _) => Fact::Available(s, applied, a.max(s)),
                (Some(s), None, Some(f)) => Fact::Failed(s, f.max(s)),
                (Some(s), None, None) => Fact::Rolling(s, applied),
                (None, ..) => Fact::Waiting,
            };
            (name.clone(), fact)
        })
        .collect()
}

pub fn project(
    p: &PlacementStatus,
    scenario: &Scenario,
    run: &RollingRun,
    now: Time,
    forecast: Forecasting,
) -> Plan {
    let mut diags = Vec::new();
    let facts = facts(p);
    check(p, now, &mut diags);
    let (fleet, _) = scenario.fleet();
    let base = Timing::new(&scenario.assumptions, &fleet, &mut Vec::new());
    // Observed: applied to available (what `updateDuration` means for rolling updates).
    let mut obs = Observations::default();
    for (_, f) in &facts {
        if let Fact::Available(s, applied, a) = f {
            obs.updates.push(UpdateObservation {
                stage: p.name.clone(),
                duration: a.since(applied.unwrap_or(*s)),
                history: false,
            });
        }
    }
    let pending: Vec<&str> = facts
        .iter()
        .filter(|(_, f)| !matches!(f, Fact::Available(..)))
        .map(|(n, _)| n.as_str())
        .collect();
    let calibration = Calibration::new(
        &obs,
        &[Pending {
            stage: &p.name,
            clusters: pending,
        }],
        base.default_update(),
        false,
        base.default_approval(),
    );
    let resume = Resume {
        now,
        clusters: facts.clone(),
    };
    let hooks = Hooks {
        calibration: Some(&calibration),
        draw: None,
    };
    let mut plan = crate::rolling::plan_with(scenario, run, Some(&resume), hooks);
    let first = facts
        .iter()
        .filter_map(|(_, f)| match f {
            Fact::Rolling(s, _) | Fact::Available(s, ..) | Fact::Failed(s, _) => Some(*s),
            Fact::Waiting => None,
        })
        .min()
        .unwrap_or(now)
        .min(now);
    plan.start = first;
    if let Some(st) = plan.stages.first_mut() {
        st.start = Some(first);
        if let Some(ph) = st.phases.first_mut() {
            ph.start = first;
        }
    }
    plan.summary.total_duration = plan.end.map(|e| e.since(first));
    let mut baseline_scenario = scenario.clone();
    baseline_scenario.start = Some(first);
    let baseline = crate::rolling::plan(&baseline_scenario, run);

    let settings = forecast.settings(scenario.assumptions.uncertainty.as_ref());
    let clusters = plan.stages.first().map_or(0, |s| s.clusters.len());
    let mut samples = Samples::new(1, clusters, settings.samples as usize);
    let ran = forecast.on() && plan.outcome != Outcome::Invalid;
    let mut raw = None;
    if ran {
        let results = montecarlo::run(&settings, Some(&calibration), |draw| {
            let sample = crate::rolling::plan_with(
                scenario,
                run,
                Some(&resume),
                Hooks {
                    calibration: Some(&calibration),
                    draw: Some(*draw),
                },
            );
            let ends: Vec<Option<Time>> = sample
                .stages
                .first()
                .map(|s| s.clusters.iter().map(|c| c.end).collect())
                .unwrap_or_default();
            (ends, sample.end)
        });
        for (ends, end) in results {
            samples.push(&[end], &ends, end);
        }
        raw = forecast.keeps_samples().then(|| samples.ends().clone());
        samples.finish();
    }
    let stages = super::staged::bases(&plan.stages, now, &samples, ran);
    let done = facts
        .iter()
        .filter(|(_, f)| matches!(f, Fact::Available(..)))
        .count();
    let failed: Vec<(&str, Time)> = facts
        .iter()
        .filter_map(|(n, f)| match f {
            Fact::Failed(_, at) => Some((n.as_str(), *at)),
            _ => None,
        })
        .collect();
    let state = if done == facts.len() && !facts.is_empty() {
        RunState::Succeeded
    } else if !failed.is_empty() {
        RunState::Stuck
    } else {
        RunState::Running
    };
    let row = plan.stages.first();
    let mut position = Position {
        state,
        reason: None,
        message: None,
        stage: Some(p.name.clone()),
        stages_done: usize::from(state == RunState::Succeeded),
        stages: 1,
        clusters_done: done,
        clusters: facts.len(),
        in_flight: facts
            .iter()
            .filter_map(|(n, f)| match f {
                Fact::Rolling(s, _) | Fact::Failed(s, _) => Some(InFlight {
                    stage: p.name.clone(),
                    cluster: n.clone(),
                    since: *s,
                    until: row
                        .and_then(|r| r.clusters.iter().find(|c| c.name == *n))
                        .and_then(|c| c.end),
                    failed: matches!(f, Fact::Failed(..)),
                }),
                _ => None,
            })
            .collect(),
        waiting: Vec::new(),
        next: None,
    };
    if let Some(&(_, since)) = failed.first() {
        position.waiting.push(Waiting {
            kind: WaitingKind::FailedClusters,
            stage: Some(p.name.clone()),
            since,
            what: format!(
                "clusters whose new resources failed, each holding one unit of maxUnavailable until fixed: {}",
                failed.iter().map(|f| f.0).collect::<Vec<_>>().join(", ")
            ),
            until: None,
            request: None,
            command: None,
        });
    }
    if let Some(c) = find(&p.conditions, "ClusterResourcePlacementAvailable")
        .or_else(|| find(&p.conditions, "ResourcePlacementAvailable"))
    {
        position.reason = Some(c.reason.to_string());
        position.message = Some(c.message.clone());
    }
    let behind = match (plan.end, baseline.end) {
        (Some(e), Some(b)) => Some(SignedDuration(Duration(e.0 - b.0))),
        _ => None,
    };
    plan.diagnostics.extend(diags);
    plan.projection = Some(Projection {
        now,
        source: Some(p.id.clone()),
        position,
        stages,
        calibration: calibration.notes.clone(),
        baseline_end: baseline.end,
        behind,
        forecast: ran.then(|| {
            forecast::summary(
                &settings,
                scenario.assumptions.uncertainty.as_ref(),
                calibration.observed_groups(),
                false,
                &samples,
            )
        }),
        samples: raw,
    });
    plan
}

fn check(p: &PlacementStatus, now: Time, diags: &mut Vec<Diagnostic>) {
    let all = p
        .conditions
        .iter()
        .chain(p.clusters.iter().flat_map(|(_, c)| c.iter()));
    if let Some(c) = all
        .clone()
        .filter(|c| c.since.is_some_and(|t| t > now))
        .max_by_key(|c| c.since)
    {
        let mut d = Diagnostic::warning(
            "status-after-now",
            format!(
                "the placement's status has times after now ({now}), up to {}: the status was read with a clock ahead of this one, or --now is wrong; those facts are taken as of now",
                c.since.unwrap_or(now)
            ),
        );
        d.location = Some(c.at.in_file(&p.file));
        diags.push(d);
    }
    if let (Some(g), Some(o)) = (
        p.generation,
        all.filter_map(|c| c.observed_generation).max(),
    ) {
        if o < g {
            let mut d = Diagnostic::warning(
                "status-stale",
                format!("the placement's status was written for generation {o} but the placement is at generation {g}: its spec changed and the rollout controller has not acted on it yet"),
            );
            d.location = Some(p.at.clone());
            diags.push(d);
        }
    }
}

/// The range of a rolling update that has not started: the rolling planner redrawn per sample.
pub fn forecast_not_started(
    scenario: &Scenario,
    run: &RollingRun,
    plan: &mut Plan,
    forecast: Forecasting,
) {
    let settings = forecast.settings(scenario.assumptions.uncertainty.as_ref());
    let clusters = plan.stages.first().map_or(0, |s| s.clusters.len());
    let mut samples = Samples::new(1, clusters, settings.samples as usize);
    let results = montecarlo::run(&settings, None, |draw| {
        let sample = crate::rolling::plan_with(
            scenario,
            run,
            None,
            Hooks {
                calibration: None,
                draw: Some(*draw),
            },
        );
        let ends: Vec<Option<Time>> = sample
            .stages
            .first()
            .map(|s| s.clusters.iter().map(|c| c.end).collect())
            .unwrap_or_default();
        (ends, sample.end)
    });
    for (ends, end) in results {
        samples.push(&[end], &ends, end);
    }
    super::staged::record_not_started(
        plan,
        samples,
        forecast,
        &settings,
        scenario.assumptions.uncertainty.as_ref(),
    );
}
