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
            let mut text = String::new();
            match io::stdin().lock().read_to_string(&mut text) {
                Ok(_) => inputs.push(Input {
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
        match std::fs::read_to_string(path) {
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
