//! Instants and durations of the simulated clock: integer milliseconds, RFC 3339 in and out.
//!
//! Milliseconds in `i64` keep arithmetic exact and identical on native and wasm32 targets; floats appear
//! only while parsing fractional durations such as `1.5h`, and are rounded once, there.

use std::fmt;

use chrono::{DateTime, Utc};
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

/// The one cap on time values. Every instant lies between [`MIN_TIME`] and [`MAX_TIME`] (the years an
/// RFC 3339 timestamp can write, 0000–9999), and every duration is at most [`MAX_DURATION`], the span
/// between them. So the sum of an instant and a duration never overflows `i64` (by four orders of
/// magnitude), and [`Time::plus`] clamps a result past the cap to it; a plan that reaches the cap
/// says so (`time-out-of-range`).
pub const MIN_TIME: Time = Time(-62_167_219_200_000);
/// 9999-12-31T23:59:59.999Z.
pub const MAX_TIME: Time = Time(253_402_300_799_999);
/// About 10,000 years.
pub const MAX_DURATION: Duration = Duration(MAX_TIME.0 - MIN_TIME.0);

impl Time {
    /// Parses RFC 3339 (`2026-11-23T09:00:00Z`, `2026-11-23T10:00:00+01:00`); a missing offset means UTC,
    /// and so does a bare date (`2026-11-23`) or a time without seconds (`2026-11-23T09:00`), as the
    /// scenario format promises. Hand-written: chrono's format-string parser would add its whole
    /// machinery to the browser bundle for this one function.
    pub fn parse(text: &str) -> Result<Time, String> {
        let t = text.trim();
        let ms = parse_rfc3339(t).ok_or_else(|| {
            format!("`{t}` is not an RFC 3339 time (expected e.g. 2026-11-23T09:00:00Z)")
        })?;
        // Only an offset can push a four-digit year past the cap (`0000-01-01T00:00:00+01:00`).
        if !(MIN_TIME.0..=MAX_TIME.0).contains(&ms) {
            return Err(format!(
                "`{t}` is outside the years 0000 to 9999 in UTC, the times fleetplan represents"
            ));
        }
        Ok(Time(ms))
    }

    pub fn to_datetime(self) -> DateTime<Utc> {
        DateTime::from_timestamp_millis(self.0).unwrap_or_default()
    }

    /// `self + d`, kept inside [`MIN_TIME`]..=[`MAX_TIME`].
    pub fn plus(self, d: Duration) -> Time {
        Time(self.0.saturating_add(d.0).clamp(MIN_TIME.0, MAX_TIME.0))
    }

    /// `self − earlier`, kept inside ±[`MAX_DURATION`].
    pub fn since(self, earlier: Time) -> Duration {
        Duration(
            self.0
                .saturating_sub(earlier.0)
                .clamp(-MAX_DURATION.0, MAX_DURATION.0),
        )
    }
}

impl Time {
    /// The RFC 3339 text of an instant of a four-digit year (all that plans show but the time cap's
    /// year 10000), written into `buf` digit by digit; `None` for other years.
    fn rfc3339(self, buf: &mut [u8; 24]) -> Option<&str> {
        let days = self.0.div_euclid(DAY.0);
        let ms = self.0.rem_euclid(DAY.0);
        let (y, m, d) = civil_from_days(days);
        if !(0..=9999).contains(&y) {
            return None;
        }
        let mut put = |at: usize, width: usize, mut v: i64| {
            for i in (at..at + width).rev() {
                buf[i] = b'0' + (v % 10) as u8;
                v /= 10;
            }
        };
        put(0, 4, y);
        put(5, 2, m);
        put(8, 2, d);
        put(11, 2, ms / HOUR.0);
        put(14, 2, ms % HOUR.0 / MINUTE.0);
        put(17, 2, ms % MINUTE.0 / 1000);
        let milli = ms % 1000;
        let len = if milli != 0 {
            put(20, 3, milli);
            24
        } else {
            20
        };
        (buf[4], buf[7], buf[10], buf[13], buf[16]) = (b'-', b'-', b'T', b':', b':');
        buf[19] = if milli != 0 { b'.' } else { b'Z' };
        buf[23] = b'Z';
        std::str::from_utf8(&buf[..len]).ok()
    }
}

