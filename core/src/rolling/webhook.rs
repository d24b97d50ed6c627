//! The settings a rolling update runs with: the placement through the hub's checks
//! (`placement::admission`, with their real texts), then the API defaults filled in.

use crate::diag::Diagnostic;
use crate::model::IntOrString;
use crate::placement::admission::{self, Crp, Paths};
use crate::rolling::model::RollingRun;
use crate::time::{Duration, MAX_DURATION};

/// `maxUnavailable` and `maxSurge` default to "25%" in the API.
pub const DEFAULT_PERCENT: i32 = 25;
/// The controller's default (`DefaultUnavailablePeriodSeconds`). Azure's docs also print 10 s.
pub const DEFAULT_UNAVAILABLE_PERIOD_SECONDS: i64 = 60;

/// An int-or-percent after validation: the API's `int32`, or a percentage 0–100.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOrPercent {
    Int(i32),
    Percent(i32),
}

impl IntOrPercent {
    /// apimachinery's `GetScaledValueFromIntOrPercent(v, total, roundUp=true)`: percentages of the
    /// target, rounded up (25% of 5 is 2). Exact: a percentage is at most 100 and the target at most
    /// an `int32` (numberOfClusters) or the fleet cap, so the product is far inside `i64`; the checked
    /// operations only make that visible.
    pub fn scaled(self, total: usize) -> i64 {
        match self {
            IntOrPercent::Int(i) => i64::from(i),
            IntOrPercent::Percent(p) => {
                let total = i64::try_from(total).unwrap_or(i64::MAX);
                i64::from(p)
                    .checked_mul(total)
                    .and_then(|x| x.checked_add(99))
                    .map_or(i64::MAX, |x| x.div_euclid(100))
            }
        }
    }

    pub fn text(self) -> String {
        match self {
            IntOrPercent::Int(i) => i.to_string(),
            IntOrPercent::Percent(p) => format!("{p}%"),
        }
    }
}

/// What the rollout controller works with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub max_unavailable: IntOrPercent,
    pub max_surge: IntOrPercent,
    pub unavailable_period: Duration,
    /// False when the API server or the webhook rejects the placement: nothing would roll.
    pub valid: bool,
}

/// Sends the placement through the hub's layers (`placement::admission`: schema, CEL, webhook) and
/// resolves the settings the rollout controller works with. A refused value is replaced by its
/// default so the timeline can still be drawn.
pub fn validate(run: &RollingRun, diags: &mut Vec<Diagnostic>) -> Settings {
    let pl = &run.placement;
    let ru = &run.rolling_update;
    let mut valid = admission::admit(
        Crp {
            placement: pl,
            // The mutating webhook gives a RollingUpdate placement a block in any case; on an External
            // one only a written block exists.
            rolling_update: (!ru.is_empty() || pl.strategy_type != "External").then_some(ru),
            namespaced: false,
        },
        Paths {
            placement: "strategy.placement",
            rolling_update: "strategy.rollingUpdate",
        },
        diags,
    );
    if pl.strategy_type == "External" {
        valid = false;
        diags.push(
            Diagnostic::error(
                "rolling-strategy-external",
                "strategy type `External` hands this placement to staged update runs: KubeFleet's rollout controller does not roll it (use kind kubefleet-staged)",
            )
            .at("strategy.placement.strategyType"),
        );
    }
    let secs = ru
        .unavailable_period_seconds
        .filter(|s| *s >= 0)
        .unwrap_or(DEFAULT_UNAVAILABLE_PERIOD_SECONDS);
    // The controller computes `time.Duration(secs) * time.Second`: nanoseconds in a Go int64, which
    // wraps silently past 9223372036 s (292 years). A negative result puts the readiness cut-off in
    // the future, so every binding counts as ready at once.
    let ns = secs.wrapping_mul(1_000_000_000);
    let unavailable_period = Duration((ns / 1_000_000).clamp(0, MAX_DURATION.0));
    if ns / 1_000_000_000 != secs {
        diags.push(
            Diagnostic::warning(
                "unavailable-period-wraps",
                format!("unavailablePeriodSeconds {secs} overflows the controller's time.Duration (it wraps past 9223372036 seconds): it waits {unavailable_period} instead"),
            )
            .at("strategy.rollingUpdate.unavailablePeriodSeconds"),
        );
    }
    let resolve = |value: &Option<IntOrString>| match value {
        Some(IntOrString::Int(i)) if *i >= 0 => IntOrPercent::Int(*i),
        Some(IntOrString::Str(s)) => percent(s).map_or(
            IntOrPercent::Percent(DEFAULT_PERCENT),
            IntOrPercent::Percent,
        ),
        _ => IntOrPercent::Percent(DEFAULT_PERCENT),
    };
    Settings {
        max_unavailable: resolve(&ru.max_unavailable),
        max_surge: resolve(&ru.max_surge),
        unavailable_period,
        valid,
    }
}

/// `(100|[0-9]{1,2})%`.
fn percent(s: &str) -> Option<i32> {
    let digits = s.strip_suffix('%')?;
    let ok = digits == "100"
        || (matches!(digits.len(), 1 | 2) && digits.bytes().all(|b| b.is_ascii_digit()));
    if ok {
        digits.parse().ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn percentages_round_up_against_the_target() {
        let p = IntOrPercent::Percent(25);
        assert_eq!(
            [1, 4, 5, 10, 0].map(|n| p.scaled(n)),
            [1, 1, 2, 3, 0],
            "25% of 1, 4, 5, 10, 0"
        );
        assert_eq!(IntOrPercent::Int(7).scaled(3), 7);
        assert_eq!(IntOrPercent::Percent(100).scaled(3), 3);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_pattern_is_hand_matched() {
        for ok in ["0%", "5%", "05%", "99%", "100%"] {
            assert!(percent(ok).is_some(), "{ok}");
        }
        for bad in ["101%", "1000%", "%", "-1%", "1.5%", "25", " 25%"] {
            assert!(percent(bad).is_none(), "{bad}");
        }
    }
}
