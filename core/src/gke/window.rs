//! Maintenance policy of one GKE cluster: when an upgrade may start. A daily `HH:MM` window (a 4-hour
//! block) or a recurring window (start and end plus an RRULE with FREQ=DAILY/WEEKLY/MONTHLY, INTERVAL,
//! BYDAY, BYMONTHDAY), minus exclusions whose scope matches the upgrade. Also GKE's rule that a window
//! must give at least 48 hours of availability in any 32 days.
//!
//! Everything is integer arithmetic on UTC milliseconds and day numbers since the epoch; a search for
//! the next opening walks days, never minutes, and gives up after [`MAX_SCAN_DAYS`].

use std::sync::Arc;

use chrono::Datelike;

use crate::calendar::iso_weekday;
use crate::model::{MaintenanceExclusion, MaintenanceWindow, WEEKDAY_NAMES};
use crate::plan::Name;
use crate::time::{Duration, Time, DAY, HOUR, MAX_TIME, MINUTE};

/// A window that has not opened after this many days never will (about four years).
const MAX_SCAN_DAYS: i64 = 1_500;
/// GKE's daily window is a 4-hour block.
pub const DAILY_WINDOW: Duration = Duration(4 * HOUR.0);
/// GKE: at least 48 hours of availability in any 32 days…
pub const MIN_AVAILABILITY: Duration = Duration(48 * HOUR.0);
pub const AVAILABILITY_SPAN_DAYS: i64 = 32;
/// …counted in spans of at least 4 hours.
pub const MIN_SPAN: Duration = Duration(4 * HOUR.0);
/// GKE's texts for a policy that breaks the rule above.
pub const AVAILABILITY_ERROR: &str =
    "Maintenance policy would go longer than 32d without 48h maintenance availability.";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freq {
    Daily,
    Weekly,
    Monthly,
}

/// An RRULE restricted to what GKE maintenance windows use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub freq: Freq,
    pub interval: i64,
    /// `(ordinal, ISO weekday)`; ordinal 0 = every such weekday (non-zero only with FREQ=MONTHLY).
    pub by_day: Vec<(i32, u8)>,
    pub by_month_day: Vec<i32>,
}

/// A parsed window: occurrences start `start_of_day` after midnight UTC on days the rule selects,
/// counted from `anchor_day`, and last `length`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    pub rule: Rule,
    pub anchor_day: i64,
    pub start_of_day: i64,
    pub length: Duration,
    pub label: Name,
    /// The ISO weekdays (bit `weekday - 1`) an occurrence starts on, for a rule that asks nothing but
    /// the weekday from its anchor on (daily or weekly, every day or week): a planner asks for a
    /// cluster's next occurrence several times per upgrade, and a mask answers without the rule's
    /// arithmetic. `None` for the other rules.
    week: Option<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    NoUpgrades,
    NoMinorUpgrades,
    NoMinorOrNodeUpgrades,
}

impl Scope {
    pub fn parse(text: &str) -> Option<Scope> {
        match text {
            "NO_UPGRADES" => Some(Scope::NoUpgrades),
            "NO_MINOR_UPGRADES" => Some(Scope::NoMinorUpgrades),
            "NO_MINOR_OR_NODE_UPGRADES" => Some(Scope::NoMinorOrNodeUpgrades),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Scope::NoUpgrades => "NO_UPGRADES",
            Scope::NoMinorUpgrades => "NO_MINOR_UPGRADES",
            Scope::NoMinorOrNodeUpgrades => "NO_MINOR_OR_NODE_UPGRADES",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exclusion {
    pub name: String,
    pub start: Time,
    pub end: Time,
    pub scope: Scope,
}

/// The kind of work asking to start: which exclusion scopes hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Work {
    pub node: bool,
    /// A minor-version upgrade (`1.31.x` → `1.32.y`) rather than a patch.
    pub minor: bool,
}

impl Exclusion {
    pub fn blocks(&self, work: Work) -> bool {
        match self.scope {
            Scope::NoUpgrades => true,
            Scope::NoMinorUpgrades => work.minor,
            Scope::NoMinorOrNodeUpgrades => work.minor || work.node,
        }
    }
    pub fn label(&self) -> String {
        format!("exclusion {} ({})", self.name, self.scope.name())
    }
}

/// Why an upgrade could not start at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hold<'a> {
    pub exclusion: bool,
    pub from: Time,
    /// `None`: the window never opens.
    pub to: Option<Time>,
    /// The window's or exclusion's label, borrowed from the policy: a hold copies no name.
    pub label: &'a Name,
}

/// A cluster's whole maintenance policy. Not comparable: nothing compares policies, and the
/// exclusions' index is derived from them, so it would have to be left out of any comparison.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    /// Shared: clusters with the same window written the same way share one parsed window.
    pub window: Option<Arc<Window>>,
    /// `None` without exclusions (most clusters). Shared, with its index, by clusters whose
    /// exclusions are the same (`ExclusionSet::new` once per distinct list, as windows are parsed).
    exclusions: Option<Arc<ExclusionSet>>,
}

