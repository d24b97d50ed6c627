//! Golden plans: each built-in example's plan as pretty JSON, compared with `examples/<name>.plan.json`.
//!
//! The files are embedded at build time (see build.rs), so the comparison also runs in wasm. Natively,
//! `UPDATE_GOLDEN=1` writes the current plan instead of comparing: review the diff, then commit it.

use fleetplan::Plan;

/// `(example name, golden JSON)` for every `examples/*.plan.json` present at build time.
pub static GOLDENS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/goldens.rs"));

pub fn golden(name: &str) -> Option<&'static str> {
    GOLDENS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// Above this many clusters a golden file keeps a digest of the plan (see [`digest`]), not all of it.
pub const FULL_GOLDEN_MAX_CLUSTERS: usize = 100;
const KEEP: usize = 3;

/// The text a golden file holds: one plan as an object, several as an array (as the CLI's JSON).
pub fn plan_json(plans: &[Plan]) -> String {
    let values: Vec<serde_json::Value> = plans.iter().map(digest).collect();
    let text = match values.as_slice() {
        [one] => serde_json::to_string_pretty(one),
        many => serde_json::to_string_pretty(many),
    };
    // Plans serialize only strings, numbers and string-keyed maps, which cannot fail.
    let mut text = text.unwrap_or_else(|e| format!("unserializable plan: {e}"));
    text.push('\n');
    text
}

/// The plan as JSON; for large fleets only the first and last clusters of each stage and the first
/// and last events, with counts of what was left out, so goldens stay reviewable in a diff while every
/// stage boundary, wait and summary figure is still pinned.
pub fn digest(plan: &Plan) -> serde_json::Value {
    let mut value = serde_json::to_value(plan).unwrap_or_default();
    if plan.summary.clusters <= FULL_GOLDEN_MAX_CLUSTERS {
        return value;
    }
    if let Some(stages) = value.get_mut("stages").and_then(|s| s.as_array_mut()) {
        for stage in stages {
            if let Some(obj) = stage.as_object_mut() {
                if let Some(serde_json::Value::Array(clusters)) = obj.get_mut("clusters") {
                    let omitted = trim_middle(clusters, KEEP);
                    obj.insert("clustersOmitted".into(), omitted.into());
                }
            }
        }
    }
    if let Some(serde_json::Value::Array(events)) = value.get_mut("events") {
        let omitted = trim_middle(events, 10 * KEEP);
        if let Some(obj) = value.as_object_mut() {
            obj.insert("eventsOmitted".into(), omitted.into());
        }
    }
    value
}

/// Keeps the first and last `keep` items; returns how many were dropped.
fn trim_middle(items: &mut Vec<serde_json::Value>, keep: usize) -> usize {
    if items.len() <= 2 * keep {
        return 0;
    }
    let omitted = items.len() - 2 * keep;
    items.drain(keep..items.len() - keep);
    omitted
}

/// Compares the plans of example `name` with its golden file, or rewrites the file under
/// `UPDATE_GOLDEN=1` (natively). `Err` says what differs and how to update.
pub fn check_golden(name: &str, plans: &[Plan]) -> Result<(), String> {
    let actual = plan_json(plans);
    if update_requested() {
        return write_golden(name, &actual);
    }
    let Some(expected) = golden(name) else {
        return Err(format!(
            "example `{name}` has no golden plan examples/{name}.plan.json; create it with UPDATE_GOLDEN=1 cargo test -p fleetplan-tests"
        ));
    };
    match first_difference(expected, &actual) {
        None => Ok(()),
        Some(diff) => Err(format!(
            "plan of example `{name}` differs from examples/{name}.plan.json (UPDATE_GOLDEN=1 rewrites it):\n{diff}"
        )),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn update_requested() -> bool {
    std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v != "0" && !v.is_empty())
}

#[cfg(target_arch = "wasm32")]
fn update_requested() -> bool {
    false
}

#[cfg(not(target_arch = "wasm32"))]
fn write_golden(name: &str, text: &str) -> Result<(), String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../examples/{name}.plan.json"));
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(target_arch = "wasm32")]
fn write_golden(_name: &str, _text: &str) -> Result<(), String> {
    Err("UPDATE_GOLDEN works only natively".into())
}

/// The first differing line with a little context, enough to see what moved without a diff library.
pub fn first_difference(expected: &str, actual: &str) -> Option<String> {
    if expected == actual {
        return None;
    }
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let at = e
        .iter()
        .zip(&a)
        .position(|(x, y)| x != y)
        .unwrap_or(e.len().min(a.len()));
    let mut out = String::new();
    let from = at.saturating_sub(3);
    for line in &e[from..at] {
        out.push_str(&format!("   {line}\n"));
    }
    for line in e.iter().skip(at).take(5) {
        out.push_str(&format!(" - {line}\n"));
    }
    for line in a.iter().skip(at).take(5) {
        out.push_str(&format!(" + {line}\n"));
    }
    out.push_str(&format!(
        "(first difference at line {}; expected {} lines, got {})",
        at + 1,
        e.len(),
        a.len()
    ));
    Some(out)
}
