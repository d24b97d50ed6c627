//! The function Node calls (through wasm-bindgen's generated glue) to time planning in wasm.

use wasm_bindgen::prelude::wasm_bindgen;

/// Plans a generated fleet of `clusters` clusters in `stages` rings; returns the event count.
#[wasm_bindgen]
pub fn plan_fleet(clusters: u32, stages: u32) -> u32 {
    u32::try_from(crate::plan_events(clusters, stages)).unwrap_or(u32::MAX)
}

/// Plans the generated GKE rollout sequence of `clusters` clusters; returns the event count.
#[wasm_bindgen]
pub fn plan_gke(clusters: u32) -> u32 {
    u32::try_from(crate::plan_gke_events(clusters)).unwrap_or(u32::MAX)
}

/// Builds the JSON status of a staged run of `clusters` clusters halfway through (not timed).
#[wasm_bindgen]
pub fn live_status(clusters: u32) -> String {
    crate::live::status_json(clusters as usize)
}

/// Reads `text` and projects it, with the Monte Carlo's `samples` when `samples > 0`.
#[wasm_bindgen]
pub fn live_project(text: &str, samples: u32) -> u32 {
    u32::try_from(crate::live::import_and_project(
        text,
        samples > 0,
        samples.max(1),
    ))
    .unwrap_or(u32::MAX)
}