/// A cluster's maintenance exclusions and the index the search reads them by.
#[derive(Debug)]
pub struct ExclusionSet {
    list: Vec<Exclusion>,
    index: ExclusionIndex,
}

impl ExclusionSet {
    /// `None` for no exclusions.
    pub fn new(list: Vec<Exclusion>) -> Option<Arc<ExclusionSet>> {
        if list.is_empty() {
            return None;
        }
        let index = ExclusionIndex::build(&list);
        Some(Arc::new(ExclusionSet { list, index }))
    }
}

/// Exclusions sorted by start for each kind of work they can hold, with the running maximum of their
/// ends: which exclusion holds an instant, and when the next one begins, are binary searches instead
/// of a scan of every exclusion per step (60,000 exclusions were quadratic).
#[derive(Clone, Debug, Default)]
struct ExclusionIndex {
    /// By `work_slot`: (start, index into `exclusions`) sorted by start, and for each prefix the
    /// exclusion with the latest end (the later one in input order on ties, as a scan would find).
    by_work: [(Vec<Indexed>, Vec<Indexed>); 4],
    /// Each exclusion's label, written once instead of for every upgrade it holds.
    labels: Vec<Name>,
}

/// An instant and the exclusion it belongs to (its index in `Policy::exclusions`).
type Indexed = (Time, usize);

fn work_slot(work: Work) -> usize {
    usize::from(work.node) * 2 + usize::from(work.minor)
}

impl ExclusionIndex {
    fn build(exclusions: &[Exclusion]) -> ExclusionIndex {
        let mut index = ExclusionIndex {
            labels: exclusions.iter().map(|e| Name::from(e.label())).collect(),
            ..ExclusionIndex::default()
        };
        for (slot, (starts, latest)) in index.by_work.iter_mut().enumerate() {
            let work = Work {
                node: slot >= 2,
                minor: slot % 2 == 1,
            };
            starts.extend(
                exclusions
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.blocks(work))
                    .map(|(i, e)| (e.start, i)),
            );
            crate::sort::sort_by(starts, |a, b| a.cmp(b));
            let mut best: Option<(Time, usize)> = None;
            for &(_, i) in starts.iter() {
                let candidate = (exclusions[i].end, i);
                best = Some(best.map_or(candidate, |b| b.max(candidate)));
                latest.extend(best);
            }
        }
        index
    }

    /// The exclusion holding `work` at `now` with the latest end.
    fn holding(&self, work: Work, now: Time) -> Option<usize> {
        let (starts, latest) = &self.by_work[work_slot(work)];
        let begun = starts.partition_point(|&(s, _)| s <= now);
        let (end, i) = *latest.get(begun.checked_sub(1)?)?;
        (end > now).then_some(i)
    }

    /// The start of the first exclusion holding `work` that begins after `t`.
    fn next_after(&self, work: Work, t: Time) -> Option<Time> {
        let (starts, _) = &self.by_work[work_slot(work)];
        starts
            .get(starts.partition_point(|&(s, _)| s <= t))
            .map(|&(s, _)| s)
    }
}

impl Policy {
    pub fn new(window: Option<Window>, exclusions: Vec<Exclusion>) -> Policy {
        Policy::shared(window.map(Arc::new), ExclusionSet::new(exclusions))
    }

    /// A policy of a window and exclusions other clusters may share.
    pub fn shared(window: Option<Arc<Window>>, exclusions: Option<Arc<ExclusionSet>>) -> Policy {
        Policy { window, exclusions }
    }

    /// Whether any exclusion may hold an upgrade.
    pub fn has_exclusions(&self) -> bool {
        self.exclusions.is_some()
    }

    /// The first instant at or after `t` when `work` may start, and what held it until then
    /// (`None` with a never-ending hold when the window never opens).
    pub fn next_start<'a>(
        &'a self,
        t: Time,
        work: Work,
        holds: &mut Vec<Hold<'a>>,
    ) -> Option<Time> {
        self.parts().next_start(t, work, holds)
    }

    /// [`PolicyParts::next_opening`].
    pub fn next_opening<'a>(
        &'a self,
        t: Time,
        work: Work,
        holds: &mut Vec<Hold<'a>>,
    ) -> Option<(Time, Time)> {
        self.parts().next_opening(t, work, holds)
    }

    /// The shared window and exclusions, by reference.
    pub fn parts(&self) -> PolicyParts<'_> {
        PolicyParts {
            window: self.window.as_deref(),
            exclusions: self.exclusions.as_deref(),
        }
    }
}

/// A [`Policy`]'s shared parts by reference: what the simulation keeps per cluster beside the
/// durations, in a list of its own, so placing an upgrade reads one small entry instead of the
/// cluster's whole setup (several cache lines, read in time order, not cluster order).
#[derive(Clone, Copy, Debug, Default)]
pub struct PolicyParts<'a> {
    window: Option<&'a Window>,
    exclusions: Option<&'a ExclusionSet>,
}

