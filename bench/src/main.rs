//! Native benchmark: planning time (CPU time, see `cpu_ms`) per kind at 1,000, 10,000 and 100,000 clusters with its growth
//! exponent, and reading speed (YAML text to scenarios, in MB/s). Budgets of issue 13 print PASS or
//! FAIL; nothing here is a test. `scripts/bench.sh` runs this, the same work in wasm (Node) and the
//! CLI end to end, and writes bench/REPORT.md.
//!
//! `fleetplan-bench`: everything natively. `fleetplan-bench serve`: the native half of the wasm/native
//! comparison, driven over stdin by scripts/bench-wasm.cjs (see `serve`).
//! `fleetplan-bench yaml staged|rolling|gke N`: print a generated scenario text.
//! `fleetplan-bench read KIND [once]`: time only reading KIND's 10,000-cluster text (`once`: read it
//! once and print nothing, for counting instructions with callgrind).
//! `fleetplan-bench gke N [once]`: plan only the GKE sequence of N clusters (for a profiler; `once`:
//! one plan, for counting instructions with callgrind).

use std::io::{BufRead as _, Write as _};
use std::time::Instant;

use fleetplan_bench::{growth_exponent, plan_events, read, Kind};

/// The CLI's allocator (cli/src/main.rs), so that the native figures are those users get.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SIZES: [u32; 3] = [1_000, 10_000, 100_000];
/// Runs per measurement after one warm-up, fewer when one run is long (see `median_ms`).
const RUNS: usize = 7;
/// Issue 13's goals for the GKE planner, native: milliseconds at 10,000 and 100,000 clusters.
const GKE_BUDGET_MS: [(u32, f64); 2] = [(10_000, 50.0), (100_000, 600.0)];
/// Issue 13's goal for reading scenario text (YAML to scenarios), MB/s.
const READ_BUDGET_MB_S: f64 = 30.0;
/// Issue 11's goal for importing and projecting a 10,000-cluster run's status, native, ms.
const LIVE_BUDGET_MS: f64 = 100.0;
/// Clusters in the texts whose reading speed is measured (the CLI benchmark's size).
const READ_CLUSTERS: u32 = 10_000;

/// CPU time this thread has used, in milliseconds. The work measured is single-threaded, so on an
/// idle machine this is its wall time; on a busy one (two cores shared by many builds) wall time mostly
/// measures the other processes, and CPU time keeps comparisons between runs and with wasm meaningful.
fn cpu_ms() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write; the clock id is a constant Linux has.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

