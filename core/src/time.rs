//! Instants and durations of the simulated clock: integer milliseconds, RFC 3339 in and out.
//!
//! Milliseconds in `i64` keep arithmetic exact and identical on native and wasm32 targets; floats appear
//! only while parsing fractional durations such as `1.5h`, and are rounded once, there.

use std::fmt;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Serialize, Serializer};

/// A point on the simulated clock, in milliseconds since the Unix epoch (UTC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Time(pub i64);

/// A span of simulated time in milliseconds. Never negative once validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Duration(pub i64);

pub const SECOND: Duration = Duration(1_000);
pub const MINUTE: Duration = Duration(60_000);
pub const HOUR: Duration = Duration(3_600_000);
pub const DAY: Duration = Duration(86_400_000);

impl Time {
    /// Parses RFC 3339 (`2026-11-23T09:00:00Z`, `2026-11-23T10:00:00+01:00`); a missing offset means UTC.
    pub fn parse(text: &str) -> Result<Time, String> {
        let t = text.trim();
        if let Ok(dt) = DateTime::parse_from_rfc3339(t) {
            return Ok(Time(dt.timestamp_millis()));
        }
        // Accept a bare local date-time or date and read it as UTC, as the scenario format promises.
        for fmt in [
            "%Y-%m-%dT%H:%M:%S%.f",
            "%Y-%m-%dT%H:%M",
            "%Y-%m-%d %H:%M:%S",
            "%Y-%m-%d %H:%M",
        ] {
            if let Ok(ndt) = chrono::NaiveDateTime::parse_from_str(t, fmt) {
                return Ok(Time(ndt.and_utc().timestamp_millis()));
            }
        }
        if let Ok(d) = chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d") {
            if let Some(ndt) = d.and_hms_opt(0, 0, 0) {
                return Ok(Time(ndt.and_utc().timestamp_millis()));
            }
        }
        Err(format!(
            "`{t}` is not an RFC 3339 time (expected e.g. 2026-11-23T09:00:00Z)"
        ))
    }

    pub fn to_datetime(self) -> DateTime<Utc> {
        DateTime::from_timestamp_millis(self.0).unwrap_or_default()
    }

    pub fn plus(self, d: Duration) -> Time {
        Time(self.0.saturating_add(d.0))
    }

    pub fn since(self, earlier: Time) -> Duration {
        Duration(self.0.saturating_sub(earlier.0))
    }
}

impl fmt::Display for Time {
    /// UTC, RFC 3339, seconds precision unless the instant carries milliseconds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let precision = if self.0 % 1000 == 0 {
            SecondsFormat::Secs
        } else {
            SecondsFormat::Millis
        };
        f.write_str(&self.to_datetime().to_rfc3339_opts(precision, true))
    }
}

impl Serialize for Time {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl Duration {
    pub const ZERO: Duration = Duration(0);

    pub fn millis(self) -> i64 {
        self.0
    }

    pub fn seconds_f64(self) -> f64 {
        self.0 as f64 / 1000.0
    }

