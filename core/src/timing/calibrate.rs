//! Calibration: durations observed in a running rollout (and in earlier runs given as history)
//! replace the assumed ones where there are enough of them, each replacement stated in the plan.
//!
//! Rule: the clusters still to update in a stage take the median of the update durations observed
//! in that stage (this run and earlier runs' stages of the same name) when there are at least
//! [`MIN_OBSERVATIONS`]; else the median over every stage's observations when those are enough; else
//! the assumption stays, and the note says how many were seen. Approval delays likewise, from the
//! approvals already given. The Monte Carlo then draws from the same observations.

use std::collections::HashMap;

use crate::plan::projection::CalibrationNote;
use crate::time::Duration;

/// Fewer observations than this say too little about a duration to replace an assumption.
pub const MIN_OBSERVATIONS: usize = 3;

/// One finished cluster update seen in a status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpdateObservation {
    pub stage: String,
    pub duration: Duration,
    /// Seen in an earlier run given as history, not in the run being projected.
    pub history: bool,
}

/// Everything observed, in any order (sorted here).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observations {
    pub updates: Vec<UpdateObservation>,
    /// Request to approval, already counted in business time when approvers keep business hours.
    pub approvals: Vec<Duration>,
}

/// The clusters of one stage that are still to finish, for which calibration is wanted.
pub struct Pending<'a> {
    pub stage: &'a str,
    pub clusters: Vec<&'a str>,
}

#[derive(Clone, Debug, Default)]
pub struct Calibration {
    /// Per calibrated group: the observations it was drawn from (sorted) and the median.
    groups: Vec<(Vec<Duration>, Duration)>,
    group_of: HashMap<String, usize>,
    approvals: Option<(Vec<Duration>, Duration)>,
    pub notes: Vec<CalibrationNote>,
}

impl Calibration {
    pub fn new(
        obs: &Observations,
        pending: &[Pending],
        assumed_update: Duration,
        approvals_ahead: bool,
        assumed_approval: Duration,
    ) -> Calibration {
        let mut c = Calibration::default();
        let mut all: Vec<Duration> = obs.updates.iter().map(|u| u.duration).collect();
        crate::sort::sort(&mut all);
        let mut by_stage: HashMap<&str, Vec<&UpdateObservation>> = HashMap::new();
        for u in &obs.updates {
            by_stage.entry(u.stage.as_str()).or_default().push(u);
        }
        for p in pending.iter().filter(|p| !p.clusters.is_empty()) {
            let own = by_stage.get(p.stage).map_or(&[][..], Vec::as_slice);
            let field = format!("updateDuration of stage {}", p.stage);
            let (sample, how): (Vec<Duration>, String) = if own.len() >= MIN_OBSERVATIONS {
                let earlier = own.iter().filter(|u| u.history).count();
                let mut v: Vec<Duration> = own.iter().map(|u| u.duration).collect();
                crate::sort::sort(&mut v);
                let how = if earlier > 0 {
                    format!(
                        "median of {} finished clusters of this stage, {earlier} of them in earlier runs",
                        own.len()
                    )
                } else {
                    format!("median of {} finished clusters", own.len())
                };
                (v, how)
            } else if all.len() >= MIN_OBSERVATIONS {
                (
                    all.clone(),
                    format!(
                        "median of {} finished clusters of the run's stages, {} of this stage",
                        all.len(),
                        own.len()
                    ),
                )
            } else {
                c.notes.push(CalibrationNote {
                    text: format!(
                        "update of stage {}: {} finished cluster(s) observed in the run, {MIN_OBSERVATIONS} needed: keeping the assumed {assumed_update}",
                        p.stage,
                        all.len()
                    ),
                    field,
                    value: assumed_update,
                    assumed: assumed_update,
                    observations: all.len(),
                    applied: false,
                });
                continue;
            };
            let value = median(&sample);
            c.notes.push(CalibrationNote {
                text: format!(
                    "update of stage {} {value} ({how}) instead of the assumed {assumed_update}",
                    p.stage
                ),
                field,
                value,
                assumed: assumed_update,
                observations: sample.len(),
                applied: true,
            });
            let g = c.groups.len();
            c.groups.push((sample, value));
            for cl in &p.clusters {
                c.group_of.insert((*cl).to_string(), g);
            }
        }
        if approvals_ahead {
            let mut v = obs.approvals.clone();
            crate::sort::sort(&mut v);
            if v.len() >= MIN_OBSERVATIONS {
                let value = median(&v);
                c.notes.push(CalibrationNote {
                    text: format!(
                        "approvals {value} (median of {} approvals given) instead of the assumed {assumed_approval}",
                        v.len()
                    ),
                    field: "approvals.delay".into(),
                    value,
                    assumed: assumed_approval,
                    observations: v.len(),
                    applied: true,
                });
                c.approvals = Some((v, value));
            } else {
                c.notes.push(CalibrationNote {
                    text: format!(
                        "approvals: {} given so far, {MIN_OBSERVATIONS} needed: keeping the assumed {assumed_approval}",
                        v.len()
                    ),
                    field: "approvals.delay".into(),
                    value: assumed_approval,
                    assumed: assumed_approval,
                    observations: v.len(),
                    applied: false,
                });
            }
        }
        c
    }