impl<'a> PolicyParts<'a> {
    /// Neither a window nor an exclusion: work starts when asked.
    pub fn unconstrained(self) -> bool {
        self.window.is_none() && self.exclusions.is_none()
    }

    /// The first instant at or after `t` when `work` may start, and what held it until then
    /// (`None` with a never-ending hold when the window never opens).
    pub fn next_start(self, t: Time, work: Work, holds: &mut Vec<Hold<'a>>) -> Option<Time> {
        self.next_opening(t, work, holds).map(|(start, _)| start)
    }

    /// [`PolicyParts::next_start`], and how long work may keep starting from there: the end of the
    /// window occurrence, or the start of the next exclusion that holds `work`, whichever is first.
    /// One search: the occurrence found for the start is the one that bounds it.
    pub fn next_opening(
        self,
        t: Time,
        work: Work,
        holds: &mut Vec<Hold<'a>>,
    ) -> Option<(Time, Time)> {
        let mut now = t;
        let exclusions = self.exclusions;
        // Each pass moves past one window gap or one exclusion; exclusions are few, windows periodic.
        for _ in 0..(4 * exclusions.map_or(0, |x| x.list.len()) + 16) {
            // The close of the occurrence holding `now` (none: no window, or none after `now`).
            let mut close = Time(i64::MAX);
            if let Some(w) = self.window {
                match w.occurrence(now) {
                    Some((open, c)) if open > now => {
                        push_hold(holds, false, now, Some(open), &w.label);
                        now = open;
                        // The occurrence that opens at `open` holds it, unless both ends sit at
                        // the time cap, where no occurrence is open any more.
                        if c > open {
                            close = c;
                        }
                    }
                    Some((_, c)) => close = c,
                    None => {
                        push_hold(holds, false, now, None, &w.label);
                        return None;
                    }
                }
            }
            let Some(ExclusionSet { list, index }) = exclusions else {
                return Some((now, close));
            };
            match index.holding(work, now) {
                Some(i) => {
                    push_hold(holds, true, now, Some(list[i].end), &index.labels[i]);
                    now = list[i].end;
                }
                None => {
                    let until = index.next_after(work, now).map_or(close, |s| s.min(close));
                    return Some((now, until));
                }
            }
        }
        None
    }
}

fn push_hold<'a>(
    holds: &mut Vec<Hold<'a>>,
    exclusion: bool,
    from: Time,
    to: Option<Time>,
    label: &'a Name,
) {
    if let Some(last) = holds.last_mut() {
        if last.exclusion == exclusion && *last.label == *label && last.to == Some(from) {
            last.to = to;
            return;
        }
    }
    holds.push(Hold {
        exclusion,
        from,
        to,
        label,
    });
}

impl Window {
    /// Parses a window as written. `plan_day` anchors windows given as times of day (`HH:MM`).
    pub fn parse(w: &MaintenanceWindow, plan_day: i64) -> Result<Window, (&'static str, String)> {
        match w {
            MaintenanceWindow::Daily { start } => {
                let tod = parse_hhmm(start).ok_or_else(|| {
                    (
                        "start",
                        format!("daily window start `{start}` is not a time of day HH:MM (UTC)"),
                    )
                })?;
                let rule = Rule {
                    freq: Freq::Daily,
                    interval: 1,
                    by_day: Vec::new(),
                    by_month_day: Vec::new(),
                };
                // A daily window has always recurred: the block that began the evening before the
                // plan's first day is open at its start (23:00 → open until 03:00).
                Ok(Window::new(rule, plan_day - 1, tod, DAILY_WINDOW))
            }
            MaintenanceWindow::Recurring {
                start,
                end,
                recurrence,
            } => {
                let rule = Rule::parse(recurrence).map_err(|m| ("recurrence", m))?;
                let (anchor_day, tod, length) = match (parse_hhmm(start), parse_hhmm(end)) {
                    (Some(s), Some(e)) => {
                        let len = (e - s).rem_euclid(DAY.0);
                        if len == 0 {
                            return Err((
                                "end",
                                format!("window end `{end}` equals its start: the window would never open"),
                            ));
                        }
                        (plan_day, s, Duration(len))
                    }
                    _ => {
                        let s = Time::parse(start).map_err(|m| ("start", m))?;
                        let e = Time::parse(end).map_err(|m| ("end", m))?;
                        if e <= s {
                            return Err((
                                "end",
                                format!("window end {e} is not after its start {s}"),
                            ));
                        }
                        let day = s.0.div_euclid(DAY.0);
                        (day, s.0 - day * DAY.0, e.since(s))
                    }
                };
                Ok(Window::new(rule, anchor_day, tod, length))
            }
        }
    }

    fn new(rule: Rule, anchor_day: i64, start_of_day: i64, length: Duration) -> Window {
        let mut w = Window {
            rule,
            anchor_day,
            start_of_day,
            length,
            label: Name::default(),
            week: None,
        };
        w.label = w.describe().into();
        w.week = w.rule.week_mask(anchor_day);
        w
    }

