//! The readers and planners a front end may bring in later: KubeFleet objects, the GKE kinds, the
//! KubeFleet rolling update's planner and the full YAML reader (the fast readers of `source` take most texts; the event parser, with every
//! diagnostic, reads the rest).
//!
//! [`crate::load`] and [`crate::plan`] use every part. The browser app draws its first chart (a
//! fleetplan scenario of a KubeFleet kind, most often) before the code of the other parts has arrived,
//! so it calls `load_with` and [`plan_with`] with the parts it has; an input that
//! needs a part it lacks comes back as [`Missing`], and the app asks again once the part is there.
//! The answers are the same bytes whichever way the parts arrive.

use crate::diag::Diagnostic;
use crate::gke::import::Shape;
use crate::model::rolling::RollingRun;
use crate::model::{Scenario, Strategy};
use crate::plan::Plan;
use crate::source::Node;

/// Reads KubeFleet objects (documents with `apiVersion`) into scenarios.
pub type ManifestsFn = fn(&[(&Node, &str)]) -> (Vec<Scenario>, Vec<Diagnostic>);
/// Reads GKE's own formats (gcloud stage configs, RolloutSequences, fleet features) into scenarios.
pub type GkeImportFn = fn(&[(&Node, &str, Shape)]) -> (Vec<Scenario>, Vec<Diagnostic>);
/// Reads a text the fast readers give up on (`source::parse_full`): YAML errors, anchors, multi-line
/// scalars and the rest of YAML, with their diagnostics.
pub type YamlFn = for<'a> fn(&'a str, &str) -> (Vec<Node<'a>>, Vec<Diagnostic>);
/// Plans a KubeFleet rolling update (before the finishing touches of [`crate::plan`]).
pub type RollingPlanFn = fn(&Scenario, &RollingRun) -> Plan;
/// Plans a scenario of one of the GKE kinds (before the finishing touches of [`crate::plan`]).
pub type GkePlanFn = fn(&Scenario) -> Plan;

/// A part an input needs that the caller has not brought in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Missing {
    Manifests,
    Gke,
    Yaml,
    Rolling,
}

/// The optional parts a caller has.
#[derive(Clone, Copy, Debug, Default)]
pub struct Parts {
    pub manifests: Option<ManifestsFn>,
    pub gke_import: Option<GkeImportFn>,
    pub gke_plan: Option<GkePlanFn>,
    /// The GKE kinds of fleetplan's own format (comes with the GKE part).
    pub gke_decode: Option<crate::decode::GkeDecoder>,
    pub yaml: Option<YamlFn>,
    pub rolling_plan: Option<RollingPlanFn>,
}

impl Parts {
    /// The KubeFleet kinds in fleetplan's own format only, in text the fast readers know.
    pub const NONE: Parts = Parts {
        manifests: None,
        gke_import: None,
        gke_plan: None,
        gke_decode: None,
        yaml: None,
        rolling_plan: None,
    };

    /// Every part (what [`crate::load`] and [`crate::plan`] use).
    pub fn all() -> Parts {
        Parts::NONE
            .with_manifests()
            .with_gke()
            .with_yaml()
            .with_rolling()
    }

    pub fn with_rolling(self) -> Parts {
        Parts {
            rolling_plan: Some(crate::rolling::plan),
            ..self
        }
    }

    pub fn with_yaml(self) -> Parts {
        Parts {
            yaml: Some(crate::source::parse_full),
            ..self
        }
    }

    pub fn with_manifests(self) -> Parts {
        Parts {
            manifests: Some(crate::manifests::import),
            ..self
        }
    }

    pub fn with_gke(self) -> Parts {
        Parts {
            gke_import: Some(crate::gke::import::import),
            gke_plan: Some(plan_kind),
            gke_decode: Some(crate::decode::GKE_DECODER),
            ..self
        }
    }
}

/// Plans a scenario with its kind's planner (before the finishing touches of [`crate::plan`]).
pub(crate) fn plan_kind(scenario: &Scenario) -> Plan {
    match &scenario.strategy {
        Strategy::KubefleetStaged(run) => crate::staged::plan(scenario, run),
        Strategy::KubefleetRolling(run) => crate::rolling::plan(scenario, run),
        Strategy::GkeRolloutSequence(seq) => crate::gke::plan_rollout_sequence(scenario, seq),
        Strategy::GkeFleetSequence(seq) => crate::gke::plan_fleet_sequence(scenario, seq),
    }
}

