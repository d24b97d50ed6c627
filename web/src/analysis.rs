//! From scenario text to what the page shows: the core's plan and diagnostics, and whether the chart is stale.
//!
//! Pure and synchronous, so the editor's rule "invalid input never blanks the page" is tested natively.
//! This module only calls the core's `load_with` and `plan_with`; it computes no time itself. The page
//! plans with the parts whose code has arrived (see `kinds`); a text that needs another one says so in
//! `missing`, and the page asks again when it is there.

use std::sync::Arc;

use fleetplan::parts::{Missing, Parts};
use fleetplan::{Diagnostic, Plan, Scenario, Severity, Source};

/// Name the editor's text is reported by in diagnostics.
pub const SOURCE_NAME: &str = "scenario.yaml";

#[derive(Clone, Debug)]
pub struct Analysis {
    /// The scenario this text loads to, or the last one that loaded when this text cannot be read
    /// (`stale` then says so); `None` when no text has loaded yet (the form editor then waits).
    pub scenario: Option<Arc<Scenario>>,
    /// The plan on screen: this text's, or the last good one when this text could not be read.
    pub plan: Option<Arc<Plan>>,
    /// True when `plan` belongs to an earlier text (this one has errors that stop it loading).
    pub stale: bool,
    /// Why this text does not load, for the summary: the first error, with its line.
    pub stale_reason: Option<String>,
    /// Every diagnostic of this text, loading and planning, errors first.
    pub diagnostics: Vec<Diagnostic>,
    /// How many update runs the text describes; the page plans the first.
    pub runs: usize,
    /// The parts of the core this text needs that have not arrived yet (then `plan` is the previous
    /// text's, and `stale` is false: the answer is on its way, nothing is wrong).
    pub missing: Vec<Missing>,
}

/// Cheap equality for the memo that holds it: the same plan object, not a walk over 10,000 clusters.
impl PartialEq for Analysis {
    fn eq(&self, other: &Self) -> bool {
        fn same<T>(a: &Option<Arc<T>>, b: &Option<Arc<T>>) -> bool {
            match (a, b) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
        }
        same(&self.plan, &other.plan)
            && same(&self.scenario, &other.scenario)
            && self.stale == other.stale
            && self.stale_reason == other.stale_reason
            && self.runs == other.runs
            && self.missing == other.missing
            && self.diagnostics == other.diagnostics
    }
}

impl Analysis {
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// The scenario has a counterpart to compare with: a KubeFleet strategy, whose other kind (staged
    /// or rolling) the comparison plans.
    pub fn has_counterpart(&self) -> bool {
        self.scenario.as_deref().is_some_and(|s| {
            matches!(
                s.strategy,
                fleetplan::model::Strategy::KubefleetStaged(_)
                    | fleetplan::model::Strategy::KubefleetRolling(_)
            )
        })
    }
}

/// Loads and plans `text`. When it cannot be loaded into a scenario (a YAML error, a missing strategy) or
/// loading reported errors, the previous analysis's plan is kept and marked stale, so the chart stays.
/// A scenario that loads but that the controller would refuse is still planned: the core returns what it
/// can compute (outcome `Invalid`), which is what the user needs to see beside the errors.
pub fn analyse(text: &str, previous: Option<&Analysis>) -> Analysis {
    analyse_with(text, previous, &Parts::all())
}

/// [`analyse`] with only the parts of the core the page has so far.
pub fn analyse_with(text: &str, previous: Option<&Analysis>, parts: &Parts) -> Analysis {
    analyse_read(text, previous, parts, fleetplan::load_with)
}

/// [`analyse_with`]'s signature: the memo part's kit (`kinds::memo_part`).
pub type AnalyseFn = fn(&str, Option<&Analysis>, &Parts) -> Analysis;

/// [`analyse_with`] for the editor's text after an edit: an unchanged `clusters` list is taken from
/// the last such reading (`fleetplan::memo::load_remembered`; the same answer, in less time). Only
/// the memo part's entry (`kinds::memo_part`) names it, so its code comes with that part.
pub fn analyse_again(text: &str, previous: Option<&Analysis>, parts: &Parts) -> Analysis {
    analyse_read(text, previous, parts, fleetplan::memo::load_remembered)
}

