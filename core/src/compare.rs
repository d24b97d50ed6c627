//! Side by side: the same placement on the same fleet rolled out by a KubeFleet staged update run and
//! by the placement's own RollingUpdate strategy.
//!
//! [`counterpart`] turns one kind into the other (see its documentation for the mapping), and
//! [`compare`] sets two plans' figures next to each other. Front ends plan both and render the result.

use serde::Serialize;

use crate::model::{
    IntOrString, LabelSelector, Placement, Scenario, StageConfig, StagedRun, Strategy,
};
use crate::placement;
use crate::plan::{Outcome, PhaseKind, Plan};
use crate::rolling::model::{Change, RollingRun};
use crate::time::{Duration, Time};

/// The other kind of KubeFleet rollout for the same placement, fleet, start and assumptions:
///
/// - a staged run (`kubefleet-staged`) becomes the rolling update of its placement with the API's
///   default rolling settings (25%, 25%, 60 s) rolling new resources in place; clusters in its delete
///   stage become clusters the placement picked before the change (they are emptied);
/// - a rolling update (`kubefleet-rolling`) becomes a staged run with a single stage `all` selecting
///   every picked cluster (`labelSelector: {}`), `maxConcurrency` = the rolling update's resolved
///   maxUnavailable (at least 1, as the staged API requires), no approvals or waits, and the
///   clusters the change empties in the delete stage.
///
/// `None` for the GKE kinds, which have no KubeFleet counterpart.
pub fn counterpart(s: &Scenario) -> Option<Scenario> {
    let (fleet, _) = s.fleet();
    let strategy = match &s.strategy {
        Strategy::KubefleetStaged(run) => {
            let placement = Placement {
                strategy_type: "RollingUpdate".into(),
                ..run.placement.clone()
            };
            let from = (!run.delete_clusters.is_empty()).then(|| {
                let mut names: Vec<String> =
                    placement::schedule(&run.placement, &fleet, &mut Vec::new())
                        .into_iter()
                        .map(|i| fleet[i].cluster.name.to_string())
                        .collect();
                names.extend(run.delete_clusters.iter().cloned());
                Placement {
                    placement_type: "PickFixed".into(),
                    cluster_names: names,
                    number_of_clusters: None,
                    affinity: Vec::new(),
                    ..placement.clone()
                }
            });
            Strategy::KubefleetRolling(RollingRun {
                placement,
                change: Change {
                    from,
                    ..Change::default()
                },
                ..RollingRun::default()
            })
        }
        Strategy::KubefleetRolling(run) => {
            let mut diags = Vec::new();
            let settings = crate::rolling::webhook::validate(run, &mut diags);
            let picked = placement::schedule(&run.placement, &fleet, &mut diags);
            let target = crate::rolling::rounds::target(&run.placement, picked.len());
            let concurrency = settings.max_unavailable.scaled(target).max(1);
            let delete_clusters = match &run.change.from {
                Some(from) => placement::schedule(from, &fleet, &mut diags)
                    .into_iter()
                    .filter(|i| !picked.contains(i))
                    .map(|i| fleet[i].cluster.name.to_string())
                    .collect(),
                None => Vec::new(),
            };
            Strategy::KubefleetStaged(StagedRun {
                name: crate::decode::DEFAULT_STRATEGY_NAME.into(),
                namespace: None,
                stages: vec![StageConfig {
                    name: "all".into(),
                    label_selector: Some(LabelSelector::default()),
                    max_concurrency: Some(IntOrString::Int(
                        i32::try_from(concurrency).unwrap_or(i32::MAX),
                    )),
                    ..StageConfig::default()
                }],
                run: Default::default(),
                placement: Placement {
                    strategy_type: "External".into(),
                    ..run.placement.clone()
                },
                delete_clusters,
            })
        }
        Strategy::GkeRolloutSequence(_) | Strategy::GkeFleetSequence(_) => return None,
    };
    let suffix = match strategy {
        Strategy::KubefleetRolling(_) => "rolling update",
        _ => "staged run",
    };
    Some(Scenario {
        name: Some(match &s.name {
            Some(n) => format!("{n} ({suffix})"),
            None => suffix.to_string(),
        }),
        strategy,
        origin: Default::default(),
        ..s.clone()
    })
}

