//! Embeds every golden plan under `examples/` (`<name>.plan.json`) so the suite needs no filesystem in wasm.
//!
//! Generated rather than written by hand so that adding an example's golden file needs no code change,
//! and a missing one is a test failure (with the command that creates it) instead of a compile error.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let examples = Path::new(&manifest).join("../examples");
    println!("cargo:rerun-if-changed={}", examples.display());
    let mut names: Vec<String> = std::fs::read_dir(&examples)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".plan.json"))
                .map(str::to_string)
        })
        .collect();
    names.sort();
    let mut table = String::from("&[\n");
    for name in &names {
        let path = examples.join(format!("{name}.plan.json"));
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            table,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    table.push(']');
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    std::fs::write(Path::new(&out).join("goldens.rs"), table).expect("OUT_DIR is writable");
}