    /// Parses fleetplan's own duration syntax: a sum of `<number><unit>` with units d, h, m, s, ms
    /// (`1h30m`, `1.5h`, `2d`, `90s`); a bare integer means seconds. Used for assumptions, not for
    /// KubeFleet's `waitTime`, whose stricter schema lives in [`is_kubefleet_wait_time`].
    pub fn parse(text: &str) -> Result<Duration, String> {
        let t = text.trim();
        if t.is_empty() {
            return Err("empty duration".into());
        }
        if let Ok(secs) = t.parse::<i64>() {
            if secs < 0 {
                return Err(format!("duration `{t}` is negative"));
            }
            return Ok(Duration(secs.saturating_mul(1000)));
        }
        let bytes = t.as_bytes();
        let mut i = 0;
        let mut total: f64 = 0.0;
        while i < bytes.len() {
            let num_start = i;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                i += 1;
            }
            if num_start == i {
                return Err(format!(
                    "duration `{t}`: expected a number at position {}",
                    i + 1
                ));
            }
            let number: f64 = t[num_start..i]
                .parse()
                .map_err(|_| format!("duration `{t}`: `{}` is not a number", &t[num_start..i]))?;
            let unit_start = i;
            while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                i += 1;
            }
            let unit_ms = match &t[unit_start..i] {
                "ms" => 1.0,
                "s" => 1_000.0,
                "m" => 60_000.0,
                "h" => 3_600_000.0,
                "d" => 86_400_000.0,
                "w" => 7.0 * 86_400_000.0,
                "" => {
                    return Err(format!(
                        "duration `{t}`: missing unit after `{}` (use d, h, m, s)",
                        &t[num_start..i]
                    ))
                }
                other => {
                    return Err(format!(
                        "duration `{t}`: unknown unit `{other}` (use d, h, m, s)"
                    ))
                }
            };
            total += number * unit_ms;
        }
        if !total.is_finite() || total > 1e15 {
            return Err(format!("duration `{t}` is too large"));
        }
        Ok(Duration(total.round() as i64))
    }

    /// Parses a Go `time.ParseDuration` string of the shape KubeFleet's schema admits (h, m, s with
    /// optional fractions). Call only after [`is_kubefleet_wait_time`] accepted the text.
    pub fn parse_go(text: &str) -> Option<Duration> {
        Duration::parse(text).ok()
    }
}

/// KubeFleet's CRD pattern for `waitTime`: `^(?:(?:0|[1-9][0-9]*)(\.[0-9]+)?(?:s|m|h))+$`.
/// Hand-matched rather than pulling a regex engine into the wasm bundle.
pub fn is_kubefleet_wait_time(text: &str) -> bool {
    let b = text.as_bytes();
    if b.is_empty() {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        // integer part: 0 | [1-9][0-9]*
        if i >= b.len() || !b[i].is_ascii_digit() {
            return false;
        }
        if b[i] == b'0' {
            i += 1;
        } else {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        // optional fraction
        if i < b.len() && b[i] == b'.' {
            i += 1;
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i == start {
                return false;
            }
        }
        match b.get(i) {
            Some(b's' | b'm' | b'h') => i += 1,
            _ => return false,
        }
    }
    true
}

impl fmt::Display for Duration {
    /// Compact, largest units first: `3d4h`, `1h30m`, `45s`, `0s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut ms = self.0;
        if ms == 0 {
            return f.write_str("0s");
        }
        if ms < 0 {
            f.write_str("-")?;
            ms = -ms;
        }
        let parts = [
            (DAY.0, "d"),
            (HOUR.0, "h"),
            (MINUTE.0, "m"),
            (SECOND.0, "s"),
            (1, "ms"),
        ];
        for (unit, suffix) in parts {
            if ms >= unit {
                write!(f, "{}{}", ms / unit, suffix)?;
                ms %= unit;
            }
        }
        Ok(())
    }
}

impl Serialize for Duration {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn wait_time_pattern_matches_the_crd() {
        for ok in ["1h", "1h30m", "1.5h", "0s", "10m5s", "100s"] {
            assert!(is_kubefleet_wait_time(ok), "{ok}");
        }
        for bad in ["1d", "01h", "1", "1ms", "", "h", "1.h", "-1h", " 1h"] {
            assert!(!is_kubefleet_wait_time(bad), "{bad}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn durations_round_trip_through_display() {
        for (text, ms) in [
            ("1h30m", 5_400_000),
            ("1.5h", 5_400_000),
            ("3d12h", 302_400_000),
            ("90", 90_000),
        ] {
            assert_eq!(Duration::parse(text), Ok(Duration(ms)), "{text}");
        }
        assert_eq!(Duration(302_400_000).to_string(), "3d12h");
        assert_eq!(Duration(0).to_string(), "0s");
        assert!(Duration::parse("5x").is_err());
        assert!(Duration::parse("h").is_err());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn times_parse_with_offsets_and_print_utc() {
        let t = Time::parse("2026-11-23T10:00:00+01:00").unwrap();
        assert_eq!(t.to_string(), "2026-11-23T09:00:00Z");
        assert_eq!(Time::parse("2026-11-23T09:00").unwrap(), t);
        assert!(Time::parse("next tuesday").is_err());
    }
}
