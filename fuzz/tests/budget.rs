//! The fuzzing budget CI runs on every change: a fixed seed and number of cases (fleets up to 20,000
//! clusters, so a debug build stays quick), every check of `check::run`, and the memory bound measured
//! with the counting allocator. Time is not asserted here (a debug build on a shared machine); the
//! campaign (`scripts/fuzz.sh`, release) checks it, and reports the slowest input.

use fleetplan_fuzz::gen::{self, Config};
use fleetplan_fuzz::{alloc, bounds, check};

#[global_allocator]
static COUNTING: alloc::Counting = alloc::Counting;

const SEED: u64 = 12;
const CASES: u64 = 400;

#[test]
fn a_fixed_budget_of_cases_keeps_every_promise() {
    check::install_panic_hook();
    let config = Config {
        max_clusters: 20_000,
    };
    let mut failures = Vec::new();
    let mut largest = 0;
    for index in 0..CASES {
        let case = gen::case(SEED, index, config);
        let base = alloc::current();
        alloc::reset_peak();
        let outcome = check::run(&case);
        let peak = alloc::peak().saturating_sub(base);
        largest = largest.max(peak);
        let mut broken = outcome.failures;
        if peak > bounds::MEMORY {
            broken.push(format!("peak heap {} MiB", peak >> 20));
        }
        if !broken.is_empty() {
            failures.push(format!(
                "case {SEED}:{index} ({}; replay with `fleetplan-fuzz --replay {SEED}:{index}`): {}",
                case.kind,
                broken.join("; ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(largest > 0, "the allocator counted nothing");
}
