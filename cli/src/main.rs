//! Entry point of the `fleetplan` command: parse arguments, run one command, turn its outcome into an exit code.

mod args;
mod check;
mod example;
mod export_cmd;
mod files;
mod grid;
mod json;
mod out;
mod panic;
mod plan_cmd;
mod report;
mod rolling_table;
mod status_cmd;
mod status_table;
mod table;
mod words;

use std::process::ExitCode;

use args::Command;

/// mimalloc rather than glibc's malloc: a plan frees hundreds of thousands of small blocks, which glibc
/// merged chunk by chunk (see bench/REPORT.md, "The native allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    panic::install_hook();
    let cli = match args::parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let status = match &cli.command {
        Command::Plan(a) => plan_cmd::run(a),
        Command::Check(a) => check::run(a),
        Command::Example(a) => example::run(a),
        Command::Export(a) => export_cmd::run(a),
        Command::Status(a) => status_cmd::run(a),
    };
    status.into()
}
