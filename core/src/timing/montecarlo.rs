//! The seeded Monte Carlo behind the range of ends: each sample redraws the uncertain durations
//! (updates, approvals, failures that recover) and the caller runs its planner with them; the ends
//! of all samples give P10/P50/P90.
//!
//! Randomness is counter-based, not a stream: a draw is a hash of (seed, sample, what is drawn), so
//! it does not depend on the order in which a planner asks, and adding a cluster never changes
//! another cluster's draw. Only integer operations, `sqrt` and basic float arithmetic are used (all
//! exactly rounded by IEEE 754), never `ln` or `exp`, whose last bit differs between the native and
//! the wasm math libraries: the same input gives the same numbers on both.

use crate::model::Uncertainty;
use crate::plan::projection::Spread;
use crate::time::{Duration, Time, MINUTE};

use super::calibrate::Calibration;

/// The seed when the scenario states none: any fixed number keeps runs reproducible.
pub const DEFAULT_SEED: u64 = 1;
pub const DEFAULT_SAMPLES: u32 = 1_000;
/// An unobserved update takes its expected duration ±25% (triangular): a cluster update's time varies
/// with its workloads, and a quarter either way is what a plan with no data can honestly claim.
pub const DEFAULT_UPDATE_SPREAD: f64 = 0.25;
/// People are less regular than controllers: an approval's delay ±50%.
pub const DEFAULT_APPROVAL_SPREAD: f64 = 0.5;
pub const DEFAULT_FAILURE_RATE: f64 = 0.0;
pub const DEFAULT_RECOVERY: Duration = Duration(30 * MINUTE.0);

/// `Uncertainty` with every default filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub seed: u64,
    pub samples: u32,
    /// The first sample's index: a front end may draw the samples in chunks (`first..first+samples`)
    /// and combine them, with the same numbers as in one go.
    pub first: u32,
    pub update_spread: f64,
    pub approval_spread: f64,
    pub failure_rate: f64,
    pub recovery: Duration,
}

impl Settings {
    pub fn from(u: Option<&Uncertainty>) -> Settings {
        let d = Uncertainty::default();
        let u = u.unwrap_or(&d);
        Settings {
            seed: u.seed.unwrap_or(DEFAULT_SEED),
            samples: u.samples.unwrap_or(DEFAULT_SAMPLES).max(1),
            first: 0,
            update_spread: u.update_spread.unwrap_or(DEFAULT_UPDATE_SPREAD),
            approval_spread: u.approval_spread.unwrap_or(DEFAULT_APPROVAL_SPREAD),
            failure_rate: u.failure_rate.unwrap_or(DEFAULT_FAILURE_RATE),
            recovery: u.recovery.unwrap_or(DEFAULT_RECOVERY),
        }
    }

    /// What the samples draw, in words, for the plan (defaults marked): `observed` stages draw from
    /// observed durations, approvals from observed delays when `approvals`.
    pub fn describe(
        &self,
        u: Option<&Uncertainty>,
        observed: usize,
        approvals: bool,
    ) -> Vec<String> {
        let stated = |f: fn(&Uncertainty) -> bool| u.is_some_and(f);
        let mark = |s: bool| if s { "" } else { " (default)" };
        let mut out = Vec::new();
        out.push(format!(
            "update durations: {}±{:.0}% of the expected duration (triangular){}",
            if observed > 0 {
                format!(
                    "drawn from the observed ones where {} stage(s) have enough, else ",
                    observed
                )
            } else {
                String::new()
            },
            self.update_spread * 100.0,
            mark(stated(|u| u.update_spread.is_some()))
        ));
        out.push(format!(
            "approval delays: {}±{:.0}% of the expected delay (triangular){}",
            if approvals {
                "drawn from the observed ones"
            } else {
                ""
            },
            self.approval_spread * 100.0,
            mark(stated(|u| u.approval_spread.is_some()))
        ));
        out.push(format!(
            "failures that recover: {:.1}% of updates, each {} longer{}",
            self.failure_rate * 100.0,
            self.recovery,
            mark(stated(|u| u.failure_rate.is_some() || u.recovery.is_some()))
        ));
        out.push(format!(
            "{} samples, seed {}{}",
            self.samples,
            self.seed,
            mark(stated(|u| u.seed.is_some() || u.samples.is_some()))
        ));
        out
    }
}

/// One sample's source of randomness, handed to `Timing` so the planners draw from it.
#[derive(Clone, Copy)]
pub struct Draw<'a> {
    pub settings: &'a Settings,
    pub sample: u32,
    pub calibration: Option<&'a Calibration>,
}

const SALT_UPDATE: u64 = 0x7570_6461_7465;
const SALT_FAILS: u64 = 0x6661_696c;
const SALT_RECOVERY: u64 = 0x7265_636f;
const SALT_APPROVAL: u64 = 0x6170_7072;
const SALT_FACTOR: u64 = 0x6661_6374;

