//! The Gantt chart: draws what `fleetplan::gantt::layout` computed, as SVG, with only the rows in view in
//! the DOM.
//!
//! Every coordinate comes from the core's layout; this module only chooses the view (zoom, pan, collapsed
//! stages, the measured width) and turns rows into elements. The axis is a separate SVG above a scrolling
//! body so it stays visible; the body's SVG is as tall as the whole chart, but holds only the rows that
//! `gantt::visible_rows` names for the current scroll position, so 10,000 clusters cost tens of rows.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use fleetplan::gantt::{self, BarKind, Chart, Row, RowKind, View};
use fleetplan::playback::{self, ClusterActivity, Snapshot, StageActivity};
use fleetplan::time::Time;
use fleetplan::Plan;
use leptos::html;
use leptos::prelude::*;

use crate::human_time;

/// Width of the label column left of the time area, px.
pub const LABEL_WIDTH: f64 = 180.0;
/// Height of the two-tier axis, px (the same as the SVG export's).
const AXIS_HEIGHT: f64 = gantt::AXIS_HEIGHT;

/// A laid-out chart and a number that changes whenever it is laid out again. Rows are keyed by
/// (generation, index): rows of the same layout are kept while scrolling, a new layout redraws them.
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

/// What identifies "the same timeline": a view zoomed on one plan is kept across edits of it, but not
/// carried over to another example with another start.
fn plan_key(plan: &Plan) -> (String, Time) {
    (plan.run.clone(), plan.start)
}

