//! The fuzzing campaign: runs generated cases for a time (or a number of cases), measures each one's
//! peak heap with the counting allocator and its time, checks them against the stated bounds, saves
//! every failing input, and reports executions, the largest memory and the slowest input.
//!
//! `fleetplan-fuzz [--seconds N] [--cases N] [--seed S] [--out DIR] [--small]`
//! `fleetplan-fuzz --replay SEED:INDEX` runs one case again and prints its input; `--input FILE` runs a
//! given file through the same pipeline and measures it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fleetplan_fuzz::gen::{self, Case, Config, Input};
use fleetplan_fuzz::{alloc, bounds, check};

#[global_allocator]
static COUNTING: alloc::Counting = alloc::Counting;

/// A case still running after this long is a hang: the watchdog saves it and stops the run.
const HANG: Duration = Duration::from_secs(300);

static CASE_STARTED_MS: AtomicU64 = AtomicU64::new(0);
static RUNNING: AtomicBool = AtomicBool::new(false);
static CURRENT: Mutex<Option<(String, String)>> = Mutex::new(None);

struct Args {
    seconds: u64,
    cases: u64,
    seed: u64,
    out: String,
    small: bool,
    replay: Option<(u64, u64)>,
    input: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        seconds: 60,
        cases: u64::MAX,
        seed: 1,
        out: "target/fuzz".into(),
        small: false,
        replay: None,
        input: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--seconds" => a.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--cases" => a.cases = value()?.parse().map_err(|e| format!("--cases: {e}"))?,
            "--seed" => a.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--out" => a.out = value()?,
            "--small" => a.small = true,
            "--input" => a.input = Some(value()?),
            "--replay" => {
                let v = value()?;
                let (s, i) = v.split_once(':').ok_or("--replay SEED:INDEX")?;
                a.replay = Some((
                    s.parse().map_err(|e| format!("--replay: {e}"))?,
                    i.parse().map_err(|e| format!("--replay: {e}"))?,
                ));
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(a)
}

fn input_text(case: &Case) -> &str {
    match &case.input {
        Input::Text(t) | Input::Link(t) => t,
    }
}

fn save(out: &str, name: &str, text: &str) -> String {
    let _ = std::fs::create_dir_all(out);
    let path = format!("{out}/{name}");
    let _ = std::fs::write(&path, text);
    path
}

fn watchdog(out: String, epoch: Instant) {
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(200));
        if !RUNNING.load(Ordering::Relaxed) {
            continue;
        }
        let started = Duration::from_millis(CASE_STARTED_MS.load(Ordering::Relaxed));
        if epoch.elapsed().saturating_sub(started) > HANG {
            if let Ok(Some((id, text))) = CURRENT.lock().map(|c| c.clone()) {
                let path = save(&out, &format!("hang-{id}.txt"), &text);
                eprintln!(
                    "fleetplan-fuzz: case {id} still running after {HANG:?}; input saved to {path}"
                );
            }
            std::process::exit(3);
        }
    });
}

#[derive(Default)]
struct Worst {
    value: f64,
    id: String,
    kind: &'static str,
    bytes: usize,
    clusters: u64,
}

impl Worst {
    fn offer(&mut self, value: f64, id: &str, case: &Case, clusters: u64) {
        if value > self.value {
            *self = Worst {
                value,
                id: id.to_string(),
                kind: case.kind,
                bytes: case.bytes(),
                clusters,
            };
        }
    }

