//! How long things take in the simulation: cluster updates (defaults, overrides, seeded jitter),
//! deletions, and when a person approves a request; calibrated from observed durations
//! ([`calibrate`]) and redrawn per sample by the Monte Carlo ([`montecarlo`]), for every planner.

pub mod calibrate;
pub mod montecarlo;

use std::collections::{HashMap, HashSet};

use crate::calendar;
use crate::diag::Diagnostic;
use crate::model::{Assumptions, FailureSpec, FleetCluster, TaskSide};
use crate::plan::AssumptionNote;
use crate::selector;
use crate::time::{Duration, Time, HOUR, MINUTE, SECOND};

pub const DEFAULT_UPDATE: Duration = Duration(3 * MINUTE.0);
pub const DEFAULT_DELETE: Duration = Duration(MINUTE.0);
pub const DEFAULT_APPROVAL_DELAY: Duration = HOUR;
/// How long applying the resources to one cluster (or reporting its diff) takes by default.
pub const DEFAULT_APPLY: Duration = Duration(30 * SECOND.0);

/// What a live projection or the Monte Carlo adds to a planner's `Timing`, passed through a
/// planner's `plan_with` so that it need not know about either.
#[derive(Clone, Copy, Default)]
pub struct Hooks<'a> {
    pub calibration: Option<&'a calibrate::Calibration>,
    pub draw: Option<montecarlo::Draw<'a>>,
}

pub struct Timing<'a> {
    assumptions: &'a Assumptions,
    fleet: &'a [FleetCluster<'a>],
    default_update: Duration,
    by_name: HashMap<&'a str, Duration>,
    /// Selector overrides in order, compiled once for every cluster they are tried on.
    by_selector: Vec<(selector::Compiled<'a>, Duration)>,
    failures: HashMap<&'a str, &'a FailureSpec>,
    calibration: Option<&'a calibrate::Calibration>,
    draw: Option<montecarlo::Draw<'a>>,
}

