//! `fleetplan check`: every diagnostic of loading and of every plan, errors first, then a count.

use fleetplan::{Diagnostic, Severity};

use crate::args::CheckArgs;
use crate::files;
use crate::out::{self, Status};
use crate::words;

pub fn run(args: &CheckArgs) -> Status {
    let inputs = match files::read_all(&args.files) {
        Ok(inputs) => inputs,
        Err(status) => return status,
    };
    let loaded = fleetplan::load(&files::sources(&inputs));
    let mut all: Vec<Diagnostic> = loaded.diagnostics;
    for scenario in &loaded.scenarios {
        all.extend(fleetplan::check(scenario));
    }
    // Stable: within a severity, the order of the input is kept.
    all.sort_by_key(|d| d.severity);
    let tally = |sev: Severity| all.iter().filter(|d| d.severity == sev).count();
    let (errors, warnings, infos) = (
        tally(Severity::Error),
        tally(Severity::Warning),
        tally(Severity::Info),
    );
    let empty = loaded.scenarios.is_empty();
    if empty && errors == 0 {
        out::error("no scenario found in the input");
    }
    out::to_stdout(Status::failed_if(errors > 0 || empty), |w| {
        for d in &all {
            writeln!(w, "{d}")?;
        }
        let mut line = format!(
            "{}, {}",
            words::count(errors, "error"),
            words::count(warnings, "warning")
        );
        if infos > 0 {
            line.push_str(&format!(", {infos} info"));
        }
        writeln!(w, "{line}")
    })
}
