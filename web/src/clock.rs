//! The reader's clock: which time zone times are shown in (the browser's by default, UTC, or any IANA
//! zone the browser knows), and that zone's offsets over a span, asked of the browser's Intl API and
//! handed to the core as a `fleetplan::zone::Zone`.
//!
//! No time-zone database ships in the bundle: the browser has one. Everything degrades to UTC when
//! Intl is missing or refuses a name.

use std::sync::Arc;

use fleetplan::time::{Time, DAY, MINUTE};
use fleetplan::zone::{Zone, ZoneSpan};
use js_sys::{Array, Date, Object, Reflect};
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// The clock every component of a planner reads, provided by the planner.
#[derive(Clone, Copy)]
pub struct ClockCtx {
    /// The chosen zone over the span of the plan on screen.
    pub zone: RwSignal<Arc<Zone>>,
    pub choice: RwSignal<ZoneChoice>,
}

/// The zone to show times in: the planner's, or UTC outside one.
pub fn use_zone() -> Signal<Arc<Zone>> {
    match use_context::<ClockCtx>() {
        Some(c) => c.zone.into(),
        None => Signal::stored(Arc::new(Zone::utc())),
    }
}

/// localStorage key of the chosen zone (absent: the browser's).
pub const ZONE_KEY: &str = "fleetplan.zone.v1";

/// What the user chose: `None` follows the browser; `Some(name)` is an IANA name or `UTC`.
pub type ZoneChoice = Option<String>;

fn intl() -> Option<JsValue> {
    Reflect::get(&js_sys::global(), &"Intl".into())
        .ok()
        .filter(|v| v.is_object())
}

/// `globalThis[UTC_FLAG]` is true when the page's script (index.html) found the browser's zone to be
/// UTC by `Temporal.Now.timeZoneId()`, which needs no formatter: a page's first Intl formatter starts
/// ICU's date formatting (about 20 ms of the main thread on this project's machine, before a share
/// link's first chart). Pages without that script (the JavaScript API's) ask Intl as before.
pub const UTC_FLAG: &str = "fleetplanUtc";

/// The browser's own zone (`Europe/Berlin`), or `UTC` when it does not say.
pub fn browser_zone() -> String {
    let resolved = (|| {
        let f = formatter(None)?;
        let opts = Reflect::get(&f, &"resolvedOptions".into()).ok()?;
        let opts = opts.dyn_ref::<js_sys::Function>()?.call0(&f).ok()?;
        Reflect::get(&opts, &"timeZone".into()).ok()?.as_string()
    })();
    resolved.unwrap_or_else(|| "UTC".into())
}

/// Every zone name the browser knows, for the picker (a few common ones when it cannot list them).
pub fn zone_names() -> Vec<String> {
    let listed = (|| {
        let intl = intl()?;
        let f = Reflect::get(&intl, &"supportedValuesOf".into()).ok()?;
        let list = f
            .dyn_ref::<js_sys::Function>()?
            .call1(&intl, &"timeZone".into())
            .ok()?;
        let list: Array = list.dyn_into().ok()?;
        Some(
            list.iter()
                .filter_map(|v| v.as_string())
                .collect::<Vec<_>>(),
        )
    })();
    let mut names = listed.unwrap_or_else(|| {
        [
            "America/Los_Angeles",
            "America/New_York",
            "Europe/London",
            "Europe/Berlin",
            "Asia/Kolkata",
            "Asia/Tokyo",
            "Australia/Sydney",
        ]
        .map(String::from)
        .to_vec()
    });
    if !names.iter().any(|n| n == "UTC") {
        names.insert(0, "UTC".into());
    }
    names
}

/// `new Intl.DateTimeFormat("en-US", {…})` for `zone` (the browser's when `None`), with every field
/// numeric, a 24-hour clock and the short zone name; `None` when the browser refuses the zone.
fn formatter(zone: Option<&str>) -> Option<JsValue> {
    let ctor = Reflect::get(&intl()?, &"DateTimeFormat".into()).ok()?;
    let ctor: js_sys::Function = ctor.dyn_into().ok()?;
    let opts = Object::new();
    let set = |k: &str, v: &str| Reflect::set(&opts, &k.into(), &v.into()).is_ok();
    for k in ["year", "month", "day", "hour", "minute", "second"] {
        set(k, "numeric");
    }
    set("hourCycle", "h23");
    set("timeZoneName", "short");
    if let Some(z) = zone {
        set("timeZone", z);
    }
    let args = Array::of2(&"en-US".into(), &opts);
    Reflect::construct(&ctor, &args).ok()
}

