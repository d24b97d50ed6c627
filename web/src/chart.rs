//! The Gantt chart: draws what `fleetplan::gantt::layout` computed, as SVG, with only the rows in view in
//! the DOM.
//!
//! Every coordinate comes from the core's layout; this module only chooses the view (zoom, pan, collapsed
//! stages, the measured width, the reader's time zone) and handles the reader's input. What it draws
//! (axis, rows, availability, legend) is markup written by `chart_markup`, the viewer's writer, one
//! `innerHTML` per part, rather than a Leptos view per row and bar (which made this the app's largest
//! chunk). The axis is a separate SVG above a scrolling body so it stays visible; the body's SVG is as tall as the whole
//! chart, but holds only the rows that `gantt::visible_rows` names for the current scroll position, so
//! 10,000 clusters cost tens of rows. Clicks, focus and keys are handled once for the body (`data-pos`
//! and `data-stage` say which bar or stage). The frame's controls (toolbar, playback bar, foot) and the
//! snapshot at the cursor are `chart_markup`'s markup too: one click, input and change listener on the
//! chart reads `data-act` (or the input's kind), and effects set what changes (labels, the slider, the
//! cursor's time) on those elements. The section itself holds `chart_markup::frame_html`, written once:
//! one listener on it takes every event by its type and where it happened (the axis, the rows, the
//! body), and effects rewrite the axis, the backdrop, the availability strip and the cursor's lines;
//! Leptos keeps only the state (signals, memos, effects) and the live layer, mounted into the rows.
//! It never imports the editor: the read-only chart (embed mode, the JavaScript API, the web
//! component) is this module and the summary alone.
//!
//! By keyboard the bars are one tab stop: the arrow keys move between bars and rows (the chart scrolls
//! rows into the DOM as needed), Enter keeps a bar's description under the chart, and every bar's
//! accessible name is its tooltip (what, when, why). By touch, one finger pans and two pinch-zoom.

use std::fmt::Write;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use fleetplan::export::xml_escape;
use fleetplan::gantt::{self, Chart, Row, View};
use fleetplan::playback::{self, ClusterActivity, Snapshot, StageActivity};
use fleetplan::time::Time;
use fleetplan::zone::Zone;
use fleetplan::Plan;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::chart_markup::{self as markup, label_width_for, viewport_height, LABEL_WIDTH};
use crate::clock;
use crate::{browser, dom, morph};

/// Height of the two-tier axis, px (the same as the SVG export's).
const AXIS_HEIGHT: f64 = gantt::AXIS_HEIGHT;
/// Rows a printed chart shows in full; a longer plan prints its stage rows only, to fit one page.
const PRINT_ROWS: usize = 60;
/// Width of the time area when printing, px (a landscape page).
const PRINT_WIDTH: f64 = 820.0;

/// A laid-out chart and a number that changes whenever it is laid out again (the memo that holds it
/// compares that number, not 10,000 rows).
#[derive(Clone)]
pub struct Laid {
    pub generation: u64,
    pub chart: Arc<Chart>,
}

impl PartialEq for Laid {
    fn eq(&self, other: &Self) -> bool {
        // Comparing generations instead of 10,000 rows keeps the memo cheap.
        self.generation == other.generation
    }
}

static GENERATION: AtomicU64 = AtomicU64::new(1);

/// Pointers down on the chart: (pointer id, client x, client y).
type Pointers = Vec<(i32, f64, f64)>;

/// Rows of the plan's chart with every stage open.
fn row_count(p: &Plan) -> usize {
    p.stages.iter().map(|s| 1 + s.clusters.len()).sum::<usize>() + p.unstaged.len()
}

/// The names of the plan's stages (what "collapse all" folds).
fn stage_names(p: &Plan) -> Vec<String> {
    p.stages.iter().map(|s| s.name.clone()).collect()
}

/// What identifies "the same timeline": a view zoomed on one plan is kept across edits of it, but not
/// carried over to another example with another start.
fn plan_key(plan: &Plan) -> (String, Time) {
    (plan.run.clone(), plan.start)
}

/// The bar `(row, bar)` a key moves the keyboard focus to, from `at`; `None` when it goes nowhere.
/// Left/Right step through bars (on to the next row at the end), Up/Down to the nearest bar in time of
/// the previous/next row that has bars, Home/End to a row's first/last bar.
pub fn next_bar(chart: &Chart, at: (usize, usize), key: &str) -> Option<(usize, usize)> {
    let rows = &chart.rows;
    let (r, b) = at;
    let row = rows.get(r)?;
    fn with_bars(rows: &[Row], mut range: impl Iterator<Item = usize>) -> Option<usize> {
        range.find(|&i| !rows[i].bars.is_empty())
    }
    let nearest = |target: usize| {
        let x = row.bars.get(b).map_or(0.0, |bar| bar.x);
        rows[target]
            .bars
            .iter()
            .enumerate()
            .min_by(|a, c| (a.1.x - x).abs().total_cmp(&(c.1.x - x).abs()))
            .map(|(i, _)| (target, i))
    };
    match key {
        "ArrowRight" if b + 1 < row.bars.len() => Some((r, b + 1)),
        "ArrowRight" => with_bars(rows, r + 1..rows.len()).map(|n| (n, 0)),
        "ArrowLeft" if b > 0 => Some((r, b - 1)),
        "ArrowLeft" => with_bars(rows, (0..r).rev()).map(|p| (p, rows[p].bars.len() - 1)),
        "ArrowDown" => with_bars(rows, r + 1..rows.len()).and_then(nearest),
        "ArrowUp" => with_bars(rows, (0..r).rev()).and_then(nearest),
        "Home" => (!row.bars.is_empty()).then_some((r, 0)),
        "End" => row.bars.len().checked_sub(1).map(|l| (r, l)),
        _ => None,
    }
}

/// The window two charts compared side by side show: from the earlier fitted start to the later
/// fitted end.
pub fn shared_span(a: &Plan, b: &Plan) -> (Time, Time) {
    let (va, vb) = (View::fit(a, 1000.0), View::fit(b, 1000.0));
    (va.start.min(vb.start), va.end.max(vb.end))
}

