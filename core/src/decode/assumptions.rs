//! The `assumptions` section: durations, jitter, approvers, failures and stops the simulation uses.

use super::read::{get, Path, Reader};
use crate::model::{
    ApprovalModel, ApprovalOverride, Assumptions, BusinessHours, DurationOverride, FailureSpec,
    Jitter, StopSpec, TaskSide, Uncertainty,
};
use crate::source::{Node, Resolved, Value};

const ASSUMPTION_KEYS: &[&str] = &[
    "updateDuration",
    "durationOverrides",
    "jitter",
    "deleteDuration",
    "applyDuration",
    "approvals",
    "failures",
    "stops",
    "uncertainty",
];
const UPDATE_DURATION_KEYS: &[&str] = &["default", "overrides", "jitter"];
const OVERRIDE_KEYS: &[&str] = &["cluster", "selector", "duration"];
const JITTER_KEYS: &[&str] = &["seed", "spread"];
const APPROVAL_KEYS: &[&str] = &["delay", "businessHours", "overrides"];
const HOURS_KEYS: &[&str] = &["utcOffset", "start", "end", "days"];
const APPROVAL_OVERRIDE_KEYS: &[&str] = &["stage", "task", "delay", "never"];
const FAILURE_KEYS: &[&str] = &["cluster", "after", "recoversAfter", "preempted"];
const STOP_KEYS: &[&str] = &["at", "resume"];
const UNCERTAINTY_KEYS: &[&str] = &[
    "seed",
    "samples",
    "updateSpread",
    "approvalSpread",
    "failureRate",
    "recovery",
];
/// More samples than this buy no precision worth their time (the range moves by less than the
/// controller's own polling interval) and would let one input take seconds.
pub const MAX_SAMPLES: u32 = 10_000;