/// Asks one formatter for the offset (minutes east of UTC) and abbreviation in force at `t`.
fn probe(f: &JsValue, t: Time) -> Option<(i32, String)> {
    let to_parts = Reflect::get(f, &"formatToParts".into()).ok()?;
    let parts = to_parts
        .dyn_ref::<js_sys::Function>()?
        .call1(f, &Date::new(&JsValue::from_f64(t.0 as f64)))
        .ok()?;
    let parts: Array = parts.dyn_into().ok()?;
    let mut fields = [0f64; 6];
    let mut abbreviation = String::new();
    for p in parts.iter() {
        let kind = Reflect::get(&p, &"type".into()).ok()?.as_string()?;
        let value = Reflect::get(&p, &"value".into()).ok()?.as_string()?;
        let slot = match kind.as_str() {
            "year" => 0,
            "month" => 1,
            "day" => 2,
            "hour" => 3,
            "minute" => 4,
            "second" => 5,
            "timeZoneName" => {
                abbreviation = value;
                continue;
            }
            _ => continue,
        };
        fields[slot] = value.parse().ok()?;
    }
    let wall = Date::utc(fields[0], fields[1] - 1.0)
        + ((fields[2] - 1.0) * 86_400.0 + fields[3] * 3_600.0 + fields[4] * 60.0 + fields[5])
            * 1000.0;
    // Seconds of `t` are not in the wall time's minute arithmetic: compare whole seconds only.
    let t_sec = (t.0 as f64 / 1000.0).floor() * 1000.0;
    let offset = ((wall - t_sec) / MINUTE.0 as f64).round() as i32;
    Some((offset, abbreviation))
}

/// The zone `name` (the browser's when `None`) over `from..=to`: its offset at `from`, then every
/// change, found by probing weekly (zones change at most a few times a year) and narrowing each change
/// to the minute. UTC when Intl is missing or refuses the name.
///
/// A browser the page's script found in UTC ([`UTC_FLAG`]) is UTC without a formatter: any other
/// zone's name is still the formatter's, as the zone picker shows it.
pub fn zone_over(name: Option<&str>, from: Time, to: Time) -> Zone {
    if name.is_none() && crate::browser::global_flag(UTC_FLAG) {
        return Zone::utc();
    }
    let label = name.map_or_else(browser_zone, str::to_string);
    if label == "UTC" || label == "Etc/UTC" {
        return Zone::utc();
    }
    let Some(f) = formatter(name) else {
        return Zone::utc();
    };
    let Some(first) = probe(&f, from) else {
        return Zone::utc();
    };
    let mut spans = vec![ZoneSpan {
        from: Time(i64::MIN),
        offset_minutes: first.0,
        abbreviation: first.1.clone(),
    }];
    let mut prev = (from, first);
    let step = 7 * DAY.0;
    let mut t = from;
    // At most about three years of weeks; the chart's spans are far shorter.
    let to = Time(to.0.min(from.0 + 160 * step));
    while t < to {
        t = Time((t.0 + step).min(to.0));
        let Some(now) = probe(&f, t) else { break };
        if now != prev.1 {
            // Narrow the change down to the minute between the two probes.
            let (mut lo, mut hi) = (prev.0, t);
            while hi.0 - lo.0 > MINUTE.0 {
                let mid = Time(lo.0 + (hi.0 - lo.0) / 2);
                match probe(&f, mid) {
                    Some(m) if m == prev.1 => lo = mid,
                    _ => hi = mid,
                }
            }
            let at = Time(hi.0 - hi.0.rem_euclid(MINUTE.0));
            spans.push(ZoneSpan {
                from: at,
                offset_minutes: now.0,
                abbreviation: now.1.clone(),
            });
        }
        prev = (t, now);
    }
    Zone { name: label, spans }
}
