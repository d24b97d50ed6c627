//! Reading the command's input files (and stdin for `-`) into named texts for `fleetplan::load`.

use std::io::{self, Read};

use fleetplan::Source;

use crate::out::{self, Status};

/// One input text and the name diagnostics will report it by.
pub struct Input {
    pub name: String,
    pub text: String,
}

pub const STDIN_NAME: &str = "<stdin>";

/// Reads every path. Reports each unreadable one, so a user fixing paths sees all problems at once;
/// any failure means no planning, since a partial input set would produce misleading diagnostics.
pub fn read_all(paths: &[String]) -> Result<Vec<Input>, Status> {
    let mut inputs = Vec::with_capacity(paths.len());
    let mut failed = false;
    let mut stdin_read = false;
    for path in paths {
        if path == "-" {
            if stdin_read {
                out::error("`-` (stdin) is given more than once");
                return Err(Status::Usage);
            }
            stdin_read = true;
            match read_capped(io::stdin().lock(), 0) {
                Ok(text) => inputs.push(Input {
                    name: STDIN_NAME.into(),
                    text,
                }),
                Err(e) => {
                    out::error(format_args!("cannot read stdin: {}", out::os_message(&e)));
                    failed = true;
                }
            }
            continue;
        }
        let file = std::fs::File::open(path);
        // The file's size, so the text is read into one buffer of the right size.
        let size = file
            .as_ref()
            .ok()
            .and_then(|f| f.metadata().ok())
            .map_or(0, |m| m.len());
        match file.and_then(|f| read_capped(f, size)) {
            Ok(text) => inputs.push(Input {
                name: path.clone(),
                text,
            }),
            Err(e) => {
                out::error(format_args!(
                    "cannot read `{path}`: {}",
                    out::os_message(&e)
                ));
                failed = true;
            }
        }
    }
    if failed {
        Err(Status::Failed)
    } else {
        Ok(inputs)
    }
}

pub fn sources(inputs: &[Input]) -> Vec<Source<'_>> {
    inputs
        .iter()
        .map(|i| Source {
            name: &i.name,
            text: &i.text,
        })
        .collect()
}

/// Reads text, but never more than one byte past the core's input limit: a larger file is refused by
/// `fleetplan::load` (located, in its words) without the CLI holding all of it in memory first. The
/// cut may split a character; that is harmless, as nothing past the limit is read.
fn read_capped(reader: impl Read, size_hint: u64) -> io::Result<String> {
    let cap = fleetplan::input::MAX_INPUT_BYTES as u64 + 1;
    let mut bytes = Vec::with_capacity(usize::try_from(size_hint.min(cap)).unwrap_or(0));
    reader
        .take(fleetplan::input::MAX_INPUT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(e)
            if e.as_bytes().len() > fleetplan::input::MAX_INPUT_BYTES
                && e.utf8_error().error_len().is_none() =>
        {
            // The cut fell inside a character: keep the text before it and mark the cut, which keeps
            // it past the limit (at most three bytes were dropped, three are added).
            let valid = e.utf8_error().valid_up_to();
            let mut bytes = e.into_bytes();
            bytes.truncate(valid);
            Ok(String::from_utf8(bytes).unwrap_or_default() + "\u{fffd}")
        }
        Err(_) => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )),
    }
}