/// The page's answer for `text` read by `read`. Inlined in both callers: the main module's
/// [`analyse_with`] stays as it was, and the memo's copy goes with its part.
#[inline(always)]
fn analyse_read(
    text: &str,
    previous: Option<&Analysis>,
    parts: &Parts,
    read: fleetplan::memo::LoadAgainFn,
) -> Analysis {
    let loaded = read(
        &[Source {
            name: SOURCE_NAME,
            text,
        }],
        parts,
    );
    if !loaded.missing.is_empty() {
        return waiting(previous, loaded.missing);
    }
    let readable = !loaded.has_errors() && !loaded.scenarios.is_empty();
    let runs = loaded.scenarios.len();
    let mut diagnostics = loaded.diagnostics;
    let mut scenarios = loaded.scenarios;
    let (scenario, plan, stale) = if readable {
        let scenario = scenarios.swap_remove(0);
        let plan = match fleetplan::parts::plan_with(&scenario, parts) {
            Ok(plan) => plan,
            Err(missing) => return waiting(previous, vec![missing]),
        };
        diagnostics.extend(plan.diagnostics.iter().cloned());
        (Some(Arc::new(scenario)), Some(Arc::new(plan)), false)
    } else {
        let last = previous.and_then(|p| p.plan.clone());
        let stale = last.is_some();
        (previous.and_then(|p| p.scenario.clone()), last, stale)
    };
    // Stable sort: within a severity the input's order is kept.
    fleetplan::sort::sort_by_key(&mut diagnostics, |d| d.severity);
    let stale_reason = (!readable).then(|| match diagnostics.iter().find(|d| d.is_error()) {
        Some(d) => match &d.location {
            Some(l) => format!("line {}: {}", l.line, d.message),
            None => d.message.clone(),
        },
        None => "the text describes no scenario".to_string(),
    });
    Analysis {
        scenario,
        plan,
        stale,
        stale_reason,
        diagnostics,
        runs,
        missing: Vec::new(),
    }
}

/// While a part is on its way: the previous plan stays on screen as it was.
pub fn waiting(previous: Option<&Analysis>, missing: Vec<Missing>) -> Analysis {
    match previous {
        Some(p) => Analysis {
            missing,
            ..p.clone()
        },
        None => Analysis {
            scenario: None,
            plan: None,
            stale: false,
            stale_reason: None,
            diagnostics: Vec::new(),
            runs: 0,
            missing,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> &'static str {
        fleetplan::examples::get(fleetplan::examples::DEFAULT)
            .unwrap()
            .text
    }

    #[test]
    fn the_example_plans_without_problems() {
        let a = analyse(example(), None);
        let plan = a.plan.as_ref().unwrap();
        let names: Vec<&str> = plan.stages.iter().map(|s| s.name.as_str()).collect();
        assert!(
            names.starts_with(&["staging", "canary", "production"]),
            "{names:?}"
        );
        assert!(!a.stale);
        assert_eq!(a.count(Severity::Error), 0);
    }

    #[test]
    fn broken_text_keeps_the_last_good_plan_marked_stale() {
        let good = analyse(example(), None);
        let broken = analyse("clusters: [\n  - {", Some(&good));
        assert!(broken.stale);
        assert!(Arc::ptr_eq(
            broken.plan.as_ref().unwrap(),
            good.plan.as_ref().unwrap()
        ));
        // The form keeps the last scenario that loaded; the summary can say why this one did not.
        assert!(Arc::ptr_eq(
            broken.scenario.as_ref().unwrap(),
            good.scenario.as_ref().unwrap()
        ));
        let reason = broken.stale_reason.as_deref().unwrap();
        assert!(reason.starts_with("line 2: "), "{reason}");
        assert!(broken.count(Severity::Error) > 0);
        let loc = broken.diagnostics[0].location.as_ref().unwrap();
        assert!(loc.line >= 1);
        // Fixing it again plans afresh.
        let fixed = analyse(example(), Some(&broken));
        assert!(!fixed.stale);
        assert_eq!(fixed.stale_reason, None);
    }

    #[test]
    fn broken_text_with_nothing_before_shows_no_chart() {
        let a = analyse("{{{", None);
        assert!(a.plan.is_none());
        assert!(!a.stale);
        assert!(a.count(Severity::Error) > 0);
        let b = analyse("", None);
        assert!(b.plan.is_none());
    }

    #[test]
    fn a_run_the_controller_refuses_is_still_drawn() {
        let text = fleetplan::examples::get("cluster-in-no-stage")
            .unwrap()
            .text;
        let a = analyse(text, None);
        assert!(a.plan.is_some());
        assert!(!a.stale);
        assert!(a.count(Severity::Error) > 0);
    }
}
