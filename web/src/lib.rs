//! fleetplan's browser planner: components on Leptos' signals that edit a scenario and render the
//! core's plan.
//!
//! Data flow (signals live only in this crate): the editor's `text` → after a 150 ms pause, `committed`
//! → the `analysis` memo (`fleetplan::load` + `fleetplan::plan`, see [`analysis`]) → summary, diagnostics
//! and the chart, which lays itself out with `fleetplan::gantt`. Nothing here computes a time.
//! [`start`] reads the page's address and storage and hands the opening text to [`mount_planner`],
//! which the component tests call directly. The read-only chart (embed mode, [`api`], the web
//! component) is a [`planner`] with `embed`: it mounts neither the editor nor the form.

pub mod analysis;
pub mod api;
pub mod browser;
pub mod chart;
pub mod chart_markup;
pub mod clock;
pub mod compare_view;
pub mod diagnostics_view;
pub mod dom;
pub mod editor;
pub mod exports;
pub mod form;
pub mod header;
pub mod history;
pub mod inflate;
pub mod kinds;
pub mod link;
pub mod morph;
pub mod on_demand;
pub mod px;
pub mod status_view;
pub mod summary;
pub mod templates;
pub mod theme;
pub mod viewer;
pub mod workbench;

use std::sync::Arc;
use std::time::Duration as StdDuration;

use fleetplan::export::xml_escape;
use fleetplan::plan::Plan;
use fleetplan::time::{Time, DAY};
use leptos::prelude::*;

use crate::analysis::Analysis;
use crate::clock::{ClockCtx, ZoneChoice};
use crate::history::History;
use crate::kinds::Kinds;
use crate::on_demand::Part;
use crate::workbench::{BenchArgs, BenchKit, BenchViews};

/// Pause after the last keystroke before re-planning: long enough not to plan every key of a word, short
/// enough to feel live.
const DEBOUNCE: StdDuration = StdDuration::from_millis(150);

/// Shows the page, unless it only loads the module for its JavaScript API (`<body
/// data-fleetplan="api">`, or the `<fleetplan-chart>` script, which sets `globalThis.fleetplanApiOnly`).
///
/// The [`viewer`] draws the page's chart first, with the main module's code alone; the app (Leptos and
/// everything interactive, [`app_kit`]) is fetched once that chart is painted (an embed: once the
/// reader first interacts with it) and takes its place. A
/// panic hook is installed only as a last line of defence: input errors are diagnostics, never panics.
pub fn start() {
    console_error_panic_hook::set_once();
    let api_only = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
        .and_then(|b| b.get_attribute("data-fleetplan"))
        .is_some_and(|v| v == "api")
        || browser::global_flag("fleetplanApiOnly");
    if api_only {
        return;
    }
    theme::Theme::saved().apply(false);
    let (embed, hash, saved) = page_parts();
    // A share link's scenario is inflated by the browser: by the page's script while the module
    // downloaded, or else here, one asynchronous step before the chart.
    // Only the asynchronous branch copies the payload (it outlives `hash`).
    let payload = link::fragment_payload(&hash);
    match payload.map(|p| (p, inflate::early(p))) {
        Some((payload, Some(decoded))) => {
            show(embed, Some(payload), link::opening_of(Some(decoded), saved))
        }
        Some((payload, None)) => {
            let payload = payload.to_string();
            wasm_bindgen_futures::spawn_local(async move {
                let decoded = inflate::decode(&payload).await;
                show(
                    embed,
                    Some(&payload),
                    link::opening_of(Some(decoded), saved),
                );
            })
        }
        None => show(embed, None, link::opening_of(None, saved)),
    }
}

