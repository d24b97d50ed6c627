//! fleetplan: projects staged multi-cluster Kubernetes rollouts onto a timeline before they run.
//!
//! The crate is sans-IO and deterministic: text and a start time go in, a [`Plan`] comes out, the same
//! bytes natively and in wasm32. Front ends ([`load`] their input, [`plan`] it, render the result) never
//! compute schedules themselves.

pub mod admission;
mod append;
pub mod calendar;
pub mod cel;
pub mod compare;
pub mod decimal;
pub mod decode;
pub mod diag;
pub mod engine;
pub mod examples;
pub mod export;
pub mod fleet;
pub mod fnv;
pub mod gantt;
pub mod gke;
pub mod input;
pub mod label_map;
pub mod labels;
pub mod lines;
pub mod manifests;
pub mod memo;
pub mod model;
pub mod naming;
pub mod parts;
pub mod placement;
pub mod plan;
pub mod playback;
pub mod quote;
pub mod rolling;
pub mod selector;
pub mod share;
pub mod sort;
pub mod sorted_map;
pub mod source;
pub mod staged;
pub mod status;
pub mod substr;
pub mod time;
pub mod timing;
pub mod visible;
pub mod yaml_out;
pub mod zone;

pub use diag::{Diagnostic, Location, Severity};
pub use input::{load, load_with, Loaded, Source};
pub use memo::load_again;
pub use model::Scenario;
pub use plan::Plan;

/// Projects the rollout a scenario describes. Never panics on any scenario: problems become
/// diagnostics, and whatever can still be computed is.
pub fn plan(scenario: &Scenario) -> Plan {
    finish(scenario, parts::plan_kind(scenario))
}

/// What every plan gets after its kind's planner: diagnostics located and named as users write them,
/// the time cap said, the diagnostics capped.
fn finish(scenario: &Scenario, mut plan: Plan) -> Plan {
    scenario.origin.attach(&mut plan.diagnostics);
    naming::name_subjects(scenario, &mut plan.diagnostics);
    let latest = plan.latest.take();
    debug_assert!(latest.is_none_or(|t| t == plan.latest_time()));
    if latest.unwrap_or_else(|| plan.latest_time()) >= time::MAX_TIME {
        plan.diagnostics.push(Diagnostic::error(
            "time-out-of-range",
            format!("the plan reaches {}, the last instant fleetplan represents: later times are shown as that instant", time::MAX_TIME),
        ));
        plan.summary.errors += 1;
    }
    diag::cap(&mut plan.diagnostics);
    plan
}

/// Every diagnostic of a scenario (validation and simulation warnings), errors first.
pub fn check(scenario: &Scenario) -> Vec<Diagnostic> {
    let mut diagnostics = plan(scenario).diagnostics;
    sort::sort_by_key(&mut diagnostics, |d| d.severity);
    diagnostics
}
