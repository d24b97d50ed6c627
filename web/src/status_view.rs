//! Live rollouts in the browser: a pasted or dropped status (`kubectl get … -o yaml`, `kubectl
//! describe`, a GKE Rollout) is projected by the core from the browser's clock, which moves the
//! now-line every minute; the Monte Carlo's range is drawn afterwards in chunks between frames, so the
//! page never stops answering; the chart marks facts, running and projected bars and P10–P90
//! whiskers (all laid out by `fleetplan::status::chart`), and a panel says where the run stands.
//!
//! `?now=2026-11-24T10:12:00Z` in the address fixes the clock (documentation, screenshots, tests).
//!
//! Reading and projecting a status needs the core's status readers, KubeFleet objects and GKE: that
//! code is the live part ([`live_kit`]), a chunk of its own fetched the first time a text looks like a
//! status, so a chart of a plain scenario never waits for it. The panel and the chart's live layer
//! come with that part too (only a projected status draws them).

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Duration as StdDuration;

use fleetplan::gantt::{Chart, View};
use fleetplan::plan::projection::{Basis, RunState, SampleEnds, WaitingKind};
use fleetplan::plan::Plan;
use fleetplan::status::chart::Marks;
use fleetplan::status::{self, Item, Options};
use fleetplan::time::{Duration, Time, MINUTE};
use fleetplan::{Severity, Source};
use leptos::prelude::*;

use crate::analysis::{Analysis, SOURCE_NAME};
use crate::browser;
use crate::chart::Laid;
use crate::dom::{self, mount_view, Mounted};
use crate::on_demand::Part;

/// Samples drawn per chunk: a few milliseconds of work between two frames for a mid-size fleet.
const CHUNK: u32 = 64;

/// The clock live projections read: the browser's (ticking each minute) or a fixed `?now=`; and the
/// live part once it has arrived.
#[derive(Clone, Copy)]
pub struct LiveClock {
    pub now: RwSignal<Time>,
    pub kit: Part<LiveKit>,
}

/// The live part: what reads and projects a status (the core's status module and what it reaches).
#[derive(Clone, Copy)]
pub struct LiveKit {
    /// The analysis of a status text projected at a time, and the item it projected.
    pub read: fn(&str, Time) -> Option<(Analysis, Item)>,
    /// Starts drawing the range of a projected plan in chunks (see [`draw_ranges`]): the chunking
    /// comes with this part, as only a projected status has a range to draw.
    pub draw_range: fn(Arc<Plan>, Ranged),
    pub marks: fn(&Plan, &Chart, &View) -> Marks,
    /// Mount the "Where it stands" panel and the chart's live layer (into the parent, before the
    /// node): only a projected status draws them, so their views, and Leptos' renderer, come with this
    /// part instead of with the app.
    pub panel: fn(&web_sys::Element, Option<&web_sys::Node>, PlanSignal) -> Mounted,
    pub overlay: fn(&web_sys::Element, Option<&web_sys::Node>, OverlayArgs) -> Mounted,
}

type PlanSignal = Signal<Option<Arc<Plan>>>;

/// A projected plan and the same plan with its range, once drawn.
pub type Ranged = RwSignal<Option<(Arc<Plan>, Arc<Plan>)>>;

/// What the chart hands its live layer.
#[derive(Clone, Copy)]
pub struct OverlayArgs {
    pub plan: Signal<Option<Arc<Plan>>>,
    pub laid: Memo<Option<Laid>>,
    pub view: Memo<Option<View>>,
    pub label_w: Signal<f64>,
    pub height: Signal<f64>,
}

crate::on_demand! {
    /// The live part's entry.
    pub fn live_kit() -> LiveKit {
        LiveKit {
            read,
            draw_range,
            marks: status::chart::marks,
            panel: |parent, before, plan| mount_view(parent, before, move || view! { <Panel plan=plan /> }),
            overlay: |parent, before, a| {
                mount_view(parent, before, move || {
                    view! { <Overlay plan=a.plan laid=a.laid view=a.view label_w=a.label_w height=a.height /> }
                })
            },
        }
    }
}