/// Draws the page's opening text with the [`viewer`], then hands the page to the app.
fn show(embed: bool, payload: Option<&str>, opening: link::Opening) {
    let zone = if embed {
        None
    } else {
        browser::storage_get(clock::ZONE_KEY)
    };
    let body = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body());
    let drawn = body.as_ref().is_some_and(|b| {
        viewer::draw(
            b,
            &viewer::Page {
                text: &opening.text,
                banner: opening.banner.as_deref(),
                embed,
                zone: zone.as_deref(),
                payload: payload.filter(|_| opening.banner.is_none()),
            },
        )
    });
    let take_over = move || {
        wasm_bindgen_futures::spawn_local(async move {
            (app_kit().await.mount_app)(opening.text, opening.banner, embed);
        })
    };
    // The app's code must not hold up the frame that shows the first chart. An embedded chart is
    // mostly only looked at (a docs page's reader): it fetches the interactive chart when the reader
    // first points at, touches or keys into it; a share link opens the editor, so it fetches at once.
    let document = web_sys::window().and_then(|w| w.document());
    match (drawn, embed, document) {
        (true, true, Some(document)) => browser::on_first_interaction(&document, take_over),
        (true, _, _) => browser::after_next_paint(take_over),
        _ => take_over(),
    }
}

/// The app: everything interactive, in a chunk of its own ([`on_demand`]), so the main module holds
/// only the [`viewer`] and what it draws with.
#[derive(Clone, Copy)]
pub struct AppKit {
    /// Mounts the planner on the page's body in place of the viewer's chart: (text, banner, embed).
    pub mount_app: fn(String, Option<String>, bool),
    /// Draws the read-only planner into an element in place of the viewer's chart there.
    pub mount_chart: fn(web_sys::HtmlElement, String),
}

crate::on_demand! {
    pub fn app_kit() -> AppKit {
        AppKit { mount_app, mount_chart }
    }
}

fn mount_app(text: String, banner: Option<String>, embed: bool) {
    // The editing side's styles, asked for now so they are here before its chunk (workbench) is.
    if !embed {
        browser::stylesheet("editor.css");
    }
    let body = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body());
    let Some(body) = body else { return };
    let focus = viewer::focused_place(&body);
    mount_planner(
        &body,
        PlannerArgs {
            initial: text,
            banner,
            embed,
            persist: !embed,
        },
    );
    viewer::remove(&body);
    keep_focus(body.into(), focus);
}

fn mount_chart(element: web_sys::HtmlElement, text: String) {
    let focus = viewer::focused_place(&element);
    viewer::remove(&element);
    mount_planner(
        &element,
        PlannerArgs {
            initial: text,
            embed: true,
            ..PlannerArgs::default()
        },
    );
    keep_focus(element.into(), focus);
}

/// Puts the keyboard's focus back where it was in the viewer (an embed's first Tab brings the app,
/// whose markup replaces the viewer's), once the app's chart has drawn its rows.
fn keep_focus(host: web_sys::Element, place: Option<u32>) {
    if let Some(place) = place {
        browser::after_next_paint(move || viewer::focus_place(&host, place));
    }
}

/// What the page opens with: whether it is an embed (`?embed=1`), its address fragment, and the
/// autosaved text. An embedded chart must neither read nor overwrite the user's own autosaved work.
fn page_parts() -> (bool, String, Option<String>) {
    let (search, hash) = browser::location_parts();
    let embed = link::embed_mode(&search);
    let saved = if embed {
        None
    } else {
        browser::storage_get(link::AUTOSAVE_KEY)
    };
    (embed, hash, saved)
}