impl<'a> Timing<'a> {
    pub fn new(
        assumptions: &'a Assumptions,
        fleet: &'a [FleetCluster<'a>],
        diags: &mut Vec<Diagnostic>,
    ) -> Self {
        // A set, not a scan per name: a long failure list against a large fleet was quadratic.
        let names: HashSet<&str> =
            if assumptions.duration_overrides.is_empty() && assumptions.failures.is_empty() {
                HashSet::new()
            } else {
                fleet.iter().map(|fc| fc.cluster.name.as_str()).collect()
            };
        let known = |name: &str| names.contains(name);
        let mut by_name = HashMap::new();
        for (i, o) in assumptions.duration_overrides.iter().enumerate() {
            if let Some(name) = &o.cluster {
                if !known(name) {
                    diags.push(
                        Diagnostic::warning("unknown-cluster", format!("duration override names cluster `{name}`, which is not in the fleet"))
                            .at(format!("assumptions.updateDuration.overrides[{i}].cluster")),
                    );
                }
                by_name.entry(name.as_str()).or_insert(o.duration);
            }
        }
        let mut failures = HashMap::new();
        for (i, f) in assumptions.failures.iter().enumerate() {
            if !known(&f.cluster) {
                diags.push(
                    Diagnostic::warning(
                        "unknown-cluster",
                        format!(
                            "failure assumption names cluster `{}`, which is not in the fleet",
                            f.cluster
                        ),
                    )
                    .at(format!("assumptions.failures[{i}]")),
                );
            }
            failures.insert(f.cluster.as_str(), f);
        }
        if let Some(h) = &assumptions.approvals.business_hours {
            if !calendar::ever_open(h) {
                diags.push(
                    Diagnostic::error("business-hours-never-open", "business hours never open (no day, or start not before end): no approval would ever be granted")
                        .at("assumptions.approvals.businessHours"),
                );
            }
        }
        Timing {
            assumptions,
            fleet,
            default_update: assumptions.update_duration.unwrap_or(DEFAULT_UPDATE),
            by_name,
            by_selector: assumptions
                .duration_overrides
                .iter()
                .filter(|o| o.cluster.is_none())
                .map(|o| (selector::Compiled::new(o.selector.as_ref()), o.duration))
                .collect(),
            failures,
            calibration: None,
            draw: None,
        }
    }

    /// Both hooks at once (either may be absent): what a live projection hands a planner.
    pub fn hooked(mut self, hooks: Hooks<'a>) -> Self {
        self.calibration = hooks.calibration.or(self.calibration);
        self.draw = hooks.draw.or(self.draw);
        self
    }

    /// Durations observed in the run replace the assumed ones for the clusters still to update.
    pub fn calibrated(mut self, calibration: &'a calibrate::Calibration) -> Self {
        self.calibration = Some(calibration);
        self
    }

    /// Every duration and delay is redrawn from one Monte Carlo sample.
    pub fn drawing(mut self, draw: montecarlo::Draw<'a>) -> Self {
        self.draw = Some(draw);
        self
    }

    /// The update duration assumed when nothing else applies (stated or fleetplan's default).
    pub fn default_update(&self) -> Duration {
        self.default_update
    }

    /// The approval delay assumed for requests without an override.
    pub fn default_approval(&self) -> Duration {
        self.assumptions
            .approvals
            .delay
            .unwrap_or(DEFAULT_APPROVAL_DELAY)
    }

    /// The update duration of a cluster: its own override, else the first matching selector override,
    /// else the default; then the seeded jitter.
    pub fn update(&self, name: &str, fleet_index: Option<usize>) -> Duration {
        let labels = fleet_index
            .and_then(|i| self.fleet.get(i))
            .map(|fc| &fc.cluster.labels);
        // A cluster's own duration is knowledge no observation of others replaces; a stage's
        // observed median replaces the default and selector assumptions.
        let own = self.by_name.get(name).copied();
        let calibrated = own
            .is_none()
            .then(|| self.calibration.and_then(|c| c.update(name)))
            .flatten();
        let base = own.or(calibrated).unwrap_or_else(|| {
            labels
                .and_then(|l| self.by_selector.iter().find(|(sel, _)| sel.matches(l)))
                .map_or(self.default_update, |(_, d)| *d)
        });
        let expected = match &self.assumptions.jitter {
            Some(j) if j.spread > 0.0 => {
                let u = unit_hash(j.seed, name);
                let factor = 1.0 + j.spread * (2.0 * u - 1.0);
                Duration(((base.0 as f64) * factor).round().max(1.0) as i64)
            }
            _ => base,
        };
        match &self.draw {
            Some(d) => d.update(name, expected, own.is_some()),
            None => expected,
        }
    }

    /// Applying the resources to a cluster, or, under the ReportDiff apply strategy, reporting its diff.
    pub fn apply(&self) -> Duration {
        self.assumptions.apply_duration.unwrap_or(DEFAULT_APPLY)
    }

    pub fn delete(&self) -> Duration {
        self.assumptions.delete_duration.unwrap_or(DEFAULT_DELETE)
    }

    /// What the assumptions say fails on this cluster, if anything (the last entry naming it wins).
    pub fn failure(&self, name: &str) -> Option<&'a FailureSpec> {
        self.failures.get(name).copied()
    }

    /// When the approval request for `stage` created at `requested` is approved; `None`: never.
    pub fn approval(&self, requested: Time, stage: &str, side: TaskSide) -> Option<Time> {
        let approvals = &self.assumptions.approvals;
        let o = approvals
            .overrides
            .iter()
            .find(|o| o.stage == stage && o.task.is_none_or(|t| t == side));
        if o.is_some_and(|o| o.never) {
            return None;
        }
        let stated = o.and_then(|o| o.delay);
        let mut delay = stated
            .or_else(|| self.calibration.and_then(|c| c.approval_delay()))
            .or(approvals.delay)
            .unwrap_or(DEFAULT_APPROVAL_DELAY);
        if let Some(d) = &self.draw {
            let key = match side {
                TaskSide::Before => format!("before-{stage}"),
                TaskSide::After => format!("after-{stage}"),
            };
            delay = d.approval(&key, delay, stated.is_some());
        }
        match &approvals.business_hours {
            Some(h) => calendar::add_business_time(requested, delay, h),
            None => Some(requested.plus(delay)),
        }
    }

    /// The assumptions as the plan states them, flagging fleetplan's defaults.
    pub fn notes(&self, notes: &mut Vec<AssumptionNote>) {
        let a = self.assumptions;
        let mut note = |field: &str, value: String, defaulted: bool| {
            notes.push(AssumptionNote {
                field: field.into(),
                value,
                defaulted,
            })
        };
        note(
            "updateDuration",
            format!("{} per cluster", self.default_update),
            a.update_duration.is_none(),
        );
        note_variations(a, &mut note);
        note(
            "deleteDuration",
            format!("{} per to-be-deleted cluster", self.delete()),
            a.delete_duration.is_none(),
        );
        let delay = a.approvals.delay.unwrap_or(DEFAULT_APPROVAL_DELAY);
        match &a.approvals.business_hours {
            Some(h) => note(
                "approvals",
                format!(
                    "granted {delay} of business time after the request; business hours {:02}:{:02}-{:02}:{:02} UTC{} on {}",
                    h.start / 60,
                    h.start % 60,
                    h.end / 60,
                    h.end % 60,
                    if h.utc_offset.is_empty() { "+00:00" } else { &h.utc_offset },
                    h.days.iter().filter_map(|d| crate::model::WEEKDAY_NAMES.get((*d as usize).wrapping_sub(1))).copied().collect::<Vec<_>>().join(",")
                ),
                a.approvals.delay.is_none(),
            ),
            None => note("approvals", format!("granted {delay} after the request, any day, any hour"), a.approvals.delay.is_none()),
        }
        if !a.approvals.overrides.is_empty() {
            note(
                "approvals.overrides",
                format!("{} override(s)", a.approvals.overrides.len()),
                false,
            );
        }
        note(
            "failures",
            if a.failures.is_empty() {
                "none: every update succeeds".into()
            } else {
                a.failures
                    .iter()
                    .map(describe_failure)
                    .collect::<Vec<_>>()
                    .join("; ")
            },
            a.failures.is_empty(),
        );
        if !a.stops.is_empty() {
            note(
                "stops",
                format!("{} stop/resume period(s)", a.stops.len()),
                false,
            );
        }
    }
}