fn read(text: &str, now: Time) -> Option<(Analysis, Item)> {
    let input = status::load(
        &[Source {
            name: SOURCE_NAME,
            text,
        }],
        &[],
    );
    let i = input.items.iter().position(Item::is_live)?;
    let item = input.items[i].clone();
    let plan = Arc::new(status::project(&item, &Options::new(now, false)));
    let mut diagnostics = input.diagnostics;
    diagnostics.extend(plan.diagnostics.iter().cloned());
    fleetplan::sort::sort_by_key(&mut diagnostics, |d| d.severity);
    let analysis = Analysis {
        scenario: Some(Arc::new(item.scenario.clone())),
        plan: Some(plan),
        stale: false,
        stale_reason: None,
        diagnostics,
        runs: input.items.len(),
        missing: Vec::new(),
    };
    Some((analysis, item))
}

fn project_chunk(item: &Item, now: Time, first: u32, end: u32) -> Plan {
    let mut options = Options::new(now, true);
    options.chunk = Some((first, end));
    status::project(item, &options)
}

// The item and plan of the last live text, for drawing its range in chunks.
thread_local! {
    static LIVE: RefCell<Option<(Arc<Plan>, Item)>> = const { RefCell::new(None) };
}

/// The planner's live clock: `?now=` fixed, or the browser's clock ticking on the minute.
pub fn provide_live_clock() -> LiveClock {
    let (search, _) = browser::location_parts();
    let fixed = search
        .trim_start_matches('?')
        .split('&')
        .find_map(|kv| kv.strip_prefix("now="))
        .and_then(|v| Time::parse(&js_sys::decode_uri_component(v).ok()?.as_string()?).ok());
    let now = RwSignal::new(fixed.unwrap_or_else(minute_now));
    if fixed.is_none() {
        // The handle lives as long as the page; ticks after unmount do nothing (try_set).
        let _ = set_interval_with_handle(
            move || {
                let t = minute_now();
                if now.try_get_untracked() != Some(t) {
                    let _ = now.try_set(t);
                }
            },
            StdDuration::from_secs(5),
        );
    }
    let clock = LiveClock {
        now,
        kit: Part::new(),
    };
    provide_context(clock);
    clock
}

/// The browser's clock on the whole minute: a projection changes once a minute, not every frame.
fn minute_now() -> Time {
    let t = browser::now();
    Time(t.0 - t.0.rem_euclid(MINUTE.0))
}

/// The analysis of a text that holds a rollout's status, projected at the clock's now (tracked, so
/// it is re-projected every minute); `None` for any other text, which `analysis::analyse` reads.
/// Until the live part has arrived (it is fetched now), the previous analysis stays as it was.
pub fn analyse(text: &str, previous: Option<&Analysis>, clock: LiveClock) -> Option<Analysis> {
    if !status::looks_live(text) {
        return None;
    }
    browser::stylesheet("live.css");
    let Some(kit) = clock.kit.get(live_kit) else {
        return Some(crate::analysis::waiting(previous, Vec::new()));
    };
    let now = clock.now.get();
    let (analysis, item) = (kit.read)(text, now)?;
    if let Some(plan) = &analysis.plan {
        LIVE.with(|l| *l.borrow_mut() = Some((plan.clone(), item)));
    }
    Some(analysis)
}

/// The plan to show: the analysis' own, or the same plan with its range once the chunks are drawn.
pub fn with_range(plan: Option<Arc<Plan>>, ranged: Ranged) -> Option<Arc<Plan>> {
    let p = plan?;
    ranged.with(|r| match r {
        Some((base, full)) if Arc::ptr_eq(base, &p) => Some(full.clone()),
        _ => Some(p),
    })
}

