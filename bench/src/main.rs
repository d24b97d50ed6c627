//! Native planning benchmark: median time of `fleetplan::plan` on large generated fleets, and how the
//! time grows with the fleet (the exponent k in time ∝ clusters^k between consecutive sizes).
//!
//! Run with `cargo run --release -p fleetplan-bench`; `scripts/bench.sh` also runs the wasm build in Node.

use std::time::Instant;

use fleetplan_bench::{fleet_scenario, gke_scenario, growth_exponent};

const SIZES: [(u32, u32); 2] = [(10_000, 10), (100_000, 10)];
const RUNS: usize = 7;
const GKE_SIZES: [u32; 3] = [1_000, 10_000, 100_000];
/// Issue 13's goals for the GKE planner, native: milliseconds at 10,000 and 100,000 clusters.
const GKE_BUDGET_MS: [(u32, f64); 2] = [(10_000, 50.0), (100_000, 600.0)];

/// Median milliseconds of planning `scenario` (after one warm-up run), and its plan's event count.
fn time_plan(scenario: &fleetplan::Scenario) -> (f64, usize) {
    // Warm-up: page in code and let the allocator grow to its working size.
    let plan = fleetplan::plan(scenario);
    let errors = plan.diagnostics.iter().filter(|d| d.is_error()).count();
    if errors > 0 {
        eprintln!(
            "warning: a benchmark scenario has {errors} errors; timings measure a refused run"
        );
    }
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
    live();
    // `fleetplan-bench gke N`: plan only the GKE sequence of N clusters, RUNS times (for a profiler).
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [kind, n] = args.as_slice() {
        if kind == "gke" {
            let clusters: u32 = n.parse().unwrap_or(10_000);
            let (ms, events) = time_plan(&gke_scenario(clusters));
            println!("gke {clusters}: {events} events, median {ms:.1} ms");
            return;
        }
    }
    println!("native (release)");
    println!(
        "{:>9} {:>7} {:>9} {:>10}",
        "clusters", "stages", "events", "median ms"
    );
    for (clusters, stages) in SIZES {
        let (ms, events) = time_plan(&fleet_scenario(clusters, stages));
        println!("{clusters:>9} {stages:>7} {events:>9} {ms:>10.1}");
    }
    println!();
    println!("GKE rollout sequence: 5 stages, 3 versions a week apart, windows and exclusions");
    println!(
        "{:>9} {:>9} {:>10} {:>9} {:>14} {:>8}",
        "clusters", "events", "median ms", "exponent", "plan spans", "budget"
    );
    let mut previous: Option<(u32, f64)> = None;
    for clusters in GKE_SIZES {
        let scenario = gke_scenario(clusters);
        let (ms, events) = time_plan(&scenario);
        let plan = fleetplan::plan(&scenario);
        let span = plan
            .end
            .map_or_else(|| "never".to_string(), |e| e.since(plan.start).to_string());
        let exponent = previous.map_or_else(
            || "-".to_string(),
            |(n0, t0)| format!("{:.2}", growth_exponent(n0, t0, clusters, ms)),
        );
        let budget = GKE_BUDGET_MS
            .iter()
            .find(|(n, _)| *n == clusters)
            .map_or_else(
                || "-".to_string(),
                |(_, b)| {
                    let verdict = if ms <= *b { "ok" } else { "OVER" };
                    format!("{verdict} {b:.0}")
                },
            );
        println!("{clusters:>9} {events:>9} {ms:>10.1} {exponent:>9} {span:>14} {budget:>8}");
        previous = Some((clusters, ms));
    }
}

/// Live projection: reading a run's JSON status and projecting the rest (issue 11's budgets: 10,000
/// clusters under 100 ms; 1,000 Monte Carlo samples of 1,000 clusters under 1 s in wasm).
fn live() {
    println!("live status: a staged run halfway through 10 stages, read from JSON and projected");
    println!(
        "{:>9} {:>8} {:>10} {:>8}",
        "clusters", "samples", "median ms", "budget"
    );
    for (clusters, samples, budget) in [(10_000usize, 0u32, 100.0), (1_000, 1_000, 1_000.0)] {
        let text = fleetplan_bench::live::status_json(clusters);
        let run = || fleetplan_bench::live::import_and_project(&text, samples > 0, samples.max(1));
        std::hint::black_box(run());
        let mut times: Vec<f64> = (0..RUNS)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(run());
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let ms = times[RUNS / 2];
        let verdict = if ms <= budget { "ok" } else { "OVER" };
        println!("{clusters:>9} {samples:>8} {ms:>10.1} {verdict:>4} {budget:.0}");
    }
    println!();
}
