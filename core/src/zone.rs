//! Time zones as a front end knows them: the UTC offsets that hold from given instants on, so times can
//! be shown on the reader's clock while the plan itself stays in UTC instants.
//!
//! The core carries no time-zone database (a bundled one would cost the browser tens of kilobytes, and
//! the browser already has one): the web app asks its Intl API for a zone's offsets over the span a plan
//! covers and hands them in as a [`Zone`]; the CLI prints UTC. Everything here is arithmetic on those
//! offsets, deterministic like the rest of the core.

use chrono::{Datelike, Timelike};

use crate::model::WEEKDAY_NAMES;
use crate::time::{Time, MINUTE};

/// A zone: its name and the offsets it used, in time order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    /// What people call it: `UTC`, `Europe/Berlin`.
    pub name: String,
    /// Offsets in force from each span's `from` on; before the first span, the first span's. Never empty.
    pub spans: Vec<ZoneSpan>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZoneSpan {
    pub from: Time,
    /// Minutes east of UTC (`+60` in Berlin in winter).
    pub offset_minutes: i32,
    /// What clocks say after the time (`CET`, `GMT+1`, `UTC`).
    pub abbreviation: String,
}

impl Default for Zone {
    fn default() -> Zone {
        Zone::utc()
    }
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

impl Zone {
    pub fn utc() -> Zone {
        Zone::fixed("UTC", 0, "UTC")
    }

    /// A zone that never changes its offset.
    pub fn fixed(name: &str, offset_minutes: i32, abbreviation: &str) -> Zone {
        Zone {
            name: name.to_string(),
            spans: vec![ZoneSpan {
                from: Time(i64::MIN),
                offset_minutes,
                abbreviation: abbreviation.to_string(),
            }],
        }
    }

    /// True when every span is UTC itself.
    pub fn is_utc(&self) -> bool {
        self.spans.iter().all(|s| s.offset_minutes == 0)
    }

    fn span_at(&self, t: Time) -> Option<&ZoneSpan> {
        let i = self.spans.partition_point(|s| s.from <= t);
        self.spans.get(i.saturating_sub(1))
    }

    /// The offset in force at `t`, in milliseconds.
    pub fn offset_at(&self, t: Time) -> i64 {
        self.span_at(t)
            .map_or(0, |s| i64::from(s.offset_minutes) * MINUTE.0)
    }

    pub fn abbreviation_at(&self, t: Time) -> &str {
        self.span_at(t).map_or("UTC", |s| s.abbreviation.as_str())
    }

    /// What a wall clock in this zone shows at `t`, as an instant read in UTC (so its calendar fields
    /// are the local ones).
    pub fn wall(&self, t: Time) -> Time {
        Time(t.0.saturating_add(self.offset_at(t)))
    }

    /// The instant a wall clock in this zone shows `wall`. A wall time skipped when clocks go forward
    /// is read with the offset before the change; one that happens twice, as its first occurrence.
    pub fn from_wall(&self, wall: Time) -> Time {
        let before = Time(wall.0.saturating_sub(self.offset_at(wall)));
        let guess = Time(wall.0.saturating_sub(self.offset_at(before)));
        // Prefer the earlier of the two readings when both show `wall` (the fold).
        [
            Time(
                wall.0
                    .saturating_sub(self.offset_at(Time(before.0 - 3 * 3_600_000))),
            ),
            guess,
        ]
        .into_iter()
        .find(|t| self.wall(*t) == wall)
        .unwrap_or(guess)
    }

    /// `Mon 23 Nov 2026 10:06 CET`: a time for people, on this zone's clock.
    pub fn human(&self, t: Time) -> String {
        let d = self.wall(t).to_datetime();
        format!(
            "{} {} {} {} {:02}:{:02} {}",
            WEEKDAY_NAMES[d.weekday().num_days_from_monday() as usize % 7],
            d.day(),
            MONTHS[d.month0() as usize % 12],
            d.year(),
            d.hour(),
            d.minute(),
            self.abbreviation_at(t)
        )
    }

