//! GKE rollout sequencing: custom-stage sequences and fleet-based chains, with versions flowing through
//! stages under maintenance windows, exclusions, soaks and the 30-day forced soak.
//!
//! [`validate`] turns the scenario into stages, clusters and releases (every GKE rule a diagnostic),
//! [`simulate`] runs the versions through them, and this module assembles the [`Plan`]: stage rows
//! (RUNNING and soak bars per upgrade type and version), cluster rows (upgrade bars, window and
//! exclusion waits), [`GkeDetail`] and a summary that says when each version reaches each fleet.

pub mod export;
pub mod history;
pub mod import;
pub use crate::model::gke as model;
pub mod select;
pub mod simulate;
pub mod validate;
pub mod version;
pub mod window;

use std::collections::BTreeMap;

use crate::diag::Diagnostic;
use crate::model::{Scenario, DEFAULT_START};
use crate::plan::{
    AssumptionNote, ClusterPlan, ClusterStatus, Labels, LongestWaits, Outcome, Phase, PhaseKind,
    Plan, StagePlan, StageStatus, Summary, VersionReach, Wait,
};
use crate::time::Time;

use simulate::SimResult;
use validate::{Setup, Stream};

pub use crate::plan::gke::{
    FleetReach, GkeDetail, SkippedCluster, StageDetail, StageReach, StageUpgrade, StateSpan,
    VersionDetail,
};

pub fn plan_rollout_sequence(scenario: &Scenario, seq: &model::RolloutSequence) -> Plan {
    let start = scenario.start.unwrap_or(DEFAULT_START);
    let setup = validate::rollout_sequence(scenario, seq, start);
    assemble(scenario, setup, "gke-rollout-sequence", &seq.name, start)
}

pub fn plan_fleet_sequence(scenario: &Scenario, seq: &model::FleetSequence) -> Plan {
    let start = scenario.start.unwrap_or(DEFAULT_START);
    let setup = validate::fleet_sequence(scenario, seq, start);
    assemble(scenario, setup, "gke-fleet-sequence", &seq.name, start)
}

/// A sequence planned from a live position: `adjust` may change the validated setup (clusters
/// already on the version, durations, releases) and returns the versions already qualified
/// ([`simulate::Seed`]), from which the simulation continues. `None` for other strategy kinds.
pub fn plan_from(
    scenario: &Scenario,
    start: Time,
    adjust: &mut dyn FnMut(&mut Setup) -> Vec<simulate::Seed>,
) -> Option<Plan> {
    let (mut setup, kind, name) = match &scenario.strategy {
        crate::model::Strategy::GkeRolloutSequence(seq) => (
            validate::rollout_sequence(scenario, seq, start),
            "gke-rollout-sequence",
            seq.name.clone(),
        ),
        crate::model::Strategy::GkeFleetSequence(seq) => (
            validate::fleet_sequence(scenario, seq, start),
            "gke-fleet-sequence",
            seq.name.clone(),
        ),
        _ => return None,
    };
    let seeds = adjust(&mut setup);
    Some(assemble_seeded(scenario, setup, kind, &name, start, &seeds))
}

fn state_name(r: &simulate::Rollout) -> &'static str {
    if r.forced {
        "FORCED_SOAKING"
    } else {
        "SOAKING"
    }
}

fn assemble(
    scenario: &Scenario,
    setup: Setup,
    kind: &'static str,
    name: &str,
    start: Time,
) -> Plan {
    assemble_seeded(scenario, setup, kind, name, start, &[])
}

