//! Benchmark inputs and the measured operations, shared by the native binary and the wasm build that
//! Node times: planner scenarios built from model types (so parsing is not what a planner's time
//! includes), scenario texts as users write them (for reading speed and the CLI), and the growth
//! exponent.

pub mod gke;
pub mod live;
pub mod scenario;
pub mod text;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use gke::gke_scenario;
pub use scenario::fleet_scenario;

use fleetplan::{Scenario, Source};

/// The planners the benchmark times, by strategy kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// KubeFleet staged update run: ten rings of generated clusters.
    Staged,
    /// KubeFleet rolling update: a placement moving from west to east clusters.
    Rolling,
    /// GKE rollout sequence: five stages, three versions, windows and exclusions.
    Gke,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Staged, Kind::Rolling, Kind::Gke];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Staged => "staged",
            Kind::Rolling => "rolling",
            Kind::Gke => "gke",
        }
    }

    pub fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The scenario a planner is timed on, with `clusters` clusters.
    pub fn scenario(self, clusters: u32) -> Scenario {
        match self {
            Kind::Staged => fleet_scenario(clusters, 10),
            Kind::Gke => gke_scenario(clusters),
            Kind::Rolling => {
                let text = text::rolling_yaml(clusters);
                let mut loaded = read(&text);
                assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
                loaded.scenarios.remove(0)
            }
        }
    }

    /// This kind's scenario as YAML text with every cluster listed, for reading and the CLI.
    pub fn text(self, clusters: u32) -> String {
        match self {
            Kind::Staged => text::kubefleet_yaml(clusters),
            Kind::Rolling => text::rolling_yaml(clusters),
            Kind::Gke => text::gke_yaml(clusters),
        }
    }
}

/// Reads one text as the CLI and the web app do: YAML to scenarios, every problem a diagnostic.
pub fn read(text: &str) -> fleetplan::Loaded {
    fleetplan::load(&[Source {
        name: "bench.yaml",
        text,
    }])
}

/// Plans and returns the number of events, which keeps the optimizer from discarding the work and
/// shows the size of the simulation.
pub fn plan_events(scenario: &Scenario) -> usize {
    fleetplan::plan(scenario).events.len()
}

/// The exponent k of time ∝ clusters^k between two measurements: 1 is linear, 2 quadratic.
pub fn growth_exponent(n0: u32, ms0: f64, n1: u32, ms1: f64) -> f64 {
    (ms1 / ms0).ln() / (f64::from(n1) / f64::from(n0)).ln()
}