/// Draws the range of each new live plan in chunks, one per animation frame, and puts it in `ranged`.
pub fn draw_ranges(plan: Signal<Option<Arc<Plan>>>, ranged: Ranged) {
    let kit = use_context::<LiveClock>().map(|c| c.kit);
    dom::effect(move |_| {
        let Some(p) = plan.get() else {
            return;
        };
        if p.projection.as_ref().is_none_or(|x| x.source.is_none()) {
            return;
        }
        // A projected plan exists only once the live part has projected it.
        if let Some(kit) = kit.and_then(|k| k.now()) {
            (kit.draw_range)(p, ranged);
        }
    });
}

/// The live part's side of [`draw_ranges`]: the first chunk of the range of `p`, if it is the last
/// live text's plan.
fn draw_range(p: Arc<Plan>, ranged: Ranged) {
    let item = LIVE.with(|l| {
        l.borrow()
            .as_ref()
            .filter(|(base, _)| Arc::ptr_eq(base, &p))
            .map(|(_, i)| i.clone())
    });
    if let Some(item) = item {
        let total = status::sample_count(&item);
        chunk(p, Arc::new(item), 0, total, Vec::new(), ranged);
    }
}

fn chunk(
    base: Arc<Plan>,
    item: Arc<Item>,
    first: u32,
    total: u32,
    mut done: Vec<SampleEnds>,
    ranged: Ranged,
) {
    // A newer plan took over: stop.
    let current = LIVE.with(|l| {
        l.borrow()
            .as_ref()
            .is_some_and(|(b, _)| Arc::ptr_eq(b, &base))
    });
    if !current {
        return;
    }
    let Some(now) = base.projection.as_ref().map(|p| p.now) else {
        return;
    };
    let end = (first + CHUNK).min(total);
    let mut part = project_chunk(&item, now, first, end);
    if let Some(s) = part.projection.as_mut().and_then(|p| p.samples.take()) {
        done.push(s);
    }
    if end >= total {
        status::combine(&item, &mut part, done);
        let _ = ranged.try_set(Some((base, Arc::new(part))));
        return;
    }
    request_animation_frame(move || chunk(base, item, end, total, done, ranged));
}

/// The chart's live layer in `svg` once the live part is here (drawn by it), nothing before; under
/// the cursor's line if one is drawn by then.
pub fn live_overlay(svg: web_sys::Element, args: OverlayArgs) {
    let kit = use_context::<LiveClock>().map(|c| c.kit);
    dom::once_ready(
        move || kit?.loaded(),
        move |k| {
            let cursor = svg.query_selector(":scope > line.cursor").ok().flatten();
            std::mem::forget((k.overlay)(&svg, cursor.as_deref(), args));
        },
    );
}

/// "Where it stands" in `parent` before `before` once the live part is here (drawn by it), nothing
/// before.
pub fn where_it_stands(
    parent: web_sys::Element,
    before: web_sys::Node,
    plan: Signal<Option<Arc<Plan>>>,
) {
    let kit = use_context::<LiveClock>().map(|c| c.kit);
    dom::once_ready(
        move || kit?.loaded(),
        move |k| std::mem::forget((k.panel)(&parent, Some(&before), plan)),
    );
}

