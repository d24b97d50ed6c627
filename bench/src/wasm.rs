//! The functions Node calls (through wasm-bindgen's generated glue) to time the same work in wasm.
//! Inputs are prepared by one call and timed by another, so the timings hold only the measured work.

use std::cell::RefCell;

use wasm_bindgen::prelude::wasm_bindgen;

use crate::Kind;

thread_local! {
    static SCENARIO: RefCell<Option<fleetplan::Scenario>> = const { RefCell::new(None) };
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
}

fn kind(name: &str) -> Kind {
    Kind::parse(name).unwrap_or(Kind::Staged)
}

/// Builds the planner scenario of `kind` (`staged`, `rolling`, `gke`) with `clusters` clusters.
#[wasm_bindgen]
pub fn prepare_plan(kind_name: &str, clusters: u32) {
    let scenario = kind(kind_name).scenario(clusters);
    SCENARIO.with(|s| *s.borrow_mut() = Some(scenario));
}

/// Plans the prepared scenario; returns the event count.
#[wasm_bindgen]
pub fn plan_prepared() -> u32 {
    SCENARIO.with(|s| {
        let events = s.borrow().as_ref().map_or(0, crate::plan_events);
        u32::try_from(events).unwrap_or(u32::MAX)
    })
}

/// Builds the YAML text of `kind` with `clusters` clusters; returns its length in bytes.
#[wasm_bindgen]
pub fn prepare_text(kind_name: &str, clusters: u32) -> u32 {
    let text = kind(kind_name).text(clusters);
    let len = u32::try_from(text.len()).unwrap_or(u32::MAX);
    TEXT.with(|t| *t.borrow_mut() = text);
    len
}

/// Reads the prepared text into scenarios; returns how many.
#[wasm_bindgen]
pub fn read_prepared() -> u32 {
    TEXT.with(|t| {
        let loaded = crate::read(&t.borrow());
        u32::try_from(loaded.scenarios.len()).unwrap_or(u32::MAX)
    })
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