impl Reader<'_> {
    pub(crate) fn assumptions(&mut self, n: &Node, p: &Path) -> Assumptions {
        let mut a = Assumptions::default();
        let Some(m) = self.map(n, p, ASSUMPTION_KEYS) else {
            return a;
        };
        if let Some(v) = get(m, "updateDuration") {
            self.update_duration(v, p, &mut a);
        }
        // The flat form is what a scenario serializes to; the nested form above is the friendlier one.
        if let Some(v) = get(m, "durationOverrides") {
            a.duration_overrides
                .extend(self.duration_overrides(v, &p.field("durationOverrides")));
        }
        if let Some(v) = get(m, "jitter") {
            a.jitter = self.jitter(v, &p.field("jitter"));
        }
        if let Some(v) = get(m, "deleteDuration") {
            a.delete_duration = self.duration(v, &p.field("deleteDuration"));
        }
        if let Some(v) = get(m, "applyDuration") {
            a.apply_duration = self.duration(v, &p.field("applyDuration"));
        }
        if let Some(v) = get(m, "approvals") {
            a.approvals = self.approvals(v, &p.field("approvals"));
        }
        if let Some(v) = get(m, "failures") {
            a.failures = self.failures(v, &p.field("failures"));
        }
        if let Some(v) = get(m, "stops") {
            a.stops = self.stops(v, &p.field("stops"));
        }
        if let Some(v) = get(m, "uncertainty") {
            a.uncertainty = self.uncertainty(v, &p.field("uncertainty"));
        }
        a
    }

    /// `uncertainty: {seed, samples, updateSpread, approvalSpread, failureRate, recovery}`.
    fn uncertainty(&mut self, n: &Node, p: &Path) -> Option<Uncertainty> {
        let m = self.map(n, p, UNCERTAINTY_KEYS)?;
        let mut u = Uncertainty::default();
        if let Some(v) = get(m, "seed") {
            let sp = p.field("seed");
            if let Some(seed) = self.int(v, &sp) {
                match u64::try_from(seed) {
                    Ok(s) => u.seed = Some(s),
                    Err(_) => self.error(
                        "invalid-value",
                        format!("`seed` must not be negative, found {seed}"),
                        &sp,
                        v,
                    ),
                }
            }
        }
        if let Some(v) = get(m, "samples") {
            let sp = p.field("samples");
            if let Some(n) = self.count(v, &sp) {
                if (1..=MAX_SAMPLES).contains(&n) {
                    u.samples = Some(n);
                } else {
                    let msg = format!("`samples` must be between 1 and {MAX_SAMPLES}, found {n}");
                    self.error("invalid-value", msg, &sp, v);
                }
            }
        }
        for (key, slot, max) in [
            ("updateSpread", &mut u.update_spread, 1.0),
            ("approvalSpread", &mut u.approval_spread, 1.0),
            ("failureRate", &mut u.failure_rate, 1.0),
        ] {
            let Some(v) = get(m, key) else { continue };
            let kp = p.field(key);
            if let Some(x) = self.float(v, &kp) {
                if (0.0..=max).contains(&x) {
                    *slot = Some(x);
                } else {
                    let msg = format!("`{key}` must be between 0 and 1 (a fraction), found {x}");
                    self.error("invalid-value", msg, &kp, v);
                }
            }
        }
        if let Some(v) = get(m, "recovery") {
            u.recovery = self.duration(v, &p.field("recovery"));
        }
        Some(u)
    }

    /// `updateDuration: 3m` or `{default, overrides, jitter}`.
    fn update_duration(&mut self, n: &Node, parent: &Path, a: &mut Assumptions) {
        let p = &parent.field("updateDuration");
        if let Value::Scalar(_) = n.value {
            a.update_duration = self.duration(n, p);
            return;
        }
        let Some(m) = self.map(n, p, UPDATE_DURATION_KEYS) else {
            return;
        };
        if let Some(v) = get(m, "default") {
            a.update_duration = self.duration(v, &p.field("default").at_origin(p));
        }
        if let Some(v) = get(m, "overrides") {
            a.duration_overrides = self.duration_overrides(
                v,
                &p.field("overrides")
                    .at_origin(&parent.field("durationOverrides")),
            );
        }
        if let Some(v) = get(m, "jitter") {
            a.jitter = self.jitter(v, &p.field("jitter").at_origin(&parent.field("jitter")));
        }
    }

    fn duration_overrides(&mut self, n: &Node, p: &Path) -> Vec<DurationOverride> {
        let Some(items) = self.seq(n, p) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let p = p.index(i);
            let Some(m) = self.map(item, &p, OVERRIDE_KEYS) else {
                continue;
            };
            let cluster = get(m, "cluster").and_then(|v| self.string(v, &p.field("cluster")));
            let selector = get(m, "selector").and_then(|v| self.selector(v, &p.field("selector")));
            let duration = get(m, "duration").and_then(|v| self.duration(v, &p.field("duration")));
            if get(m, "cluster").is_none() && get(m, "selector").is_none() {
                self.error(
                    "missing-field",
                    "a duration override needs `cluster` or `selector`",
                    &p,
                    item,
                );
                continue;
            }
            if get(m, "duration").is_none() {
                self.missing("duration", &p, item);
            }
            if let Some(duration) = duration {
                out.push(DurationOverride {
                    cluster,
                    selector,
                    duration,
                });
            }
        }
        out
    }

    fn jitter(&mut self, n: &Node, p: &Path) -> Option<Jitter> {
        let m = self.map(n, p, JITTER_KEYS)?;
        let mut j = Jitter {
            seed: 0,
            spread: 0.0,
        };
        if let Some(v) = get(m, "seed") {
            if let Some(seed) = self.int(v, &p.field("seed")) {
                match u64::try_from(seed) {
                    Ok(s) => j.seed = s,
                    Err(_) => self.error(
                        "invalid-value",
                        format!("`seed` must not be negative, found {seed}"),
                        &p.field("seed"),
                        v,
                    ),
                }
            }
        }
        match get(m, "spread") {
            Some(v) => {
                if let Some(spread) = self.float(v, &p.field("spread")) {
                    if (0.0..1.0).contains(&spread) {
                        j.spread = spread;
                    } else {
                        let msg = format!("`spread` must be at least 0 and below 1 (a fraction of the duration), found {spread}");
                        self.error("invalid-value", msg, &p.field("spread"), v);
                    }
                }
            }
            None => self.missing("spread", p, n),
        }
        Some(j)
    }

    /// `approvals: 30m` (the delay) or the mapping form.
    fn approvals(&mut self, n: &Node, p: &Path) -> ApprovalModel {
        let mut model = ApprovalModel::default();
        if let Value::Scalar(_) = n.value {
            model.delay = self.duration(n, &p.field("delay"));
            return model;
        }
        let Some(m) = self.map(n, p, APPROVAL_KEYS) else {
            return model;
        };
        if let Some(v) = get(m, "delay") {
            model.delay = self.duration(v, &p.field("delay"));
        }
        if let Some(v) = get(m, "businessHours") {
            model.business_hours = self.business_hours(v, &p.field("businessHours"));
        }
        if let Some(v) = get(m, "overrides") {
            let p = p.field("overrides");
            if let Some(items) = self.seq(v, &p) {
                for (i, item) in items.iter().enumerate() {
                    if let Some(o) = self.approval_override(item, &p.index(i)) {
                        model.overrides.push(o);
                    }
                }
            }
        }
        model
    }

    fn approval_override(&mut self, n: &Node, p: &Path) -> Option<ApprovalOverride> {
        let m = self.map(n, p, APPROVAL_OVERRIDE_KEYS)?;
        let Some(stage) = get(m, "stage").and_then(|v| self.string(v, &p.field("stage"))) else {
            if get(m, "stage").is_none() {
                self.missing("stage", p, n);
            }
            return None;
        };
        let mut o = ApprovalOverride {
            stage,
            task: None,
            delay: None,
            never: false,
        };
        if let Some(v) = get(m, "task") {
            let tp = p.field("task");
            if let Some(t) = self.string(v, &tp) {
                match t.to_ascii_lowercase().as_str() {
                    "before" | "beforestage" | "beforestagetasks" => {
                        o.task = Some(TaskSide::Before)
                    }
                    "after" | "afterstage" | "afterstagetasks" => o.task = Some(TaskSide::After),
                    _ => self.error(
                        "invalid-value",
                        format!("`task` must be `before` or `after`, found `{t}`"),
                        &tp,
                        v,
                    ),
                }
            }
        }
        if let Some(v) = get(m, "delay") {
            o.delay = self.duration(v, &p.field("delay"));
        }
        if let Some(v) = get(m, "never") {
            o.never = self.boolean(v, &p.field("never")).unwrap_or(false);
        }
        Some(o)
    }

    /// Defaults: UTC, 09:00–17:00, Monday to Friday.
    fn business_hours(&mut self, n: &Node, p: &Path) -> Option<BusinessHours> {
        let m = self.map(n, p, HOURS_KEYS)?;
        let mut bh = BusinessHours {
            utc_offset: "+00:00".into(),
            utc_offset_minutes: 0,
            start: 9 * 60,
            end: 17 * 60,
            days: vec![1, 2, 3, 4, 5],
        };
        if let Some(v) = get(m, "utcOffset") {
            let op = p.field("utcOffset");
            if let Some(text) = self.scalar_text(v, &op, "a UTC offset such as \"+01:00\"") {
                match parse_offset(&text) {
                    Some(minutes) => {
                        bh.utc_offset = text;
                        bh.utc_offset_minutes = minutes;
                    }
                    None => self.error(
                        "invalid-value",
                        format!("`utcOffset` must look like +01:00, -05:30 or Z, found `{text}`"),
                        &op,
                        v,
                    ),
                }
            }
        }
        for (key, slot) in [("start", &mut bh.start), ("end", &mut bh.end)] {
            let Some(v) = get(m, key) else { continue };
            let kp = p.field(key);
            if let Some(text) = self.scalar_text(v, &kp, "a time of day such as \"09:00\"") {
                match parse_hhmm(&text) {
                    Some(minutes) => *slot = minutes,
                    None => self.error(
                        "invalid-value",
                        format!(
                            "`{key}` must be a time of day HH:MM (00:00 to 24:00), found `{text}`"
                        ),
                        &kp,
                        v,
                    ),
                }
            }
        }
        if bh.end <= bh.start {
            let msg = format!(
                "business hours end ({:02}:{:02}) must be after they start",
                bh.end / 60,
                bh.end % 60
            );
            self.error(
                "invalid-value",
                msg,
                &p.field("end"),
                get(m, "end").unwrap_or(n),
            );
        }
        if let Some(v) = get(m, "days") {
            if let Some(days) = self.days(v, &p.field("days")) {
                bh.days = days;
            }
        }
        Some(bh)
    }

    /// `[Mon, Tue]`, `"Mon-Fri"`, `"Mon-Fri,Sun"`, or ISO numbers 1..=7.
    fn days(&mut self, n: &Node, p: &Path) -> Option<Vec<u8>> {
        let mut days = Vec::new();
        let mut bad = Vec::new();
        match &n.value {
            Value::Seq(items) => {
                self.note(p, n);
                for (i, item) in items.iter().enumerate() {
                    let ip = p.index(i);
                    match (item.resolve(), item.scalar()) {
                        (Some(Resolved::Int(d)), _) if (1..=7).contains(&d) => days.push(d as u8),
                        (_, Some(s)) => match parse_day_spec(&s.text) {
                            Some(mut d) => days.append(&mut d),
                            None => bad.push(s.text.clone()),
                        },
                        _ => self.wrong_type("a weekday such as Mon", &ip, item),
                    }
                }
            }
            Value::Scalar(s) => {
                self.note(p, n);
                match parse_day_spec(&s.text) {
                    Some(mut d) => days.append(&mut d),
                    None => bad.push(s.text.clone()),
                }
            }
            Value::Map(_) => {
                self.wrong_type("a list of weekdays or a range such as \"Mon-Fri\"", p, n);
                return None;
            }
        }
        if !bad.is_empty() {
            let msg = format!("unknown weekday `{}`; use Mon, Tue, Wed, Thu, Fri, Sat, Sun or a range such as Mon-Fri", bad.join("`, `"));
            self.error("invalid-value", msg, p, n);
            return None;
        }
        crate::sort::sort(&mut days);
        days.dedup();
        Some(days)
    }

    /// `[member3, {cluster: member4, after: 2m, recoversAfter: 30m}, {cluster: member5, preempted: true}]`.
    fn failures(&mut self, n: &Node, p: &Path) -> Vec<FailureSpec> {
        let Some(items) = self.seq(n, p) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let p = p.index(i);
            if let Value::Scalar(_) = item.value {
                if let Some(cluster) = self.string(item, &p.field("cluster")) {
                    out.push(FailureSpec {
                        cluster,
                        ..FailureSpec::default()
                    });
                }
                continue;
            }
            let Some(m) = self.map(item, &p, FAILURE_KEYS) else {
                continue;
            };
            let after = get(m, "after").and_then(|v| self.duration(v, &p.field("after")));
            let recovers_after =
                get(m, "recoversAfter").and_then(|v| self.duration(v, &p.field("recoversAfter")));
            let preempted = get(m, "preempted")
                .and_then(|v| self.boolean(v, &p.field("preempted")))
                .unwrap_or(false);
            if preempted && recovers_after.is_some() {
                if let Some(v) = get(m, "recoversAfter") {
                    self.warning(
                        "ignored-field",
                        "`recoversAfter` is ignored for a preempted cluster: the preemption aborts the run",
                        &p.field("recoversAfter"),
                        v,
                    );
                }
            }
            match get(m, "cluster") {
                Some(v) => {
                    if let Some(cluster) = self.string(v, &p.field("cluster")) {
                        out.push(FailureSpec {
                            cluster,
                            after,
                            recovers_after,
                            preempted,
                        });
                    }
                }
                None => self.missing("cluster", &p, item),
            }
        }
        out
    }

    fn stops(&mut self, n: &Node, p: &Path) -> Vec<StopSpec> {
        let Some(items) = self.seq(n, p) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let p = p.index(i);
            let Some(m) = self.map(item, &p, STOP_KEYS) else {
                continue;
            };
            let resume = get(m, "resume").and_then(|v| self.time(v, &p.field("resume")));
            match get(m, "at") {
                Some(v) => {
                    if let Some(at) = self.time(v, &p.field("at")) {
                        if resume.is_some_and(|r| r < at) {
                            self.error(
                                "invalid-value",
                                "`resume` is before `at`",
                                &p.field("resume"),
                                item,
                            );
                        }
                        out.push(StopSpec { at, resume });
                    }
                }
                None => self.missing("at", &p, item),
            }
        }
        out
    }
}

