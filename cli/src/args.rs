//! Command-line arguments of `fleetplan`, declared with clap's derive API.

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use fleetplan::time::Time;

/// Plans rollouts across fleets of Kubernetes clusters before they run: KubeFleet staged update runs
/// and rolling updates, GKE rollout sequences with custom stages and GKE fleet-based chains.
///
/// Input: fleetplan scenarios, real KubeFleet objects (`kubectl get … -o yaml`) or GKE's own sequence
/// files. Output: the projected timeline, with every problem the real controller would stop on.
#[derive(Debug, Parser)]
#[command(
    name = "fleetplan",
    version,
    propagate_version = true,
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The exit codes, for every command's help (and the README).
pub const EXIT_CODES: &str = "Exit codes:\n  0  no errors in the input (warnings allowed)\n  1  errors in the input, or a file that cannot be read or written\n  2  usage error (unknown command, option or example)";

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Project every scenario of the input onto a timeline.
    Plan(PlanArgs),
    /// Report every problem of the input; exit 1 when any is an error.
    #[command(after_help = EXIT_CODES)]
    Check(CheckArgs),
    /// List the built-in examples, or print one.
    Example(ExampleArgs),
    /// Write a GKE sequence in GKE's own format (gcloud stage config, API JSON, fleet feature specs).
    Export(ExportArgs),
    /// Where a running rollout stands and when it will really end: reads its status (`kubectl get
    /// clusterstagedupdaterun NAME -o yaml`, `kubectl describe`, a GKE Rollout) beside the scenario.
    #[command(after_help = STATUS_EXIT_CODES)]
    Status(StatusArgs),
}

/// `status` adds exit code 3 for monitoring jobs.
pub const STATUS_EXIT_CODES: &str = "Exit codes:\n  0  no errors in the input (warnings allowed), and no deadline missed\n  1  errors in the input, or a file that cannot be read or written\n  2  usage error (unknown command, option or example)\n  3  --deadline: the run's P90 end is after the deadline, or the run never ends";

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Status objects, `kubectl describe` output, GKE Rollouts, scenarios and assumption files, read
    /// together as one input (`-` reads stdin).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// The instant to project from; default: this machine's clock.
    #[arg(long, value_name = "RFC3339", value_parser = parse_start)]
    pub now: Option<Time>,
    /// Earlier runs' statuses: their durations calibrate the projection, they are not reported.
    #[arg(long, value_name = "FILE")]
    pub history: Vec<String>,
    /// Exit 3 when the run's P90 end is after this instant (or it never ends).
    #[arg(long, value_name = "RFC3339", value_parser = parse_start)]
    pub deadline: Option<Time>,
    #[arg(long, value_enum, default_value_t = StatusFormat::Table)]
    pub format: StatusFormat,
    /// Skip the Monte Carlo: no range, only the projected end.
    #[arg(long)]
    pub no_range: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatusFormat {
    /// Where the run stands, what it waits on, the ETA with P50/P90, for people.
    Table,
    /// The projected plan with its `projection` (facts per bar, position, calibration, range).
    Json,
    Yaml,
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
    /// Plan only the scenario with this name (a scenario without one goes by its run's name), or the
    /// N-th scenario of the input (from 1). An SVG holds one chart, so an input with several scenarios
    /// needs it for `--format svg`.
    #[arg(long, value_name = "NAME")]
    pub scenario: Option<String>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Scenario or manifest files, read together as one input (`-` reads stdin).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
}

/// How `check` reports: for people, or for a CI system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// `file:line:col: error[code]: message (at path)`, then the counts.
    Text,
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…::…`): annotations on the PR.
    Github,
    /// SARIF 2.1.0, for code scanning (upload with github/codeql-action/upload-sarif).
    Sarif,
    /// JUnit XML: a test suite per file, a failed test case per error.
    Junit,
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