impl fmt::Display for Time {
    /// UTC, RFC 3339, seconds precision unless the instant carries milliseconds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Digits written by hand and the text handed over once: a 10,000-cluster plan's table shows
        // some 100,000 instants, and six padded integers through the formatting machinery each were
        // 175 M instructions of `fleetplan plan`'s 1,070 M.
        if let Some(text) = self.rfc3339(&mut [0; 24]) {
            return f.write_str(text);
        }
        let days = self.0.div_euclid(DAY.0);
        let ms = self.0.rem_euclid(DAY.0);
        let (y, m, d) = civil_from_days(days);
        let (h, min, sec, milli) = (
            ms / HOUR.0,
            ms % HOUR.0 / MINUTE.0,
            ms % MINUTE.0 / 1000,
            ms % 1000,
        );
        write!(f, "{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{sec:02}")?;
        if milli != 0 {
            write!(f, ".{milli:03}")?;
        }
        f.write_str("Z")
    }
}

impl Serialize for Time {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // One string, not the text collected piece by piece through a formatter (JSON of a
        // 10,000-cluster GKE plan: 122 M instructions in instants).
        match self.rfc3339(&mut [0; 24]) {
            Some(text) => s.serialize_str(text),
            None => s.collect_str(self),
        }
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The inverse of [`days_from_civil`]: (year, month 1-12, day 1-31).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `YYYY-MM-DD[(T|t| )HH:MM[:SS[.fff…]][Z|z|±HH:MM]]` to epoch milliseconds; `None` for anything else.
/// Fractions beyond milliseconds are truncated; second 60 (a leap second) is the next second.
fn parse_rfc3339(t: &str) -> Option<i64> {
    let b = t.as_bytes();
    let mut i = 0;
    let num = |i: &mut usize, n: usize| -> Option<i64> {
        let s = b.get(*i..*i + n)?;
        if !s.iter().all(u8::is_ascii_digit) {
            return None;
        }
        *i += n;
        Some(s.iter().fold(0, |a, c| a * 10 + i64::from(c - b'0')))
    };
    let lit = |i: &mut usize, c: u8| -> Option<()> { (b.get(*i) == Some(&c)).then(|| *i += 1) };
    let y = num(&mut i, 4)?;
    lit(&mut i, b'-')?;
    let mo = num(&mut i, 2)?;
    lit(&mut i, b'-')?;
    let d = num(&mut i, 2)?;
    if !(1..=12).contains(&mo) || d < 1 || d > days_in_month(y, mo) {
        return None;
    }
    let mut ms = days_from_civil(y, mo, d) * DAY.0;
    if i == b.len() {
        return Some(ms);
    }
    if !matches!(b[i], b'T' | b't' | b' ') {
        return None;
    }
    i += 1;
    let h = num(&mut i, 2)?;
    lit(&mut i, b':')?;
    let min = num(&mut i, 2)?;
    let sec = if lit(&mut i, b':').is_some() {
        num(&mut i, 2)?
    } else {
        0
    };
    if h > 23 || min > 59 || sec > 60 {
        return None;
    }
    ms += h * HOUR.0 + min * MINUTE.0 + sec * 1000;
    if lit(&mut i, b'.').is_some() {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
        let digits = &b[start..(start + 3).min(i)];
        let frac = digits.iter().fold(0, |a, c| a * 10 + i64::from(c - b'0'));
        ms += frac * [100, 10, 1][digits.len() - 1];
    }
    match b.get(i) {
        None => Some(ms),
        Some(b'Z' | b'z') if i + 1 == b.len() => Some(ms),
        Some(&sign @ (b'+' | b'-')) => {
            i += 1;
            let oh = num(&mut i, 2)?;
            lit(&mut i, b':')?;
            let om = num(&mut i, 2)?;
            if i != b.len() || oh > 23 || om > 59 {
                return None;
            }
            let offset = oh * HOUR.0 + om * MINUTE.0;
            Some(if sign == b'+' {
                ms - offset
            } else {
                ms + offset
            })
        }
        _ => None,
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
        let too_long = || {
            format!(
                "duration `{t}` is longer than {} days, the longest fleetplan represents (the span from year 0000 to 9999)",
                crate::diag::thousands((MAX_DURATION.0 / DAY.0) as usize)
            )
        };
        if let Ok(secs) = t.parse::<i64>() {
            if secs < 0 {
                return Err(format!("duration `{t}` is negative"));
            }
            // A bare number of seconds obeys the same cap as `1000d`.
            return match secs.checked_mul(SECOND.0) {
                Some(ms) if ms <= MAX_DURATION.0 => Ok(Duration(ms)),
                _ => Err(too_long()),
            };
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
        if !total.is_finite() || total.round() > MAX_DURATION.0 as f64 {
            return Err(too_long());
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

impl Duration {
    /// For people: the two largest units, the second rounded, space-separated: `1d 4h` (not
    /// `1d4h51s847ms`), `1h 30m`, `45s`, `850ms`. [`Display`](fmt::Display) stays exact, for files and
    /// round trips; this is what screens and summaries show.
    pub fn human(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let ms = self.0.unsigned_abs().min(i64::MAX as u64) as i64;
        if ms == 0 {
            return "0s".into();
        }
        if ms < SECOND.0 {
            return format!("{sign}{ms}ms");
        }
        const UNITS: [(i64, &str); 4] = [
            (DAY.0, "d"),
            (HOUR.0, "h"),
            (MINUTE.0, "m"),
            (SECOND.0, "s"),
        ];
        let lead = |ms: i64| UNITS.iter().position(|(u, _)| ms >= *u).unwrap_or(3);
        let mut i = lead(ms);
        // Round to the next smaller unit (seconds round to seconds); rounding up can reach the next
        // larger unit (59m59.6s → 1h), so the leading unit is chosen again.
        let step = UNITS[(i + 1).min(3)].0;
        let rounded = (ms + step / 2) / step * step;
        i = lead(rounded);
        let (big, big_name) = UNITS[i];
        let whole = rounded / big;
        let rest = rounded % big;
        match UNITS.get(i + 1) {
            Some((small, small_name)) if rest > 0 => {
                format!("{sign}{whole}{big_name} {}{small_name}", rest / small)
            }
            _ => format!("{sign}{whole}{big_name}"),
        }
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
        // Each refusal names what is wrong, as the user sees it next to the field.
        assert_eq!(
            Duration::parse("5x"),
            Err("duration `5x`: unknown unit `x` (use d, h, m, s)".into())
        );
        assert_eq!(
            Duration::parse("h"),
            Err("duration `h`: expected a number at position 1".into())
        );
        assert_eq!(
            Duration::parse("1h30"),
            Err("duration `1h30`: missing unit after `30` (use d, h, m, s)".into())
        );
        assert_eq!(
            Duration::parse("-5"),
            Err("duration `-5` is negative".into())
        );
        assert_eq!(Duration::parse(" "), Err("empty duration".into()));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn durations_for_people_show_two_units_rounded() {
        // The rule: the largest unit that fits, then the next smaller one rounded to the nearest.
        let d = |d: i64, h: i64, m: i64, s: i64, ms: i64| {
            Duration(d * DAY.0 + h * HOUR.0 + m * MINUTE.0 + s * SECOND.0 + ms)
        };
        assert_eq!(d(1, 4, 0, 51, 847).human(), "1d 4h");
        assert_eq!(d(1, 4, 31, 0, 0).human(), "1d 5h", "31 minutes round up");
        assert_eq!(d(3, 12, 0, 0, 0).human(), "3d 12h");
        assert_eq!(d(7, 0, 0, 0, 0).human(), "7d");
        assert_eq!(d(0, 1, 30, 0, 0).human(), "1h 30m");
        assert_eq!(d(0, 2, 0, 29, 0).human(), "2h", "29 seconds round down");
        assert_eq!(
            d(0, 0, 59, 59, 600).human(),
            "1h",
            "rounding carries into the next unit"
        );
        assert_eq!(d(0, 0, 3, 0, 0).human(), "3m");
        assert_eq!(d(0, 0, 0, 45, 400).human(), "45s");
        assert_eq!(d(0, 0, 0, 1, 500).human(), "2s");
        assert_eq!(Duration(850).human(), "850ms");
        assert_eq!(Duration(0).human(), "0s");
        assert_eq!(Duration(-90 * MINUTE.0).human(), "-1h 30m");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn times_parse_with_offsets_and_print_utc() {
        let t = Time::parse("2026-11-23T10:00:00+01:00").unwrap();
        assert_eq!(t.to_string(), "2026-11-23T09:00:00Z");
        assert_eq!(Time::parse("2026-11-23T09:00").unwrap(), t);
        assert_eq!(
            Time::parse(" next tuesday "),
            Err(
                "`next tuesday` is not an RFC 3339 time (expected e.g. 2026-11-23T09:00:00Z)"
                    .into()
            )
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn times_agree_with_the_calendar_across_centuries() {
        for (text, ms) in [
            ("1970-01-01T00:00:00Z", 0),
            ("1969-12-31T23:59:59.5Z", -500),
            ("2000-02-29T12:00:00Z", 951_825_600_000),
            ("2026-11-23T09:00:00.123Z", 1_795_424_400_123),
            ("2026-11-23t09:00:00.1239z", 1_795_424_400_123),
            ("2026-11-23 04:00:00-05:00", 1_795_424_400_000),
            ("2026-11-23", 1_795_392_000_000),
        ] {
            let t = Time::parse(text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(t, Time(ms), "{text}");
            assert_eq!(Time::parse(&t.to_string()), Ok(t), "{text} round-trips");
        }
        assert_eq!(Time(-500).to_string(), "1969-12-31T23:59:59.500Z");
        assert_eq!(Time(951_825_600_000).to_string(), "2000-02-29T12:00:00Z");
        // The first and last instants of the four-digit years, and either side (Python's datetime:
        // 9999-12-31T23:59:59.999 is 253,402,300,799,999 ms after the epoch, 0001-01-01 is
        // -62,135,596,800,000; year 0 is a leap year of 366 days before it).
        assert_eq!(
            Time(253_402_300_799_999).to_string(),
            "9999-12-31T23:59:59.999Z"
        );
        assert_eq!(
            Time(253_402_300_800_000).to_string(),
            "10000-01-01T00:00:00Z"
        );
        assert_eq!(
            Time(-62_135_596_800_000).to_string(),
            "0001-01-01T00:00:00Z"
        );
        assert_eq!(
            Time(-62_167_219_200_000).to_string(),
            "0000-01-01T00:00:00Z"
        );
        assert_eq!(
            Time(-62_167_219_201_000).to_string(),
            "-001-12-31T23:59:59Z"
        );
        for bad in [
            "2026-02-29T00:00:00Z",
            "2026-13-01",
            "2026-11-23T24:00:00Z",
            "2026-11-23T09:00:00+0100",
            "2026-11-23T09:00:00Zx",
            "2026-11-23T09:00:00.Z",
            "26-11-23",
            "2026-11-23T",
        ] {
            // February 29th of a common year, month 13, hour 24, an offset without its colon, text
            // after the zone, a dot without digits, a two-digit year, a `T` with no time.
            assert_eq!(
                Time::parse(bad),
                Err(format!(
                    "`{bad}` is not an RFC 3339 time (expected e.g. 2026-11-23T09:00:00Z)"
                )),
            );
        }
    }
}