/// `+01:00`, `-05:30`, `+0100`, `+1`, `Z`, `UTC` → minutes east of UTC.
pub(crate) fn parse_offset(text: &str) -> Option<i32> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("z") || t.eq_ignore_ascii_case("utc") {
        return Some(0);
    }
    let (sign, rest) = match t.as_bytes().first()? {
        b'+' => (1, &t[1..]),
        b'-' => (-1, &t[1..]),
        _ => return None,
    };
    if !rest.is_ascii() {
        return None;
    }
    let (h, m) = match rest.split_once(':') {
        Some((h, m)) => (h, m),
        None if rest.len() == 4 => rest.split_at(2),
        None => (rest, "0"),
    };
    if h.is_empty()
        || h.len() > 2
        || !h.bytes().all(|b| b.is_ascii_digit())
        || !m.bytes().all(|b| b.is_ascii_digit())
        || m.len() > 2
    {
        return None;
    }
    let (h, m): (i32, i32) = (h.parse().ok()?, m.parse().ok()?);
    (h <= 14 && m < 60).then_some(sign * (h * 60 + m))
}

/// `HH:MM` → minutes after midnight; `24:00` allowed as an end of day.
pub(crate) fn parse_hhmm(text: &str) -> Option<u32> {
    let (h, m) = text.trim().split_once(':')?;
    if h.is_empty()
        || h.len() > 2
        || m.len() != 2
        || !h.bytes().chain(m.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    let total = h * 60 + m;
    (m < 60 && total <= 24 * 60).then_some(total)
}

fn parse_day(text: &str) -> Option<u8> {
    let t = text.trim().to_ascii_lowercase();
    let full = [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ];
    // Any unambiguous prefix of three letters or more: `Mon`, `Tues`, `Thursday`.
    full.iter()
        .position(|d| t.len() >= 3 && d.starts_with(&t))
        .map(|i| i as u8 + 1)
}

/// `Mon`, `Mon-Fri`, `Mon-Fri,Sun`; a range may wrap (`Fri-Mon`).
fn parse_day_spec(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (parse_day(a)?, parse_day(b)?);
                let mut d = a;
                loop {
                    out.push(d);
                    if d == b {
                        break;
                    }
                    d = d % 7 + 1;
                }
            }
            None => out.push(parse_day(part)?),
        }
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn offsets_times_and_days_parse() {
        assert_eq!(parse_offset("+01:00"), Some(60));
        assert_eq!(parse_offset("-05:30"), Some(-330));
        assert_eq!(parse_offset("Z"), Some(0));
        assert_eq!(parse_offset("+0530"), Some(330));
        assert_eq!(parse_offset("01:00"), None);
        assert_eq!(parse_offset("+25:00"), None);
        assert_eq!(parse_hhmm("09:00"), Some(540));
        assert_eq!(parse_hhmm("24:00"), Some(1440));
        assert_eq!(parse_hhmm("9:5"), None);
        assert_eq!(parse_hhmm("24:30"), None);
        assert_eq!(parse_day_spec("Mon-Fri"), Some(vec![1, 2, 3, 4, 5]));
        assert_eq!(parse_day_spec("Fri-Mon"), Some(vec![5, 6, 7, 1]));
        assert_eq!(parse_day_spec("monday,Sun"), Some(vec![1, 7]));
        assert_eq!(parse_day_spec("Funday"), None);
    }
}
