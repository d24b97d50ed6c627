//! `fleetplan check`: every diagnostic of loading and of every plan, errors first, then a count.

use fleetplan::{Diagnostic, Severity};

use crate::args::{CheckArgs, CheckFormat};
use crate::files;
use crate::out::{self, Status};
use crate::{report, words};

pub fn run(args: &CheckArgs) -> Status {
    let inputs = match files::read_all(&args.files) {
        Ok(inputs) => inputs,
        Err(status) => return status,
    };
    let loaded = fleetplan::load(&files::sources(&inputs));
    // The texts are read; only their names are needed from here on, and planning a large file
    // needs the memory its text took.
    let names: Vec<String> = inputs.into_iter().map(|i| i.name).collect();
    let mut all: Vec<Diagnostic> = loaded.diagnostics;
    for scenario in &loaded.scenarios {
        all.extend(fleetplan::check(scenario));
    }
    // Stable: within a severity, the order of the input is kept.
    all.sort_by_key(|d| d.severity);
    // A capped list's "… and N more" stands for N problems.
    let tally = |sev: Severity| -> usize {
        all.iter()
            .filter(|d| d.severity == sev)
            .map(Diagnostic::count)
            .sum()
    };
    let (errors, warnings, infos) = (
        tally(Severity::Error),
        tally(Severity::Warning),
        tally(Severity::Info),
    );
    let empty = loaded.scenarios.is_empty();
    if empty && errors == 0 {
        out::error("no scenario found in the input");
    }
    let status = Status::failed_if(errors > 0 || empty);
    let rendered = match args.format {
        CheckFormat::Text => None,
        CheckFormat::Github => Some(report::github(&all)),
        CheckFormat::Sarif => Some(report::sarif(&all)),
        CheckFormat::Junit => Some(report::junit(&all, &names)),
    };
    if let Some(text) = rendered {
        return out::to_stdout(status, |w| w.write_all(text.as_bytes()));
    }
    out::to_stdout(status, |w| {
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
