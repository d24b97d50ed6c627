//! Native planning benchmark: median time of `fleetplan::plan` on large generated fleets.
//!
//! Run with `cargo run --release -p fleetplan-bench`; `scripts/bench.sh` also runs the wasm build in Node.

use std::time::Instant;

use fleetplan_bench::fleet_scenario;

const SIZES: [(u32, u32); 2] = [(10_000, 10), (100_000, 10)];
const RUNS: usize = 7;

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
}