/// One plan's figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Side {
    pub kind: &'static str,
    pub run: String,
    pub outcome: Outcome,
    pub end: Option<Time>,
    pub total_duration: Option<Duration>,
    /// Clusters the rollout targets, and those that end on the new resources.
    pub clusters: usize,
    pub clusters_updated: usize,
    /// The most clusters out of service at the same moment: a cluster that served before is out from
    /// the start of its update until it is available again (forever if it never is). Clusters only
    /// added or only emptied do not count.
    pub max_unavailable_at_once: usize,
}

/// Which side finishes first, when both finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Faster {
    A,
    B,
    Same,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub a: Side,
    pub b: Side,
    /// `None` when either never finishes.
    pub faster: Option<Faster>,
    /// How much sooner the faster one finishes (`None` when either never does).
    pub difference: Option<Duration>,
}

pub fn compare(a: &Plan, b: &Plan) -> Comparison {
    let (a, b) = (side(a), side(b));
    let (faster, difference) = match (a.total_duration, b.total_duration) {
        (Some(x), Some(y)) => (
            Some(match x.cmp(&y) {
                std::cmp::Ordering::Less => Faster::A,
                std::cmp::Ordering::Greater => Faster::B,
                std::cmp::Ordering::Equal => Faster::Same,
            }),
            Some(Duration((x.0 - y.0).abs())),
        ),
        _ => (None, None),
    };
    Comparison {
        a,
        b,
        faster,
        difference,
    }
}

fn side(p: &Plan) -> Side {
    Side {
        kind: p.kind,
        run: p.run.clone(),
        outcome: p.outcome,
        end: p.end,
        total_duration: p.summary.total_duration,
        clusters: p.summary.clusters,
        clusters_updated: p.summary.clusters_updated,
        max_unavailable_at_once: max_out_of_service(p),
    }
}

