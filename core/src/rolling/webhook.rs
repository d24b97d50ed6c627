//! The API's checks of a placement's `spec.strategy` (the CRD schema, then KubeFleet's validating
//! webhook), with their real texts, and the settings they leave: API defaults filled in.

use crate::diag::Diagnostic;
use crate::model::IntOrString;
use crate::rolling::model::RollingRun;
use crate::time::{Duration, SECOND};

/// `maxUnavailable` and `maxSurge` default to "25%" in the API.
pub const DEFAULT_PERCENT: i32 = 25;
/// The controller's default (`DefaultUnavailablePeriodSeconds`). Azure's docs also print 10 s.
pub const DEFAULT_UNAVAILABLE_PERIOD_SECONDS: i64 = 60;
/// The CRD's pattern for both int-or-string fields (applied to strings only).
pub const PATTERN: &str = "^((100|[0-9]{1,2})%|[0-9]+)$";

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

/// Validates `spec.strategy` the way creating the placement would, and resolves the settings. An
/// invalid value is reported and replaced by its default so the timeline can still be drawn.
pub fn validate(run: &RollingRun, diags: &mut Vec<Diagnostic>) -> Settings {
    let mut valid = true;
    let pl = &run.placement;
    match pl.strategy_type.as_str() {
        "RollingUpdate" | "" => {}
        "External" => {
            valid = false;
            diags.push(
                Diagnostic::error(
                    "rolling-strategy-external",
                    "strategy type `External` hands this placement to staged update runs: KubeFleet's rollout controller does not roll it (use kind kubefleet-staged)",
                )
                .at("strategy.placement.strategyType"),
            );
        }
        other => {
            valid = false;
            diags.push(
                Diagnostic::error(
                    "rolling-strategy-type",
                    format!("unsupported rollout strategy type `{other}`"),
                )
                .at("strategy.placement.strategyType"),
            );
        }
    }
    let ru = &run.rolling_update;
    let mut unavailable_period = Duration(DEFAULT_UNAVAILABLE_PERIOD_SECONDS * SECOND.0);
    if let Some(secs) = ru.unavailable_period_seconds {
        if secs < 0 {
            valid = false;
            diags.push(
                Diagnostic::error(
                    "rolling-unavailable-period",
                    format!(
                        "unavailablePeriodSeconds must be greater than or equal to 0, got {secs}"
                    ),
                )
                .at("strategy.rollingUpdate.unavailablePeriodSeconds"),
            );
        } else {
            unavailable_period = Duration(secs.saturating_mul(SECOND.0));
        }
    }
    let mut field = |name: &'static str, value: &Option<IntOrString>| match value {
        None => IntOrPercent::Percent(DEFAULT_PERCENT),
        Some(v) => match check_int_or_percent(name, v, &pl.name) {
            Ok(x) => x,
            Err(d) => {
                valid = false;
                diags.push(d.at(format!("strategy.rollingUpdate.{name}")));
                IntOrPercent::Percent(DEFAULT_PERCENT)
            }
        },
    };
    let max_unavailable = field("maxUnavailable", &ru.max_unavailable);
    let max_surge = field("maxSurge", &ru.max_surge);
    Settings {
        max_unavailable,
        max_surge,
        unavailable_period,
        valid,
    }
}

/// One int-or-string field: the CRD pattern rejects malformed strings before the webhook sees them;
/// the webhook then rejects negative ints and strings that are not percentages (a quoted "3" passes
/// the pattern but not the webhook).
fn check_int_or_percent(
    name: &str,
    v: &IntOrString,
    placement: &str,
) -> Result<IntOrPercent, Diagnostic> {
    match v {
        IntOrString::Int(i) if *i < 0 => Err(Diagnostic::error(
            "rolling-negative",
            format!("{name} must be greater than or equal to 0, got `{i}`"),
        )),
        IntOrString::Int(i) => Ok(IntOrPercent::Int(*i)),
        IntOrString::Str(s) => {
            if let Some(p) = percent(s) {
                return Ok(IntOrPercent::Percent(p));
            }
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(Diagnostic::error(
                    "rolling-not-percent",
                    format!("{name} `{s}` is invalid"),
                ));
            }
            Err(Diagnostic::error(
                "rolling-schema",
                format!(
                    "The ClusterResourcePlacement \"{placement}\" is invalid: spec.strategy.rollingUpdate.{name}: Invalid value: {s:?}: spec.strategy.rollingUpdate.{name} in body should match '{PATTERN}'"
                ),
            ))
        }
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
