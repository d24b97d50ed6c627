//! `fleetplan example`: list the built-in examples, or print one so it can be saved and edited.

use fleetplan::examples;

use crate::args::ExampleArgs;
use crate::grid::Grid;
use crate::out::{self, Status};

pub fn run(args: &ExampleArgs) -> Status {
    let all = examples::all();
    let Some(name) = &args.name else {
        return out::to_stdout(Status::Ok, |w| {
            let mut g = Grid::headless(2);
            for e in all {
                g.row(vec![e.name.to_string(), e.title.to_string()]);
            }
            g.write(w, "")
        });
    };
    match all.iter().find(|e| e.name == name.as_str()) {
        Some(e) => out::to_stdout(Status::Ok, |w| {
            w.write_all(e.text.as_bytes())?;
            if !e.text.ends_with('\n') {
                writeln!(w)?;
            }
            Ok(())
        }),
        None => {
            let names: Vec<&str> = all.iter().map(|e| e.name).collect();
            out::error(format_args!(
                "unknown example `{name}`; available: {}",
                names.join(", ")
            ));
            Status::Usage
        }
    }
}