/// The interactive chart's `<section>`, made with plain DOM calls (see [`crate::dom`]); its effects
/// run once the caller has placed it in the page (they start after the task that made it).
///
/// `plan`: the plan to draw (`None` shows a placeholder); `stale`: the plan belongs to an earlier text,
/// drawn dimmed with a note; `embed`: embedded (iframe, web component, API), compact, the body fills
/// the height it is given; `span`: a time window to fit instead of this plan's own (two charts compared
/// side by side share one).
pub fn gantt_chart(
    plan: Signal<Option<Arc<Plan>>>,
    stale: Signal<bool>,
    embed: bool,
    span: Option<Signal<Option<(Time, Time)>>>,
) -> web_sys::HtmlElement {
    let zone = clock::use_zone();
    let section = dom::element(
        "section",
        &[
            ("class", if embed { "chart embed" } else { "chart" }),
            ("data-testid", "chart"),
            ("aria-label", "rollout chart"),
        ],
    )
    .expect("a document");
    let root = dom::Root::new(section.clone());
    // The scrolling body, inside the section's markup.
    let body_of = |root: Option<web_sys::HtmlElement>| {
        root?
            .query_selector(".chart-body")
            .ok()??
            .dyn_into::<web_sys::HtmlElement>()
            .ok()
    };
    let body_ref = move || body_of(root.get());
    // Width of the time area, the label column and the scroll state of the body, measured from the DOM.
    let width = RwSignal::new(900.0_f64);
    let label_w = RwSignal::new(LABEL_WIDTH);
    let scroll_top = RwSignal::new(0.0_f64);
    let viewport = RwSignal::new(600.0_f64);
    // The user's zoom/pan for one plan; `None` (or another plan) means "fit the whole run".
    let user_view: RwSignal<Option<((String, Time), View)>> = RwSignal::new(None);
    let collapsed: RwSignal<Vec<String>> = RwSignal::new(Vec::new());
    let selected: RwSignal<Option<String>> = RwSignal::new(None);
    // Pointers down on the body (mouse, pen, fingers): id and position; with the view when the gesture
    // began, for dragging (one) and pinching (two). `dragged`: it moved, so it is not a click.
    let pointers: StoredValue<Pointers> = StoredValue::new(Vec::new());
    let gesture: StoredValue<Option<(View, Pointers)>> = StoredValue::new(None);
    let dragged = RwSignal::new(false);
    // Playback: the time cursor (set by dragging on the axis, the slider, typing, or the play timer).
    let cursor: RwSignal<Option<Time>> = RwSignal::new(None);
    let playing = RwSignal::new(false);
    let timer: StoredValue<Option<IntervalHandle>> = StoredValue::new(None);
    let axis_drag = RwSignal::new(false);
    // The bar that has the keyboard focus, as (row, bar) of the current layout.
    let focus_pos: RwSignal<Option<(usize, usize)>> = RwSignal::new(None);
    let printing = RwSignal::new(false);

    let measure = move || {
        if let Some(el) = body_of(root.get()) {
            let inner = el.client_width() as f64;
            let lw = label_width_for(inner);
            set_signal_changed(label_w, lw);
            // Fit means fit: the time area takes exactly the width left, however narrow.
            set_signal_changed(width, (inner - lw - 4.0).max(60.0));
            set_signal_changed(viewport, viewport_height(&el));
        }
    };
    dom::effect(move |_| {
        if root.get().is_some() {
            measure();
        }
    });
    // The handles are not removed on unmount: the closures only use try_ accessors, so after unmount
    // they do nothing.
    let _ = window_event_listener(leptos::ev::resize, move |_| measure());
    let _ = window_event_listener(leptos::ev::beforeprint, move |_| {
        let _ = printing.try_set(true);
    });
    let _ = window_event_listener(leptos::ev::afterprint, move |_| {
        let _ = printing.try_set(false);
        request_animation_frame(measure);
    });

    let view = Memo::new(move |_| {
        let print = printing.get();
        let w = if print { PRINT_WIDTH } else { width.get() };
        let z = zone.get();
        plan.with(|p| {
            p.as_ref().map(|p| {
                // The row count and stage names are worked out here, not in memos of their own: this
                // memo follows the plan already, and each memo of another value type costs its own
                // copy of Leptos' memo code in the first visit.
                let folded = if print && row_count(p) > PRINT_ROWS {
                    stage_names(p)
                } else {
                    collapsed.get()
                };
                let key = plan_key(p);
                let base = match (user_view.get(), span.and_then(|s| s.get())) {
                    (Some((k, v)), _) if k == key && !print => View { width: w, ..v },
                    (_, Some((start, end))) => View {
                        start,
                        end,
                        ..View::fit(p, w)
                    },
                    _ => View::fit(p, w),
                };
                View {
                    collapsed: folded,
                    zone: (*z).clone(),
                    ..base
                }
            })
        })
    });
    let laid = Memo::new(move |prev: Option<&Option<Laid>>| {
        // The previous layout is freed after the new one is painted (see `browser::drop_after_paint`).
        if let Some(Some(p)) = prev {
            browser::drop_after_paint(p.chart.clone());
        }
        let v = view.get()?;
        plan.with(|p| {
            p.as_ref().map(|p| Laid {
                generation: GENERATION.fetch_add(1, Ordering::Relaxed),
                chart: Arc::new(gantt::layout_untitled(p, &v)),
            })
        })
    });
    // The rows in view. A function, not a memo: a memo of this value type would cost its own copy of
    // Leptos' memo code in the first visit; its tracked readers (the rows' and the tab stop's effects)
    // keep their last answer instead and skip when it has not changed, so scrolling within the same
    // rows still draws nothing.
    let visible = move || -> Range<usize> {
        laid.with(|l| {
            l.as_ref().map_or(0..0, |l| {
                if printing.get() {
                    0..l.chart.rows.len()
                } else {
                    gantt::visible_rows(&l.chart, scroll_top.get(), viewport.get())
                }
            })
        })
    };
    // The body's height follows the chart's (up to a cap), so measure again after each new layout has
    // been drawn: a short chart replaced by a long one must not keep the short one's viewport.
    dom::effect(move |_| {
        laid.track();
        request_animation_frame(measure);
    });

    // The span the cursor can travel: the run, or up to where the fitted view ends when it never ends.
    // Read from the plan, not kept in a memo (a memo of this value type would cost its own copy of
    // Leptos' memo code in the first visit): its two tracked readers, the effects below, keep their
    // last answer and skip when it is the same.
    let bounds_of = |p: &Option<Arc<Plan>>| {
        p.as_ref()
            .map(|p| (p.start, p.end.unwrap_or(View::fit(p, 1000.0).end)))
    };
    let stop = move || {
        if let Some(Some(h)) = timer.try_get_value() {
            h.clear();
        }
        let _ = timer.try_set_value(None);
        let _ = playing.try_set(false);
    };
    // About 20 seconds for the whole run, whatever its length, at 10 frames a second.
    let play = move || {
        let Some((s, e)) = plan.with_untracked(bounds_of) else {
            return;
        };
        if cursor.get_untracked().is_none_or(|t| t >= e || t < s) {
            cursor.set(Some(s));
        }
        playing.set(true);
        let tick = move || {
            let Some(Some((s, e))) = plan.try_with_untracked(bounds_of) else {
                stop();
                return;
            };
            let step = ((e.0 - s.0) / 200).max(1_000);
            let next = cursor
                .try_get_untracked()
                .flatten()
                .map_or(s, |t| Time(t.0 + step));
            if next >= e {
                let _ = cursor.try_set(Some(e));
                stop();
            } else {
                let _ = cursor.try_set(Some(next));
            }
        };
        let handle = set_interval_with_handle(tick, std::time::Duration::from_millis(100)).ok();
        timer.set_value(handle);
    };
    let cursor_from_axis = move |ev: &web_sys::MouseEvent, el: &web_sys::Element| {
        let x =
            ev.client_x() as f64 - el.get_bounding_client_rect().left() - label_w.get_untracked();
        if let Some(v) = view.get_untracked() {
            stop();
            cursor.set(Some(v.time_at(x.max(0.0))));
        }
    };
    // The cursor's line across the axis and the rows, each drawn last in its SVG (over the bars and
    // the live layer); read untracked, so the frame's effect can draw it again in an axis it rewrote.
    let draw_cursor = move || {
        let Some(root) = root.get() else {
            return;
        };
        let x = cursor
            .get_untracked()
            .and_then(|t| view.with_untracked(|v| v.as_ref().map(|v| v.x_at(t))));
        let x = x.map(|x| markup::num(x + label_w.get_untracked()));
        let h = laid.with_untracked(|l| l.as_ref().map_or(0.0, |l| l.chart.height));
        for (svg, h) in [("svg.axis", AXIS_HEIGHT), ("svg.rows", h)] {
            let Ok(Some(svg)) = root.query_selector(svg) else {
                continue;
            };
            if let Ok(Some(old)) = svg.query_selector(":scope > line.cursor") {
                old.remove();
            }
            if let Some(x) = &x {
                let _ = svg.insert_adjacent_html(
                    "beforeend",
                    &format!(r#"<line class="cursor" x1="{x}" y1="0" x2="{x}" y2="{h}"></line>"#),
                );
            }
        }
    };

    // Every change of view goes through here, tied to the plan it was made on.
    let set_view = move |f: &dyn Fn(&View) -> View| {
        let (Some(v), Some(p)) = (view.get_untracked(), plan.get_untracked()) else {
            return;
        };
        user_view.set(Some((plan_key(&p), f(&v))));
    };
    let zoom = move |factor: f64| set_view(&|v| v.zoom(factor, v.width / 2.0));
    let pan = move |fraction: f64| set_view(&|v| v.pan(v.width * fraction));
    let fit = move || user_view.set(None);
    let toggle_stage = move |name: String| {
        collapsed.update(|c| {
            if let Some(i) = c.iter().position(|n| *n == name) {
                c.remove(i);
            } else {
                c.push(name);
            }
        })
    };

    // x of a client position inside the time area.
    let time_x = move |client_x: f64| {
        body_ref().map_or(0.0, |el| {
            client_x - el.get_bounding_client_rect().left() - label_w.get_untracked()
        })
    };
    let on_wheel = move |ev: web_sys::WheelEvent| {
        if ev.ctrl_key() || ev.meta_key() {
            // Ctrl+wheel (and the trackpad pinch, which browsers report as one) zooms around the pointer.
            ev.prevent_default();
            let factor = if ev.delta_y() < 0.0 { 1.25 } else { 0.8 };
            let a = time_x(ev.client_x() as f64);
            set_view(&|v| v.zoom(factor, a));
        } else if ev.shift_key() || ev.delta_x().abs() > ev.delta_y().abs() {
            ev.prevent_default();
            let d = if ev.delta_x() != 0.0 {
                ev.delta_x()
            } else {
                ev.delta_y()
            };
            set_view(&|v| v.pan(d));
        }
    };
    // One pointer drags the timeline (content follows it); two pinch-zoom around their middle.
    let on_pointerdown = move |ev: web_sys::PointerEvent| {
        if ev.pointer_type() == "mouse" && ev.button() != 0 {
            return;
        }
        let Some(v) = view.get_untracked() else {
            return;
        };
        pointers.update_value(|p| {
            p.retain(|(id, _, _)| *id != ev.pointer_id());
            p.push((ev.pointer_id(), ev.client_x() as f64, ev.client_y() as f64));
        });
        gesture.set_value(Some((v, pointers.get_value())));
        dragged.set(false);
    };
    let on_pointermove = move |ev: web_sys::PointerEvent| {
        let id = ev.pointer_id();
        let mut known = false;
        pointers.update_value(|p| {
            if let Some(e) = p.iter_mut().find(|(i, _, _)| *i == id) {
                *e = (id, ev.client_x() as f64, ev.client_y() as f64);
                known = true;
            }
        });
        if !known {
            return;
        }
        if ev.pointer_type() == "mouse" && ev.buttons() & 1 == 0 {
            pointers.set_value(Vec::new());
            gesture.set_value(None);
            return;
        }
        let Some((v0, start)) = gesture.get_value() else {
            return;
        };
        let now = pointers.get_value();
        match (start.as_slice(), now.as_slice()) {
            ([a0, b0], [a1, b1]) => {
                let d0 = ((a0.1 - b0.1).powi(2) + (a0.2 - b0.2).powi(2))
                    .sqrt()
                    .max(1.0);
                let d1 = ((a1.1 - b1.1).powi(2) + (a1.2 - b1.2).powi(2))
                    .sqrt()
                    .max(1.0);
                let mid = time_x((a0.1 + b0.1) / 2.0);
                dragged.set(true);
                set_view(&|_| v0.zoom(d1 / d0, mid));
            }
            ([a0], [a1]) => {
                let dx = a1.1 - a0.1;
                if dx.abs() > 3.0 || dragged.get_untracked() {
                    dragged.set(true);
                    // Dragging right shows earlier times: the content follows the pointer.
                    set_view(&|_| v0.pan(-dx));
                }
            }
            _ => {}
        }
    };
    let on_pointerup = move |ev: web_sys::PointerEvent| {
        pointers.update_value(|p| p.retain(|(id, _, _)| *id != ev.pointer_id()));
        // The remaining finger of a pinch starts a fresh drag from here.
        let rest = pointers.get_value();
        gesture.set_value(if rest.is_empty() {
            None
        } else {
            view.get_untracked().map(|v| (v, rest))
        });
    };

    let on_scroll = move || {
        if let Some(el) = body_ref() {
            scroll_top.set(el.scroll_top() as f64);
            set_signal_changed(viewport, viewport_height(&el));
        }
    };

    // Keyboard: the arrow keys move the focus between bars, scrolling rows into the DOM as needed.
    let focus_bar = move |pos: (usize, usize)| {
        let Some(l) = laid.get_untracked() else {
            return;
        };
        let Some(row) = l.chart.rows.get(pos.0) else {
            return;
        };
        if let Some(el) = body_ref() {
            let (top, h) = (el.scroll_top() as f64, viewport_height(&el));
            if row.y < top || row.y + row.height > top + h {
                el.set_scroll_top((row.y - h / 3.0).max(0.0) as i32);
                scroll_top.set(el.scroll_top() as f64);
            }
        }
        focus_pos.set(Some(pos));
        let focus = move || {
            let el = body_ref()?;
            let selector = format!("[data-pos=\"{}:{}\"]", pos.0, pos.1);
            let bar = el.query_selector(&selector).ok()??;
            bar.dyn_into::<web_sys::SvgElement>().ok()?.focus().ok()
        };
        // A bar already drawn takes the focus now; one scrolled into view, once it is drawn.
        if focus().is_none() {
            request_animation_frame(move || {
                let _ = focus();
            });
        }
    };
    // Clicks and focus on bars are handled here, once for the chart, rather than by two listeners on
    // every bar: each edit redraws the rows in view, and their listeners were a good part of that.
    let on_rows_click = move |ev: web_sys::MouseEvent| {
        if dragged.get_untracked() {
            return;
        }
        if let Some(stage) = stage_label_of(ev.target()) {
            toggle_stage(stage);
        } else if let Some(bar) = bar_of(ev.target()) {
            selected.set(bar.text_content());
        }
    };
    let on_rows_focus = move |ev: web_sys::FocusEvent| {
        if let Some(pos) = bar_of(ev.target()).and_then(|b| bar_pos(&b)) {
            focus_pos.set(Some(pos));
        }
    };
    let on_rows_key = move |ev: web_sys::KeyboardEvent| {
        let key = ev.key();
        // Stage labels are buttons: Enter or Space toggles them like a click.
        if key == "Enter" || key == " " {
            if let Some(stage) = stage_label_of(ev.target()) {
                ev.prevent_default();
                toggle_stage(stage);
                return;
            }
        }
        let Some(pos) = focus_pos.get_untracked() else {
            return;
        };
        if key == "Enter" || key == " " {
            ev.prevent_default();
            let title = laid.with_untracked(|l| {
                let l = l.as_ref()?;
                let row = l.chart.rows.get(pos.0)?;
                let bar = row.bars.get(pos.1)?;
                plan.with_untracked(|p| {
                    p.as_ref()
                        .map(|p| gantt::title_in(p, row, bar, &zone.get_untracked()))
                })
            });
            selected.set(title);
            return;
        }
        let next = laid.with_untracked(|l| l.as_ref().and_then(|l| next_bar(&l.chart, pos, &key)));
        if let Some(n) = next {
            ev.prevent_default();
            focus_bar(n);
        }
    };
    // The tab stop: the focused bar, or the first bar of the first rows in view.
    // A function, not a memo: its one tracked reader (the roving tab stop's effect) keeps the last
    // answer instead, as a memo of another value type would cost its own copy of Leptos' memo code.
    let tab_stop = move || {
        if let Some(p) = focus_pos.get() {
            return Some(p);
        }
        laid.with(|l| {
            let l = l.as_ref()?;
            let r = visible();
            (r.start..r.end.min(l.chart.rows.len()))
                .find(|&i| !l.chart.rows[i].bars.is_empty())
                .map(|i| (i, 0))
        })
    };
    // A new layout renumbers nothing, but a focus past its rows is dropped.
    dom::effect(move |_| {
        let n = laid.with(|l| l.as_ref().map_or(0, |l| l.chart.rows.len()));
        if focus_pos.get_untracked().is_some_and(|(r, _)| r >= n) {
            focus_pos.set(None);
        }
    });

    // The axis (or why there is none), the rows SVG's size, clip path and backdrop, and the
    // availability strip are markup written by `chart_markup` (as the viewer writes them), set when
    // the layout, the view or the label column change; in place of what they last wrote (`morph`).
    let mut written: [String; 4] = Default::default();
    dom::effect(move |_| {
        let lw = label_w.get();
        let total = width.get() + lw;
        let (axis, height, defs, backdrop) = laid.with(|l| match l {
            Some(l) => (
                Some(markup::axis_html(&l.chart, lw)),
                l.chart.height,
                markup::rows_defs(lw, l.chart.height),
                markup::backdrop(&l.chart),
            ),
            None => (None, 0.0, markup::rows_defs(lw, 0.0), String::new()),
        });
        // A rolling update's available clusters over time, on the chart's time axis.
        let avail = view.with(|v| {
            plan.with(|p| markup::availability_html(p.as_ref()?, v.as_ref()?, lw, total))
        });
        let Some(root) = root.get() else { return };
        let find = |sel: &str| root.query_selector(sel).ok().flatten();
        let (total, height) = (markup::num(total), markup::num(height));
        let [was_axis, was_defs, was_backdrop, was_avail] = &mut written;
        match (axis, find("svg.axis"), find(".chart-empty")) {
            (Some(html), None, Some(p)) => {
                let _ = p.insert_adjacent_html("afterend", markup::AXIS_EMPTY);
                p.remove();
                // A new axis element: nothing written in it yet.
                was_axis.clear();
                if let Some(svg) = find("svg.axis") {
                    draw_axis(&svg, was_axis, html, &total);
                }
            }
            (Some(html), Some(svg), _) => draw_axis(&svg, was_axis, html, &total),
            (None, Some(svg), _) => {
                let _ = svg.insert_adjacent_html("afterend", markup::NO_PLAN);
                svg.remove();
            }
            _ => {}
        }
        if let Some(svg) = find("svg.rows") {
            dom::set_attribute_changed(&svg, "width", &total);
            dom::set_attribute_changed(&svg, "height", &height);
        }
        if let Some(g) = find("svg.rows > g:first-child") {
            morph::update(&g, was_defs, defs);
        }
        if let Some(g) = find("svg.rows > g.backdrop") {
            dom::set_attribute_changed(&g, "transform", &format!("translate({lw},0)"));
            morph::update(&g, was_backdrop, backdrop);
        }
        if let Some(b) = find(".avail-box") {
            morph::update(&b, was_avail, avail.unwrap_or_default());
        }
        draw_cursor();
    });
    dom::effect(move |_| {
        cursor.track();
        draw_cursor();
    });
    // The rows in view: one string, set when the layout, the label column or the rows in view change
    // (an edit, a zoom, scrolling), instead of a view per row and bar. Tooltips are written here, for
    // the rows in view only (see `gantt::title_in`).
    // What the rows drawn last were made from (label column, rows in view, layout): the rows in view
    // are not a memo, so this effect also wakes on scrolling within the same rows, and then skips. Its
    // first run (a new chart, a remounted section) always draws.
    let mut drawn: Option<(f64, Range<usize>, Option<u64>)> = None;
    // The rows' markup written last, or that the rows were last updated to show (see `morph`): an
    // edit that keeps the same rows in view with the same bars (a soak changed: every later bar moves)
    // sets the places, widths, tooltips and texts that changed on the elements the chart holds.
    let mut written = String::new();
    dom::effect(move |first| {
        let lw = label_w.get();
        let shown = visible();
        let key = (
            lw,
            shown.clone(),
            laid.with(|l| l.as_ref().map(|l| l.generation)),
        );
        if !first && drawn.as_ref() == Some(&key) {
            return;
        }
        drawn = Some(key);
        let html = laid.with(|l| {
            let l = l.as_ref()?;
            plan.with_untracked(|p| {
                let z = zone.get_untracked();
                let stop = untrack(tab_stop);
                Some(markup::rows_in_view(
                    p.as_ref()?,
                    &l.chart,
                    lw,
                    shown,
                    stop,
                    &z,
                ))
            })
        });
        if let Some(Ok(Some(g))) = body_of(root.get()).map(|b| b.query_selector("g.rows-in-view")) {
            let html = html.unwrap_or_default();
            let moved = !first && morph::PATCH.get().is_some_and(|m| m(&g, &written, &html));
            if !moved {
                rewrite_keeping_focus(&g, &html);
            }
            written = html;
        }
    });
    // The roving tab stop moves by two attributes, without redrawing the rows.
    let mut last_stop = None;
    dom::effect(move |first| {
        let stop = tab_stop();
        if !first && stop == last_stop {
            return;
        }
        last_stop = stop;
        let Some(body) = body_ref() else {
            return;
        };
        if let Ok(Some(old)) = body.query_selector(r#"rect.bar[tabindex="0"]"#) {
            let _ = old.set_attribute("tabindex", "-1");
        }
        let Some((r, b)) = stop else { return };
        if let Ok(Some(bar)) = body.query_selector(&format!(r#"rect.bar[data-pos="{r}:{b}"]"#)) {
            let _ = bar.set_attribute("tabindex", "0");
        }
    });

    // The typed cursor: a time on the reader's clock (or RFC 3339 with an offset).
    let typed_problem = RwSignal::new(None::<String>);
    let on_typed = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        if v.trim().is_empty() {
            typed_problem.set(None);
            return;
        }
        match zone.get_untracked().parse(&v) {
            Ok(t) => {
                stop();
                typed_problem.set(None);
                cursor.set(Some(t));
            }
            Err(e) => typed_problem.set(Some(e)),
        }
    };
    // The frame's controls are markup (`chart_markup`, as the viewer writes them); their clicks, the
    // slider's input and the typed time's change are handled here, once for the chart, by what the
    // target is (`data-act`, its type), and what they show follows the signals through the effects
    // below rather than a Leptos view per button.
    let on_act = move |ev: web_sys::MouseEvent| {
        let Some(act) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("button[data-act]").ok().flatten())
            .and_then(|b| b.get_attribute("data-act"))
        else {
            return;
        };
        match act.as_str() {
            "zoom-out" => zoom(1.0 / 1.5),
            "zoom-in" => zoom(1.5),
            "earlier" => pan(-0.4),
            "later" => pan(0.4),
            "fit" => fit(),
            "play" if playing.get_untracked() => stop(),
            "play" => play(),
            "collapse" => collapsed
                .set(plan.with_untracked(|p| p.as_deref().map(stage_names).unwrap_or_default())),
            "expand" => collapsed.set(Vec::new()),
            "clear" => {
                stop();
                cursor.set(None);
            }
            _ => {}
        }
    };
    let on_slide = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .filter(|i| i.type_() == "range")
        else {
            return;
        };
        let Ok(f) = input.value().parse::<f64>() else {
            return;
        };
        if let Some((s, e)) = plan.with_untracked(bounds_of) {
            stop();
            cursor.set(Some(Time(
                s.0 + ((e.0 - s.0) as f64 * f / 1000.0).round() as i64,
            )));
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        let typed = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| el.get_attribute("data-testid").as_deref() == Some("cursor-input"));
        if typed {
            on_typed(ev);
        }
    };
    let find = move |sel: &str| root.get()?.query_selector(sel).ok().flatten();
    dom::effect(move |_| {
        let stale = stale.get();
        let Some(section) = root.get() else { return };
        let _ = section.class_list().toggle_with_force("stale", stale);
        match (stale, find("[data-testid=stale-note]")) {
            (true, None) => {
                if let Some(bar) = find(".chart-toolbar") {
                    let _ = bar.insert_adjacent_html("beforeend", markup::STALE_NOTE);
                }
            }
            (false, Some(note)) => note.remove(),
            _ => {}
        }
    });
    let mut last_play = None;
    dom::effect(move |_| {
        let label = if playing.get() {
            "⏸ Pause"
        } else {
            "▶ Play"
        };
        let nothing = plan.with(|p| p.is_none());
        if root.get().is_none() || last_play == Some((label, nothing)) {
            return;
        }
        last_play = Some((label, nothing));
        if let Some(b) = find("[data-act=play]") {
            b.set_text_content(Some(label));
            let _ = b.toggle_attribute_with_force("disabled", nothing);
        }
    });
    // What the cursor's effect last drew with: the cursor, its span, the zone (the same zone when
    // the same `Arc`: a new zone is a new one).
    type Drawn = (Option<Time>, Option<(Time, Time)>, Arc<Zone>);
    let mut last_cursor: Option<Drawn> = None;
    dom::effect(move |_| {
        let at = cursor.get();
        let span = plan.with(bounds_of);
        let z = zone.get();
        if root.get().is_none()
            || last_cursor
                .as_ref()
                .is_some_and(|(a, s, lz)| *a == at && *s == span && Arc::ptr_eq(lz, &z))
        {
            return;
        }
        last_cursor = Some((at, span, z.clone()));
        if let Some(slider) = find(".playback input[type=range]")
            .and_then(|el| el.dyn_into::<web_sys::HtmlInputElement>().ok())
        {
            let value = match (at, span) {
                (Some(t), Some((s, e))) => {
                    let f = (t.0 - s.0) as f64 / (e.0 - s.0).max(1) as f64;
                    format!("{:.0}", (f * 1000.0).clamp(0.0, 1000.0))
                }
                _ => "0".to_string(),
            };
            slider.set_value(&value);
        }
        let Some(words) = find("[data-testid=cursor-time]") else {
            return;
        };
        let _ = words.set_attribute("data-time", &at.map(|t| t.to_string()).unwrap_or_default());
        words.set_text_content(Some(
            &at.map_or_else(|| markup::NO_CURSOR.to_string(), |t| z.human(t)),
        ));
        match (at.is_some(), find("[data-act=clear]")) {
            (true, None) => {
                let _ = words
                    .insert_adjacent_html("afterend", r#"<button data-act="clear">Clear</button>"#);
            }
            (false, Some(clear)) => clear.remove(),
            _ => {}
        }
    });
    dom::effect(move |_| {
        let problem = typed_problem.get();
        if root.get().is_none() {
            return;
        }
        if let Some(input) = find("[data-testid=cursor-input]") {
            let _ = input.set_attribute("aria-invalid", &problem.is_some().to_string());
        }
        if let Some(old) = find(".playback .field-problem") {
            old.remove();
        }
        if let (Some(p), Some(bar)) = (problem, find(".playback")) {
            let _ = bar.insert_adjacent_html(
                "beforeend",
                &format!(
                    r#"<span class="field-problem" role="alert">{}</span>"#,
                    xml_escape(&p)
                ),
            );
        }
    });
    // The snapshot at the cursor: one element kept while there is a cursor (a live region announces
    // changes of its text), between the playback bar and the foot.
    // The snapshot is taken here rather than in a memo of its own (a memo of another value type is
    // another copy of Leptos' memo code in the first visit): this effect follows the plan and the
    // cursor either way, and the text last written stands in for the memo's "unchanged, do nothing".
    let mut written: Option<String> = None;
    dom::effect(move |_| {
        let html = cursor.get().and_then(|t| {
            plan.with(|p| {
                let p = p.as_ref()?;
                let s = playback::snapshot(p, t);
                Some(snapshot_html(
                    &s,
                    &zone.get(),
                    approval_assumption(p).as_deref(),
                ))
            })
        });
        if root.get().is_none() {
            return;
        }
        let same = html == written;
        let old = std::mem::replace(&mut written, html.clone());
        match (html, find("[data-testid=snapshot]")) {
            (Some(_), Some(_)) if same => {}
            (Some(html), Some(el)) => morph::write(&el, old.as_deref().unwrap_or(""), &html),
            (Some(html), None) => {
                if let Some(foot) = find(":scope > .chart-foot") {
                    let _ = foot.insert_adjacent_html(
                        "beforebegin",
                        &format!(r#"<div class="snapshot" data-testid="snapshot" role="status">{html}</div>"#),
                    );
                }
            }
            (None, Some(old)) => old.remove(),
            (None, None) => {}
        }
    });
    dom::effect(move |_| {
        let said = selected.get();
        if root.get().is_none() {
            return;
        }
        if let Some(p) = find("[data-testid=selection]") {
            p.set_text_content(Some(said.as_deref().unwrap_or(markup::NO_SELECTION)));
        }
    });
    let mut legend = String::new();
    dom::effect(move |_| {
        let html = laid.with(|l| l.as_ref().map(|l| markup::legend_html(&l.chart)));
        if root.get().is_none() {
            return;
        }
        if let Some(ul) = find("ul.legend") {
            morph::update(&ul, &mut legend, html.unwrap_or_default());
        }
    });

    // The section's markup, written once: the effects above set what changes in it, and one listener
    // on it (and the body's scroll, which does not bubble) takes every event, by its type and where
    // it happened, instead of a Leptos view with listeners per element.
    let in_part = |ev: &web_sys::Event, sel: &str| {
        ev.target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest(sel).ok().flatten())
    };
    let on_event = move |ev: web_sys::Event| {
        let kind = ev.type_();
        let axis = in_part(&ev, "svg.axis");
        let rows = in_part(&ev, "svg.rows");
        let body = in_part(&ev, ".chart-body");
        match kind.as_str() {
            "click" => {
                if rows.is_some() {
                    on_rows_click(ev.clone().unchecked_into());
                }
                on_act(ev.unchecked_into());
            }
            "input" => on_slide(ev),
            "change" => on_change(ev),
            "keydown" if rows.is_some() => on_rows_key(ev.unchecked_into()),
            "focusin" if body.is_some() => on_rows_focus(ev.unchecked_into()),
            "wheel" if body.is_some() => on_wheel(ev.unchecked_into()),
            "pointerdown" if body.is_some() => on_pointerdown(ev.unchecked_into()),
            "pointermove" if body.is_some() => on_pointermove(ev.unchecked_into()),
            "pointerup" | "pointercancel" if body.is_some() => on_pointerup(ev.unchecked_into()),
            "scroll" => on_scroll(),
            "mousedown" => {
                if let Some(axis) = axis {
                    axis_drag.set(true);
                    cursor_from_axis(ev.unchecked_ref(), &axis);
                }
            }
            "mousemove" => {
                let m: &web_sys::MouseEvent = ev.unchecked_ref();
                if let Some(axis) =
                    axis.filter(|_| axis_drag.get_untracked() && m.buttons() & 1 == 1)
                {
                    cursor_from_axis(m, &axis);
                }
            }
            "mouseup" if axis.is_some() => axis_drag.set(false),
            // Leaving the axis (mouseleave does not bubble) ends a drag on it.
            "mouseout" if axis.is_some() => {
                let to = ev
                    .unchecked_ref::<web_sys::MouseEvent>()
                    .related_target()
                    .and_then(|t| t.dyn_into::<web_sys::Node>().ok());
                if !axis.is_some_and(|a| a.contains(to.as_ref())) {
                    axis_drag.set(false);
                }
            }
            _ => {}
        }
    };
    // Once the section is in the page: its listeners, and the live layer mounted over the rows
    // (before the cursor's line, which is drawn after it). The listeners live as long as the page:
    // after the chart is gone they get no events.
    dom::effect(move |_| {
        let Some(section) = root.get() else { return };
        untrack(|| {
            dom::listen(
                &section,
                &[
                    "click",
                    "input",
                    "change",
                    "keydown",
                    "focusin",
                    "wheel",
                    "pointerdown",
                    "pointermove",
                    "pointerup",
                    "pointercancel",
                    "mousedown",
                    "mousemove",
                    "mouseup",
                    "mouseout",
                ],
                on_event,
            );
            if let Some(body) = body_of(Some(section.clone())) {
                dom::listen(&body, &["scroll"], on_event);
            }
            if let Ok(Some(svg)) = section.query_selector("svg.rows") {
                let height = Signal::derive(move || {
                    laid.with(|l| l.as_ref().map_or(0.0, |l| l.chart.height))
                });
                crate::status_view::live_overlay(
                    svg,
                    crate::status_view::OverlayArgs {
                        plan,
                        laid,
                        view,
                        label_w: label_w.into(),
                        height,
                    },
                );
                draw_cursor();
            }
        });
    });
    let mut frame = String::with_capacity(4096);
    markup::frame_html(&mut frame, laid.with_untracked(|l| l.is_some()), embed);
    section.set_inner_html(&frame);
    section
}