fn assemble_seeded(
    scenario: &Scenario,
    mut setup: Setup,
    kind: &'static str,
    name: &str,
    start: Time,
    seeds: &[simulate::Seed],
) -> Plan {
    if !setup.plannable {
        // GKE refuses the sequence: no rollout ever runs, so none is simulated.
        setup.releases.clear();
    }
    let seeds = if setup.plannable { seeds } else { &[] };
    let mut sim = simulate::simulate_seeded(&setup, start, seeds);
    let mut diagnostics = std::mem::take(&mut setup.diagnostics);
    let blocked =
        sim.rollouts.iter().any(|r| r.completed.is_none()) || sim.clusters.iter().any(|c| c.stuck);
    let outcome = if !setup.valid {
        Outcome::Invalid
    } else if blocked {
        Outcome::Blocked
    } else {
        Outcome::Succeeded
    };
    let Rows {
        stages,
        waits,
        last_bar_end,
        latest_bar,
        labels,
    } = stage_plans(&setup, &mut sim);
    let end = (!blocked && setup.plannable).then(|| {
        sim.rollouts
            .iter()
            .filter_map(|r| r.completed)
            .chain(last_bar_end)
            .fold(start, Time::max)
    });
    // What `Plan::latest_time` reads: every bar's start and end (gathered with the rows), the
    // clusters' ends (each one a bar's), the last event.
    let latest = latest_bar
        .into_iter()
        .chain(sim.events.last().map(|e| e.at))
        .fold(start, Time::max);
    let detail = detail(&setup, &sim);
    simulation_diagnostics(&setup, &sim, &detail, &mut diagnostics);
    if !setup.plannable {
        diagnostics.push(Diagnostic::info(
            "nothing-planned",
            "a label selector does not parse, so GKE refuses the sequence: nothing is planned for it until the selector is fixed",
        ));
    } else if outcome == Outcome::Invalid {
        diagnostics.push(Diagnostic::info(
            "timeline-despite-errors",
            "GKE would refuse this sequence; the timeline shows what the stages would do as far as they could be computed",
        ));
    }
    let mut assumptions = vec![AssumptionNote {
        field: "start".into(),
        value: start.to_string(),
        defaulted: scenario.start.is_none(),
    }];
    for s in &setup.stages {
        assumptions.push(AssumptionNote {
            field: format!("soak of stage {}", s.name),
            value: s.soak_default.to_string(),
            defaulted: false,
        });
    }
    assumptions.append(&mut setup.notes);
    let summary = summarize(
        &setup,
        &sim,
        &stages,
        waits,
        &detail,
        &diagnostics,
        start,
        end,
    );
    Plan {
        kind,
        scenario: scenario.name.clone(),
        run: name.to_string(),
        start,
        end,
        outcome,
        stages,
        unstaged: Vec::new(),
        events: sim.events,
        diagnostics,
        summary,
        assumptions,
        gke: Some(detail),
        rolling: None,
        projection: None,
        latest: Some(latest),
        labels,
    }
}

/// What `stage_plans` gathers in its one pass over a large plan's bars.
struct Rows {
    /// The stage rows, each with its clusters' rows.
    stages: Vec<StagePlan>,
    /// The longest waits among the clusters' bars, for the summary.
    waits: Vec<Wait>,
    /// The latest end of any bar, for the plan's end.
    last_bar_end: Option<Time>,
    /// The latest start or end of any bar, for `Plan::latest_time`.
    latest_bar: Option<Time>,
    /// The texts the bars name by place.
    labels: Labels,
}