    /// The calibrated update duration of a cluster still to finish.
    pub fn update(&self, cluster: &str) -> Option<Duration> {
        self.group_of.get(cluster).map(|&g| self.groups[g].1)
    }

    /// The observations a cluster's duration is drawn from in the Monte Carlo (sorted).
    pub fn observed_for(&self, cluster: &str) -> Option<&[Duration]> {
        self.group_of
            .get(cluster)
            .map(|&g| self.groups[g].0.as_slice())
    }

    pub fn approval_delay(&self) -> Option<Duration> {
        self.approvals.as_ref().map(|a| a.1)
    }

    pub fn observed_approvals(&self) -> Option<&[Duration]> {
        self.approvals.as_ref().map(|a| a.0.as_slice())
    }

    /// How many stages' durations come from observations.
    pub fn observed_groups(&self) -> usize {
        self.groups.len()
    }

    pub fn approvals_observed(&self) -> bool {
        self.approvals.is_some()
    }
}

/// The median of sorted durations (the mean of the two middle ones for an even count).
pub fn median(sorted: &[Duration]) -> Duration {
    let n = sorted.len();
    match n {
        0 => Duration::ZERO,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => Duration((sorted[n / 2 - 1].0 + sorted[n / 2].0) / 2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::MINUTE;

    fn m(x: i64) -> Duration {
        Duration(x * MINUTE.0)
    }

    fn obs(stage: &str, mins: &[i64], history: bool) -> Vec<UpdateObservation> {
        mins.iter()
            .map(|&x| UpdateObservation {
                stage: stage.into(),
                duration: m(x),
                history,
            })
            .collect()
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_stage_with_enough_observations_takes_their_median() {
        let mut o = Observations::default();
        o.updates.extend(obs("prod", &[4, 5, 6, 20], false));
        o.updates.extend(obs("canary", &[2], false));
        let pending = [
            Pending {
                stage: "prod",
                clusters: vec!["p5", "p6"],
            },
            Pending {
                stage: "edge",
                clusters: vec!["e1"],
            },
        ];
        let c = Calibration::new(&o, &pending, m(10), false, m(60));
        // prod: its own four, median (5+6)/2; edge: none of its own, the run's five, median 5.
        assert_eq!(c.update("p5"), Some(Duration(330_000)));
        assert_eq!(c.update("e1"), Some(m(5)));
        assert_eq!(c.update("unknown"), None);
        assert_eq!(
            c.notes[0].text,
            "update of stage prod 5m30s (median of 4 finished clusters) instead of the assumed 10m"
        );
        assert!(c.notes[1]
            .text
            .contains("of the run's stages, 0 of this stage"));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn too_few_observations_keep_the_assumption_and_say_so() {
        let mut o = Observations::default();
        o.updates.extend(obs("prod", &[4, 5], false));
        o.approvals.push(m(25));
        let pending = [Pending {
            stage: "prod",
            clusters: vec!["p3"],
        }];
        let c = Calibration::new(&o, &pending, m(10), true, m(60));
        assert_eq!(c.update("p3"), None);
        assert_eq!(c.approval_delay(), None);
        assert!(!c.notes[0].applied);
        assert_eq!(
            c.notes[1].text,
            "approvals: 1 given so far, 3 needed: keeping the assumed 1h"
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn history_counts_and_is_named() {
        let mut o = Observations::default();
        o.updates.extend(obs("prod", &[7], false));
        o.updates.extend(obs("prod", &[8, 9], true));
        o.approvals.extend([m(10), m(30), m(20)]);
        let pending = [Pending {
            stage: "prod",
            clusters: vec!["p2"],
        }];
        let c = Calibration::new(&o, &pending, m(3), true, m(60));
        assert_eq!(c.update("p2"), Some(m(8)));
        assert!(c.notes[0].text.contains("2 of them in earlier runs"));
        assert_eq!(c.approval_delay(), Some(m(20)));
        assert_eq!(c.observed_approvals().unwrap(), &[m(10), m(20), m(30)]);
    }
}
