//! `fleetplan plan`: load the input set, plan every scenario, print the plans in the chosen format.

use std::io::{self, Write};

use fleetplan::{Diagnostic, Plan};

use crate::args::{Format, PlanArgs};
use crate::files;
use crate::json;
use crate::out::{self, Status};
use crate::table;

pub fn run(args: &PlanArgs) -> Status {
    let inputs = match files::read_all(&args.files) {
        Ok(inputs) => inputs,
        Err(status) => return status,
    };
    let mut loaded = fleetplan::load(&files::sources(&inputs));
    // The texts are read: planning a large file needs the memory its text took.
    drop(inputs);
    if let Some(start) = args.start {
        for scenario in &mut loaded.scenarios {
            scenario.start = Some(start);
        }
    }
    let mut plans: Vec<Plan> = loaded.scenarios.iter().map(fleetplan::plan).collect();
    // The plans are made: their output needs the memory the scenarios took (the source maps and
    // the clusters' labels of a large fleet, over 10 MB at 10,000 GKE clusters).
    loaded.scenarios = Vec::new();
    let names: Vec<&str> = plans
        .iter()
        .map(fleetplan::export::scenario_label)
        .collect();
    if let Some(wanted) = &args.scenario {
        let nth = wanted
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=plans.len()).contains(n) && !names.contains(&wanted.as_str()));
        if let Some(n) = nth {
            plans = vec![plans.swap_remove(n - 1)];
        } else if names.contains(&wanted.as_str()) {
            plans.retain(|p| fleetplan::export::scenario_label(p) == wanted);
        } else {
            out::error(format_args!(
                "no scenario is named `{wanted}`; the input has {}",
                listed(&names)
            ));
            return Status::Usage;
        }
    }
    if args.format == Format::Svg && plans.len() > 1 {
        let names: Vec<&str> = plans
            .iter()
            .map(fleetplan::export::scenario_label)
            .collect();
        out::error(format_args!(
            "the input has {} scenarios ({}) and an SVG holds one chart: choose one with --scenario NAME (or its number, from 1)",
            plans.len(),
            listed(&names)
        ));
        return Status::Usage;
    }
    let any_error = loaded.diagnostics.iter().any(Diagnostic::is_error)
        || plans
            .iter()
            .flat_map(|p| &p.diagnostics)
            .any(Diagnostic::is_error);
    if plans.is_empty() && !any_error {
        out::error("no scenario found in the input");
    }
    let status = Status::failed_if(any_error || plans.is_empty());
    match args.format {
        Format::Table => out::to_stdout(status, |w| {
            table::write(&mut out::Visible::new(w), &loaded.diagnostics, &plans)
        }),
        Format::Json | Format::Yaml | Format::Csv | Format::Mermaid | Format::Svg => {
            // Plans carry their own diagnostics; the loader's belong to no plan, and stdout must
            // stay machine-readable, so they go to stderr.
            for d in &loaded.diagnostics {
                out::note(d);
            }
            let structured = args.format;
            out::to_stdout(status, |w| write_structured(w, structured, &plans))
        }
    }
}

/// One plan as an object, several as an array, so the common single-scenario case needs no unwrapping.
/// JSON is written straight from the Plan so fields keep their declared order; YAML goes through a
/// `Value` because that is what the YAML writer takes.
pub(crate) fn write_structured(
    w: &mut dyn Write,
    format: Format,
    plans: &[Plan],
) -> io::Result<()> {
    // Each text export is one document whatever the number of plans: several plans are one CSV with a
    // scenario column, or one Mermaid chart with a section per scenario and stage (SVG was refused
    // above for more than one).
    let text = match (format, plans) {
        (Format::Csv, [one]) => Some(fleetplan::export::csv(one)),
        (Format::Csv, many) => Some(fleetplan::export::csv_many(many)),
        (Format::Mermaid, [one]) => Some(fleetplan::export::mermaid(one)),
        (Format::Mermaid, many) => Some(fleetplan::export::mermaid_many(many)),
        (Format::Svg, [one]) => Some(svg_of(one)),
        (Format::Svg, _) => Some(String::new()),
        _ => None,
    };
    if let Some(text) = text {
        w.write_all(text.as_bytes())?;
        if !text.is_empty() && !text.ends_with('\n') {
            writeln!(w)?;
        }
        return Ok(());
    }
    if format == Format::Yaml {
        let value = match plans {
            [one] => serde_json::to_value(one),
            many => serde_json::to_value(many),
        }
        .map_err(io::Error::other)?;
        let text = fleetplan::yaml_out::to_yaml(&value);
        w.write_all(text.as_bytes())?;
        if !text.ends_with('\n') {
            writeln!(w)?;
        }
        return Ok(());
    }
    match plans {
        [one] => json::write_pretty(w, one),
        many => json::write_pretty(w, many),
    }?;
    writeln!(w)
}

/// The whole chart, fitted to a width that keeps an hour of a day-long run readable.
fn svg_of(plan: &Plan) -> String {
    let view = fleetplan::gantt::View::fit(plan, 1200.0);
    fleetplan::gantt::svg(&fleetplan::gantt::layout(plan, &view), 180.0)
}

fn listed(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    quoted.join(", ")
}