/// The stage rows with their clusters' rows; the longest waits among the clusters' bars and the
/// latest end of any of them, gathered on the way (a large plan's bars are read once).
fn stage_plans(setup: &Setup, sim: &mut SimResult) -> Rows {
    // Each cluster's bars move into its row; nothing reads them from the simulation afterwards.
    let mut bars: Vec<Vec<Phase>> = sim
        .clusters
        .iter_mut()
        .map(|c| std::mem::take(&mut c.phases))
        .collect();
    // The clusters' bars name texts of this table; the stages' bars add theirs.
    let mut labels = std::mem::take(&mut sim.labels);
    let sim = &*sim;
    // Per cluster: reason → what it skipped, so `ALREADY_UPGRADED (control plane 1.31.5, nodes 1.31.5)`.
    let mut by_reason: BTreeMap<usize, Vec<(&str, Vec<String>)>> = BTreeMap::new();
    for s in &sim.skips {
        let list = by_reason.entry(s.cluster).or_default();
        let pos = match list.iter().position(|(r, _)| *r == s.reason) {
            Some(p) => p,
            None => {
                list.push((s.reason, Vec::new()));
                list.len() - 1
            }
        };
        if let (Some(st), Some(v)) = (s.stream, &s.version) {
            let what = format!("{} {v}", st.words());
            if !list[pos].1.contains(&what) {
                list[pos].1.push(what);
            }
        }
    }
    let skips: BTreeMap<usize, Vec<String>> = by_reason
        .into_iter()
        .map(|(c, list)| {
            let texts = list
                .into_iter()
                .map(|(r, what)| {
                    if what.is_empty() {
                        r.to_string()
                    } else {
                        format!("{r} ({})", what.join(", "))
                    }
                })
                .collect();
            (c, texts)
        })
        .collect();
    let mut top = LongestWaits::default();
    let mut last_end: Option<Time> = None;
    // The latest start or end of any bar, stage rows' too (`Plan::latest_time`).
    let mut latest: Option<Time> = None;
    let stages: Vec<StagePlan> = setup
        .stages
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let rollouts: Vec<&simulate::Rollout> =
                sim.rollouts.iter().filter(|r| r.stage == i).collect();
            let mut phases = Vec::new();
            for r in &rollouts {
                let kind = match r.stream {
                    Stream::ControlPlane => PhaseKind::ControlPlaneUpgrade,
                    Stream::Node => PhaseKind::NodeUpgrade,
                };
                if let Some(p) = r.paused.filter(|p| *p < r.start) {
                    phases.push(Phase {
                        kind: PhaseKind::MaintenanceWait,
                        start: p,
                        end: Some(r.start),
                        label: labels.add(format!(
                            "{} paused: every cluster held by its maintenance policy",
                            r.stream.words()
                        )),
                        version: Some(r.bar_version),
                    });
                }
                if r.soak_start != Some(r.start) {
                    phases.push(Phase {
                        kind,
                        start: r.start,
                        end: r.soak_start,
                        label: labels.add(format!("{} {} running", r.stream.words(), r.version)),
                        version: Some(r.bar_version),
                    });
                }
                if let Some(s) = r.soak_start {
                    if r.completed != Some(s) {
                        let forced = if r.forced {
                            "forced soaking"
                        } else {
                            "soaking"
                        };
                        phases.push(Phase {
                            kind: if r.forced {
                                PhaseKind::ForcedSoaking
                            } else {
                                PhaseKind::Soaking
                            },
                            start: s,
                            end: r.completed,
                            label: labels.add(format!(
                                "{} {} {forced} {}",
                                r.stream.words(),
                                r.version,
                                r.soak
                            )),
                            version: Some(r.bar_version),
                        });
                    }
                }
            }
            phases.sort_by_key(|p| p.start);
            latest = latest.max(
                phases
                    .iter()
                    .map(|p| p.end.unwrap_or(p.start).max(p.start))
                    .max(),
            );
            let clusters: Vec<ClusterPlan> = st
                .members
                .iter()
                .enumerate()
                .map(|(ci, &c)| {
                    let run = &sim.clusters[c];
                    let mut phases = std::mem::take(&mut bars[c]);
                    phases.sort_by_key(|p| p.start);
                    let bar_end = phases.iter().filter_map(|p| p.end).max();
                    last_end = last_end.max(bar_end);
                    // Sorted by start: the last bar starts latest.
                    latest = latest.max(bar_end).max(phases.last().map(|p| p.start));
                    top.offer(i, ci, &phases, &is_wait);
                    let upgrades = phases.iter().filter(|p| {
                        matches!(
                            p.kind,
                            PhaseKind::ControlPlaneUpgrade | PhaseKind::NodeUpgrade
                        )
                    });
                    let cstart = upgrades.clone().map(|p| p.start).min();
                    let cend = if run.stuck {
                        None
                    } else {
                        upgrades.filter_map(|p| p.end).max()
                    };
                    let status = if run.upgraded && !run.stuck {
                        ClusterStatus::Succeeded
                    } else {
                        ClusterStatus::NotStarted
                    };
                    ClusterPlan {
                        name: setup.clusters[c].name.clone(),
                        sort_value: None,
                        status,
                        start: cstart,
                        end: cend,
                        stuck_at: None,
                        phases,
                        reason: skips.get(&c).map(|l| l.join("; ")),
                    }
                })
                .collect();
            let incomplete = rollouts.iter().any(|r| r.completed.is_none());
            let status = if st.members.is_empty() {
                StageStatus::Skipped
            } else if rollouts.is_empty() {
                StageStatus::NotStarted
            } else if incomplete {
                StageStatus::Waiting
            } else {
                StageStatus::Succeeded
            };
            StagePlan {
                name: st.name.to_string(),
                index: i,
                delete_stage: false,
                max_concurrency: st.members.len(),
                status,
                start: rollouts.iter().map(|r| r.start).min(),
                end: if incomplete {
                    None
                } else {
                    rollouts.iter().filter_map(|r| r.completed).max()
                },
                clusters,
                phases,
            }
        })
        .collect();
    // A cluster of no stage (none, as the setup assigns every cluster one) keeps its bars here.
    last_end = last_end.max(bars.iter().flatten().filter_map(|p| p.end).max());
    let waits = top.waits(&stages, &labels);
    Rows {
        stages,
        waits,
        last_bar_end: last_end,
        latest_bar: latest,
        labels,
    }
}

