//! Benchmark scenarios, built from model types (no YAML, so parsing is not what gets timed), and the
//! wasm entry point that Node calls to time planning in wasm.

pub mod gke;
pub mod live;
pub mod scenario;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use gke::gke_scenario;
pub use scenario::fleet_scenario;

/// Plans a generated fleet and returns the number of events, which both keeps the optimizer from
/// discarding the work and shows the size of the simulation.
pub fn plan_events(clusters: u32, stages: u32) -> usize {
    fleetplan::plan(&fleet_scenario(clusters, stages))
        .events
        .len()
}

/// The same for the GKE rollout sequence of `clusters` clusters.
pub fn plan_gke_events(clusters: u32) -> usize {
    fleetplan::plan(&gke_scenario(clusters)).events.len()
}

/// The exponent k of time ∝ clusters^k between two measurements: 1 is linear, 2 quadratic.
pub fn growth_exponent(n0: u32, ms0: f64, n1: u32, ms1: f64) -> f64 {
    (ms1 / ms0).ln() / (f64::from(n1) / f64::from(n0)).ln()
}
