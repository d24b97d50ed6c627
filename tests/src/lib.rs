//! Shared helpers of the integration suite, which runs natively and compiled to wasm32 in Node.
//!
//! # One test, two targets
//!
//! `#[wasm_bindgen_test]` alone registers a test only on wasm32: natively the function is dead code.
//! Its `unsupported` argument names the attribute to use on other targets, so every test of this
//! suite is written
//!
//! ```text
//! use wasm_bindgen_test::wasm_bindgen_test;
//!
//! #[wasm_bindgen_test(unsupported = test)]
//! fn plans_the_example() { /* … */ }
//! ```
//!
//! and runs under both `cargo test` and `cargo test --target wasm32-unknown-unknown` (the runner in
//! `.cargo/config.toml` executes it in Node). Inputs come from `include_str!`: wasm has no filesystem.
//!
//! # Data-driven checks
//!
//! [`check`] loads a scenario, plans it and compares a compact rendering ([`render`]) with an
//! `expect![[...]]` literal; `UPDATE_EXPECT=1 cargo test` rewrites the literals. [`golden`] compares
//! each built-in example's JSON plan with `examples/<name>.plan.json`; `UPDATE_GOLDEN=1 cargo test`
//! rewrites those files.

pub mod damage;
pub mod golden;
pub mod live;
pub mod render;
pub mod rolling;
pub mod rolling_oracle;

use fleetplan::{Diagnostic, Loaded, Plan, Source};

pub use expect_test::{expect, Expect};

/// The name inputs are loaded under, so diagnostics' locations are stable across tests.
pub const INPUT_NAME: &str = "input.yaml";

/// Loads one YAML (or JSON) text.
pub fn load(input_yaml: &str) -> Loaded {
    fleetplan::load(&[Source {
        name: INPUT_NAME,
        text: input_yaml,
    }])
}

/// Loads one text and plans every scenario in it.
pub fn load_and_plan(input_yaml: &str) -> (Loaded, Vec<Plan>) {
    let loaded = load(input_yaml);
    let plans = loaded.scenarios.iter().map(fleetplan::plan).collect();
    (loaded, plans)
}

/// Loads and plans `input_yaml` and compares the compact rendering with `expect`.
#[track_caller]
pub fn check(input_yaml: &str, expect: Expect) {
    let (loaded, plans) = load_and_plan(input_yaml);
    expect.assert_eq(&render::render(&loaded, &plans));
}

/// Diagnostics about the whole input rather than a place in it.
pub const WHOLE_INPUT: &[&str] = &["no-scenario", "scenario-shape"];

/// True when `d` has no place, or its place is in `file` and inside `text`: a line of it, and a
/// column on that line or just past its end.
pub fn inside_text(file: &str, text: &str, d: &Diagnostic) -> bool {
    let Some(l) = &d.location else { return true };
    let mut lines = text.split('\n');
    let count = text.split('\n').count();
    let width = lines
        .nth(l.line.wrapping_sub(1))
        .map_or(0, |s| s.chars().count());
    l.file == file && l.line >= 1 && l.line <= count && l.column >= 1 && l.column <= width + 1
}

/// Checks what the module promises: every diagnostic says something, every one from reading the text
/// (all but those about the whole input) has a place, and every place (also of planning diagnostics,
/// located through their field path) is inside the text: a line that exists, a column at most one past
/// its end.
#[track_caller]
pub fn assert_said_with_a_place(
    file: &str,
    text: &str,
    loaded: &Loaded,
    plans: &[Plan],
    what: &str,
) {
    let inside = |d: &Diagnostic| inside_text(file, text, d);
    for d in &loaded.diagnostics {
        assert!(!d.message.is_empty(), "{what}: empty diagnostic {d:?}");
        assert!(
            d.location.is_some() || WHOLE_INPUT.contains(&d.code) || d.omitted > 0,
            "{what}: no place for {d}"
        );
        assert!(inside(d), "{what}: {d} is outside the text");
    }
    for d in plans.iter().flat_map(|p| &p.diagnostics) {
        assert!(!d.message.is_empty(), "{what}: empty diagnostic {d:?}");
        assert!(inside(d), "{what}: {d} is outside the text");
    }
}