/// Median CPU milliseconds of one call of `f`, after one warm-up run (which pages in code and lets the
/// allocator grow to its working size). Stops after about two seconds of samples, with at least three.
/// A sample times a batch of calls lasting at least [`BATCH_MS`] and divides: a single call of a
/// millisecond or two is within the reach of one scheduler tick or cache flush from another process,
/// which made the 1,000-cluster wasm/native ratios swing by 2x between runs of the same build.
fn median_ms<T>(mut f: impl FnMut() -> T) -> f64 {
    let t = cpu_ms();
    std::hint::black_box(f());
    let calls = batch_calls(cpu_ms() - t);
    let begun = Instant::now();
    let mut times = Vec::with_capacity(RUNS);
    while times.len() < RUNS && (times.len() < 3 || begun.elapsed().as_secs_f64() < 2.0) {
        let t = cpu_ms();
        for _ in 0..calls {
            std::hint::black_box(f());
        }
        times.push((cpu_ms() - t) / calls as f64);
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// CPU milliseconds a timed batch of calls lasts at least (see [`median_ms`]).
const BATCH_MS: f64 = 20.0;

/// How many calls of `one_ms` each make a batch of [`BATCH_MS`]: one for calls that long or longer.
fn batch_calls(one_ms: f64) -> u32 {
    if one_ms >= BATCH_MS {
        1
    } else {
        (BATCH_MS / one_ms.max(0.01)).ceil().min(10_000.0) as u32
    }
}

fn budget(pass: bool, what: &str) {
    println!("budget {} {what}", if pass { "PASS" } else { "FAIL" });
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["yaml", kind, n] => {
            let clusters: u32 = n.parse().unwrap_or(READ_CLUSTERS);
            print!("{}", Kind::parse(kind).unwrap_or(Kind::Gke).text(clusters));
        }
        ["gke", n, "once"] => {
            // One plan and nothing else, for instruction counts (`valgrind --tool=callgrind`).
            let scenario = Kind::Gke.scenario(n.parse().unwrap_or(10_000));
            std::hint::black_box(plan_events(&scenario));
        }
        ["gke", n] => {
            let scenario = Kind::Gke.scenario(n.parse().unwrap_or(10_000));
            let events = plan_events(&scenario);
            let ms = median_ms(|| plan_events(&scenario));
            println!("gke {n}: {events} events, median {ms:.1} ms");
        }
        ["read", kind, "once"] => {
            // One reading and nothing else, for instruction counts (`valgrind --tool=callgrind`).
            let text = Kind::parse(kind).unwrap_or(Kind::Gke).text(READ_CLUSTERS);
            std::hint::black_box(read(&text));
        }
        ["read", kind] => {
            let text = Kind::parse(kind).unwrap_or(Kind::Gke).text(READ_CLUSTERS);
            let ms = median_ms(|| read(&text));
            let parse_ms = median_ms(|| fleetplan::source::parse(&text, "bench.yaml"));
            let mb_s = |ms: f64| text.len() as f64 / 1e6 / (ms / 1e3);
            println!(
                "read {kind}: {ms:.1} ms, {:.1} MB/s; parse alone {parse_ms:.1} ms, {:.1} MB/s",
                mb_s(ms),
                mb_s(parse_ms)
            );
        }
        ["serve"] => serve(),
        [] => run(),
        _ => {
            eprintln!("usage: fleetplan-bench [serve] | yaml KIND N | read KIND [once] | gke N [once]  (KIND: staged, rolling, gke)");
            std::process::exit(2);
        }
    }
}

fn run() {
    println!("native (release)");
    println!();
    println!(
        "planning: median CPU ms per kind; exponent k in time ∝ clusters^k from the size before"
    );
    println!(
        "{:<8} {:>9} {:>9} {:>10} {:>9}",
        "kind", "clusters", "events", "median ms", "exponent"
    );
    for kind in Kind::ALL {
        let mut previous: Option<(u32, f64)> = None;
        for clusters in SIZES {
            let scenario = kind.scenario(clusters);
            let plan = fleetplan::plan(&scenario);
            if plan.diagnostics.iter().any(fleetplan::Diagnostic::is_error) {
                eprintln!("warning: the {} benchmark scenario has errors; its time is that of a refused run", kind.name());
            }
            let ms = median_ms(|| plan_events(&scenario));
            let exponent = previous.map_or_else(
                || "-".to_string(),
                |(n0, t0)| format!("{:.2}", growth_exponent(n0, t0, clusters, ms)),
            );
            println!(
                "{:<8} {clusters:>9} {:>9} {ms:>10.1} {exponent:>9}",
                kind.name(),
                plan.events.len()
            );
            if kind == Kind::Gke {
                if let Some((_, limit)) = GKE_BUDGET_MS.iter().find(|(n, _)| *n == clusters) {
                    budget(
                        ms <= *limit,
                        &format!("GKE planner, {clusters} clusters, native: {ms:.1} ms (goal < {limit:.0} ms)"),
                    );
                }
            }
            previous = Some((clusters, ms));
        }
    }

    println!();
    println!("reading: YAML text with every cluster listed → scenarios (parse, decode), and parsing alone");
    println!(
        "{:<8} {:>9} {:>9} {:>10} {:>8} {:>10} {:>8}",
        "kind", "clusters", "bytes", "read ms", "MB/s", "parse ms", "MB/s"
    );
    for kind in Kind::ALL {
        let text = kind.text(READ_CLUSTERS);
        let loaded = read(&text);
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        let ms = median_ms(|| read(&text));
        let parse_ms = median_ms(|| fleetplan::source::parse(&text, "bench.yaml"));
        let mb_s = |ms: f64| text.len() as f64 / 1e6 / (ms / 1e3);
        println!(
            "{:<8} {READ_CLUSTERS:>9} {:>9} {ms:>10.1} {:>8.1} {parse_ms:>10.1} {:>8.1}",
            kind.name(),
            text.len(),
            mb_s(ms),
            mb_s(parse_ms)
        );
        if kind != Kind::Rolling {
            budget(
                mb_s(ms) >= READ_BUDGET_MB_S,
                &format!(
                    "reading the {READ_CLUSTERS}-cluster {} scenario ({:.1} MB), native: {:.1} MB/s (goal ≥ {READ_BUDGET_MB_S:.0})",
                    kind.name(),
                    text.len() as f64 / 1e6,
                    mb_s(ms)
                ),
            );
        }
    }
    live();
}

/// Live projection (issue 11): a staged run's JSON status halfway through ten stages, read and
/// projected; and 1,000 Monte Carlo samples of 1,000 clusters (whose budget is in wasm, see
/// scripts/bench-wasm.cjs).
fn live() {
    println!();
    println!("live status: a run's JSON status read and projected (samples: the Monte Carlo's)");
    println!(
        "{:<8} {:>9} {:>9} {:>10}",
        "kind", "clusters", "samples", "median ms"
    );
    for (clusters, samples) in [(10_000usize, 0u32), (1_000, 1_000)] {
        let text = fleetplan_bench::live::status_json(clusters);
        let ms = median_ms(|| {
            fleetplan_bench::live::import_and_project(&text, samples > 0, samples.max(1))
        });
        println!("{:<8} {clusters:>9} {samples:>9} {ms:>10.1}", "status");
        if samples == 0 {
            budget(
                ms < LIVE_BUDGET_MS,
                &format!("status import and projection, {clusters} clusters, native: {ms:.1} ms (goal < {LIVE_BUDGET_MS:.0} ms)"),
            );
        }
    }
}

/// Wall milliseconds of warm-up before a served measurement: the same as the wasm side's in Node
/// (scripts/bench-wasm.cjs), so that neither side is timed colder than the other.
const SERVE_WARM_MS: f64 = 250.0;

/// The native half of the wasm/native ratio. Node times the same work in wasm in its own process and
/// asks this one for native batches in turn (native, wasm, wasm, native, ...), so that both halves of
/// each ratio are taken within a second of each other: run minutes apart, the machine's drift alone
/// moved a ratio by 1.6 times. One request per stdin line, one answer line each:
/// - `plan KIND N`, `read KIND N`, `live N SAMPLES`: prepare that work (as bench/src/wasm.rs does), warm
///   it up and answer what one call returns (events, scenarios read, or clusters projected);
/// - `batch`: time one batch of the prepared work (at least [`BATCH_MS`] of CPU, see [`median_ms`]) and
///   answer its CPU milliseconds per call.
fn serve() {
    let mut work: Option<Box<dyn FnMut() -> usize>> = None;
    let mut calls = 1;
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let prepared: Option<Box<dyn FnMut() -> usize>> = match words.as_slice() {
            ["plan", kind, n] => {
                let scenario = Kind::parse(kind)
                    .unwrap_or(Kind::Staged)
                    .scenario(n.parse().unwrap_or(1_000));
                Some(Box::new(move || plan_events(&scenario)))
            }
            ["read", kind, n] => {
                let text = Kind::parse(kind)
                    .unwrap_or(Kind::Staged)
                    .text(n.parse().unwrap_or(READ_CLUSTERS));
                Some(Box::new(move || read(&text).scenarios.len()))
            }
            ["live", n, samples] => {
                let text = fleetplan_bench::live::status_json(n.parse().unwrap_or(1_000));
                let samples: u32 = samples.parse().unwrap_or(0);
                Some(Box::new(move || {
                    fleetplan_bench::live::import_and_project(&text, samples > 0, samples.max(1))
                }))
            }
            _ => None,
        };
        let answer = match (prepared, words.as_slice()) {
            (Some(mut f), _) => {
                let warm = Instant::now();
                let mut result;
                let mut one;
                loop {
                    let t = cpu_ms();
                    result = std::hint::black_box(f());
                    one = cpu_ms() - t;
                    if warm.elapsed().as_secs_f64() * 1e3 >= SERVE_WARM_MS {
                        break;
                    }
                }
                calls = batch_calls(one);
                work = Some(f);
                result.to_string()
            }
            (None, ["batch"]) => match work.as_mut() {
                Some(f) => {
                    let t = cpu_ms();
                    for _ in 0..calls {
                        std::hint::black_box(f());
                    }
                    format!("{:.4}", (cpu_ms() - t) / f64::from(calls))
                }
                None => "error: nothing prepared".to_string(),
            },
            (None, _) => format!("error: unknown request {line:?}"),
        };
        if writeln!(out, "{answer}")
            .and_then(|()| out.flush())
            .is_err()
        {
            break;
        }
    }
}
