//! The functions Node calls (through wasm-bindgen's generated glue) to time the same work in wasm.
//! Inputs are prepared by one call and timed by another, so the timings hold only the measured work.
//! Preparing drops whatever was prepared before, as `fleetplan-bench serve` does natively: a kept
//! 100,000-cluster scenario left the wasm heap fragmented for the figures after it, which made their
//! allocations slower in wasm only (bench/REPORT.md, the live status at 10,000 clusters).

use std::cell::{Cell, RefCell};

use wasm_bindgen::prelude::wasm_bindgen;

use crate::Kind;

thread_local! {
    static SCENARIO: RefCell<Option<fleetplan::Scenario>> = const { RefCell::new(None) };
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
    static SAMPLES: Cell<u32> = const { Cell::new(0) };
}

fn kind(name: &str) -> Kind {
    Kind::parse(name).unwrap_or(Kind::Staged)
}

/// Builds the planner scenario of `kind` (`staged`, `rolling`, `gke`) with `clusters` clusters.
#[wasm_bindgen]
pub fn prepare_plan(kind_name: &str, clusters: u32) {
    let scenario = kind(kind_name).scenario(clusters);
    SCENARIO.with(|s| *s.borrow_mut() = Some(scenario));
    TEXT.with(|t| *t.borrow_mut() = String::new());
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
    SCENARIO.with(|s| *s.borrow_mut() = None);
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

/// Builds the JSON status of a staged run of `clusters` clusters halfway through (not timed), to be
/// read and projected by [`live_prepared`] with the Monte Carlo's `samples` when `samples > 0`.
#[wasm_bindgen]
pub fn prepare_live(clusters: u32, samples: u32) {
    let text = crate::live::status_json(clusters as usize);
    TEXT.with(|t| *t.borrow_mut() = text);
    SCENARIO.with(|s| *s.borrow_mut() = None);
    SAMPLES.with(|s| s.set(samples));
}

/// Reads the prepared status and projects it; returns what the projection counted.
#[wasm_bindgen]
pub fn live_prepared() -> u32 {
    let samples = SAMPLES.with(Cell::get);
    TEXT.with(|t| {
        u32::try_from(crate::live::import_and_project(
            &t.borrow(),
            samples > 0,
            samples.max(1),
        ))
        .unwrap_or(u32::MAX)
    })
}