/// The bars the summary's longest waits are taken from.
fn is_wait(k: PhaseKind) -> bool {
    matches!(k, PhaseKind::MaintenanceWait | PhaseKind::ExclusionWait)
}

fn detail(setup: &Setup, sim: &SimResult) -> GkeDetail {
    let stages = setup
        .stages
        .iter()
        .enumerate()
        .map(|(i, st)| StageDetail {
            stage: st.name.to_string(),
            fleet: st.fleet.clone(),
            label_selector: st.selector.clone(),
            soak: st.soak_default,
            clusters: st.members.len(),
            upgrades: sim
                .rollouts
                .iter()
                .filter(|r| r.stage == i)
                .map(|r| {
                    let mut states = Vec::new();
                    // PENDING while the stage is busy with another version, PAUSED while every
                    // cluster is held by its maintenance policy (from when this version was there).
                    let paused = r
                        .paused
                        .map(|p| p.max(r.available))
                        .filter(|p| *p < r.start);
                    let pending_end = paused.unwrap_or(r.start);
                    if r.available < pending_end {
                        states.push(StateSpan {
                            state: "PENDING",
                            start: r.available,
                            end: Some(pending_end),
                        });
                    }
                    if let Some(p) = paused {
                        states.push(StateSpan {
                            state: "PAUSED",
                            start: p,
                            end: Some(r.start),
                        });
                    }
                    states.push(StateSpan {
                        state: "RUNNING",
                        start: r.start,
                        end: r.soak_start,
                    });
                    if let Some(s) = r.soak_start {
                        states.push(StateSpan {
                            state: state_name(r),
                            start: s,
                            end: r.completed,
                        });
                    }
                    if let Some(c) = r.completed {
                        states.push(StateSpan {
                            state: "COMPLETED",
                            start: c,
                            end: None,
                        });
                    }
                    StageUpgrade {
                        upgrade_type: r.stream.key(),
                        version: r.version.text.to_string(),
                        states,
                        supersedes: r.supersedes.iter().map(|v| v.to_string()).collect(),
                    }
                })
                .collect(),
        })
        .collect();
    let skipped = sim
        .skips
        .iter()
        .map(|s| SkippedCluster {
            cluster: setup.clusters[s.cluster].name.to_string(),
            stage: setup.stages[s.stage].name.to_string(),
            upgrade_type: s.stream.map(Stream::key),
            version: s.version.as_ref().map(|v| v.to_string()),
            reason: s.reason,
        })
        .collect();
    // Fleets in the order their first stage comes.
    let mut fleets: Vec<&str> = Vec::new();
    for st in &setup.stages {
        if !fleets.contains(&st.fleet.as_str()) && !st.fleet.is_empty() {
            fleets.push(&st.fleet);
        }
    }
    let fleet_of: Vec<Option<usize>> = setup
        .clusters
        .iter()
        .map(|c| fleets.iter().position(|f| c.fleet == *f))
        .collect();
    // Each released version once per stream, in release order; then one pass over the clusters
    // counts every version's reach (a cluster's history is read once, not once per version).
    let mut released: Vec<(Stream, Option<version::Minor>, &version::Version, Time)> = Vec::new();
    for stream in Stream::BOTH {
        for (from, v, at) in &sim.released[stream as usize] {
            if !released
                .iter()
                .any(|(s, f, rv, _)| *s == stream && f == from && *rv == v)
            {
                released.push((stream, *from, v, *at));
            }
        }
    }
    // Per released version, per fleet: the reach, and when the last cluster got there.
    let mut reach: Vec<Vec<(FleetReach, Time)>> = released
        .iter()
        .map(|(_, _, _, at)| {
            fleets
                .iter()
                .map(|f| {
                    let r = FleetReach {
                        fleet: f.to_string(),
                        clusters: 0,
                        reached: 0,
                        all_at: None,
                        missing: Vec::new(),
                    };
                    (r, *at)
                })
                .collect()
        })
        .collect();
    for (c, cs) in setup.clusters.iter().enumerate() {
        // Clusters of no stage's fleet are not in the sequence.
        let Some(f) = fleet_of[c] else {
            continue;
        };
        if cs.excluded {
            continue;
        }
        for ((stream, from, v, _), per_fleet) in released.iter().zip(&mut reach) {
            let k = *stream as usize;
            // A per-minor target is for the clusters that run its minor at some point.
            let audience = from.is_none_or(|m| {
                sim.history
                    .of(c, k)
                    .any(|(_, cv)| sim.versions[*cv].minor_key() == m)
            });
            if !audience {
                continue;
            }
            let (r, last) = &mut per_fleet[f];
            r.clusters += 1;
            match sim
                .history
                .of(c, k)
                .find(|(_, cv)| sim.versions[*cv] >= **v)
            {
                Some((t, _)) => {
                    r.reached += 1;
                    *last = (*last).max(*t);
                }
                None => r.missing.push(cs.name.to_string()),
            }
        }
    }
    let versions = released
        .iter()
        .zip(reach)
        .map(|((stream, from, v, at), reach)| {
            let stages = setup
                .stages
                .iter()
                .enumerate()
                .map(|(i, st)| StageReach {
                    stage: st.name.to_string(),
                    completed: sim
                        .rollouts
                        .iter()
                        .filter(|r| {
                            r.stage == i
                                && r.stream == *stream
                                && r.lane == *from
                                && r.version >= **v
                        })
                        .filter_map(|r| r.completed)
                        .min(),
                })
                .collect();
            let fleets = reach
                .into_iter()
                .filter(|(r, _)| r.clusters > 0)
                .map(|(mut r, last)| {
                    r.all_at = r.missing.is_empty().then_some(last);
                    r
                })
                .collect();
            VersionDetail {
                version: v.text.to_string(),
                upgrade_type: stream.key(),
                released: *at,
                stages,
                fleets,
            }
        })
        .collect();
    GkeDetail {
        computed_release_channel: setup.computed_channel.clone(),
        stages,
        skipped,
        versions,
    }
}