/// [`crate::plan`] with the parts the caller has: `Err` names the part a rolling or GKE scenario
/// needs.
pub fn plan_with(scenario: &Scenario, parts: &Parts) -> Result<Plan, Missing> {
    let plan = match &scenario.strategy {
        Strategy::KubefleetStaged(run) => crate::staged::plan(scenario, run),
        Strategy::KubefleetRolling(run) => {
            parts.rolling_plan.ok_or(Missing::Rolling)?(scenario, run)
        }
        Strategy::GkeRolloutSequence(_) | Strategy::GkeFleetSequence(_) => {
            parts.gke_plan.ok_or(Missing::Gke)?(scenario)
        }
    };
    Ok(crate::finish(scenario, plan))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{load, load_with, Source};

    fn source(text: &str) -> [Source<'_>; 1] {
        [Source {
            name: "scenario.yaml",
            text,
        }]
    }

    /// The rule: a part only decides whether an answer can be given now, never what it is. Without a
    /// part an input that needs it says so and reads nothing; with it, the answer is `load`'s and
    /// `plan`'s to the byte (the JSON export of every plan).
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn every_example_plans_the_same_whichever_parts_are_there() {
        let manifests_needed = ["kubefleet-manifests"];
        let gke_planned = ["gke-bank", "gke-pipelining"];
        let rolling_planned = ["rolling-bad-image", "rolling-move-west-east"];
        for e in crate::examples::all() {
            let full = load(&source(e.text));
            let expected = crate::export::json(&crate::plan(&full.scenarios[0]));
            let bare = load_with(&source(e.text), &Parts::NONE);
            if manifests_needed.contains(&e.name) {
                assert_eq!(bare.missing, vec![Missing::Manifests], "{}", e.name);
                assert!(bare.scenarios.is_empty(), "{}", e.name);
                let with = load_with(&source(e.text), &Parts::NONE.with_manifests());
                assert!(with.missing.is_empty());
                assert_eq!(with.diagnostics, full.diagnostics, "{}", e.name);
                continue;
            }
            if gke_planned.contains(&e.name) {
                // GKE kinds in fleetplan's format: even decoding them waits for the GKE part.
                assert_eq!(bare.missing, vec![Missing::Gke], "{}", e.name);
                assert!(bare.scenarios.is_empty(), "{}", e.name);
                let parts = Parts::NONE.with_gke();
                let with = load_with(&source(e.text), &parts);
                assert!(with.missing.is_empty());
                assert_eq!(with.diagnostics, full.diagnostics, "{}", e.name);
                let planned = plan_with(&with.scenarios[0], &parts).unwrap();
                assert_eq!(crate::export::json(&planned), expected, "{}", e.name);
                continue;
            }
            assert!(bare.missing.is_empty(), "{}: {:?}", e.name, bare.missing);
            assert_eq!(bare.diagnostics, full.diagnostics, "{}", e.name);
            let scenario = &bare.scenarios[0];
            let planned = plan_with(scenario, &Parts::NONE);
            if rolling_planned.contains(&e.name) {
                assert_eq!(planned.err(), Some(Missing::Rolling), "{}", e.name);
                let with = plan_with(scenario, &Parts::NONE.with_rolling()).unwrap();
                assert_eq!(crate::export::json(&with), expected, "{}", e.name);
            } else {
                assert_eq!(
                    crate::export::json(&planned.unwrap()),
                    expected,
                    "{}",
                    e.name
                );
            }
        }
    }

    /// Text the fast reader gives up on (here a flow list left open, as while typing; an anchor)
    /// needs the full YAML reader: without it nothing is read, with it the diagnostics are `load`'s.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn yaml_the_fast_reader_gives_up_on_needs_the_full_reader() {
        let example = crate::examples::DEFAULT_TEXT;
        let open_list = format!("{example}\n  - {{broken: [\n");
        let anchored = example.replacen("\nclusters:", "\nclusters: &all", 1);
        assert_ne!(anchored, example);
        for text in [open_list.as_str(), anchored.as_str()] {
            let bare = load_with(&source(text), &Parts::NONE);
            assert_eq!(bare.missing, vec![Missing::Yaml], "{text}");
            assert!(bare.scenarios.is_empty() && bare.diagnostics.is_empty());
            let with = load_with(&source(text), &Parts::NONE.with_yaml());
            let full = load(&source(text));
            assert!(with.missing.is_empty());
            assert_eq!(with.diagnostics, full.diagnostics);
            assert_eq!(with.scenarios.len(), full.scenarios.len());
        }
        // The open list is a syntax error, located; the anchor reads as the example does.
        let broken = load_with(&source(&open_list), &Parts::NONE.with_yaml());
        assert!(broken.diagnostics.iter().any(|d| d.code == "yaml-syntax"));
        let anchored = load_with(&source(&anchored), &Parts::NONE.with_yaml());
        assert_eq!(anchored.scenarios.len(), 1);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn gke_formats_need_the_gke_part() {
        // This file is outside the fast reader's subset: the full reader reads it first.
        let text = include_str!("../../examples/gke-bank-stage-config.yaml");
        let bare = load_with(&source(text), &Parts::NONE);
        assert_eq!(bare.missing, vec![Missing::Yaml]);
        let bare = load_with(&source(text), &Parts::NONE.with_yaml());
        assert_eq!(bare.missing, vec![Missing::Gke]);
        assert!(bare.scenarios.is_empty());
        let with = load_with(&source(text), &Parts::NONE.with_gke().with_yaml());
        assert!(with.missing.is_empty());
        assert_eq!(with.scenarios.len(), load(&source(text)).scenarios.len());
    }
}
