//! Working-time arithmetic: when does something that takes `d` of business hours, asked at `t`, finish?
//!
//! Shared by approval modelling now and maintenance windows later. Pure integer maths on UTC
//! milliseconds plus a fixed offset; days are found from the epoch (1970-01-01 was a Thursday).

use crate::model::BusinessHours;
use crate::time::{Duration, Time, DAY, MAX_TIME, MINUTE};

/// Give up after this many days without finding enough open time (a calendar that is never open).
const MAX_DAYS: i64 = 3_700;

/// ISO weekday (1 = Monday … 7 = Sunday) of the local day number `day` (days since the epoch).
pub fn iso_weekday(day: i64) -> u8 {
    (day + 3).rem_euclid(7) as u8 + 1
}

/// True when `hours` has some open time in a week.
pub fn ever_open(hours: &BusinessHours) -> bool {
    hours.start < hours.end && hours.days.iter().any(|d| (1..=7).contains(d))
}

/// Adds `work` of open time to `from`; zero work means "the next open instant" (`from` itself when open).
/// `None` when the calendar never opens.
pub fn add_business_time(from: Time, work: Duration, hours: &BusinessHours) -> Option<Time> {
    if !ever_open(hours) {
        return None;
    }
    // Checked throughout: instants and durations are inside the time cap (`time::MAX_TIME`), so none
    // of this overflows, and if a caller ever breaks that, the answer is "never" rather than a wrap.
    let offset = i64::from(hours.utc_offset_minutes).checked_mul(MINUTE.0)?;
    let mut local = from.0.checked_add(offset)?;
    let mut remaining = work.0.max(0);
    for _ in 0..MAX_DAYS {
        let day = local.div_euclid(DAY.0);
        let midnight = day.checked_mul(DAY.0)?;
        if hours.days.contains(&iso_weekday(day)) {
            let open = midnight.checked_add(i64::from(hours.start).checked_mul(MINUTE.0)?)?;
            let close = midnight.checked_add(i64::from(hours.end).checked_mul(MINUTE.0)?)?;
            if local < open {
                local = open;
            }
            if local < close {
                let available = close - local;
                if remaining <= available {
                    let done = Time(local.checked_add(remaining)?.checked_sub(offset)?);
                    return Some(done.min(MAX_TIME));
                }
                remaining -= available;
            }
        }
        local = midnight.checked_add(DAY.0)?;
    }
    None
}

/// The open time between `from` and `to`: the inverse of [`add_business_time`], so an approval
/// observed to take a night and a morning counts as the morning. Zero when `to` is not after `from`.
pub fn business_time_between(from: Time, to: Time, hours: &BusinessHours) -> Duration {
    if !ever_open(hours) || to <= from {
        return Duration::ZERO;
    }
    let offset = i64::from(hours.utc_offset_minutes) * MINUTE.0;
    let (start, end) = (from.0 + offset, to.0 + offset);
    let first = start.div_euclid(DAY.0);
    let last = (end - 1).div_euclid(DAY.0);
    // Whole weeks contribute the same open time each; only the remainder is walked day by day.
    let week_open: i64 = (1..=7u8).filter(|d| hours.days.contains(d)).count() as i64
        * i64::from(hours.end.saturating_sub(hours.start))
        * MINUTE.0;
    let mut total = 0;
    let mut day = first;
    let mut cursor = start;
    while day <= last {
        let midnight = day * DAY.0;
        if hours.days.contains(&iso_weekday(day)) {
            let open = (midnight + i64::from(hours.start) * MINUTE.0).max(cursor);
            let close = (midnight + i64::from(hours.end) * MINUTE.0).min(end);
            total += (close - open).max(0);
        }
        day += 1;
        cursor = day * DAY.0;
        // Past the first (partial) day, whole weeks before the last day each add the same.
        let weeks = (last - day) / 7;
        if weeks > 0 {
            total += weeks * week_open;
            day += weeks * 7;
            cursor = day * DAY.0;
        }
    }
    Duration(total)
}

/// True when `[start, end)` (UTC) touches a Saturday or Sunday in the given local offset.
pub fn spans_weekend(start: Time, end: Time, utc_offset_minutes: i32) -> bool {
    let offset = i64::from(utc_offset_minutes) * MINUTE.0;
    let first = start.0.saturating_add(offset).div_euclid(DAY.0);
    let last = end
        .0
        .saturating_sub(1)
        .saturating_add(offset)
        .div_euclid(DAY.0);
    if last < first {
        return false;
    }
    if last - first >= 6 {
        return true;
    }
    (first..=last).any(|d| iso_weekday(d) >= 6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn open_time_between_is_the_inverse_of_adding_it() {
        let h = office(60);
        // Monday 2026-11-23 10:00 UTC = 11:00 local.
        let mon = Time::parse("2026-11-23T10:00:00Z").unwrap();
        for hours in [0, 1, 5, 6, 7, 8, 9, 17, 40, 41, 200] {
            let work = Duration(hours * 3_600_000 + 17 * MINUTE.0);
            let end = add_business_time(mon, work, &h).unwrap();
            assert_eq!(business_time_between(mon, end, &h), work, "{hours}h17m");
        }
        // Friday 16:00 local to Monday 10:00 local: one hour on Friday, one on Monday.
        let fri = Time::parse("2026-11-27T15:00:00Z").unwrap();
        let mon2 = Time::parse("2026-11-30T09:00:00Z").unwrap();
        assert_eq!(
            business_time_between(fri, mon2, &h),
            Duration(2 * 3_600_000)
        );
        assert_eq!(business_time_between(mon2, fri, &h), Duration::ZERO);
    }

    fn office(offset: i32) -> BusinessHours {
        BusinessHours {
            utc_offset: String::new(),
            utc_offset_minutes: offset,
            start: 9 * 60,
            end: 17 * 60,
            days: vec![1, 2, 3, 4, 5],
        }
    }

    fn t(s: &str) -> Time {
        Time::parse(s).unwrap()
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn epoch_day_zero_is_a_thursday() {
        assert_eq!(iso_weekday(0), 4);
        // 2026-11-23 is a Monday.
        assert_eq!(
            iso_weekday(t("2026-11-23T12:00:00Z").0.div_euclid(DAY.0)),
            1
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn friday_evening_request_waits_for_monday() {
        let got = add_business_time(
            t("2026-11-27T16:45:00Z"),
            Duration(30 * MINUTE.0),
            &office(0),
        );
        // 15 minutes on Friday, the other 15 on Monday morning.
        assert_eq!(got, Some(t("2026-11-30T09:15:00Z")));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn offsets_shift_the_office_day() {
        // 08:30 UTC is 09:30 in +01:00: already open.
        let got = add_business_time(t("2026-11-23T08:30:00Z"), Duration::ZERO, &office(60));
        assert_eq!(got, Some(t("2026-11-23T08:30:00Z")));
        let got = add_business_time(t("2026-11-23T07:30:00Z"), Duration::ZERO, &office(60));
        assert_eq!(got, Some(t("2026-11-23T08:00:00Z")));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_calendar_that_never_opens_never_finishes() {
        let mut h = office(0);
        h.days.clear();
        assert_eq!(
            add_business_time(t("2026-11-23T08:30:00Z"), Duration::ZERO, &h),
            None
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn weekend_detection() {
        assert!(spans_weekend(
            t("2026-11-27T12:00:00Z"),
            t("2026-11-30T09:00:00Z"),
            0
        ));
        assert!(!spans_weekend(
            t("2026-11-23T12:00:00Z"),
            t("2026-11-24T09:00:00Z"),
            0
        ));
    }
}
