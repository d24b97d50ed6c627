//! Damaged statuses (cut short, a character replaced or inserted, a span deleted) of every kind the
//! live projection reads — a run's YAML and `kubectl describe` text, a GKE Rollout's JSON — never
//! panic, every diagnostic is placed inside the damaged text, and whatever still loads projects.

use fleetplan::status::{self, Options};
use fleetplan::time::Time;
use fleetplan::Source;
use wasm_bindgen_test::wasm_bindgen_test;

const INPUTS: &[&str] = &[
    include_str!("../../examples/staged-in-progress.yaml"),
    include_str!("../../examples/staged-in-progress.describe.txt"),
    include_str!("../../examples/gke-rollout-in-progress.json"),
];

#[wasm_bindgen_test(unsupported = test)]
fn damaged_statuses_never_panic() {
    let now = Time::parse("2026-11-26T20:40:00Z").unwrap();
    for (i, text) in INPUTS.iter().enumerate() {
        for damaged in fleetplan_tests::damage::copies(text, 0x11 + i as u64, 120, 60) {
            let input = status::load(
                &[Source {
                    name: "damaged",
                    text: &damaged,
                }],
                &[],
            );
            for d in &input.diagnostics {
                assert!(!d.message.is_empty(), "empty diagnostic {d:?}");
                assert!(
                    fleetplan_tests::inside_text("damaged", &damaged, d),
                    "{d} is outside the damaged text"
                );
            }
            for item in &input.items {
                let _ = status::project(item, &Options::new(now, false));
            }
        }
    }
}
