//! Command-line arguments of `fleetplan`, declared with clap's derive API.

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use fleetplan::time::Time;

/// Plans how a KubeFleet staged update run will move through a fleet, before it runs.
#[derive(Debug, Parser)]
#[command(name = "fleetplan", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Project every scenario of the input onto a timeline.
    Plan(PlanArgs),
    /// Report every problem of the input; exit 1 when any is an error.
    Check(CheckArgs),
    /// List the built-in examples, or print one.
    Example(ExampleArgs),
    /// Write a GKE sequence in GKE's own format (gcloud stage config, API JSON, fleet feature specs).
    Export(ExportArgs),
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    /// Scenario or manifest files, read together as one input (`-` reads stdin).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Start every run at this instant instead of the scenario's own start.
    #[arg(long, value_name = "RFC3339", value_parser = parse_start)]
    pub start: Option<Time>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Scenario or manifest files, read together as one input (`-` reads stdin).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
}

#[derive(Debug, Args)]
pub struct ExampleArgs {
    /// The example to print; without it, the list of examples.
    pub name: Option<String>,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Scenario or GKE files, read together as one input (`-` reads stdin).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    #[arg(long, value_enum)]
    pub format: ExportFormat,
}

/// GKE's formats a sequence can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// The YAML file of `gcloud container fleet rolloutsequences create --stage-config` (custom stages).
    StageConfig,
    /// The RolloutSequence resource as the API takes it (custom stages).
    RolloutSequenceJson,
    /// One clusterupgrade feature JSON per fleet, separated by `---` (fleet-based chains).
    FeatureSpec,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Yaml,
    /// One row per cluster update and per stage phase, for spreadsheets.
    Csv,
    /// A Mermaid `gantt` block, for docs that render Mermaid.
    Mermaid,
    /// The Gantt chart as a standalone SVG document.
    Svg,
}

fn parse_start(text: &str) -> Result<Time, String> {
    Time::parse(text)
}

/// Parses the process arguments. On failure (or `--help`/`--version`) clap has already printed what
/// to say, and the exit code is clap's: 2 for usage errors, 0 for help.
pub fn parse() -> Result<Cli, ExitCode> {
    Cli::try_parse().map_err(|e| {
        // Printing can fail on a closed pipe (`fleetplan --help | head -0`); the exit code still stands.
        let _ = e.print();
        ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
    })
}
