//! Adapters over core modules still being written (the plan exports), so the app builds meanwhile.
//!
//! When `fleetplan::export` lands these become one-line calls into it; nothing else in the app changes.

use fleetplan::Plan;

/// The plan as JSON, the same document the CLI's `--format json` prints.
pub fn plan_json(plan: &Plan) -> String {
    serde_json::to_string_pretty(plan).unwrap_or_default()
}

/// The plan as CSV; `None` until the core's CSV export exists.
pub fn plan_csv(_plan: &Plan) -> Option<String> {
    None
}

/// A Mermaid `gantt` block; `None` until the core's Mermaid export exists.
pub fn plan_mermaid(_plan: &Plan) -> Option<String> {
    None
}
