//! Where output goes and how a command ends: buffered locked stdout, one-line errors on stderr, exit statuses.
//!
//! A reader that stops early (`fleetplan plan x | head`) closes the pipe; that is the reader's choice,
//! not a failure, so a broken pipe ends the command quietly with the status it had already earned.

use std::fmt::Display;
use std::io::{self, BufWriter, ErrorKind, Write};
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ok,
    /// The input has errors, or could not be read or written.
    Failed,
    /// The command line asked for something that does not exist.
    Usage,
    /// `status --deadline`: the run's P90 end is past the deadline (or it never ends).
    Late,
}

impl Status {
    pub fn failed_if(failed: bool) -> Status {
        if failed {
            Status::Failed
        } else {
            Status::Ok
        }
    }
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        match s {
            Status::Ok => ExitCode::SUCCESS,
            Status::Failed => ExitCode::from(1),
            Status::Usage => ExitCode::from(2),
            Status::Late => ExitCode::from(3),
        }
    }
}

/// Runs `body` against buffered stdout and settles the result: a broken pipe keeps `status`,
/// any other write error is reported and fails the command.
pub fn to_stdout(status: Status, body: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Status {
    let stdout = io::stdout();
    let mut w = BufWriter::new(stdout.lock());
    let result = body(&mut w).and_then(|()| w.flush());
    match result {
        Ok(()) => status,
        Err(e) if e.kind() == ErrorKind::BrokenPipe => status,
        Err(e) => {
            error(format_args!("cannot write output: {}", os_message(&e)));
            Status::Failed
        }
    }
}

/// One `fleetplan: …` line on stderr. If stderr itself is gone there is nobody left to tell.
pub fn error(message: impl Display) {
    let _ = writeln!(io::stderr().lock(), "fleetplan: {message}");
}

/// A line on stderr without the `fleetplan:` prefix (diagnostics carry their own).
pub fn note(line: impl Display) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// The OS's description of an I/O error without Rust's ` (os error N)` suffix, as other tools print it.
pub fn os_message(e: &io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(cut) if text.ends_with(')') => text[..cut].to_string(),
        _ => text,
    }
}