/// The chart's live layer, over the rows (it takes no pointer events): light veils over what is
/// projected, whiskers from P10 to P90 with a mark at P50, and the now-line.
#[component]
fn Overlay(
    plan: Signal<Option<Arc<Plan>>>,
    laid: Memo<Option<Laid>>,
    view: Memo<Option<View>>,
    label_w: Signal<f64>,
    height: Signal<f64>,
) -> impl IntoView {
    // Only the live part projects, so a plan with a projection means its marks are here too.
    let kit = use_context::<LiveClock>().map(|c| c.kit);
    let marks = Memo::new(move |_| {
        let l = laid.get()?;
        let v = view.get()?;
        plan.with(|p| {
            let p = p.as_ref()?;
            p.projection.as_ref()?;
            let k = kit?.loaded()?;
            Some(Arc::new((k.marks)(p, &l.chart, &v)))
        })
    });
    move || {
        let m = marks.get()?;
        let l = laid.get()?;
        let lw = label_w.get();
        let h = height.get();
        let now_x = m.now_x;
        let mut veils = Vec::new();
        let mut whiskers = Vec::new();
        for ((row, bases), w) in l.chart.rows.iter().zip(&m.bars).zip(&m.whiskers) {
            for (b, basis) in row.bars.iter().zip(bases) {
                let (y, bh) = b.vertical(row.y, row.height);
                let (x, width) = match (basis, now_x) {
                    (Basis::Projected, _) => (b.x, b.width),
                    (Basis::Running, Some(nx)) if nx < b.x + b.width => {
                        (nx.max(b.x), b.x + b.width - nx.max(b.x))
                    }
                    _ => continue,
                };
                veils.push(view! { <rect class="veil" x=x y=y width=width height=bh /> });
            }
            if let Some(w) = w {
                let y = row.y + row.height / 2.0;
                whiskers.push(view! {
                    <g class="whisker" data-testid="whisker">
                        <line x1=w.x10 y1=y x2=w.x90 y2=y />
                        <line x1=w.x10 y1=y - 4.0 x2=w.x10 y2=y + 4.0 />
                        <line x1=w.x90 y1=y - 4.0 x2=w.x90 y2=y + 4.0 />
                        <circle cx=w.x50 cy=y r="2.5" />
                    </g>
                });
            }
        }
        Some(view! {
            <g class="live-layer" transform=format!("translate({lw},0)") aria-hidden="true">
                {veils}
                {whiskers}
                {now_x.map(|x| view! {
                    <g class="now-line" data-testid="now-line" data-x=x>
                        <line x1=x y1=0.0 x2=x y2=h />
                        <text x=x + 3.0 y="11">"now"</text>
                    </g>
                })}
            </g>
        })
    }
}