/// The reader's clock for the plan on screen: the chosen zone's offsets over the weeks the plan spans
/// (recomputed only when the zone or those weeks change), provided to every component below.
fn provide_clock(plan: Signal<Option<Arc<Plan>>>, persist: bool) -> ClockCtx {
    let saved: ZoneChoice = if persist {
        browser::storage_get(clock::ZONE_KEY)
    } else {
        None
    };
    let choice = RwSignal::new(saved.clone());
    // Whole weeks around the plan, with room to pan: a new zone is asked for only when they change.
    let span_weeks = move |p: &Option<Arc<Plan>>| {
        p.as_ref().map(|p| {
            let end = p.end.unwrap_or(p.start).max(p.start);
            let week = 7 * DAY.0;
            (
                (p.start.0 - 60 * DAY.0).div_euclid(week),
                (end.0 + 120 * DAY.0).div_euclid(week),
            )
        })
    };
    let zone_over = |name: Option<&str>, weeks: Option<(i64, i64)>| {
        let (from, to) = weeks.unwrap_or((0, 1));
        let week = 7 * DAY.0;
        clock::zone_over(name, Time(from * week), Time(to * week))
    };
    // The zone is asked for again only when the choice or those weeks change, and set only when it
    // differs (as a memo would compare it). A signal an effect keeps, not a memo of the plan: a view
    // that reads the zone before the plan would otherwise, checking the zone, recompute the plan's
    // analysis itself and then miss that the analysis changed (it re-ran for someone else), keeping
    // the previous plan on screen; and a memo of this value type would cost its own copy of Leptos'
    // memo code in the first visit.
    let mut asked = (saved.clone(), plan.with_untracked(span_weeks));
    let zone = RwSignal::new(Arc::new(zone_over(asked.0.as_deref(), asked.1)));
    dom::effect(move |_| {
        let w = plan.with(span_weeks);
        if choice.with(|c| *c == asked.0) && w == asked.1 {
            return;
        }
        asked = (choice.get_untracked(), w);
        let z = zone_over(asked.0.as_deref(), w);
        if zone.with_untracked(|old| **old != z) {
            zone.set(Arc::new(z));
        }
    });
    let ctx = ClockCtx { zone, choice };
    provide_context(ctx);
    ctx
}

/// What a planner opens with.
#[derive(Default)]
pub struct PlannerArgs {
    pub initial: String,
    /// A message shown above everything (e.g. why a link could not be opened).
    pub banner: Option<String>,
    /// Embed mode: the chart alone, read-only.
    pub embed: bool,
    /// Mirror the text into the address bar and localStorage.
    pub persist: bool,
}

/// Appends a planner to `parent`, under a reactive owner of its own that lives as long as the page.
pub fn mount_planner(parent: &web_sys::Element, args: PlannerArgs) {
    // No Leptos mount starts the executor that runs effects (`dom` says why there is none).
    let _ = any_spawner::Executor::init_wasm_bindgen();
    let owner = Owner::new();
    let app = owner.with(|| planner(args));
    let _ = parent.append_child(&app);
    std::mem::forget(owner);
}

