//! The Gantt chart: draws what `fleetplan::gantt::layout` computed, as SVG, with only the rows in view in
//! the DOM.
//!
//! Every coordinate comes from the core's layout; this module only chooses the view (zoom, pan, collapsed
//! stages, the measured width, the reader's time zone) and turns rows into elements. The axis is a
//! separate SVG above a scrolling body so it stays visible; the body's SVG is as tall as the whole chart,
//! but holds only the rows that `gantt::visible_rows` names for the current scroll position, so 10,000
//! clusters cost tens of rows. It never imports the editor: the read-only chart (embed mode, the
//! JavaScript API, the web component) is this module and the summary alone.
//!
//! By keyboard the bars are one tab stop: the arrow keys move between bars and rows (the chart scrolls
//! rows into the DOM as needed), Enter keeps a bar's description under the chart, and every bar's
//! accessible name is its tooltip (what, when, why). By touch, one finger pans and two pinch-zoom.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use fleetplan::gantt::{self, BarKind, Chart, Row, RowKind, View};
use fleetplan::playback::{self, ClusterActivity, Snapshot, StageActivity};
use fleetplan::time::Time;
use fleetplan::zone::Zone;
use fleetplan::Plan;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::browser;
use crate::clock;
use crate::px::Tenths;

/// Width of the label column left of the time area, px (the SVG export's too).
pub const LABEL_WIDTH: f64 = 180.0;
/// The label column on a narrow screen (a phone), so the time area keeps most of the width.
const NARROW_LABEL_WIDTH: f64 = 104.0;
/// Below this body width, px, the chart uses the narrow label column.
const NARROW: f64 = 640.0;
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

/// The label column for a chart body `inner` px wide: narrower on a phone, so the time area keeps most
/// of the width.
pub fn label_width_for(inner: f64) -> f64 {
    if inner < NARROW {
        NARROW_LABEL_WIDTH
    } else {
        LABEL_WIDTH
    }
}

/// The window two charts compared side by side show: from the earlier fitted start to the later
/// fitted end.
pub fn shared_span(a: &Plan, b: &Plan) -> (Time, Time) {
    let (va, vb) = (View::fit(a, 1000.0), View::fit(b, 1000.0));
    (va.start.min(vb.start), va.end.max(vb.end))
}