#[component]
pub fn GanttChart(
    /// The plan to draw; `None` shows a placeholder.
    #[prop(into)]
    plan: Signal<Option<Arc<Plan>>>,
    /// The plan belongs to an earlier text: drawn dimmed with a note.
    #[prop(into)]
    stale: Signal<bool>,
    /// Embedded in an iframe: the body fills the frame's height.
    #[prop(optional)]
    embed: bool,
    /// A time window to fit instead of this plan's own: two charts compared side by side share one.
    #[prop(optional, into)]
    span: Option<Signal<Option<(Time, Time)>>>,
) -> impl IntoView {
    let body_ref = NodeRef::<html::Div>::new();
    // Width of the time area and the scroll state of the body, measured from the DOM.
    let width = RwSignal::new(900.0_f64);
    let scroll_top = RwSignal::new(0.0_f64);
    let viewport = RwSignal::new(600.0_f64);
    // The user's zoom/pan for one plan; `None` (or another plan) means "fit the whole run".
    let user_view: RwSignal<Option<((String, Time), View)>> = RwSignal::new(None);
    let collapsed: RwSignal<Vec<String>> = RwSignal::new(Vec::new());
    let selected: RwSignal<Option<String>> = RwSignal::new(None);
    // Drag-to-pan: where the drag started and the view then; whether it moved (then it is not a click).
    let drag: RwSignal<Option<(f64, View)>> = RwSignal::new(None);
    let dragged = RwSignal::new(false);
    // Playback: the time cursor (set by dragging on the axis, the slider, or the play timer).
    let cursor: RwSignal<Option<Time>> = RwSignal::new(None);
    let playing = RwSignal::new(false);
    let timer: StoredValue<Option<IntervalHandle>> = StoredValue::new(None);
    let axis_drag = RwSignal::new(false);

    let measure = move || {
        if let Some(Some(el)) = body_ref.try_get_untracked() {
            let w = el.client_width() as f64 - LABEL_WIDTH - 12.0;
            let _ = width.try_set(w.max(200.0));
            let _ = viewport.try_set(viewport_height(&el));
        }
    };
    Effect::new(move |_| {
        if body_ref.get().is_some() {
            measure();
        }
    });
    // The handle is not removed on unmount: the closure only uses try_ accessors, so after unmount it
    // does nothing.
    let _ = window_event_listener(leptos::ev::resize, move |_| measure());

    let view = Memo::new(move |_| {
        let w = width.get();
        let folded = collapsed.get();
        plan.with(|p| {
            p.as_ref().map(|p| {
                let key = plan_key(p);
                let base = match (user_view.get(), span.and_then(|s| s.get())) {
                    (Some((k, v)), _) if k == key => View { width: w, ..v },
                    (_, Some((start, end))) => View {
                        start,
                        end,
                        ..View::fit(p, w)
                    },
                    _ => View::fit(p, w),
                };
                View {
                    collapsed: folded,
                    ..base
                }
            })
        })
    });
    let laid = Memo::new(move |_| {
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
                gantt::visible_rows(&l.chart, scroll_top.get(), viewport.get())
            })
        })
    });
    // The body's height follows the chart's (up to a cap), so measure again after each new layout has
    // been drawn: a short chart replaced by a long one must not keep the short one's viewport.
    Effect::new(move |_| {
        laid.track();
        request_animation_frame(measure);
    });
    let stage_names = Memo::new(move |_| {
        plan.with(|p| {
            p.as_ref()
                .map(|p| p.stages.iter().map(|s| s.name.clone()).collect::<Vec<_>>())
                .unwrap_or_default()
        })
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
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        else {
            return;
        };
        let x = ev.client_x() as f64 - el.get_bounding_client_rect().left() - LABEL_WIDTH;
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

    let on_wheel = move |ev: web_sys::WheelEvent| {
        let anchor = || {
            body_ref.get_untracked().map_or(0.0, |el| {
                ev.client_x() as f64 - el.get_bounding_client_rect().left() - LABEL_WIDTH
            })
        };
        if ev.ctrl_key() || ev.meta_key() {
            // Ctrl+wheel (and the trackpad pinch, which browsers report as one) zooms around the pointer.
            ev.prevent_default();
            let factor = if ev.delta_y() < 0.0 { 1.25 } else { 0.8 };
            let a = anchor();
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
    let on_mousedown = move |ev: web_sys::MouseEvent| {
        if ev.button() == 0 {
            if let Some(v) = view.get_untracked() {
                drag.set(Some((ev.client_x() as f64, v)));
                dragged.set(false);
            }
        }
    };
    let on_mousemove = move |ev: web_sys::MouseEvent| {
        let Some((x0, v0)) = drag.get_untracked() else {
            return;
        };
        if ev.buttons() & 1 == 0 {
            drag.set(None);
            return;
        }
        let dx = ev.client_x() as f64 - x0;
        if dx.abs() > 3.0 || dragged.get_untracked() {
            dragged.set(true);
            // Dragging right shows earlier times: the content follows the pointer.
            set_view(&|_| v0.pan(-dx));
        }
    };
    let end_drag = move |_| drag.set(None);

    let on_scroll = move |_| {
        if let Some(el) = body_ref.get_untracked() {
            scroll_top.set(el.scroll_top() as f64);
            viewport.set(viewport_height(&el));
        }
    };

    let total_width = move || width.get() + LABEL_WIDTH;
    let chart_height = move || laid.with(|l| l.as_ref().map_or(0.0, |l| l.chart.height));

    let axis = move || {
        laid.get().map(|l| {
            let c = l.chart;
            let h = AXIS_HEIGHT;
            view! {
                <g transform=format!("translate({LABEL_WIDTH},0)")>
                    {c.weekends.iter().map(|w| view! {
                        <rect class="weekend" x=w.x y=0.0 width=w.width height=h />
                    }).collect_view()}
                    {c.axis.major.iter().map(|t| view! {
                        <line class="tick-major" x1=t.x y1=0.0 x2=t.x y2=18.0 />
                        <text class="axis-major" x=t.x + 3.0 y=13.0>{t.label.clone()}</text>
                    }).collect_view()}
                    {c.axis.minor.iter().map(|t| view! {
                        <line class="tick-minor" x1=t.x y1=22.0 x2=t.x y2=h />
                        <text class="axis-minor" x=t.x + 3.0 y=34.0>{t.label.clone()}</text>
                    }).collect_view()}
                    <line class="start-marker" x1=c.start_x y1=0.0 x2=c.start_x y2=h>
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
                <g class="backdrop" transform=format!("translate({LABEL_WIDTH},0)")>
                    {c.weekends.iter().map(|w| view! {
                        <rect class="weekend" x=w.x y=0.0 width=w.width height=h />
                    }).collect_view()}
                    {c.axis.minor.iter().map(|t| view! {
                        <line class="grid" x1=t.x y1=0.0 x2=t.x y2=h />
                    }).collect_view()}
                    <line class="start-marker" x1=c.start_x y1=0.0 x2=c.start_x y2=h />
                    {c.end_x.map(|x| view! { <line class="end-marker" x1=x y1=0.0 x2=x y2=h /> })}
                </g>
            }
        })
    };

    let rows = move || {
        let Some(l) = laid.get() else {
            return Vec::new();
        };
        // Clamped to this layout's rows, so a row index can never outrun the chart it indexes.
        let n = l.chart.rows.len();
        let r = visible.get();
        (r.start.min(n)..r.end.min(n))
            .map(|i| (l.generation, i, l.chart.clone()))
            .collect::<Vec<_>>()
    };
    let row_view = move |(_, i, chart): (u64, usize, Arc<Chart>)| {
        let row: &Row = &chart.rows[i];
        let names = stage_names.get_untracked();
        // Tooltips are written here, for the rows in view only (see `gantt::title`).
        let titles: Vec<String> = plan.with_untracked(|p| {
            p.as_ref().map_or_else(Vec::new, |p| {
                row.bars.iter().map(|b| gantt::title(p, row, b)).collect()
            })
        });
        row_element(row, titles, &names, toggle_stage, selected, dragged)
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
                .map(|(y, t)| view! { <text class="avail-label" x=LABEL_WIDTH - 6.0 y=y + 4.0>{t.clone()}</text> })
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
                    <g transform=format!("translate({LABEL_WIDTH},0)")>
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

    view! {
        <section class="chart" class:embed=embed class:stale=move || stale.get() data-testid="chart">
            <div class="chart-toolbar" role="toolbar" aria-label="chart view">
                <button on:click=move |_| zoom(1.5) title="zoom in (or ctrl + mouse wheel)">"+"</button>
                <button on:click=move |_| zoom(1.0 / 1.5) title="zoom out">"−"</button>
                <button on:click=move |_| pan(-0.4) title="earlier (or drag the chart)">"◀"</button>
                <button on:click=move |_| pan(0.4) title="later">"▶"</button>
                <button on:click=move |_| fit() title="show the whole run">"Fit"</button>
                <button on:click=move |_| collapsed.set(stage_names.get_untracked()) title="hide the cluster rows">"Collapse all"</button>
                <button on:click=move |_| collapsed.set(Vec::new()) title="show every cluster row">"Expand all"</button>
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
                    role="presentation"
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
                        <line class="cursor" x1=x + LABEL_WIDTH y1=0.0 x2=x + LABEL_WIDTH y2=AXIS_HEIGHT />
                    })}
                </svg>
            </Show>
            <div
                class="chart-body"
                node_ref=body_ref
                on:scroll=on_scroll
                on:wheel=on_wheel
                on:mousedown=on_mousedown
                on:mousemove=on_mousemove
                on:mouseup=end_drag
                on:mouseleave=end_drag
            >
                <svg class="rows" width=total_width height=chart_height role="img" aria-label="rollout timeline">
                    <defs>
                        <clipPath id="label-clip">
                            <rect x="0" y="0" width=LABEL_WIDTH - 8.0 height=chart_height />
                        </clipPath>
                    </defs>
                    <g inner_html=gantt::SVG_DEFS></g>
                    {backdrop}
                    <For each=rows key=|(g, i, _)| (*g, *i) children=row_view />
                    {move || cursor_x().map(|x| view! {
                        <line class="cursor" x1=x + LABEL_WIDTH y1=0.0 x2=x + LABEL_WIDTH y2=chart_height() />
                    })}
                </svg>
            </div>
            {avail_view}
            <div class="playback" data-testid="playback">
                <button
                    data-testid="play"
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
                <span class="cursor-time" data-testid="cursor-time">
                    {move || cursor.get().map_or_else(|| "drag on the time axis or press play to replay the run".to_string(), human_time)}
                </span>
                <Show when=move || cursor.with(|c| c.is_some())>
                    <button on:click=move |_| { stop(); cursor.set(None); }>"Clear"</button>
                </Show>
            </div>
            {move || snapshot.get().map(|s| snapshot_view(&s))}
            <div class="chart-foot">
                <p class="selection" data-testid="selection">
                    {move || selected.get().unwrap_or_else(|| "Hover a bar for its times and reason; click to keep it here.".into())}
                </p>
                <ul class="legend" aria-label="legend">{legend}</ul>
            </div>
        </section>
    }
}

/// Height of the availability strip under a rolling update's chart, px.
const AVAILABILITY_HEIGHT: f64 = 72.0;

/// A rolling update's available-cluster samples, its budget (N − maxUnavailable) and N.
pub type AvailabilitySamples = (Vec<(Time, usize)>, usize, usize);

pub fn availability_of(plan: &Plan) -> Option<AvailabilitySamples> {
    let r = plan.rolling.as_ref()?;
    let samples = r.availability.iter().map(|a| (a.at, a.available)).collect();
    Some((samples, r.min_available, r.target))
}

/// The height of the chart body that can show rows: its own, but never more than the window's, so the
/// rows stay virtualised even where no stylesheet bounds the body (an embedding page, a test page).
fn viewport_height(el: &web_sys::HtmlDivElement) -> f64 {
    let own = el.client_height() as f64;
    let window = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(own);
    own.min(window).max(100.0)
}

/// One row: label (a stage's toggles its cluster rows), bars with tooltips and text labels.
fn row_element(
    row: &Row,
    titles: Vec<String>,
    stage_names: &[String],
    toggle_stage: impl Fn(String) + Copy + Send + Sync + 'static,
    selected: RwSignal<Option<String>>,
    dragged: RwSignal<bool>,
) -> impl IntoView {
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
    let name_for_key = stage_name.clone();
    let on_label = move |_| {
        if is_stage {
            toggle_stage(stage_name.clone());
        }
    };
    // Stage labels are focusable; Enter or Space toggles them like a click.
    let on_label_key = move |ev: web_sys::KeyboardEvent| {
        if is_stage && (ev.key() == "Enter" || ev.key() == " ") {
            ev.prevent_default();
            toggle_stage(name_for_key.clone());
        }
    };
    let bars = row
        .bars
        .iter()
        .zip(titles)
        .map(|(b, title)| {
            let pick = title.clone();
            let on_bar = move |_| {
                if !dragged.get_untracked() {
                    selected.set(Some(pick.clone()));
                }
            };
            // Parallel phases (a soak beside an approval) share the row in lanes the core assigned.
            let (bar_y, bar_h) = b.vertical(y, h);
            // Text on the bar only where it fits (about 6.5 px per character, 9 px of height).
            let fits = b.width > 6.5 * b.label.chars().count() as f64 + 6.0 && bar_h >= 9.0;
            let font = if bar_h < 13.0 { 8.5 } else { 10.5 };
            let text = (!b.label.is_empty() && fits).then(|| {
                view! {
                    <text class="bar-label" x=b.x + 3.0 y=bar_y + bar_h / 2.0 + font * 0.36 font-size=font>
                        {b.label.clone()}
                    </text>
                }
            });
            view! {
                <rect
                    class=format!("bar {}{}", b.classes(), if b.open_end { " open-end" } else { "" })
                    x=b.x
                    y=bar_y
                    width=b.width
                    height=bar_h
                    rx="2"
                    on:click=on_bar
                >
                    <title>{title}</title>
                </rect>
                {text}
            }
        })
        .collect_view();
    view! {
        <g class=if is_stage { "row row-stage" } else { "row row-cluster" } data-row=row.label.clone()>
            {is_stage.then(|| view! { <rect class="stage-band" x="0" y=y width="100%" height=h /> })}
            <text
                class=if is_stage { "label label-stage" } else if unstaged_heading { "label label-unstaged" } else { "label" }
                x=if is_stage || unstaged_heading { 4.0 } else { 16.0 }
                y=text_y
                clip-path="url(#label-clip)"
                tabindex=if is_stage { "0" } else { "-1" }
                on:click=on_label
                on:keydown=on_label_key
            >
                {label}
            </text>
            <g transform=format!("translate({LABEL_WIDTH},0)")>{bars}</g>
        </g>
    }
}

/// What the run is doing at the cursor: counts, each stage's state and reason, and the clusters that are
/// updating or held (at most a handful; the chart shows the rest).
fn snapshot_view(s: &Snapshot) -> impl IntoView {
    const SHOWN: usize = 8;
    let c = s.counts;
    let counts = format!(
        "{} done · {} updating · {} waiting · {} not started · {} failed",
        c.done, c.updating, c.waiting, c.pending, c.failed
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
            view! { <li><strong>{st.stage.clone()}</strong>" "<em>{word}</em>": "{st.reason.clone()}</li> }
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
        <div class="snapshot" data-testid="snapshot">
            <p class="snapshot-counts">{counts}</p>
            <ul class="snapshot-stages">{stages}</ul>
            <ul class="snapshot-clusters">{clusters}</ul>
            {(more > 0).then(|| view! { <p class="note">{format!("and {more} more clusters updating")}</p> })}
        </div>
    }
}