    /// `Mon 23 Nov 10:06`: day and clock time without year or zone, for spans shown beside their zone.
    pub fn short(&self, t: Time) -> String {
        let d = self.wall(t).to_datetime();
        format!(
            "{} {} {} {:02}:{:02}",
            WEEKDAY_NAMES[d.weekday().num_days_from_monday() as usize % 7],
            d.day(),
            MONTHS[d.month0() as usize % 12],
            d.hour(),
            d.minute()
        )
    }

    /// `10:06`: the clock time alone.
    pub fn clock(&self, t: Time) -> String {
        let d = self.wall(t).to_datetime();
        format!("{:02}:{:02}", d.hour(), d.minute())
    }

    /// A typed instant: RFC 3339 with `Z` or an offset is exact; without one (`2026-11-23 10:30`,
    /// `2026-11-23T10:30:00`), the time is read on this zone's clock.
    pub fn parse(&self, text: &str) -> Result<Time, String> {
        let t = text.trim();
        let parsed = Time::parse(t)?;
        Ok(if has_offset(t) {
            parsed
        } else {
            self.from_wall(parsed)
        })
    }
}

/// Whether RFC 3339-like text states its offset (`Z`, `+01:00`, `-05:00` after the time of day).
fn has_offset(t: &str) -> bool {
    let b = t.as_bytes();
    if matches!(b.last(), Some(b'Z' | b'z')) {
        return true;
    }
    b.len() > 16 && matches!(b[b.len() - 6], b'+' | b'-') && b[b.len() - 3] == b':'
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Berlin around the end of summer time 2026 (25 Oct, 01:00 UTC: CEST +2 → CET +1), as a browser
    /// would hand it in.
    fn berlin() -> Zone {
        Zone {
            name: "Europe/Berlin".into(),
            spans: vec![
                ZoneSpan {
                    from: Time::parse("2026-03-29T01:00:00Z").unwrap(),
                    offset_minutes: 120,
                    abbreviation: "CEST".into(),
                },
                ZoneSpan {
                    from: Time::parse("2026-10-25T01:00:00Z").unwrap(),
                    offset_minutes: 60,
                    abbreviation: "CET".into(),
                },
            ],
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn times_read_on_the_zones_clock() {
        let t = Time::parse("2026-11-23T09:05:00Z").unwrap();
        assert_eq!(Zone::utc().human(t), "Mon 23 Nov 2026 09:05 UTC");
        assert_eq!(berlin().human(t), "Mon 23 Nov 2026 10:05 CET");
        // Summer: two hours ahead, and the abbreviation follows.
        let s = Time::parse("2026-07-01T22:30:00Z").unwrap();
        assert_eq!(berlin().human(s), "Thu 2 Jul 2026 00:30 CEST");
        assert_eq!(berlin().short(s), "Thu 2 Jul 00:30");
        assert_eq!(berlin().clock(s), "00:30");
        // Before the first span the first span's offset holds.
        let early = Time::parse("2026-01-10T12:00:00Z").unwrap();
        assert_eq!(berlin().offset_at(early), 2 * 3_600_000);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn wall_times_map_back_to_instants_across_the_change() {
        let z = berlin();
        for utc in [
            "2026-10-24T12:00:00Z",
            "2026-10-25T00:30:00Z",
            "2026-10-25T03:30:00Z",
            "2026-11-23T09:00:00Z",
        ] {
            let t = Time::parse(utc).unwrap();
            assert_eq!(z.from_wall(z.wall(t)), t, "{utc}");
        }
        // 02:30 happens twice on 25 Oct (CEST, then CET): the first one is meant.
        let wall = Time::parse("2026-10-25T02:30:00Z").unwrap();
        assert_eq!(
            z.from_wall(wall),
            Time::parse("2026-10-25T00:30:00Z").unwrap()
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn typed_times_without_an_offset_are_local() {
        let z = berlin();
        assert_eq!(
            z.parse("2026-11-23 10:30").unwrap(),
            Time::parse("2026-11-23T09:30:00Z").unwrap()
        );
        assert_eq!(
            z.parse("2026-11-23T10:30:00Z").unwrap(),
            Time::parse("2026-11-23T10:30:00Z").unwrap()
        );
        assert_eq!(
            z.parse("2026-11-23T10:30:00-05:00").unwrap(),
            Time::parse("2026-11-23T15:30:00Z").unwrap()
        );
        assert!(z.parse("tomorrow").is_err());
    }
}