    /// True when an occurrence starts on `day` (days since the epoch).
    fn starts_on(&self, day: i64) -> bool {
        match self.week {
            Some(mask) => day >= self.anchor_day && mask & (1 << (iso_weekday(day) - 1)) != 0,
            None => self.rule.matches(day, self.anchor_day),
        }
    }

    /// `window Sat 02:00–06:00 UTC`, `window daily 22:00–02:00 UTC`, `window every 2 weeks Mon …`.
    fn describe(&self) -> String {
        let r = &self.rule;
        let days: Vec<String> = r
            .by_day
            .iter()
            .map(|(n, d)| {
                let name = WEEKDAY_NAMES[usize::from(*d) - 1];
                if *n == 0 {
                    name.to_string()
                } else {
                    format!("{n}{name}")
                }
            })
            .collect();
        let mut when = match (r.freq, r.interval) {
            (Freq::Daily, 1) if days.is_empty() => "daily".to_string(),
            (Freq::Daily, n) if days.is_empty() => format!("every {n} days"),
            (Freq::Daily, _) => days.join(","),
            (Freq::Weekly, 1) if days.is_empty() => {
                WEEKDAY_NAMES[usize::from(iso_weekday(self.anchor_day)) - 1].to_string()
            }
            (Freq::Weekly, 1) => days.join(","),
            (Freq::Weekly, n) => format!(
                "every {n} weeks {}",
                if days.is_empty() {
                    WEEKDAY_NAMES[usize::from(iso_weekday(self.anchor_day)) - 1].to_string()
                } else {
                    days.join(",")
                }
            ),
            (Freq::Monthly, n) => {
                let every = if n == 1 {
                    "monthly".to_string()
                } else {
                    format!("every {n} months")
                };
                let on = if !r.by_month_day.is_empty() {
                    let d: Vec<String> = r.by_month_day.iter().map(|d| d.to_string()).collect();
                    format!("day {}", d.join(","))
                } else if !days.is_empty() {
                    days.join(",")
                } else {
                    format!("day {}", day_date(self.anchor_day).day())
                };
                format!("{every} {on}")
            }
        };
        if r.freq == Freq::Daily && r.interval > 1 && !days.is_empty() {
            when = format!("every {} days {when}", r.interval);
        }
        let end = self.start_of_day + self.length.0;
        let extra_days = end / DAY.0;
        // A window shorter than a day that crosses midnight reads fine as 22:00–02:00.
        let plus = if self.length >= DAY {
            format!(" (+{}d)", extra_days)
        } else {
            String::new()
        };
        format!(
            "window {when} {}–{}{plus} UTC",
            hhmm(self.start_of_day),
            hhmm(end.rem_euclid(DAY.0))
        )
    }

    /// The occurrence containing `t`, or else the next one: `(open, close)`. `None` if none opens
    /// within [`MAX_SCAN_DAYS`].
    pub fn occurrence(&self, t: Time) -> Option<(Time, Time)> {
        let first = (t.0.div_euclid(DAY.0) - self.length.0 / DAY.0 - 1).max(self.anchor_day);
        (first..first + MAX_SCAN_DAYS)
            .filter(|d| self.starts_on(*d))
            .map(|d| {
                // An occurrence past the time cap is shown at the cap, as every later time is
                // (`time::MAX_TIME`); the plan then says it reaches it.
                let open = d * DAY.0 + self.start_of_day;
                (
                    Time(open.min(MAX_TIME.0)),
                    Time((open + self.length.0).min(MAX_TIME.0)),
                )
            })
            .find(|(_, close)| *close > t)
    }

    /// The least availability in any 32 days (over a year from the anchor), counting only
    /// occurrences of at least 4 hours, and the day it starts.
    pub fn least_availability(&self) -> (Duration, i64) {
        if self.length < MIN_SPAN {
            return (Duration::ZERO, self.anchor_day);
        }
        let horizon = 366 + AVAILABILITY_SPAN_DAYS;
        // A rule matches no day before its anchor (`Rule::matches`), so none starts earlier.
        let occ: Vec<(i64, i64)> = (self.anchor_day..self.anchor_day + horizon)
            .filter(|d| self.starts_on(*d))
            .map(|d| {
                let open = d * DAY.0 + self.start_of_day;
                (open, open + self.length.0)
            })
            .collect();
        // Every 32-day span from a day of the year, in one pass: occurrences are sorted by open and
        // by close (one length), so the ones the span touches are `lo..hi`, those cut by its start
        // `lo..o` and those cut by its end `c..hi`, four indices that only move forward; sums of
        // opens and closes give the rest (summing each span's occurrences one by one was 8% of a
        // 1,000-cluster plan, once per distinct window).
        let mut opens = Vec::with_capacity(occ.len() + 1);
        let mut closes = Vec::with_capacity(occ.len() + 1);
        let (mut open_sum, mut close_sum) = (0i64, 0i64);
        opens.push(0);
        closes.push(0);
        for (open, close) in &occ {
            open_sum += open;
            close_sum += close;
            opens.push(open_sum);
            closes.push(close_sum);
        }
        let n = occ.len();
        let mut least = (Duration(i64::MAX), self.anchor_day);
        let (mut lo, mut hi, mut o, mut c) = (0, 0, 0, 0);
        for day in self.anchor_day..self.anchor_day + 366 {
            let (from, to) = (day * DAY.0, (day + AVAILABILITY_SPAN_DAYS) * DAY.0);
            while lo < n && occ[lo].1 <= from {
                lo += 1;
            }
            while hi < n && occ[hi].0 < to {
                hi += 1;
            }
            while o < n && occ[o].0 < from {
                o += 1;
            }
            while c < n && occ[c].1 <= to {
                c += 1;
            }
            let hi = hi.max(lo);
            let (o, c) = (o.clamp(lo, hi), c.clamp(lo, hi));
            // Each touched occurrence counts min(close, to) - max(open, from).
            let ends = closes[c] - closes[lo] + (hi - c) as i64 * to;
            let starts = (o - lo) as i64 * from + opens[hi] - opens[o];
            let total = ends - starts;
            if total < least.0 .0 {
                least = (Duration(total), day);
            }
        }
        least
    }
}

