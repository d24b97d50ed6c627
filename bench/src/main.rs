//! Native planning benchmark: median time of `fleetplan::plan` on large generated fleets.
//!
//! Run with `cargo run --release -p fleetplan-bench`; `scripts/bench.sh` also runs the wasm build in Node.

use std::time::Instant;

use fleetplan_bench::{fleet_scenario, gke_scenario};

const SIZES: [(u32, u32); 2] = [(10_000, 10), (100_000, 10)];
const RUNS: usize = 7;
const GKE_SIZES: [u32; 2] = [500, 5_000];

/// Median milliseconds of planning `scenario`, and its plan's event count.
fn time_plan(scenario: &fleetplan::Scenario) -> (f64, usize) {
    let plan = fleetplan::plan(scenario);
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(fleetplan::plan(scenario));
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[RUNS / 2], plan.events.len())
}

fn main() {
    println!("native (release)");
    println!(
        "{:>9} {:>7} {:>9} {:>10}",
        "clusters", "stages", "events", "median ms"
    );
    for (clusters, stages) in SIZES {
        let scenario = fleet_scenario(clusters, stages);
        // Warm-up: page in code and let the allocator grow to its working size.
        let plan = fleetplan::plan(&scenario);
        let errors = plan.diagnostics.iter().filter(|d| d.is_error()).count();
        if errors > 0 {
            eprintln!("warning: the {clusters}x{stages} scenario has {errors} errors; timings measure a refused run");
        }
        let mut times: Vec<f64> = (0..RUNS)
            .map(|_| {
                let t = Instant::now();
                let plan = fleetplan::plan(&scenario);
                let ms = t.elapsed().as_secs_f64() * 1e3;
                std::hint::black_box(plan);
                ms
            })
            .collect();
        times.sort_by(f64::total_cmp);
        println!(
            "{clusters:>9} {stages:>7} {:>9} {:>10.1}",
            plan.events.len(),
            times[RUNS / 2]
        );
    }
    println!();
    println!("GKE rollout sequence: 5 stages, 3 versions a week apart, windows and exclusions");
    println!(
        "{:>9} {:>9} {:>10} {:>14}",
        "clusters", "events", "median ms", "plan spans"
    );
    for clusters in GKE_SIZES {
        let scenario = gke_scenario(clusters);
        let (ms, events) = time_plan(&scenario);
        let plan = fleetplan::plan(&scenario);
        let span = plan
            .end
            .map_or_else(|| "never".to_string(), |e| e.since(plan.start).to_string());
        println!("{clusters:>9} {events:>9} {ms:>10.1} {span:>14}");
    }
}
