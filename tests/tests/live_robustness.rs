//! Damaged statuses (cut short, a character replaced or inserted, a span deleted) of every kind the
//! live projection reads — a run's YAML and `kubectl describe` text, a GKE Rollout's JSON, a
//! placement's status — give diagnostics, never a panic, and whatever still loads projects.

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
    let specials = [
        '[', ']', '{', '}', ':', '-', '"', '\n', ' ', '\t', '#', ',', 'é', '0',
    ];
    let now = Time::parse("2026-11-26T20:40:00Z").unwrap();
    let mut seed: u64 = 0x11;
    for text in INPUTS {
        let chars: Vec<char> = text.chars().collect();
        for round in 0..120 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let pos = (seed >> 33) as usize % chars.len();
            let special = specials[(seed >> 20) as usize % specials.len()];
            let mut c = chars.clone();
            match round % 4 {
                0 => c.truncate(pos),
                1 => c[pos] = special,
                2 => c.insert(pos, special),
                _ => {
                    let len = ((seed >> 12) as usize % 60).min(c.len() - pos);
                    c.drain(pos..pos + len);
                }
            }
            let damaged: String = c.into_iter().collect();
            let input = status::load(
                &[Source {
                    name: "damaged",
                    text: &damaged,
                }],
                &[],
            );
            for item in &input.items {
                let _ = status::project(item, &Options::new(now, false));
            }
        }
    }
}