/// Sets `s` to `v` only when that changes it: a set wakes every reader even when the value is the same,
/// and the chart measures itself in the frame after each new layout, where the axis, clip path, backdrop
/// and availability strip written again for the same width delayed the paint of every edit.
fn set_signal_changed(s: RwSignal<f64>, v: f64) {
    if s.try_with_untracked(|old| *old != v) == Some(true) {
        let _ = s.try_set(v);
    }
}

/// Draws the axis `svg` (`total` px wide) with its markup `html`, in place of `last`, what it holds.
fn draw_axis(svg: &web_sys::Element, last: &mut String, html: String, total: &str) {
    dom::set_attribute_changed(svg, "width", total);
    dom::set_attribute_changed(svg, "height", &markup::num(AXIS_HEIGHT));
    morph::update(svg, last, html);
}

/// Sets `g`'s markup. The bar or stage label that had the keyboard's focus in it gets it back in the
/// new markup (the same `data-pos` or `data-stage`), without scrolling: arrow keys that scroll rows
/// into view, and scrolling with a bar focused, keep the focus where it was.
fn rewrite_keeping_focus(g: &web_sys::Element, html: &str) {
    let focused = g
        .owner_document()
        .and_then(|d| d.active_element())
        .filter(|a| g.contains(Some(a)));
    let key = focused.and_then(|a| {
        ["data-pos", "data-stage"]
            .into_iter()
            .find_map(|k| Some((k, a.get_attribute(k)?)))
    });
    g.set_inner_html(html);
    let Some((k, value)) = key else { return };
    let Ok(all) = g.query_selector_all(&format!("[{k}]")) else {
        return;
    };
    let again = (0..all.length())
        .filter_map(|i| all.item(i)?.dyn_into::<web_sys::SvgElement>().ok())
        .find(|el| el.get_attribute(k).as_deref() == Some(value.as_str()));
    if let Some(el) = again {
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"preventScroll".into(), &true.into());
        el.unchecked_ref::<Focusable>().focus_with(&options);
    }
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// An element seen through `focus` with options (`preventScroll`), which the web-sys features
    /// this workspace builds with do not include.
    type Focusable;
    #[wasm_bindgen(method, js_name = focus)]
    fn focus_with(this: &Focusable, options: &js_sys::Object);
}