#[component]
pub fn GanttChart(
    /// The plan to draw; `None` shows a placeholder.
    #[prop(into)]
    plan: Signal<Option<Arc<Plan>>>,
    /// The plan belongs to an earlier text: drawn dimmed with a note.
    #[prop(into)]
    stale: Signal<bool>,
    /// Embedded (iframe, web component, API): compact, the body fills the height it is given.
    #[prop(optional)]
    embed: bool,
    /// A time window to fit instead of this plan's own: two charts compared side by side share one.
    #[prop(optional, into)]
    span: Option<Signal<Option<(Time, Time)>>>,
) -> impl IntoView {
    let zone = clock::use_zone();
    let body_ref = NodeRef::<html::Div>::new();
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
        if let Some(Some(el)) = body_ref.try_get_untracked() {
            let inner = el.client_width() as f64;
            let lw = label_width_for(inner);
            let _ = label_w.try_set(lw);
            // Fit means fit: the time area takes exactly the width left, however narrow.
            let _ = width.try_set((inner - lw - 4.0).max(60.0));
            let _ = viewport.try_set(viewport_height(&el));
        }
    };
    Effect::new(move |_| {
        if body_ref.get().is_some() {
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

    let row_count = Memo::new(move |_| {
        plan.with(|p| {
            p.as_ref().map_or(0, |p| {
                p.stages.iter().map(|s| 1 + s.clusters.len()).sum::<usize>() + p.unstaged.len()
            })
        })
    });
    let stage_names = Memo::new(move |_| {
        plan.with(|p| {
            p.as_ref()
                .map(|p| p.stages.iter().map(|s| s.name.clone()).collect::<Vec<_>>())
                .unwrap_or_default()
        })
    });
    let view = Memo::new(move |_| {
        let print = printing.get();
        let w = if print { PRINT_WIDTH } else { width.get() };
        let folded = if print && row_count.get() > PRINT_ROWS {
            stage_names.get()
        } else {
            collapsed.get()
        };
        let z = zone.get();
        plan.with(|p| {
            p.as_ref().map(|p| {
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
    let visible: Memo<Range<usize>> = Memo::new(move |_| {
        laid.with(|l| {
            l.as_ref().map_or(0..0, |l| {
                if printing.get() {
                    0..l.chart.rows.len()
                } else {
                    gantt::visible_rows(&l.chart, scroll_top.get(), viewport.get())
                }
            })
        })
    });
    // The body's height follows the chart's (up to a cap), so measure again after each new layout has
    // been drawn: a short chart replaced by a long one must not keep the short one's viewport.
    Effect::new(move |_| {
        laid.track();
        request_animation_frame(measure);
    });

    // The span the cursor can travel: the run, or up to where the fitted view ends when it never ends.
    let bounds = Memo::new(move |_| {
        plan.with(|p| {
            p.as_ref()
                .map(|p| (p.start, p.end.unwrap_or(View::fit(p, 1000.0).end)))
        })
    });
    let snapshot: Memo<Option<Arc<Snapshot>>> = Memo::new(move |_| {
        let t = cursor.get()?;
        plan.with(|p| p.as_ref().map(|p| Arc::new(playback::snapshot(p, t))))
    });
    let stop = move || {
        if let Some(Some(h)) = timer.try_get_value() {
            h.clear();
        }
        let _ = timer.try_set_value(None);
        let _ = playing.try_set(false);
    };
    // About 20 seconds for the whole run, whatever its length, at 10 frames a second.
    let play = move || {
        let Some((s, e)) = bounds.get_untracked() else {
            return;
        };
        if cursor.get_untracked().is_none_or(|t| t >= e || t < s) {
            cursor.set(Some(s));
        }
        playing.set(true);
        let tick = move || {
            let Some(Some((s, e))) = bounds.try_get_untracked() else {
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
    let cursor_from_axis = move |ev: &web_sys::MouseEvent| {
        let Some(el) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let x =
            ev.client_x() as f64 - el.get_bounding_client_rect().left() - label_w.get_untracked();
        if let Some(v) = view.get_untracked() {
            stop();
            cursor.set(Some(v.time_at(x.max(0.0))));
        }
    };
    let cursor_x = move || {
        let t = cursor.get()?;
        view.with(|v| v.as_ref().map(|v| v.x_at(t)))
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
        body_ref.get_untracked().map_or(0.0, |el| {
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

    let on_scroll = move |_| {
        if let Some(el) = body_ref.get_untracked() {
            scroll_top.set(el.scroll_top() as f64);
            viewport.set(viewport_height(&el));
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
        if let Some(el) = body_ref.get_untracked() {
            let (top, h) = (el.scroll_top() as f64, viewport_height(&el));
            if row.y < top || row.y + row.height > top + h {
                el.set_scroll_top((row.y - h / 3.0).max(0.0) as i32);
                scroll_top.set(el.scroll_top() as f64);
            }
        }
        focus_pos.set(Some(pos));
        let focus = move || {
            let el = body_ref.get_untracked()?;
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
            selected.set(bar.get_attribute("aria-label"));
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
    let tab_stop = Memo::new(move |_| {
        if let Some(p) = focus_pos.get() {
            return Some(p);
        }
        laid.with(|l| {
            let l = l.as_ref()?;
            let r = visible.get();
            (r.start..r.end.min(l.chart.rows.len()))
                .find(|&i| !l.chart.rows[i].bars.is_empty())
                .map(|i| (i, 0))
        })
    });
    // A new layout renumbers nothing, but a focus past its rows is dropped.
    Effect::new(move |_| {
        let n = laid.with(|l| l.as_ref().map_or(0, |l| l.chart.rows.len()));
        if focus_pos.get_untracked().is_some_and(|(r, _)| r >= n) {
            focus_pos.set(None);
        }
    });

    let total_width = move || width.get() + label_w.get();
    let chart_height = move || laid.with(|l| l.as_ref().map_or(0.0, |l| l.chart.height));

    let axis = move || {
        laid.get().map(|l| {
            let c = l.chart;
            let h = AXIS_HEIGHT;
            view! {
                <g transform=format!("translate({},0)", label_w.get())>
                    {c.weekends.iter().map(|w| {
                        let (x, width) = Tenths::span(w.x, w.width, 0.0);
                        view! { <rect class="weekend" x=x y=0.0 width=width height=h /> }
                    }).collect_view()}
                    {c.axis.major.iter().map(|t| {
                        let x = Tenths::of(t.x);
                        view! {
                            <line class="tick-major" x1=x y1=0.0 x2=x y2=18.0 />
                            <text class="axis-major" x=x.plus(3) y=13.0>{t.label.clone()}</text>
                        }
                    }).collect_view()}
                    {c.axis.minor.iter().map(|t| {
                        let x = Tenths::of(t.x);
                        view! {
                            <line class="tick-minor" x1=x y1=22.0 x2=x y2=h />
                            <text class="axis-minor" x=x.plus(3) y=34.0>{t.label.clone()}</text>
                        }
                    }).collect_view()}
                    <line class="start-marker" x1=Tenths::of(c.start_x) y1=0.0 x2=Tenths::of(c.start_x) y2=h>
                        <title>"start of the run"</title>
                    </line>
                </g>
            }
        })
    };

    // Full-height background of the body: weekend shading, hour/day grid, start and end markers.
    let backdrop = move || {
        laid.get().map(|l| {
            let c = l.chart;
            let h = c.height;
            view! {
                <g class="backdrop" transform=format!("translate({},0)", label_w.get())>
                    {c.weekends.iter().map(|w| {
                        let (x, width) = Tenths::span(w.x, w.width, 0.0);
                        view! { <rect class="weekend" x=x y=0.0 width=width height=h /> }
                    }).collect_view()}
                    {c.axis.minor.iter().map(|t| {
                        let x = Tenths::of(t.x);
                        view! { <line class="grid" x1=x y1=0.0 x2=x y2=h /> }
                    }).collect_view()}
                    <line class="start-marker" data-testid="start-marker" x1=Tenths::of(c.start_x) y1=0.0 x2=Tenths::of(c.start_x) y2=h />
                    {c.end_x.map(|x| {
                        let x = Tenths::of(x);
                        view! { <line class="end-marker" data-testid="end-marker" x1=x y1=0.0 x2=x y2=h /> }
                    })}
                </g>
            }
        })
    };

    // Rows are keyed by their place in the layout, and each place redraws its row when the layout
    // changes: an edit or a zoom updates the rows in view in place (Leptos sets only the attributes and
    // texts that changed) instead of removing them and building them anew; scrolling adds and drops
    // places. Clamped to this layout's rows, so a place never outruns the chart it indexes.
    let rows = move || {
        let n = laid.with(|l| l.as_ref().map_or(0, |l| l.chart.rows.len()));
        let r = visible.get();
        r.start.min(n)..r.end.min(n)
    };
    let row_view = move |i: usize| {
        move || {
            laid.with(|l| {
                let row: &Row = l.as_ref()?.chart.rows.get(i)?;
                // Tooltips are written here, for the rows in view only (see `gantt::title_in`).
                let z = zone.get_untracked();
                let titles: Vec<String> = plan.with_untracked(|p| {
                    p.as_ref().map_or_else(Vec::new, |p| {
                        row.bars
                            .iter()
                            .map(|b| gantt::title_in(p, row, b, &z))
                            .collect()
                    })
                });
                let ctx = RowCtx {
                    index: i,
                    label_w: label_w.get_untracked(),
                    stage_names: &stage_names.read_untracked(),
                    tab_stop,
                };
                Some(row_element(row, titles, ctx))
            })
        }
    };

    // A rolling update's available clusters over time, on the chart's time axis.
    let avail = Memo::new(move |_| {
        let v = view.get()?;
        plan.with(|p| {
            let (samples, min, n) = availability_of(p.as_deref()?)?;
            Some(gantt::availability(
                &samples,
                min,
                n,
                &v,
                AVAILABILITY_HEIGHT,
            ))
        })
    });
    let avail_view = move || {
        let lw = label_w.get();
        avail.get().map(|a| {
            let points = a
                .line
                .iter()
                .map(|(x, y)| format!("{x:.1},{y:.1}"))
                .collect::<Vec<_>>()
                .join(" ");
            let labels = a
                .labels
                .iter()
                .map(|(y, t)| view! { <text class="avail-label" x=lw - 6.0 y=y + 4.0>{t.clone()}</text> })
                .collect_view();
            let summary = format!(
                "available clusters over time: never fewer than {} (budget {} of {})",
                a.lowest, a.min_available, a.target
            );
            view! {
                <svg
                    class="availability"
                    data-testid="availability"
                    data-lowest=a.lowest
                    data-budget=a.min_available
                    width=total_width
                    height=a.height
                    role="img"
                    aria-label=summary
                >
                    <text class="avail-title" x="4" y="14">"available"</text>
                    {labels}
                    <g transform=format!("translate({lw},0)")>
                        <line class="avail-target" x1="0" y1=a.target_y x2=a.width y2=a.target_y />
                        <line class="avail-budget" x1="0" y1=a.budget_y x2=a.width y2=a.budget_y />
                        <polyline class="avail-line" points=points />
                    </g>
                </svg>
            }
        })
    };

    // The legend lists the kinds this plan draws (a staged run's does not list GKE's), then one swatch
    // per version.
    let legend = move || {
        let kinds = laid.with(|l| {
            l.as_ref()
                .map(|l| BarKind::used(&l.chart))
                .unwrap_or_default()
        });
        let versions = laid.with(|l| {
            l.as_ref()
                .map(|l| l.chart.versions.clone())
                .unwrap_or_default()
        });
        let kinds = kinds.into_iter().map(|k| {
            view! {
                <li><svg width="14" height="10" aria-hidden="true"><rect class=k.css_class() x="0" y="0" width="14" height="10" /></svg>
                {k.legend()}</li>
            }
        });
        let versions = versions.into_iter().enumerate().map(|(i, v)| {
            let class = format!("bar-control-plane{}", gantt::version_class(Some(i.min(255) as u8)));
            view! {
                <li data-testid="legend-version"><svg width="14" height="10" aria-hidden="true"><rect class=class x="0" y="0" width="14" height="10" /></svg>
                {format!("version {v}")}</li>
            }
        });
        (kinds.collect_view(), versions.collect_view())
    };

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
    let cursor_words = move || {
        let z = zone.get();
        cursor.get().map_or_else(
            || "drag on the time axis, type a time or press play to replay the run".to_string(),
            |t| z.human(t),
        )
    };

    view! {
        <section class="chart" class:embed=embed class:stale=move || stale.get() data-testid="chart" aria-label="rollout chart">
            <div class="chart-toolbar" role="toolbar" aria-label="chart view">
                <button on:click=move |_| zoom(1.0 / 1.5) title="zoom out" aria-label="zoom out">"−"</button>
                <button on:click=move |_| zoom(1.5) title="zoom in (or ctrl + mouse wheel, or pinch)" aria-label="zoom in">"+"</button>
                <button on:click=move |_| pan(-0.4) title="earlier (or drag the chart)" aria-label="show earlier times">"◀"</button>
                <button on:click=move |_| pan(0.4) title="later" aria-label="show later times">"▶"</button>
                <button data-testid="fit" on:click=move |_| fit() title="show the whole run in the width">"Fit"</button>
                {embed.then(|| view! {
                    <button data-testid="play" title="replay the run" disabled=move || bounds.with(|b| b.is_none())
                        on:click=move |_| if playing.get_untracked() { stop() } else { play() }>
                        {move || if playing.get() { "⏸ Pause" } else { "▶ Play" }}
                    </button>
                })}
                {(!embed).then(|| view! {
                    <button on:click=move |_| collapsed.set(stage_names.get_untracked()) title="hide the cluster rows">"Collapse all"</button>
                    <button on:click=move |_| collapsed.set(Vec::new()) title="show every cluster row">"Expand all"</button>
                })}
                <Show when=move || stale.get()>
                    <span class="stale-note" data-testid="stale-note">"stale: the text has errors; this is the last plan that could be computed"</span>
                </Show>
            </div>
            <Show
                when=move || laid.with(|l| l.is_some())
                fallback=|| view! { <p class="chart-empty">"No plan to draw yet: fix the errors in the scenario."</p> }
            >
                <svg
                    class="axis"
                    width=total_width
                    height=AXIS_HEIGHT
                    aria-hidden="true"
                    on:mousedown=move |ev| {
                        axis_drag.set(true);
                        cursor_from_axis(&ev);
                    }
                    on:mousemove=move |ev| {
                        if axis_drag.get_untracked() && ev.buttons() & 1 == 1 {
                            cursor_from_axis(&ev);
                        }
                    }
                    on:mouseup=move |_| axis_drag.set(false)
                    on:mouseleave=move |_| axis_drag.set(false)
                >
                    <title>"drag here to move the time cursor"</title>
                    {axis}
                    {move || cursor_x().map(|x| view! {
                        <line class="cursor" x1=x + label_w.get() y1=0.0 x2=x + label_w.get() y2=AXIS_HEIGHT />
                    })}
                </svg>
            </Show>
            <div
                class="chart-body"
                node_ref=body_ref
                on:scroll=on_scroll
                on:wheel=on_wheel
                on:pointerdown=on_pointerdown
                on:pointermove=on_pointermove
                on:pointerup=on_pointerup
                on:pointercancel=on_pointerup
                // Here, not on the SVG: Chromium makes an SVG element with a focus listener focusable.
                on:focusin=on_rows_focus
            >
                <svg
                    class="rows"
                    width=total_width
                    height=chart_height
                    role="group"
                    aria-label="rollout timeline: one row per stage and cluster; Tab to the bars, then the arrow keys move between them and Enter describes one"
                    on:keydown=on_rows_key
                    on:click=on_rows_click
                >
                    <defs>
                        <clipPath id="label-clip">
                            <rect x="0" y="0" width=move || label_w.get() - 8.0 height=chart_height />
                        </clipPath>
                    </defs>
                    <g inner_html=gantt::SVG_DEFS></g>
                    {backdrop}
                    <For each=rows key=|i| *i children=row_view />
                    <crate::status_view::LiveOverlay plan=plan laid=laid view=view label_w=label_w height=Signal::derive(chart_height) />
                    {move || cursor_x().map(|x| view! {
                        <line class="cursor" x1=x + label_w.get() y1=0.0 x2=x + label_w.get() y2=chart_height() />
                    })}
                </svg>
            </div>
            {avail_view}
            {(!embed).then(|| view! {
                <div class="playback" data-testid="playback">
                    <button
                        data-testid="play"
                        title="replay the run"
                        disabled=move || bounds.with(|b| b.is_none())
                        on:click=move |_| if playing.get_untracked() { stop() } else { play() }
                    >
                        {move || if playing.get() { "⏸ Pause" } else { "▶ Play" }}
                    </button>
                    <input
                        type="range"
                        min="0"
                        max="1000"
                        aria-label="time cursor"
                        prop:value=move || {
                            let (Some(t), Some((s, e))) = (cursor.get(), bounds.get()) else {
                                return "0".to_string();
                            };
                            let f = (t.0 - s.0) as f64 / (e.0 - s.0).max(1) as f64;
                            format!("{:.0}", (f * 1000.0).clamp(0.0, 1000.0))
                        }
                        on:input=move |ev| {
                            let Ok(f) = event_target_value(&ev).parse::<f64>() else { return };
                            if let Some((s, e)) = bounds.get_untracked() {
                                stop();
                                cursor.set(Some(Time(s.0 + ((e.0 - s.0) as f64 * f / 1000.0).round() as i64)));
                            }
                        }
                    />
                    <label class="cursor-at">
                        <span class="visually-hidden">"go to a time"</span>
                        <input
                            data-testid="cursor-input"
                            size="17"
                            placeholder="YYYY-MM-DD HH:MM"
                            title="a time on the clock shown (or RFC 3339 with Z or an offset)"
                            aria-invalid=move || typed_problem.with(|p| p.is_some()).to_string()
                            on:change=on_typed
                        />
                    </label>
                    <span class="cursor-time" data-testid="cursor-time" data-time=move || cursor.get().map(|t| t.to_string()).unwrap_or_default()>{cursor_words}</span>
                    <Show when=move || cursor.with(|c| c.is_some())>
                        <button on:click=move |_| { stop(); cursor.set(None); }>"Clear"</button>
                    </Show>
                    {move || typed_problem.get().map(|p| view! { <span class="field-problem" role="alert">{p}</span> })}
                </div>
            })}
            {move || snapshot.get().map(|s| {
                let approvals = plan.with(|p| p.as_ref().and_then(|p| approval_assumption(p)));
                snapshot_view(&s, &zone.get(), approvals.as_deref())
            })}
            <div class="chart-foot">
                <p class="selection" data-testid="selection" aria-live="polite">
                    {move || selected.get().unwrap_or_else(|| "Hover or focus a bar for its times and reason; click or press Enter to keep it here.".into())}
                </p>
                <details class="legend-box" open=!embed>
                    <summary>"Legend"</summary>
                    <ul class="legend" aria-label="legend">{legend}</ul>
                </details>
            </div>
        </section>
    }
}

/// A coordinate attribute of the chart: compared as an integer on each redraw and, only when it
/// changed, written from its digits (see [`crate::px`]) instead of formatted as a float.
impl leptos::attr::AttributeValue for Tenths {
    type State = (web_sys::Element, Tenths);
    type AsyncOutput = Tenths;
    type Cloneable = Tenths;
    type CloneableOwned = Tenths;

    fn html_len(&self) -> usize {
        12
    }

    fn to_html(self, key: &str, buf: &mut String) {
        buf.push(' ');
        buf.push_str(key);
        buf.push_str("=\"");
        let _ = std::fmt::Write::write_fmt(buf, format_args!("{self}"));
        buf.push('"');
    }

    fn to_template(_key: &str, _buf: &mut String) {}

    fn hydrate<const FROM_SERVER: bool>(self, key: &str, el: &web_sys::Element) -> Self::State {
        if !FROM_SERVER {
            set_tenths(el, key, self);
        }
        (el.clone(), self)
    }

    fn build(self, el: &web_sys::Element, key: &str) -> Self::State {
        set_tenths(el, key, self);
        (el.clone(), self)
    }

    fn rebuild(self, key: &str, state: &mut Self::State) {
        if self != state.1 {
            set_tenths(&state.0, key, self);
            state.1 = self;
        }
    }

    fn into_cloneable(self) -> Self::Cloneable {
        self
    }

    fn into_cloneable_owned(self) -> Self::CloneableOwned {
        self
    }

    fn dry_resolve(&mut self) {}

    async fn resolve(self) -> Self::AsyncOutput {
        self
    }
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// An element seen through `setAttribute` given a number: the browser writes its digits, so the
    /// number is neither formatted here nor copied out of wasm memory as text.
    type NumberAttributes;
    #[wasm_bindgen(method, js_name = setAttribute)]
    fn set_attribute_number(this: &NumberAttributes, name: &str, value: f64);
}

/// Sets `key` to `value` in pixels. A tenth divided by ten is the double nearest that decimal, which
/// the browser writes with at most one decimal, as `Tenths`' `Display` does for the viewer.
fn set_tenths(el: &web_sys::Element, key: &str, value: Tenths) {
    el.unchecked_ref::<NumberAttributes>()
        .set_attribute_number(key, value.px());
}

/// Height of the availability strip under a rolling update's chart, px.
pub const AVAILABILITY_HEIGHT: f64 = 72.0;

/// A rolling update's available-cluster samples, its budget (N − maxUnavailable) and N.
pub type AvailabilitySamples = (Vec<(Time, usize)>, usize, usize);

pub fn availability_of(plan: &Plan) -> Option<AvailabilitySamples> {
    let r = plan.rolling.as_ref()?;
    let samples = r.availability.iter().map(|a| (a.at, a.available)).collect();
    Some((samples, r.min_available, r.target))
}

/// The height of the chart body that can show rows: its own, but never more than the window's, so the
/// rows stay virtualised even where no stylesheet bounds the body (an embedding page, a test page).
pub fn viewport_height(el: &web_sys::HtmlElement) -> f64 {
    let own = el.client_height() as f64;
    let window = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(own);
    own.min(window).max(100.0)
}

/// What a row needs from the chart around it.
struct RowCtx<'a> {
    index: usize,
    label_w: f64,
    stage_names: &'a [String],
    tab_stop: Memo<Option<(usize, usize)>>,
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

/// One row: label (a stage's toggles its cluster rows), bars with tooltips and text labels. Each bar
/// is focusable (one tab stop for the chart, see [`next_bar`]) and named by its tooltip; clicks, focus
/// and keys are handled by the chart for all bars and stage labels at once (`data-pos` and
/// `data-stage` say which), so redrawing a row in place adds and removes no listeners.
fn row_element(row: &Row, titles: Vec<String>, ctx: RowCtx<'_>) -> impl IntoView {
    let RowCtx {
        index,
        label_w,
        stage_names,
        tab_stop,
    } = ctx;
    let y = row.y;
    let h = row.height;
    let text_y = y + h * 0.68;
    let (is_stage, folded, stage) = match row.kind {
        RowKind::Stage { stage, collapsed } => (true, collapsed, stage),
        RowKind::Cluster { stage, .. } => (false, false, stage),
        RowKind::Unstaged { .. } => (false, false, usize::MAX),
    };
    let unstaged_heading = matches!(row.kind, RowKind::Unstaged { cluster: None });
    let stage_name = stage_names.get(stage).cloned().unwrap_or_default();
    let label = if is_stage {
        format!("{} {}", if folded { "▸" } else { "▾" }, row.label)
    } else {
        row.label.clone()
    };
    let bars = row
        .bars
        .iter()
        .zip(titles)
        .enumerate()
        .map(|(bi, (b, title))| {
            let name = title.clone();
            let pos = (index, bi);
            // Parallel phases (a soak beside an approval) share the row in lanes the core assigned.
            let (bar_y, bar_h) = b.vertical(y, h);
            // Text on the bar only where it fits (about 6.5 px per character, 9 px of height).
            let fits = b.width > 6.5 * b.label.chars().count() as f64 + 6.0 && bar_h >= 9.0;
            let font = if bar_h < 13.0 { 8.5 } else { 10.5 };
            let (x, w) = Tenths::span(b.x, b.width, 1.0);
            let text = (!b.label.is_empty() && fits).then(|| {
                view! {
                    <text class="bar-label" x=x.plus(3) y=bar_y + bar_h / 2.0 + font * 0.36 font-size=font aria-hidden="true">
                        {b.label.clone()}
                    </text>
                }
            });
            view! {
                <rect
                    class=format!("bar {}{}", b.classes(), if b.open_end { " open-end" } else { "" })
                    x=x
                    y=bar_y
                    width=w
                    height=bar_h
                    rx="2"
                    role="button"
                    data-pos=format!("{index}:{bi}")
                    tabindex=move || if tab_stop.get() == Some(pos) { "0" } else { "-1" }
                    aria-label=name
                >
                    <title>{title}</title>
                </rect>
                {text}
            }
        })
        .collect_view();
    let row_class = match row.kind {
        RowKind::Stage { .. } => "row row-stage",
        RowKind::Cluster { .. } => "row row-cluster",
        RowKind::Unstaged { .. } => "row row-unstaged",
    };
    // Bars come before the label in the DOM: from the chart's tab stop, Tab reaches the bars first.
    view! {
        <g class=row_class data-row=row.label.clone()>
            {is_stage.then(|| view! { <rect class="stage-band" x="0" y=y width="100%" height=h /> })}
            {unstaged_heading.then(|| view! { <rect class="unstaged-band" x="0" y=y width="100%" height=h /> })}
            <g transform=format!("translate({label_w},0)")>{bars}</g>
            <text
                class=if is_stage { "label label-stage" } else if unstaged_heading { "label label-unstaged" } else { "label" }
                x=if is_stage || unstaged_heading { 4.0 } else { 14.0 }
                y=text_y
                clip-path=(!unstaged_heading).then_some("url(#label-clip)")
                tabindex=if is_stage { "0" } else { "-1" }
                role=is_stage.then_some("button")
                aria-expanded=is_stage.then(|| (!folded).to_string())
                data-stage=is_stage.then_some(stage_name)
            >
                {label}
            </text>
        </g>
    }
}

/// The plan's approval assumption (delay, business hours), which is why an approval wait lasts as long
/// as it does.
fn approval_assumption(p: &Plan) -> Option<String> {
    p.assumptions
        .iter()
        .find(|a| a.field == "approvals")
        .map(|a| format!("assumed approval: {}", a.value))
}

/// What the run is doing at the cursor: counts, each stage's state and reason (for an approval wait, the
/// approval assumption behind its length), and the clusters that are updating or held (at most a
/// handful; the chart shows the rest).
fn snapshot_view(s: &Snapshot, zone: &Zone, approvals: Option<&str>) -> impl IntoView {
    const SHOWN: usize = 8;
    let c = s.counts;
    let counts = format!(
        "{}: {} done · {} updating · {} waiting · {} not started · {} failed",
        zone.human(s.at),
        c.done,
        c.updating,
        c.waiting,
        c.pending,
        c.failed
    );
    let stages = s
        .stages
        .iter()
        .filter(|st| !matches!(st.state, StageActivity::NotStarted))
        .map(|st| {
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
            let why = (st.state == StageActivity::WaitingForApproval)
                .then(|| approvals.map(|a| format!("; {a}")))
                .flatten();
            view! { <li><strong>{st.stage.clone()}</strong>" "<em>{word}</em>": "{st.reason.clone()}{why}</li> }
        })
        .collect_view();
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
    let more = active.len().saturating_sub(SHOWN);
    let clusters = active
        .iter()
        .take(SHOWN)
        .map(|cl| view! { <li><strong>{cl.cluster.clone()}</strong>": "{cl.reason.clone()}</li> })
        .collect_view();
    view! {
        <div class="snapshot" data-testid="snapshot" role="status">
            <p class="snapshot-counts">{counts}</p>
            <ul class="snapshot-stages">{stages}</ul>
            <ul class="snapshot-clusters">{clusters}</ul>
            {(more > 0).then(|| view! { <p class="note">{format!("and {more} more clusters updating")}</p> })}
        </div>
    }
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