impl Draw<'_> {
    /// A uniform number in [0, 1) for `key` in this sample.
    pub fn unit(&self, key: &str, salt: u64) -> f64 {
        unit(self.settings.seed, self.sample, key, salt)
    }

    /// An update's duration in this sample: drawn from the durations observed for its stage when
    /// there are enough (and the cluster has no duration of its own), else the expected duration
    /// scaled by the spread; then, with the failure rate, a failure that recovers after `recovery`.
    pub fn update(&self, cluster: &str, expected: Duration, own: bool) -> Duration {
        let u = self.unit(cluster, SALT_UPDATE);
        let observed = if own {
            None
        } else {
            self.calibration.and_then(|c| c.observed_for(cluster))
        };
        let mut d = match observed {
            Some(obs) => pick(obs, u),
            None => scale(expected, triangular(u, self.settings.update_spread)),
        };
        if self.settings.failure_rate > 0.0
            && self.unit(cluster, SALT_FAILS) < self.settings.failure_rate
        {
            let r = self.unit(cluster, SALT_RECOVERY);
            let extra = scale(
                self.settings.recovery,
                triangular(r, self.settings.update_spread),
            );
            d = Duration(d.0.saturating_add(extra.0));
        }
        d
    }

    /// An approval's delay in this sample (`key` names the request).
    pub fn approval(&self, key: &str, expected: Duration, own: bool) -> Duration {
        let u = self.unit(key, SALT_APPROVAL);
        let observed = if own {
            None
        } else {
            self.calibration.and_then(Calibration::observed_approvals)
        };
        match observed {
            Some(obs) => pick(obs, u),
            None => scale(expected, triangular(u, self.settings.approval_spread)),
        }
    }

    /// A factor around 1 for `key` with the update spread, for planners whose durations are not
    /// one number (GKE's control plane and per-node times).
    pub fn factor(&self, key: &str) -> f64 {
        triangular(self.unit(key, SALT_FACTOR), self.settings.update_spread)
    }
}

/// One of the observations, uniformly (the bootstrap: the observed spread, not an assumed shape).
fn pick(sorted: &[Duration], u: f64) -> Duration {
    let i = ((u * sorted.len() as f64) as usize).min(sorted.len().saturating_sub(1));
    sorted.get(i).copied().unwrap_or(Duration::ZERO)
}

/// Scaled to whole seconds: finer would only be noise in the range people read.
fn scale(d: Duration, factor: f64) -> Duration {
    let secs = ((d.0 as f64) * factor / 1000.0).round().max(0.0) as i64;
    Duration(secs * 1000)
}

/// The inverse CDF of the triangular distribution on [1 - s, 1 + s] with its mode at 1.
pub fn triangular(u: f64, spread: f64) -> f64 {
    if spread <= 0.0 {
        return 1.0;
    }
    if u < 0.5 {
        1.0 - spread + spread * (2.0 * u).sqrt()
    } else {
        1.0 + spread - spread * (2.0 * (1.0 - u)).sqrt()
    }
}

/// A uniform number in [0, 1) from (seed, sample, key, salt): FNV-1a over the key, then SplitMix64
/// finalisation of the mix.
pub fn unit(seed: u64, sample: u32, key: &str, salt: u64) -> f64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let mut z = h
        ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ u64::from(sample).wrapping_mul(0xd1b5_4a32_d192_ed03)
        ^ salt.wrapping_mul(0xa24b_aed4_963e_e407);
    for _ in 0..2 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
    }
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Runs `one` for every sample of `settings` and collects what it returns, in sample order.
pub fn run<R>(
    settings: &Settings,
    calibration: Option<&Calibration>,
    mut one: impl FnMut(&Draw) -> R,
) -> Vec<R> {
    (settings.first..settings.first.saturating_add(settings.samples))
        .map(|sample| {
            one(&Draw {
                settings,
                sample,
                calibration,
            })
        })
        .collect()
}

/// P10/P50/P90 of `ends` by nearest rank; `None` (never) sorts after every time. Reorders `ends`.
pub fn spread(ends: &mut [Option<Time>]) -> Option<Spread> {
    if ends.is_empty() {
        return None;
    }
    // Equal ends are the same value, so the one shared sort (crate::sort) gives the same order.
    crate::sort::sort_by(ends, |a, b| match (a, b) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    let n = ends.len();
    // Nearest rank: the smallest value with at least q·n samples at or below it.
    let at = |q: usize| ends[((q * n).div_ceil(100)).clamp(1, n) - 1];
    Some(Spread {
        p10: at(10),
        p50: at(50),
        p90: at(90),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn triangular_stays_in_its_bounds_and_is_centred() {
        assert_eq!(triangular(0.0, 0.25), 0.75);
        assert_eq!(triangular(0.5, 0.25), 1.0);
        assert!((triangular(0.999_999, 0.25) - 1.25).abs() < 1e-3);
        assert_eq!(triangular(0.3, 0.0), 1.0);
        let mean: f64 = (0..10_000)
            .map(|i| triangular(unit(3, i, "c", 1), 0.5))
            .sum::<f64>()
            / 10_000.0;
        assert!((mean - 1.0).abs() < 0.01, "{mean}");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn draws_depend_on_seed_sample_and_key_only() {
        assert_eq!(unit(1, 2, "a", 3), unit(1, 2, "a", 3));
        assert_ne!(unit(1, 2, "a", 3), unit(1, 3, "a", 3));
        assert_ne!(unit(1, 2, "a", 3), unit(2, 2, "a", 3));
        assert_ne!(unit(1, 2, "a", 3), unit(1, 2, "b", 3));
        // A fixed value, so a change of the mixing (which would change every plan's range) is noticed
        // and the same bits are checked natively and in wasm.
        assert_eq!(
            unit(1, 0, "member1", SALT_UPDATE).to_bits(),
            4_593_913_336_211_416_288
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn percentiles_by_nearest_rank_with_never_last() {
        let t = |m: i64| Some(Time(m * 60_000));
        let mut ends: Vec<Option<Time>> = (1..=10).map(t).collect();
        let s = spread(&mut ends).unwrap();
        assert_eq!((s.p10, s.p50, s.p90), (t(1), t(5), t(9)));
        let mut ends = vec![t(3), None, t(1), t(2), None];
        let s = spread(&mut ends).unwrap();
        // 5 samples: ranks 1, 3, 5.
        assert_eq!((s.p10, s.p50, s.p90), (t(1), t(3), None));
        assert!(spread(&mut []).is_none());
    }
}
