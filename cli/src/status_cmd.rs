//! `fleetplan status`: read the rollouts' status beside the scenario, project each from now, print
//! where it stands; with `--deadline`, exit 3 when the P90 end is too late.

use std::time::{SystemTime, UNIX_EPOCH};

use fleetplan::plan::Plan;
use fleetplan::status::{self, Options};
use fleetplan::time::Time;
use fleetplan::Diagnostic;

use crate::args::{Format, StatusArgs, StatusFormat};
use crate::files;
use crate::out::{self, Status};

pub fn run(args: &StatusArgs) -> Status {
    let inputs = match files::read_all(&args.files) {
        Ok(inputs) => inputs,
        Err(status) => return status,
    };
    let history = match files::read_all(&args.history) {
        Ok(inputs) => inputs,
        Err(status) => return status,
    };
    // The only clock read anywhere: the core takes `now` as an argument.
    let now = args.now.unwrap_or_else(system_now);
    let input = status::load(&files::sources(&inputs), &files::sources(&history));
    let options = Options::new(now, !args.no_range);
    let plans: Vec<Plan> = input
        .items
        .iter()
        .map(|i| status::project(i, &options))
        .collect();
    let errors = input.has_errors()
        || plans
            .iter()
            .flat_map(|p| &p.diagnostics)
            .any(Diagnostic::is_error);
    let status = if errors || plans.is_empty() {
        Status::Failed
    } else if args
        .deadline
        .is_some_and(|d| plans.iter().any(|p| late(p, d)))
    {
        Status::Late
    } else {
        Status::Ok
    };
    match args.format {
        StatusFormat::Table => out::to_stdout(status, |w| {
            // Like the plan table: names' hidden characters are written out, not obeyed.
            let mut w = out::Visible::new(w);
            crate::status_table::write(&mut w, &input.diagnostics, &plans, args.deadline)
        }),
        StatusFormat::Json | StatusFormat::Yaml => {
            for d in &input.diagnostics {
                out::note(d);
            }
            let format = if args.format == StatusFormat::Json {
                Format::Json
            } else {
                Format::Yaml
            };
            out::to_stdout(status, |w| {
                crate::plan_cmd::write_structured(w, format, &plans)
            })
        }
    }
}

/// The run's P90 end (its projected end without a range) is after `deadline`, or never comes.
pub fn late(plan: &Plan, deadline: Time) -> bool {
    let p90 = match plan.projection.as_ref().and_then(|p| p.forecast.as_ref()) {
        Some(f) => f.end.p90,
        None => plan.end,
    };
    p90.is_none_or(|t| t > deadline)
}

fn system_now() -> Time {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    // Whole seconds: the status' own times have no finer precision.
    Time(i64::try_from(ms / 1000 * 1000).unwrap_or(i64::MAX))
}