/// The bar element an event happened on (a bar, or its tooltip inside it).
fn bar_of(target: Option<web_sys::EventTarget>) -> Option<web_sys::Element> {
    let el = target?.dyn_into::<web_sys::Element>().ok()?;
    el.closest("rect.bar").ok().flatten()
}

/// The stage a stage label an event happened on toggles (its `data-stage`).
fn stage_label_of(target: Option<web_sys::EventTarget>) -> Option<String> {
    let el = target?.dyn_into::<web_sys::Element>().ok()?;
    el.closest("text.label-stage")
        .ok()
        .flatten()?
        .get_attribute("data-stage")
}

/// A bar element's (row, bar) position in the layout, from its `data-pos`.
fn bar_pos(bar: &web_sys::Element) -> Option<(usize, usize)> {
    let pos = bar.get_attribute("data-pos")?;
    let (r, b) = pos.split_once(':')?;
    Some((r.parse().ok()?, b.parse().ok()?))
}

/// The plan's approval assumption (delay, business hours), which is why an approval wait lasts as long
/// as it does.
fn approval_assumption(p: &Plan) -> Option<String> {
    p.assumptions
        .iter()
        .find(|a| a.field == "approvals")
        .map(|a| format!("assumed approval: {}", a.value))
}

/// What the run is doing at the cursor (the inside of `div.snapshot`): counts, each stage's state and
/// reason (for an approval wait, the approval assumption behind its length), and the clusters that are
/// updating or held (at most a handful; the chart shows the rest).
fn snapshot_html(s: &Snapshot, zone: &Zone, approvals: Option<&str>) -> String {
    const SHOWN: usize = 8;
    let c = s.counts;
    let mut out = format!(
        r#"<p class="snapshot-counts">{}: {} done · {} updating · {} waiting · {} not started · {} failed</p><ul class="snapshot-stages">"#,
        xml_escape(&zone.human(s.at)),
        c.done,
        c.updating,
        c.waiting,
        c.pending,
        c.failed
    );
    for st in s
        .stages
        .iter()
        .filter(|st| !matches!(st.state, StageActivity::NotStarted))
    {
        let word = match st.state {
            StageActivity::NotStarted => "not started",
            StageActivity::WaitingForApproval => "waiting for approval",
            StageActivity::Updating => "updating",
            StageActivity::TimedWait => "timed wait",
            StageActivity::Stopped => "stopped",
            StageActivity::Done => "done",
            StageActivity::Skipped => "skipped",
            StageActivity::Failed => "failed",
        };
        let why = match approvals {
            Some(a) if st.state == StageActivity::WaitingForApproval => format!("; {a}"),
            _ => String::new(),
        };
        let _ = write!(
            out,
            "<li><strong>{}</strong> <em>{word}</em>: {}{}</li>",
            xml_escape(&st.stage),
            xml_escape(&st.reason),
            xml_escape(&why)
        );
    }
    out.push_str(r#"</ul><ul class="snapshot-clusters">"#);
    let active: Vec<_> = s
        .clusters
        .iter()
        .filter(|cl| {
            matches!(
                cl.state,
                ClusterActivity::Updating | ClusterActivity::Failed
            )
        })
        .collect();
    for cl in active.iter().take(SHOWN) {
        let _ = write!(
            out,
            "<li><strong>{}</strong>: {}</li>",
            xml_escape(&cl.cluster),
            xml_escape(&cl.reason)
        );
    }
    out.push_str("</ul>");
    let more = active.len().saturating_sub(SHOWN);
    if more > 0 {
        let _ = write!(
            out,
            r#"<p class="note">and {more} more clusters updating</p>"#
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn arrow_keys_walk_the_bars_row_by_row() {
        let text = crate::link::example_text();
        let a = crate::analysis::analyse(text, None);
        let p = a.plan.unwrap();
        let chart = gantt::layout(&p, &View::fit(&p, 1000.0));
        // Row 0 is stage staging (updating, then its TimedWait), row 1 its cluster member1.
        let staging = &chart.rows[0];
        assert!(staging.bars.len() >= 2);
        assert_eq!(next_bar(&chart, (0, 0), "ArrowRight"), Some((0, 1)));
        let last = staging.bars.len() - 1;
        assert_eq!(next_bar(&chart, (0, last), "ArrowRight"), Some((1, 0)));
        assert_eq!(next_bar(&chart, (1, 0), "ArrowLeft"), Some((0, last)));
        assert_eq!(next_bar(&chart, (0, 0), "ArrowDown"), Some((1, 0)));
        assert_eq!(
            next_bar(&chart, (1, 0), "ArrowUp"),
            Some((0, 0)),
            "the nearest bar in time"
        );
        assert_eq!(next_bar(&chart, (0, 1), "Home"), Some((0, 0)));
        assert_eq!(next_bar(&chart, (0, 0), "End"), Some((0, last)));
        assert_eq!(
            next_bar(&chart, (0, 0), "ArrowUp"),
            None,
            "nothing above the first row"
        );
        assert_eq!(next_bar(&chart, (0, 0), "x"), None);
    }
}