fn simulation_diagnostics(
    setup: &Setup,
    sim: &SimResult,
    detail: &GkeDetail,
    diags: &mut Vec<Diagnostic>,
) {
    diags.extend(sim.diagnostics.iter().cloned());
    for r in sim.rollouts.iter().filter(|r| r.completed.is_none()) {
        let stage = &setup.stages[r.stage];
        let stuck: Vec<&str> = stage
            .members
            .iter()
            .filter(|c| sim.clusters[**c].stuck)
            .map(|c| setup.clusters[*c].name.as_str())
            .collect();
        let why = if stuck.is_empty() {
            String::new()
        } else {
            format!(
                ": {} never finish{} (a maintenance window that never opens again, or nodes waiting for a control plane that never gets there)",
                stuck.join(", "),
                if stuck.len() == 1 { "es" } else { "" }
            )
        };
        diags.push(
            Diagnostic::warning(
                "rollout-blocked",
                format!(
                    "stage {}: the {} rollout to {} never completes{why}",
                    stage.name,
                    r.stream.words(),
                    r.version
                ),
            )
            .at("clusters"),
        );
    }
    let stuck: Vec<&str> = sim
        .clusters
        .iter()
        .zip(&setup.clusters)
        .filter(|(run, _)| run.stuck)
        .map(|(_, c)| c.name.as_str())
        .collect();
    if !stuck.is_empty() {
        diags.push(
            Diagnostic::warning(
                "upgrade-never-finishes",
                format!(
                    "{} cluster(s) never finish an upgrade ({}{}): a maintenance window that does not open again within four years, or nodes waiting for a control plane that never gets there",
                    stuck.len(),
                    stuck[..stuck.len().min(5)].join(", "),
                    if stuck.len() > 5 { ", …" } else { "" }
                ),
            )
            .at("clusters"),
        );
    }
    for r in sim.rollouts.iter().filter(|r| r.forced) {
        diags.push(Diagnostic::info(
            "FORCED_SOAKING",
            format!(
                "stage {}: {} {} was still upgrading 30 days after it began; GKE soaks it anyway and the remaining clusters carry on",
                setup.stages[r.stage].name,
                r.stream.words(),
                r.version
            ),
        ));
    }
    for v in &detail.versions {
        for f in v.fleets.iter().filter(|f| !f.missing.is_empty()) {
            let shown = f.missing[..f.missing.len().min(5)].join(", ");
            diags.push(
                Diagnostic::warning(
                    "version-not-everywhere",
                    format!(
                        "{} {} never reaches {} of {} cluster(s) of fleet {} ({shown}{}): they are skipped (see their reasons) or never finish an upgrade",
                        if v.upgrade_type == "node" { "nodes" } else { "control plane" },
                        v.version,
                        f.missing.len(),
                        f.clusters,
                        f.fleet,
                        if f.missing.len() > 5 { ", …" } else { "" }
                    ),
                )
                .at("strategy.versions"),
            );
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn summarize(
    setup: &Setup,
    sim: &SimResult,
    stages: &[StagePlan],
    waits: Vec<Wait>,
    detail: &GkeDetail,
    diags: &[Diagnostic],
    start: Time,
    end: Option<Time>,
) -> Summary {
    let (errors, warnings) = crate::plan::problem_counts(diags);
    let in_sequence = setup.clusters.iter().filter(|c| !c.excluded).count();
    Summary {
        total_duration: end.map(|e| e.since(start)),
        clusters: in_sequence,
        clusters_updated: sim
            .clusters
            .iter()
            .filter(|c| c.upgraded && !c.stuck)
            .count(),
        errors,
        warnings,
        stage_etas: crate::plan::stage_etas(stages),
        longest_waits: crate::plan::longest_waits(waits),
        version_reach: detail
            .versions
            .iter()
            .flat_map(|v| {
                v.fleets.iter().map(move |f| VersionReach {
                    version: v.version.clone(),
                    upgrade_type: v.upgrade_type,
                    fleet: f.fleet.clone(),
                    clusters: f.clusters,
                    at: f.all_at,
                })
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests;
