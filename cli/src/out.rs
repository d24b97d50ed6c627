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

/// One `fleetplan: …` line on stderr. If stderr itself is gone there is nobody left to tell. A file
/// name or message with hidden characters is written out (`\u{1b}`), on one line.
pub fn error(message: impl Display) {
    let text = message.to_string();
    let _ = writeln!(
        io::stderr().lock(),
        "fleetplan: {}",
        fleetplan::visible::visible(&text)
    );
}

/// A line on stderr without the `fleetplan:` prefix (diagnostics carry their own), written out the
/// same way.
pub fn note(line: impl Display) {
    let text = line.to_string();
    let _ = writeln!(
        io::stderr().lock(),
        "{}",
        fleetplan::visible::visible(&text)
    );
}

/// The OS's description of an I/O error without Rust's ` (os error N)` suffix, as other tools print it.
pub fn os_message(e: &io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(cut) if text.ends_with(')') => text[..cut].to_string(),
        _ => text,
    }
}

/// A writer that writes out every hidden character except the line break (`\u{1b}`, `\u{202e}`, see
/// `fleetplan::visible`): under the table, so no name or message can send a terminal escape or a
/// bidirectional override to the user's terminal. (The table's cells also write out line breaks.)
pub struct Visible<'w> {
    inner: &'w mut dyn Write,
    /// The start of a character whose last bytes have not arrived yet.
    pending: Vec<u8>,
}

impl<'w> Visible<'w> {
    pub fn new(inner: &'w mut dyn Write) -> Visible<'w> {
        Visible {
            inner,
            pending: Vec::new(),
        }
    }
}

impl Write for Visible<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Printable ASCII and line breaks, nearly all of a table, pass as they are.
        if self.pending.is_empty() && buf.iter().all(|&b| b == b'\n' || (0x20..0x7f).contains(&b)) {
            self.inner.write_all(buf)?;
            return Ok(buf.len());
        }
        self.pending.extend_from_slice(buf);
        let (text, rest) = match std::str::from_utf8(&self.pending) {
            Ok(text) => (text, 0),
            Err(e) if e.error_len().is_none() => {
                let cut = e.valid_up_to();
                // Safe: `valid_up_to` is a character boundary of valid UTF-8.
                (
                    std::str::from_utf8(&self.pending[..cut]).unwrap_or_default(),
                    self.pending.len() - cut,
                )
            }
            Err(_) => {
                // Not text at all: nothing of it reaches the terminal as it is.
                let shown: String = String::from_utf8_lossy(&self.pending).into_owned();
                self.pending.clear();
                self.inner.write_all(escape(&shown).as_bytes())?;
                return Ok(buf.len());
            }
        };
        let out = escape(text);
        let keep = self.pending.split_off(self.pending.len() - rest);
        self.pending = keep;
        self.inner.write_all(out.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

fn escape(text: &str) -> String {
    // Runs of shown characters are copied as they are (a table with one arrow in it passed every
    // character through here one by one: 167 M instructions of a 10,000-cluster plan's table).
    let mut out = String::with_capacity(text.len());
    let mut run = 0;
    for (i, c) in text.char_indices() {
        if c != '\n' && fleetplan::visible::is_hidden(c) {
            out.push_str(&text[run..i]);
            fleetplan::visible::push_visible(&mut out, c);
            run = i + c.len_utf8();
        }
    }
    out.push_str(&text[run..]);
    out
}