impl Rule {
    /// `FREQ=WEEKLY;BYDAY=SA`, optionally prefixed `RRULE:`. Unsupported parts are errors, never ignored.
    pub fn parse(text: &str) -> Result<Rule, String> {
        let body = text.trim();
        let body = body.strip_prefix("RRULE:").unwrap_or(body);
        let mut freq = None;
        let mut interval = 1;
        let mut by_day = Vec::new();
        let mut by_month_day = Vec::new();
        for part in body.split(';').filter(|p| !p.is_empty()) {
            let Some((key, value)) = part.split_once('=') else {
                return Err(format!("RRULE `{text}`: `{part}` is not KEY=VALUE"));
            };
            match key {
                "FREQ" => {
                    freq = Some(match value {
                        "DAILY" => Freq::Daily,
                        "WEEKLY" => Freq::Weekly,
                        "MONTHLY" => Freq::Monthly,
                        other => {
                            return Err(format!(
                                "RRULE `{text}`: FREQ={other} is not supported for maintenance windows (use DAILY, WEEKLY or MONTHLY)"
                            ))
                        }
                    })
                }
                "INTERVAL" => {
                    interval = value
                        .parse::<i64>()
                        .ok()
                        .filter(|n| (1..=1000).contains(n))
                        .ok_or_else(|| {
                            format!("RRULE `{text}`: INTERVAL={value} must be a positive integer")
                        })?;
                }
                "BYDAY" => {
                    for d in value.split(',') {
                        by_day.push(parse_byday(d).ok_or_else(|| {
                            format!("RRULE `{text}`: BYDAY value `{d}` is not a weekday (MO, TU, WE, TH, FR, SA, SU, optionally with an ordinal such as 1SA or -1SU)")
                        })?);
                    }
                }
                "BYMONTHDAY" => {
                    for d in value.split(',') {
                        let n = d
                            .parse::<i32>()
                            .ok()
                            .filter(|n| *n != 0 && (-31..=31).contains(n))
                            .ok_or_else(|| {
                                format!("RRULE `{text}`: BYMONTHDAY value `{d}` must be 1…31 or -31…-1")
                            })?;
                        by_month_day.push(n);
                    }
                }
                "WKST" if value == "MO" => {}
                other => {
                    return Err(format!(
                        "RRULE `{text}`: `{other}` is not supported (fleetplan reads FREQ, INTERVAL, BYDAY and BYMONTHDAY)"
                    ))
                }
            }
        }
        let freq = freq.ok_or_else(|| format!("RRULE `{text}` has no FREQ"))?;
        if freq != Freq::Monthly && by_day.iter().any(|(n, _)| *n != 0) {
            return Err(format!(
                "RRULE `{text}`: BYDAY ordinals such as 1SA need FREQ=MONTHLY"
            ));
        }
        if freq == Freq::Weekly && !by_month_day.is_empty() {
            return Err(format!(
                "RRULE `{text}`: BYMONTHDAY cannot be used with FREQ=WEEKLY"
            ));
        }
        Ok(Rule {
            freq,
            interval,
            by_day,
            by_month_day,
        })
    }

    /// The weekdays [`Rule::matches`] selects from `anchor` on, when they are all it asks (see
    /// `Window::week`): every day or week, no day of the month. Ordinals need FREQ=MONTHLY, so an
    /// entry with one never matches here, as in `matches`.
    fn week_mask(&self, anchor: i64) -> Option<u8> {
        if self.interval != 1 || !self.by_month_day.is_empty() {
            return None;
        }
        let days = |d: &[(i32, u8)]| {
            d.iter()
                .filter(|(n, _)| *n == 0)
                .fold(0u8, |m, (_, w)| m | 1 << (w - 1))
        };
        match self.freq {
            Freq::Daily if self.by_day.is_empty() => Some(0x7f),
            Freq::Daily => Some(days(&self.by_day)),
            Freq::Weekly if self.by_day.is_empty() => Some(1 << (iso_weekday(anchor) - 1)),
            Freq::Weekly => Some(days(&self.by_day)),
            Freq::Monthly => None,
        }
    }