/// One failure assumption in words, for the plan's assumption notes.
fn describe_failure(f: &FailureSpec) -> String {
    let when = match f.after {
        Some(d) => format!("{d} after it starts"),
        None => "when its update would finish".to_string(),
    };
    if f.preempted {
        return format!(
            "{}: another run takes over its binding {when} (the run aborts)",
            f.cluster
        );
    }
    match f.recovers_after {
        Some(r) => format!("{}: fails {when}, recovers {r} later", f.cluster),
        None => format!("{}: fails {when}, never recovers", f.cluster),
    }
}

/// A uniform number in [0, 1) from the seed and a cluster name: FNV-1a, then SplitMix64 to spread the
/// bits. Keyed by name, so adding a cluster never changes another cluster's duration.
fn unit_hash(seed: u64, name: &str) -> f64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let mut z = h ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// The notes for what makes update durations differ between clusters (overrides and jitter), shared
/// by every kind that uses `updateDuration`.
pub(crate) fn note_variations(a: &Assumptions, note: &mut impl FnMut(&str, String, bool)) {
    if !a.duration_overrides.is_empty() {
        note(
            "updateDuration.overrides",
            format!("{} override(s)", a.duration_overrides.len()),
            false,
        );
    }
    if let Some(j) = &a.jitter {
        note(
            "updateDuration.jitter",
            format!("±{:.0}% (seed {})", j.spread * 100.0, j.seed),
            false,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn jitter_hash_is_stable_and_in_range() {
        let a = unit_hash(42, "member1");
        assert_eq!(a, unit_hash(42, "member1"));
        assert_ne!(a, unit_hash(43, "member1"));
        for i in 0..1000 {
            let u = unit_hash(7, &format!("c{i}"));
            assert!((0.0..1.0).contains(&u));
        }
    }
}