/// "Where it stands": the run's state and stage, clusters done and in flight, what it waits on (with
/// the command that ends the wait), the ETA with its range, ahead or behind, calibration.
#[component]
fn Panel(plan: Signal<Option<Arc<Plan>>>) -> impl IntoView {
    let zone = crate::clock::use_zone();
    move || {
        let p = plan.get()?;
        let pr = p.projection.as_ref()?;
        pr.source.as_ref()?;
        let z = zone.get();
        let at = move |t: Time| z.human(t);
        let pos = &pr.position;
        let state = pos.state.words();
        let in_ = |t: Time| {
            if t > pr.now {
                Duration(t.since(pr.now).0).human()
            } else {
                "now".into()
            }
        };
        let eta = match (p.end, pos.state) {
            (Some(e), RunState::Succeeded) => format!("finished {}", at(e)),
            (Some(e), _) => format!("{} (in {})", at(e), in_(e)),
            (None, _) => "never, under the assumptions".into(),
        };
        let range = pr.forecast.as_ref().map(|f| {
            let t = |x: Option<Time>| x.map_or_else(|| "never".into(), &at);
            format!(
                "P50 {}, P90 {} (P10 {}; {} samples)",
                t(f.end.p50),
                t(f.end.p90),
                t(f.end.p10),
                f.samples
            )
        });
        let behind = pr.behind.map(|b| match b.0 .0 {
            0 => "on time against the original plan".to_string(),
            d if d > 0 => format!("{} behind the original plan", Duration(d).human()),
            d => format!("{} ahead of the original plan", Duration(-d).human()),
        });
        let waiting = pos
            .waiting
            .iter()
            .map(|w| {
                let what = match w.kind {
                    WaitingKind::Approval => "approval",
                    WaitingKind::TimedWait => "timed wait",
                    WaitingKind::Stopped => "stopped",
                    WaitingKind::FailedClusters => "failed clusters",
                    WaitingKind::Soak => "soak",
                    WaitingKind::Paused => "paused",
                };
                let until = w.until.map(|u| format!("; expected to end {}", at(u)));
                let cmd = w.command.clone().map(|c| {
                    let copy = c.clone();
                    view! {
                        <div class="command">
                            <code data-testid="live-command">{c}</code>
                            <button on:click=move |_| browser::copy_to_clipboard(&copy) title="copy the command">"Copy"</button>
                        </div>
                    }
                });
                view! {
                    <li data-testid="live-waiting">
                        <b>{what}</b>{format!(": {} since {} ({} ago)", w.what, at(w.since), Duration(pr.now.since(w.since).0.max(0)).human())}
                        {until}
                        {cmd}
                    </li>
                }
            })
            .collect_view();
        let updating = pos
            .in_flight
            .iter()
            .map(|f| {
                let end = f.until.map_or_else(String::new, |u| format!(", expected {}", at(u)));
                view! { <li>{format!("{} ({}) since {}{end}{}", f.cluster, f.stage, at(f.since), if f.failed { ", failed and retried" } else { "" })}</li> }
            })
            .collect_view();
        let next = pos.next.as_ref().map(|n| {
            view! { <p class="next">{format!("next: {} from {}", n.what, at(n.since))}</p> }
        });
        let notes = pr
            .calibration
            .iter()
            .map(|c| view! { <li>{c.text.clone()}</li> })
            .collect_view();
        let errors = p
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        Some(view! {
            <section class="where-it-stands" data-testid="where-it-stands" aria-label="where the run stands">
                <h2>"Where it stands"</h2>
                <p class="live-source">{format!("{} at {}", pr.source.clone().unwrap_or_default(), at(pr.now))}</p>
                <dl>
                    <dt>"state"</dt><dd data-testid="live-state">{state}{pos.reason.clone().map(|r| format!(" ({r})"))}</dd>
                    {pos.stage.clone().map(|s| view! { <dt>"stage"</dt><dd data-testid="live-stage">{format!("{s} ({} of {} stages done)", pos.stages_done, pos.stages)}</dd> })}
                    <dt>"clusters"</dt><dd>{format!("{} of {} updated, {} updating", pos.clusters_done, pos.clusters, pos.in_flight.len())}</dd>
                    <dt>"ends"</dt><dd data-testid="live-eta">{eta}</dd>
                    {range.map(|r| view! { <dt>"range"</dt><dd data-testid="live-range">{r}</dd> })}
                    {behind.map(|b| view! { <dt>"plan"</dt><dd>{b}</dd> })}
                </dl>
                {(!pos.waiting.is_empty()).then(|| view! { <h3>"Waiting on"</h3><ul class="waiting">{waiting}</ul> })}
                {(!pos.in_flight.is_empty()).then(|| view! { <h3>"Updating"</h3><ul>{updating}</ul> })}
                {next}
                {(!pr.calibration.is_empty()).then(|| view! { <details><summary>"Calibration"</summary><ul>{notes}</ul></details> })}
                {(errors > 0).then(|| view! { <p class="live-warning">"The status has errors (see the problems): nothing is projected from what cannot be trusted."</p> })}
            </section>
        })
    }
}

/// Dropping a file anywhere on the page puts its text in the editor (a status saved from kubectl).
pub fn accept_drops(replace_text: impl Fn(String) + Copy + 'static) {
    let over = window_event_listener(leptos::ev::dragover, |ev| ev.prevent_default());
    let drop = window_event_listener(leptos::ev::drop, move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        let Some(file) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        else {
            return;
        };
        if file.size() > 64.0 * 1024.0 * 1024.0 {
            return;
        }
        let promise = file.text();
        wasm_bindgen_futures::spawn_local(async move {
            if let Some(text) = wasm_bindgen_futures::JsFuture::from(promise)
                .await
                .ok()
                .and_then(|v| v.as_string())
            {
                replace_text(text);
            }
        });
    });
    let _ = (over, drop);
}