    /// True when an occurrence starts on `day` (days since the epoch).
    pub fn matches(&self, day: i64, anchor: i64) -> bool {
        if day < anchor {
            return false;
        }
        let weekday = iso_weekday(day);
        // Calendar dates cost a conversion; only month-based parts of a rule need them.
        let date = || day_date(day);
        let any_weekday = |ordinal_ok: bool| {
            self.by_day.iter().any(|(n, d)| {
                *d == weekday && (*n == 0 || (ordinal_ok && ordinal_matches(*n, date())))
            })
        };
        let month_day_ok = || {
            let date = date();
            let dim = days_in_month(date);
            self.by_month_day.iter().any(|n| {
                let want = if *n > 0 { *n } else { dim as i32 + 1 + n };
                want == date.day() as i32
            })
        };
        match self.freq {
            Freq::Daily => {
                (day - anchor) % self.interval == 0
                    && (self.by_day.is_empty() || any_weekday(false))
                    && (self.by_month_day.is_empty() || month_day_ok())
            }
            Freq::Weekly => {
                let monday = |d: i64| d - i64::from(iso_weekday(d)) + 1;
                let weeks = (monday(day) - monday(anchor)) / 7;
                weeks % self.interval == 0
                    && if self.by_day.is_empty() {
                        weekday == iso_weekday(anchor)
                    } else {
                        any_weekday(false)
                    }
            }
            Freq::Monthly => {
                let (a, date) = (day_date(anchor), date());
                let months = (i64::from(date.year()) * 12 + i64::from(date.month0()))
                    - (i64::from(a.year()) * 12 + i64::from(a.month0()));
                if months % self.interval != 0 {
                    return false;
                }
                match (self.by_month_day.is_empty(), self.by_day.is_empty()) {
                    (true, true) => date.day() == a.day(),
                    (false, true) => month_day_ok(),
                    (true, false) => any_weekday(true),
                    (false, false) => month_day_ok() && any_weekday(true),
                }
            }
        }
    }
}

fn parse_byday(text: &str) -> Option<(i32, u8)> {
    let t = text.trim();
    if t.len() < 2 {
        return None;
    }
    let (ordinal, name) = t.split_at(t.len() - 2);
    let day = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        .iter()
        .position(|d| *d == name)? as u8
        + 1;
    let n = if ordinal.is_empty() {
        0
    } else {
        let n: i32 = ordinal.strip_prefix('+').unwrap_or(ordinal).parse().ok()?;
        if n == 0 || !(-5..=5).contains(&n) {
            return None;
        }
        n
    };
    Some((n, day))
}

fn day_date(day: i64) -> chrono::NaiveDate {
    chrono::DateTime::from_timestamp(day.saturating_mul(86_400), 0)
        .unwrap_or_default()
        .date_naive()
}

fn days_in_month(date: chrono::NaiveDate) -> u32 {
    let (y, m) = if date.month() == 12 {
        (date.year() + 1, 1)
    } else {
        (date.year(), date.month() + 1)
    };
    chrono::NaiveDate::from_ymd_opt(y, m, 1)
        .and_then(|d| d.pred_opt())
        .map_or(31, |d| d.day())
}

fn ordinal_matches(n: i32, date: chrono::NaiveDate) -> bool {
    let dom = date.day() as i32;
    if n > 0 {
        (dom - 1) / 7 + 1 == n
    } else {
        (days_in_month(date) as i32 - dom) / 7 + 1 == -n
    }
}

/// `HH:MM` (24-hour, UTC) → ms after midnight.
pub fn parse_hhmm(text: &str) -> Option<i64> {
    let (h, m) = text.trim().split_once(':')?;
    if h.is_empty() || h.len() > 2 || m.len() != 2 {
        return None;
    }
    let h: i64 = h.parse().ok()?;
    let m: i64 = m.parse().ok()?;
    ((0..24).contains(&h) && (0..60).contains(&m)).then_some(h * HOUR.0 + m * MINUTE.0)
}

fn hhmm(ms: i64) -> String {
    format!("{:02}:{:02}", ms / HOUR.0, ms % HOUR.0 / MINUTE.0)
}