/// The planner on a given text, made with plain DOM calls ([`dom`]); its effects start once the
/// caller has placed it.
///
/// The chart and the summary are drawn with the main module's code alone; the editing side (the
/// [`workbench`]) is fetched meanwhile and takes its places when it arrives, and the core's optional
/// parts ([`kinds`]) when a text first needs one.
pub fn planner(args: PlannerArgs) -> web_sys::HtmlElement {
    let PlannerArgs {
        initial,
        banner,
        embed,
        persist,
    } = args;
    let text = RwSignal::new(initial.clone());
    let committed = RwSignal::new(initial.clone());
    let history = RwSignal::new(History::new(initial));
    let banner = RwSignal::new(banner);
    let pending: StoredValue<Option<TimeoutHandle>> = StoredValue::new(None);
    // How long the last re-plan took, ms; shown in the summary for the performance report.
    let replan_ms = StoredValue::new(0.0_f64);

    let kinds = Kinds::new();
    // A pasted status is projected from now by the live part (status_view); anything else is planned as
    // written with the parts this page has.
    let live_clock = status_view::provide_live_clock();
    let analysis = Memo::new(move |prev: Option<&Analysis>| {
        let parts = kinds.parts();
        let t0 = browser::now_ms();
        let a = committed.with(|t| {
            status_view::analyse(t, prev, live_clock).unwrap_or_else(|| match kinds.again() {
                Some(again) => again(t, prev, &parts),
                None => analysis::analyse_with(t, prev, &parts),
            })
        });
        replan_ms.set_value(browser::now_ms() - t0);
        kinds.fetch(&a.missing);
        // The memo drops the previous analysis once this one is in; its plan and scenario are freed
        // after the new chart is painted instead.
        if let Some(p) = prev {
            browser::drop_after_paint((p.plan.clone(), p.scenario.clone()));
        }
        a
    });
    let base_plan = Signal::derive(move || analysis.with(|a| a.plan.clone()));
    // A live plan's range arrives later, drawn in chunks between frames.
    let ranged = RwSignal::new(None);
    status_view::draw_ranges(base_plan, ranged);
    let plan = Signal::derive(move || status_view::with_range(base_plan.get(), ranged));
    let stale = Signal::derive(move || analysis.with(|a| a.stale));
    provide_clock(plan, persist);

    let doc = dom::document().expect("a document");
    let app = dom::element(
        "div",
        &[("class", if embed { "app app-embed" } else { "app" })],
    )
    .expect("a document");
    // The banner, before this comment while there is a message; its button dismisses it.
    let banner_at: web_sys::Node = doc.create_comment("").into();
    let banner_el = dom::element(
        "div",
        &[
            ("class", "banner"),
            ("role", "alert"),
            ("data-testid", "banner"),
        ],
    )
    .expect("a document");
    banner_el
        .set_inner_html(r#"<span></span><button aria-label="dismiss this message">×</button>"#);
    dom::listen(&banner_el, &["click"], move |ev| {
        if dom::target_of(&ev).is_some_and(|t| t.closest("button").ok().flatten().is_some()) {
            banner.set(None);
        }
    });
    let at = banner_at.clone();
    dom::effect(move |_| match banner.get() {
        Some(b) => {
            if let Ok(Some(span)) = banner_el.query_selector("span") {
                span.set_text_content(Some(&b));
            }
            if !banner_el.is_connected() {
                if let Some(parent) = at.parent_node() {
                    let _ = parent.insert_before(&banner_el, Some(&at));
                }
            }
        }
        None => banner_el.remove(),
    });

    if embed {
        let _ = app.append_child(&banner_at);
        let _ = app.append_child(&summary::embed_caption(plan, committed));
        // Why there is no plan, while the text does not load.
        let reason = dom::element(
            "p",
            &[
                ("class", "stale-reason"),
                ("role", "status"),
                ("data-testid", "stale-reason"),
            ],
        )
        .expect("a document");
        let reason_at: web_sys::Node = doc.create_comment("").into();
        let _ = app.append_child(&reason_at);
        let at = reason_at.clone();
        dom::effect(move |_| {
            let why = analysis.with(|a| a.plan.is_none().then(|| a.stale_reason.clone()).flatten());
            match why {
                Some(why) => {
                    reason.set_inner_html(&format!(
                        "<strong>No plan: the text does not load. </strong>{}",
                        xml_escape(&why)
                    ));
                    if !reason.is_connected() {
                        if let Some(parent) = at.parent_node() {
                            let _ = parent.insert_before(&reason, Some(&at));
                        }
                    }
                }
                None => reason.remove(),
            }
        });
        let stands_at: web_sys::Node = doc.create_comment("").into();
        let _ = app.append_child(&stands_at);
        status_view::where_it_stands(app.clone().into(), stands_at, plan);
        let _ = app.append_child(&chart::gantt_chart(plan, stale, true, None));
        return app;
    }

    // Commits a text now: records it for undo and lets the plan follow. `committed` is always the
    // history's current version, so one comparison (a pass over the text in an edit's repaint) tells
    // both whether there is anything to record and whether the plan must follow.
    let commit = move |t: String| {
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        pending.set_value(None);
        if committed.with_untracked(|c| *c == t) {
            return;
        }
        history.update(|h| h.record_new(t.clone()));
        committed.set(t);
        // Edits that follow this one are read with the memo part, once it is here.
        kinds.fetch_memo();
    };
    let schedule = move |()| {
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        let h = set_timeout_with_handle(move || commit(text.get_untracked()), DEBOUNCE).ok();
        pending.set_value(h);
    };
    // Texts set from elsewhere than the editor's text area, which the editor writes into it.
    let replaced = Trigger::new();
    let replace_text = move |t: String| {
        text.set(t.clone());
        replaced.notify();
        commit(t);
    };
    let step = move |back: bool| {
        commit(text.get_untracked());
        if let Some(t) = history
            .try_update(|h| {
                if back {
                    h.undo().map(str::to_string)
                } else {
                    h.redo().map(str::to_string)
                }
            })
            .flatten()
        {
            text.set(t.clone());
            replaced.notify();
            committed.set(t);
        }
    };

    // A status saved from kubectl, dropped anywhere on the page, replaces the text.
    status_view::accept_drops(replace_text);

    // The plan compared with (the workbench's comparison sets it); both charts then share one window.
    let other: RwSignal<Option<Arc<Plan>>> = RwSignal::new(None);
    // Derived, not a memo: its readers (each chart's view memo) follow the plan already and compare
    // what they make, and a memo of this value type would cost its own copy of Leptos' memo code in
    // the first visit.
    let span = Signal::derive(move || {
        plan.with(|a| other.with(|b| Some(chart::shared_span(a.as_ref()?, b.as_ref()?))))
    });
    let bench = Part::<BenchKit>::new();
    let args = BenchArgs {
        text,
        replaced,
        committed,
        history,
        banner,
        analysis,
        plan: base_plan,
        other,
        span,
        persist,
        commit: Callback::new(commit),
        schedule: Callback::new(schedule),
        replace_text: Callback::new(replace_text),
        step: Callback::new(step),
    };
    // The shell until the workbench arrives: the title bar's heading, and room for the rest.
    let top = dom::element("header", &[("class", "top")]).expect("a document");
    top.set_inner_html(
        r#"<h1>fleetplan</h1><span class="tagline">rollouts across fleets, projected before they run</span>"#,
    );
    let layout = dom::element("main", &[("class", "layout")]).expect("a document");
    let editor = dom::element(
        "section",
        &[("class", "editor"), ("aria-label", "scenario")],
    )
    .expect("a document");
    let results = dom::element("section", &[("class", "results"), ("aria-label", "plan")])
        .expect("a document");
    let stands_at: web_sys::Node = doc.create_comment("").into();
    let bar_at: web_sys::Node = doc.create_comment("").into();
    let _ = results.append_child(&summary::summary(analysis, replan_ms));
    let _ = results.append_child(&stands_at);
    status_view::where_it_stands(results.clone().into(), stands_at, plan);
    let _ = results.append_child(&bar_at);
    let _ = results.append_child(&chart::gantt_chart(plan, stale, false, Some(span)));
    let _ = layout.append_child(&editor);
    let _ = layout.append_child(&results);
    let _ = app.append_child(&top);
    let _ = app.append_child(&banner_at);
    let _ = app.append_child(&layout);

    // The workbench is built once, when it arrives, and its elements put in their places.
    let built = StoredValue::new(false);
    // Asked for once the first chart is on screen: fetching and linking its chunks must not hold up
    // the frame that shows a share link's chart. (A planner gone by then asks for nothing.)
    browser::after_next_paint(move || {
        if built.try_get_value().is_some() {
            bench.fetch(workbench::bench_kit);
        }
    });
    dom::effect(move |_| {
        let Some(kit) = bench.loaded() else { return };
        if built.get_value() {
            return;
        }
        built.set_value(true);
        let v: BenchViews = untrack(|| (kit.build)(args));
        let _ = top.replace_with_with_node_1(&v.header);
        let _ = editor.append_child(&v.editor);
        let _ = results.insert_before(&v.compare_bar, Some(&bar_at));
        let _ = results.append_child(&v.comparison);
    });
    app
}