/// A sweep over the out-of-service intervals; an interval's end is exclusive, so a cluster that
/// comes back as another goes out is not counted twice.
fn max_out_of_service(p: &Plan) -> usize {
    let mut edges: Vec<(Time, i32)> = Vec::new();
    for stage in p.stages.iter().filter(|s| !s.delete_stage) {
        for c in &stage.clusters {
            let interval = if c.phases.is_empty() {
                c.start.map(|s| (s, c.end))
            } else if let Some(u) = c.phases.iter().find(|ph| ph.kind == PhaseKind::Update) {
                let back = c.phases.last().and_then(|ph| ph.end);
                Some((u.start, back))
            } else {
                // Only added or only emptied: never a serving cluster out of service.
                None
            };
            if let Some((start, end)) = interval {
                edges.push((start, 1));
                if let Some(end) = end {
                    edges.push((end, -1));
                }
            }
        }
    }
    crate::sort::sort(&mut edges);
    let (mut now, mut max) = (0i32, 0i32);
    for (_, delta) in edges {
        now += delta;
        max = max.max(now);
    }
    max as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{load, Source};

    fn scenario(name: &str) -> Scenario {
        let e = crate::examples::get(name).expect("example");
        load(&[Source {
            name: e.name,
            text: e.text,
        }])
        .scenarios
        .remove(0)
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_staged_run_and_its_rolling_counterpart_side_by_side() {
        let staged = scenario("staged");
        let rolling = counterpart(&staged).expect("staged has a rolling counterpart");
        let Strategy::KubefleetRolling(run) = &rolling.strategy else {
            panic!("{:?}", rolling.strategy)
        };
        assert_eq!(run.placement.strategy_type, "RollingUpdate");
        assert_eq!(rolling.clusters, staged.clusters);
        assert_eq!(rolling.assumptions, staged.assumptions);
        assert_eq!(
            rolling.name.as_deref(),
            Some("staged-rollout (rolling update)")
        );
        let (a, b) = (crate::plan(&staged), crate::plan(&rolling));
        let c = compare(&a, &b);
        // Staged: 7 clusters, approvals and soaks, one cluster at a time except production (2).
        assert_eq!(c.a.kind, "kubefleet-staged");
        assert_eq!(c.a.outcome, Outcome::Succeeded);
        assert_eq!((c.a.clusters, c.a.clusters_updated), (7, 7));
        assert_eq!(c.a.max_unavailable_at_once, 2);
        // Rolling: 25% of 7 rounds up to 2 at a time, no gates: far sooner.
        assert_eq!(c.b.kind, "kubefleet-rolling");
        assert_eq!(c.b.outcome, Outcome::Succeeded);
        assert_eq!((c.b.clusters, c.b.clusters_updated), (7, 7));
        assert_eq!(c.b.max_unavailable_at_once, 2);
        assert_eq!(c.faster, Some(Faster::B));
        assert_eq!(
            c.difference,
            Some(Duration(
                c.a.total_duration.unwrap().0 - c.b.total_duration.unwrap().0
            ))
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_rolling_update_becomes_one_stage_at_max_unavailable() {
        let rolling = scenario("rolling-move-west-east");
        let staged = counterpart(&rolling).expect("rolling has a staged counterpart");
        let Strategy::KubefleetStaged(run) = &staged.strategy else {
            panic!("{:?}", staged.strategy)
        };
        assert_eq!(run.stages.len(), 1);
        assert_eq!(run.stages[0].max_concurrency, Some(IntOrString::Int(1)));
        assert_eq!(run.placement.strategy_type, "External");
        assert_eq!(
            run.delete_clusters,
            ["west-1", "west-2", "west-3", "west-4"]
        );
        let plan = crate::plan(&staged);
        assert_eq!(plan.outcome, Outcome::Succeeded, "{:?}", plan.diagnostics);
        // Back again: the staged run's counterpart empties the west clusters too.
        let back = counterpart(&staged).unwrap();
        let Strategy::KubefleetRolling(again) = &back.strategy else {
            panic!()
        };
        let from = again.change.from.as_ref().unwrap();
        assert_eq!(from.placement_type, "PickFixed");
        assert_eq!(from.cluster_names.len(), 8);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn counterparts_survive_the_yaml_round_trip_the_editor_uses() {
        for name in [
            "staged",
            "rolling-bad-image",
            "rolling-move-west-east",
            "large-fleet",
        ] {
            let mut other = counterpart(&scenario(name)).expect("a KubeFleet kind");
            let text = crate::yaml_out::scenario_to_yaml(&other);
            let loaded = load(&[Source {
                name: "out.yaml",
                text: &text,
            }]);
            assert!(
                loaded.diagnostics.is_empty(),
                "{name}: {:?}\n{text}",
                loaded.diagnostics
            );
            let mut back = loaded.scenarios.into_iter().next().expect("one scenario");
            other.origin = Default::default();
            back.origin = Default::default();
            assert_eq!(back, other, "{name}\n{text}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_stalled_side_never_finishes_and_counts_its_stuck_cluster_forever() {
        let bad = scenario("rolling-bad-image");
        let staged = counterpart(&bad).unwrap();
        let c = compare(&crate::plan(&staged), &crate::plan(&bad));
        // The staged run retries the failing cluster forever, so its stage never finishes; the rolling
        // update stalls.
        assert_eq!(c.a.outcome, Outcome::Blocked);
        assert_eq!(c.b.outcome, Outcome::Stalled);
        assert_eq!(c.b.max_unavailable_at_once, 1);
        assert_eq!((c.faster, c.difference), (None, None));
        assert!(counterpart(&Scenario {
            strategy: Strategy::GkeFleetSequence(Default::default()),
            ..bad
        })
        .is_none());
    }
}