/// Parses one exclusion as written; the error names the offending field.
pub fn parse_exclusion(x: &MaintenanceExclusion) -> Result<Exclusion, (&'static str, String)> {
    let scope = Scope::parse(&x.scope).ok_or_else(|| {
        (
            "scope",
            format!(
                "exclusion `{}`: scope `{}` is not one of NO_UPGRADES, NO_MINOR_UPGRADES, NO_MINOR_OR_NODE_UPGRADES",
                x.name, x.scope
            ),
        )
    })?;
    let start = Time::parse(&x.start).map_err(|m| ("start", m))?;
    let end = Time::parse(&x.end).map_err(|m| ("end", m))?;
    if end <= start {
        return Err((
            "end",
            format!(
                "exclusion `{}` ends ({end}) before it starts ({start})",
                x.name
            ),
        ));
    }
    Ok(Exclusion {
        name: x.name.clone(),
        start,
        end,
        scope,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Time {
        Time::parse(s).unwrap()
    }

    fn day(s: &str) -> i64 {
        t(s).0.div_euclid(DAY.0)
    }

    fn recurring(start: &str, end: &str, rrule: &str) -> Window {
        Window::parse(
            &MaintenanceWindow::Recurring {
                start: start.into(),
                end: end.into(),
                recurrence: rrule.into(),
            },
            day("2026-01-05"),
        )
        .unwrap()
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn daily_window_is_a_four_hour_block() {
        let w = Window::parse(
            &MaintenanceWindow::Daily {
                start: "22:00".into(),
            },
            day("2026-01-05"),
        )
        .unwrap();
        assert_eq!(w.label, "window daily 22:00–02:00 UTC");
        // Inside the block that began yesterday at 22:00.
        assert_eq!(
            w.occurrence(t("2026-01-07T01:00:00Z")),
            Some((t("2026-01-06T22:00:00Z"), t("2026-01-07T02:00:00Z")))
        );
        assert_eq!(
            w.occurrence(t("2026-01-07T02:00:00Z")).unwrap().0,
            t("2026-01-07T22:00:00Z")
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn weekly_monthly_and_intervals() {
        let sat = recurring("00:00", "12:00", "FREQ=WEEKLY;BYDAY=SA");
        assert_eq!(sat.label, "window Sat 00:00–12:00 UTC");
        // Monday 2026-01-05 → Saturday 2026-01-10.
        assert_eq!(
            sat.occurrence(t("2026-01-05T09:00:00Z")).unwrap().0,
            t("2026-01-10T00:00:00Z")
        );
        let fortnight = recurring(
            "2026-01-03T00:00:00Z",
            "2026-01-04T00:00:00Z",
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA",
        );
        assert_eq!(
            fortnight.occurrence(t("2026-01-04T00:00:00Z")).unwrap().0,
            t("2026-01-17T00:00:00Z")
        );
        let first_saturday = recurring("02:00", "14:00", "FREQ=MONTHLY;BYDAY=1SA");
        assert_eq!(
            first_saturday
                .occurrence(t("2026-01-05T00:00:00Z"))
                .unwrap()
                .0,
            t("2026-02-07T02:00:00Z")
        );
        let last_day = recurring("20:00", "23:00", "FREQ=MONTHLY;BYMONTHDAY=-1");
        assert_eq!(
            last_day.occurrence(t("2026-02-01T00:00:00Z")).unwrap().0,
            t("2026-02-28T20:00:00Z")
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn weekday_rules_from_their_anchor() {
        // FREQ=WEEKLY without BYDAY repeats on the anchor's weekday (RFC 5545): Wednesday 2026-01-07,
        // and nothing before it.
        let wednesdays = recurring(
            "2026-01-07T01:00:00Z",
            "2026-01-07T03:00:00Z",
            "FREQ=WEEKLY",
        );
        assert_eq!(
            wednesdays.occurrence(t("2026-01-01T00:00:00Z")).unwrap().0,
            t("2026-01-07T01:00:00Z")
        );
        assert_eq!(
            wednesdays.occurrence(t("2026-01-07T04:00:00Z")).unwrap().0,
            t("2026-01-14T01:00:00Z")
        );
        // FREQ=DAILY;BYDAY=MO,FR from Monday 2026-01-05: Tuesday 00:30 is inside Monday's block,
        // Tuesday 03:00 waits for Friday.
        let mon_fri = recurring("22:00", "02:00", "FREQ=DAILY;BYDAY=MO,FR");
        assert_eq!(
            mon_fri.occurrence(t("2026-01-06T00:30:00Z")),
            Some((t("2026-01-05T22:00:00Z"), t("2026-01-06T02:00:00Z")))
        );
        assert_eq!(
            mon_fri.occurrence(t("2026-01-06T03:00:00Z")).unwrap().0,
            t("2026-01-09T22:00:00Z")
        );
    }

    /// The weekday mask is only a shortcut: for every rule, anchored on every weekday, a day starts an
    /// occurrence exactly when the rule's own arithmetic (`Rule::matches`, RFC 5545's reading) says so,
    /// including the days before the anchor, which never do.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_weekday_shortcut_agrees_with_the_rule() {
        let rules = [
            "FREQ=DAILY",
            "FREQ=DAILY;INTERVAL=2",
            "FREQ=DAILY;BYDAY=MO,FR",
            "FREQ=DAILY;BYDAY=SU",
            "FREQ=DAILY;BYMONTHDAY=1",
            "FREQ=WEEKLY",
            "FREQ=WEEKLY;INTERVAL=2",
            "FREQ=WEEKLY;BYDAY=SA,SU",
            "FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,TH",
            "FREQ=MONTHLY;BYDAY=1SA",
            "FREQ=MONTHLY;BYMONTHDAY=-1",
        ];
        let (mut shortcut, mut arithmetic) = (0, 0);
        for rrule in rules {
            // 2026-01-05 is a Monday: one anchor on each weekday.
            for anchor in 5..12 {
                let w = recurring(
                    &format!("2026-01-{anchor:02}T01:00:00Z"),
                    &format!("2026-01-{anchor:02}T03:00:00Z"),
                    rrule,
                );
                if w.week.is_some() {
                    shortcut += 1;
                } else {
                    arithmetic += 1;
                }
                for d in w.anchor_day - 14..w.anchor_day + 400 {
                    assert_eq!(
                        w.starts_on(d),
                        w.rule.matches(d, w.anchor_day),
                        "{rrule} anchored on 2026-01-{anchor:02}, day {d}"
                    );
                }
            }
        }
        // Both paths were taken: the five rules asking only the weekday, every day or week, take the
        // shortcut; an interval, a day of the month or FREQ=MONTHLY take the arithmetic.
        assert_eq!((shortcut, arithmetic), (7 * 5, 7 * 6));
    }

    /// The least availability is the definition's: for every day of the year, each occurrence's
    /// part inside the 32 days from it, summed, and the smallest sum with its first day. Checked by
    /// that sum, written plainly, on windows that cross midnight, repeat weekly, monthly and every
    /// few days, and on days of the month some months lack.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn least_availability_is_the_smallest_32_day_sum_of_occurrences() {
        for (start, end, rrule) in [
            ("02:00", "06:00", "FREQ=WEEKLY;BYDAY=SA"),
            ("22:00", "04:00", "FREQ=DAILY"),
            ("20:00", "08:00", "FREQ=WEEKLY;BYDAY=SA,SU"),
            ("00:00", "23:00", "FREQ=MONTHLY;BYMONTHDAY=31"),
            ("01:00", "09:00", "FREQ=DAILY;INTERVAL=9"),
            ("10:00", "16:00", "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,TH"),
        ] {
            let w = recurring(start, end, rrule);
            let mut expected = (Duration(i64::MAX), w.anchor_day);
            for day in w.anchor_day..w.anchor_day + 366 {
                let (from, to) = (day * DAY.0, (day + AVAILABILITY_SPAN_DAYS) * DAY.0);
                let total: i64 = (w.anchor_day..w.anchor_day + 366 + AVAILABILITY_SPAN_DAYS)
                    .filter(|d| w.rule.matches(*d, w.anchor_day))
                    .map(|d| {
                        let open = d * DAY.0 + w.start_of_day;
                        let close = open + w.length.0;
                        (close.min(to) - open.max(from)).max(0)
                    })
                    .sum();
                if total < expected.0 .0 {
                    expected = (Duration(total), day);
                }
            }
            assert_eq!(w.least_availability(), expected, "{start}-{end} {rrule}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn availability_rule() {
        let (least, _) = recurring("02:00", "06:00", "FREQ=WEEKLY;BYDAY=SA").least_availability();
        assert_eq!(least, Duration(16 * HOUR.0));
        let (least, _) = recurring("00:00", "12:00", "FREQ=WEEKLY;BYDAY=SA").least_availability();
        assert_eq!(least, Duration(48 * HOUR.0));
        let (least, _) = recurring("22:00", "01:00", "FREQ=DAILY").least_availability();
        assert_eq!(least, Duration::ZERO, "3-hour spans do not count");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn bad_rrules_say_why() {
        for (rule, says) in [
            ("FREQ=YEARLY", "FREQ=YEARLY is not supported"),
            ("BYDAY=SA", "has no FREQ"),
            ("FREQ=WEEKLY;BYDAY=XX", "`XX` is not a weekday"),
            ("FREQ=WEEKLY;COUNT=3", "`COUNT` is not supported"),
            ("FREQ=DAILY;INTERVAL=0", "INTERVAL=0"),
            ("FREQ=WEEKLY;BYDAY=1SA", "need FREQ=MONTHLY"),
        ] {
            let err = Rule::parse(rule).unwrap_err();
            assert!(err.contains(says), "{rule}: {err}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn exclusions_hold_by_scope() {
        let policy = Policy::new(
            None,
            vec![Exclusion {
                name: "freeze".into(),
                start: t("2026-01-05T00:00:00Z"),
                end: t("2026-01-08T00:00:00Z"),
                scope: Scope::NoMinorOrNodeUpgrades,
            }],
        );
        let at = t("2026-01-06T00:00:00Z");
        let mut holds = Vec::new();
        let cp_patch = Work {
            node: false,
            minor: false,
        };
        assert_eq!(policy.next_start(at, cp_patch, &mut holds), Some(at));
        assert!(holds.is_empty());
        let node_patch = Work {
            node: true,
            minor: false,
        };
        assert_eq!(
            policy.next_start(at, node_patch, &mut holds),
            Some(t("2026-01-08T00:00:00Z"))
        );
        assert_eq!(
            holds[0].label,
            "exclusion freeze (NO_MINOR_OR_NODE_UPGRADES)"
        );
    }
}
