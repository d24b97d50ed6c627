//! `fleetplan export`: every GKE sequence of the input written in one of GKE's own formats.

use fleetplan::gke::export::{self, Format};

use crate::args::{ExportArgs, ExportFormat};
use crate::files;
use crate::out::{self, Status};

pub fn run(args: &ExportArgs) -> Status {
    let inputs = match files::read_all(&args.files) {
        Ok(inputs) => inputs,
        Err(status) => return status,
    };
    let loaded = fleetplan::load(&files::sources(&inputs));
    // Reading problems are shown, but only errors stop the export: a warning does not change the text.
    for d in &loaded.diagnostics {
        out::note(d);
    }
    if loaded.has_errors() {
        return Status::Failed;
    }
    let format = match args.format {
        ExportFormat::StageConfig => Format::StageConfig,
        ExportFormat::RolloutSequenceJson => Format::RolloutSequenceJson,
        ExportFormat::FeatureSpec => Format::FeatureSpec,
    };
    let mut texts = Vec::new();
    let mut failed = false;
    for scenario in &loaded.scenarios {
        match export::export(scenario, format) {
            Ok(text) => texts.push(text),
            Err(e) => {
                let name = scenario.name.as_deref().unwrap_or("the scenario");
                out::error(format_args!("cannot export {name}: {e}"));
                failed = true;
            }
        }
    }
    if loaded.scenarios.is_empty() {
        out::error("no scenario found in the input");
        failed = true;
    }
    // Several sequences are separate YAML documents (JSON is YAML, so `---` separates those too).
    out::to_stdout(Status::failed_if(failed), |w| {
        w.write_all(texts.join("---\n").as_bytes())
    })
}