    fn describe(&self, unit: &str) -> String {
        format!(
            "{} {unit}: case {} ({}, {} input bytes, {} clusters)",
            if unit == "MiB" {
                format!("{:.1}", self.value)
            } else {
                format!("{:.3}", self.value)
            },
            self.id,
            self.kind,
            self.bytes,
            self.clusters
        )
    }
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("fleetplan-fuzz: {e}");
            std::process::exit(2);
        }
    };
    check::install_panic_hook();
    let config = if args.small {
        Config {
            max_clusters: 20_000,
        }
    } else {
        Config::default()
    };
    if let Some(path) = &args.input {
        // One given file through the same pipeline, measured like a case.
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("fleetplan-fuzz: cannot read {path}: {e}");
            std::process::exit(2)
        });
        let case = Case {
            kind: "file",
            input: Input::Text(text),
        };
        let base = alloc::current();
        alloc::reset_peak();
        let started = Instant::now();
        let outcome = check::run(&case);
        println!(
            "{path}: {:.2} s, peak heap {} MiB, {} clusters, failures: {:?}",
            started.elapsed().as_secs_f64(),
            alloc::peak().saturating_sub(base) >> 20,
            outcome.clusters,
            outcome.failures
        );
        std::process::exit(i32::from(!outcome.failures.is_empty()));
    }
    if let Some((seed, index)) = args.replay {
        let case = gen::case(seed, index, config);
        println!("{}", input_text(&case));
        let outcome = check::run(&case);
        eprintln!("{:#?}", outcome.failures);
        std::process::exit(i32::from(!outcome.failures.is_empty()));
    }
    let epoch = Instant::now();
    watchdog(args.out.clone(), epoch);
    let budget = Duration::from_secs(args.seconds);
    let mut executions = 0u64;
    let mut failures: Vec<String> = Vec::new();
    let mut memory = Worst::default();
    let mut slowest = Worst::default();
    let mut kinds: BTreeMap<&str, u64> = BTreeMap::new();
    let mut last_note = Instant::now();
    println!(
        "fleetplan-fuzz: seed {}, {} s, bounds: inputs <= {} bytes; <= {} clusters: {} MiB, {} s; up to the fleet cap: {} MiB, {} s",
        args.seed,
        args.seconds,
        gen::MAX_INPUT,
        bounds::BIG_FLEET,
        bounds::MEMORY >> 20,
        bounds::SECONDS,
        bounds::MEMORY_BIG_FLEET >> 20,
        bounds::SECONDS_BIG_FLEET
    );
    for index in 0..args.cases {
        if epoch.elapsed() >= budget {
            break;
        }
        let case = gen::case(args.seed, index, config);
        let id = format!("{}:{index}", args.seed);
        if let Ok(mut c) = CURRENT.lock() {
            *c = Some((id.clone(), input_text(&case).to_string()));
        }
        let base = alloc::current();
        alloc::reset_peak();
        CASE_STARTED_MS.store(epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
        RUNNING.store(true, Ordering::Relaxed);
        let started = Instant::now();
        let outcome = check::run(&case);
        let seconds = started.elapsed().as_secs_f64();
        RUNNING.store(false, Ordering::Relaxed);
        let peak = alloc::peak().saturating_sub(base);
        executions += 1;
        *kinds.entry(case.kind).or_default() += 1;
        memory.offer(peak as f64 / (1 << 20) as f64, &id, &case, outcome.clusters);
        slowest.offer(seconds, &id, &case, outcome.clusters);
        let (mem_bound, time_bound) = if outcome.clusters <= bounds::BIG_FLEET {
            (bounds::MEMORY, bounds::SECONDS)
        } else {
            (bounds::MEMORY_BIG_FLEET, bounds::SECONDS_BIG_FLEET)
        };
        let mut broken = outcome.failures;
        if peak > mem_bound {
            broken.push(format!(
                "peak heap {} MiB over the bound of {} MiB",
                peak >> 20,
                mem_bound >> 20
            ));
        }
        if seconds > time_bound {
            broken.push(format!("{seconds:.1} s over the bound of {time_bound} s"));
        }
        if !broken.is_empty() {
            let path = save(
                &args.out,
                &format!("failure-{}-{index}.txt", args.seed),
                input_text(&case),
            );
            let line = format!(
                "case {id} ({}): {} — input in {path}",
                case.kind,
                broken.join("; ")
            );
            eprintln!("fleetplan-fuzz: {line}");
            failures.push(line);
        }
        if last_note.elapsed() > Duration::from_secs(30) {
            last_note = Instant::now();
            println!(
                "  {:>6.0} s  {executions} executions, {} failures, largest {}, slowest {}",
                epoch.elapsed().as_secs_f64(),
                failures.len(),
                memory.describe("MiB"),
                slowest.describe("s")
            );
        }
    }
    let mut report = String::new();
    let _ = writeln!(report, "# fleetplan-fuzz report\n");
    let _ = writeln!(report, "- seed: {}", args.seed);
    let _ = writeln!(
        report,
        "- wall time: {:.0} s",
        epoch.elapsed().as_secs_f64()
    );
    let _ = writeln!(report, "- executions: {executions}");
    let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let _ = writeln!(report, "- by generator: {}", kinds.join(", "));
    let _ = writeln!(report, "- failures: {}", failures.len());
    let _ = writeln!(report, "- largest memory: {}", memory.describe("MiB"));
    let _ = writeln!(report, "- slowest input: {}", slowest.describe("s"));
    for f in &failures {
        let _ = writeln!(report, "  - {f}");
    }
    print!("{report}");
    save(&args.out, &format!("report-{}.md", args.seed), &report);
    std::process::exit(i32::from(!failures.is_empty()));
}
