//! fleetplan's browser planner: Leptos components that edit a scenario and render the core's plan.
//!
//! Data flow (signals live only in this crate): the editor's `text` → after a 150 ms pause, `committed`
//! → the `analysis` memo (`fleetplan::load` + `fleetplan::plan`, see [`analysis`]) → summary, diagnostics
//! and the chart, which lays itself out with `fleetplan::gantt`. Nothing here computes a time.
//! [`App`] reads the page's address and storage and hands the opening text to [`Planner`], which the
//! component tests mount directly. The read-only chart (embed mode, [`api`], the web component) is a
//! [`Planner`] with `embed`: it mounts neither the editor nor the form.

pub mod analysis;
pub mod api;
pub mod browser;
pub mod chart;
pub mod clock;
pub mod compare_view;
pub mod diagnostics_view;
pub mod editor;
pub mod exports;
pub mod form;
pub mod header;
pub mod history;
pub mod link;
pub mod status_view;
pub mod summary;
pub mod templates;
pub mod theme;

use std::sync::Arc;
use std::time::Duration as StdDuration;

use fleetplan::plan::Plan;
use fleetplan::time::{Time, DAY};
use fleetplan::Severity;
use leptos::html;
use leptos::prelude::*;

use crate::analysis::Analysis;
use crate::chart::GanttChart;
use crate::clock::{ClockCtx, ZoneChoice};
use crate::compare_view::Against;
use crate::diagnostics_view::Diagnostics;
use crate::editor::YamlEditor;
use crate::form::ScenarioForm;
use crate::header::Header;
use crate::history::History;
use crate::summary::{EmbedCaption, Summary};

/// Pause after the last keystroke before re-planning: long enough not to plan every key of a word, short
/// enough to feel live.
const DEBOUNCE: StdDuration = StdDuration::from_millis(150);

/// Mounts the app on the page's body, unless the page only loads the module for its JavaScript API
/// (`<body data-fleetplan="api">`, or the `<fleetplan-chart>` script, which sets
/// `globalThis.fleetplanApiOnly`). A panic hook is installed only as a last line of defence: input
/// errors are diagnostics, never panics.
pub fn start() {
    console_error_panic_hook::set_once();
    let api_only = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
        .and_then(|b| b.get_attribute("data-fleetplan"))
        .is_some_and(|v| v == "api")
        || browser::global_flag("fleetplanApiOnly");
    if !api_only {
        theme::Theme::saved().apply(false);
        leptos::mount::mount_to_body(App);
    }
}

/// The page: reads `?embed=1`, the share fragment and the autosave, then shows the planner.
#[component]
pub fn App() -> impl IntoView {
    let (search, hash) = browser::location_parts();
    let embed = link::embed_mode(&search);
    // An embedded chart must neither read nor overwrite the user's own autosaved work.
    let saved = if embed {
        None
    } else {
        browser::storage_get(link::AUTOSAVE_KEY)
    };
    let opening = link::opening(&hash, saved);
    view! { <Planner initial=opening.text banner=opening.banner embed=embed persist=!embed /> }
}

/// The reader's clock for the plan on screen: the chosen zone's offsets over the weeks the plan spans
/// (recomputed only when the zone or those weeks change), provided to every component below.
fn provide_clock(plan: Signal<Option<Arc<Plan>>>, persist: bool) -> ClockCtx {
    let saved: ZoneChoice = if persist {
        browser::storage_get(clock::ZONE_KEY)
    } else {
        None
    };
    let choice = RwSignal::new(saved);
    // Whole weeks around the plan, with room to pan: a new zone is asked for only when they change.
    let weeks = Memo::new(move |_| {
        plan.with(|p| {
            p.as_ref().map(|p| {
                let end = p.end.unwrap_or(p.start).max(p.start);
                let week = 7 * DAY.0;
                (
                    (p.start.0 - 60 * DAY.0).div_euclid(week),
                    (end.0 + 120 * DAY.0).div_euclid(week),
                )
            })
        })
    });
    let zone = Memo::new(move |_| {
        let name = choice.get();
        let (from, to) = weeks.get().unwrap_or((0, 1));
        let week = 7 * DAY.0;
        Arc::new(clock::zone_over(
            name.as_deref(),
            Time(from * week),
            Time(to * week),
        ))
    });
    let ctx = ClockCtx { zone, choice };
    provide_context(ctx);
    ctx
}

/// The planner on a given text. `persist`: mirror the text into the address bar and localStorage.
#[component]
pub fn Planner(
    initial: String,
    /// A message shown above everything (e.g. why a link could not be opened).
    #[prop(optional_no_strip)]
    banner: Option<String>,
    /// Embed mode: the chart alone, read-only.
    #[prop(optional)]
    embed: bool,
    #[prop(optional)] persist: bool,
) -> impl IntoView {
    let text = RwSignal::new(initial.clone());
    let committed = RwSignal::new(initial.clone());
    let history = RwSignal::new(History::new(initial));
    let banner = RwSignal::new(banner);
    let pending: StoredValue<Option<TimeoutHandle>> = StoredValue::new(None);
    // How long the last re-plan took, ms; shown in the summary for the performance report.
    let replan_ms = StoredValue::new(0.0_f64);

    // A pasted status is projected from now (status_view); anything else is planned as written.
    let live_clock = status_view::provide_live_clock();
    let analysis = Memo::new(move |prev: Option<&Analysis>| {
        let t0 = browser::now_ms();
        let a = committed.with(|t| {
            status_view::analyse(t, live_clock).unwrap_or_else(|| analysis::analyse(t, prev))
        });
        replan_ms.set_value(browser::now_ms() - t0);
        a
    });
    let base_plan = Signal::derive(move || analysis.with(|a| a.plan.clone()));
    // A live plan's range arrives later, drawn in chunks between frames.
    let ranged = RwSignal::new(None);
    status_view::draw_ranges(base_plan, ranged);
    let plan = Signal::derive(move || status_view::with_range(base_plan.get(), ranged));
    let stale = Signal::derive(move || analysis.with(|a| a.stale));
    provide_clock(plan, persist);

    // Commits a text now: records it for undo and lets the plan follow.
    let commit = move |t: String| {
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        pending.set_value(None);
        history.update(|h| h.record(&t));
        if committed.with_untracked(|c| *c != t) {
            committed.set(t);
        }
    };
    let schedule = move || {
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        let h = set_timeout_with_handle(move || commit(text.get_untracked()), DEBOUNCE).ok();
        pending.set_value(h);
    };
    let replace_text = move |t: String| {
        text.set(t.clone());
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
            committed.set(t);
        }
    };
    let undo = move || step(true);
    let redo = move || step(false);

    // Mirror committed edits into the address bar and localStorage. The opening text is not written
    // back: opening a broken link must not overwrite the user's autosaved work with the example.
    Effect::new(move |first: Option<()>| {
        let t = committed.get();
        if first.is_none() || !persist {
            return;
        }
        browser::storage_set(link::AUTOSAVE_KEY, &t);
        let fragment = link::fragment_for(&t);
        browser::replace_fragment(if fragment.len() <= link::MIRROR_LIMIT {
            &fragment
        } else {
            ""
        });
    });

    if !embed {
        let keys = window_event_listener(leptos::ev::keydown, move |ev| {
            let ctrl = ev.ctrl_key() || ev.meta_key();
            let key = ev.key().to_lowercase();
            if ctrl && key == "z" {
                ev.prevent_default();
                if ev.shift_key() {
                    redo();
                } else {
                    undo();
                }
            } else if ctrl && key == "y" {
                ev.prevent_default();
                redo();
            }
        });
        // Someone pasted another share link into the address bar of this tab.
        let hash = window_event_listener(leptos::ev::hashchange, move |_| {
            let (_, hash) = browser::location_parts();
            if link::fragment_payload(&hash).is_some() {
                let o = link::opening(&hash, None);
                let _ = banner.try_set(o.banner);
                replace_text(o.text);
            }
        });
        // The planner lives as long as the page, so its window listeners do too.
        let _ = (keys, hash);
        status_view::accept_drops(replace_text);
    }

    let banner_view = move || {
        banner.get().map(|b| {
            view! {
                <div class="banner" role="alert" data-testid="banner">
                    <span>{b}</span>
                    <button on:click=move |_| banner.set(None) aria-label="dismiss this message">"×"</button>
                </div>
            }
        })
    };

    if embed {
        return view! {
            <div class="app app-embed">
                {banner_view}
                <EmbedCaption plan=plan committed=committed />
                <status_view::WhereItStands plan=plan />
                <GanttChart plan=plan stale=stale embed=true />
            </div>
        }
        .into_any();
    }

    // Side by side with another plan on one time axis.
    let compare_on = RwSignal::new(false);
    let against = RwSignal::new(Against::Counterpart);
    let has_counterpart = Memo::new(move |_| {
        analysis.with(|a| {
            a.scenario.as_deref().is_some_and(|s| {
                matches!(
                    s.strategy,
                    fleetplan::model::Strategy::KubefleetStaged(_)
                        | fleetplan::model::Strategy::KubefleetRolling(_)
                )
            })
        })
    });

    let textarea = NodeRef::<html::Textarea>::new();
    // The editor's tabs: the YAML text (the default, and where diagnostics point) or the form.
    let form_tab = RwSignal::new(false);
    let scenario = Signal::derive(move || analysis.with(|a| a.scenario.clone()));
    let diagnostics = Memo::new(move |_| Arc::new(analysis.with(|a| a.diagnostics.clone())));
    // The other plan is planned only while the comparison is shown; both charts then share one window.
    let other: Memo<Option<Arc<Plan>>> = Memo::new(move |_| {
        if !compare_on.get() {
            return None;
        }
        let s = analysis.with(|a| a.scenario.clone());
        against.with(|b| compare_view::other_plan(s.as_deref(), b))
    });
    let span = Memo::new(move |_| {
        plan.with(|a| other.with(|b| Some(compare_view::shared_span(a.as_ref()?, b.as_ref()?))))
    });
    // The editor's marks: every located diagnostic's line, and the line a click on one selected.
    let marks = Memo::new(move |_| {
        analysis.with(|a| {
            a.diagnostics
                .iter()
                .filter_map(|d| {
                    let l = d.location.as_ref()?;
                    (l.file == analysis::SOURCE_NAME).then_some((l.line, d.severity))
                })
                .collect::<Vec<_>>()
        })
    });
    let focused_line = RwSignal::new(None::<usize>);
    let select_line = move |line: usize| {
        let Some(el) = textarea.get_untracked() else {
            return;
        };
        let value = el.value();
        if let Some((s, e)) = analysis::line_range_utf16(&value, line) {
            let _ = el.focus();
            let _ = el.set_selection_range(s, e);
            // Scroll the line into the upper third: the text area does not always do it on focus.
            let top = (line as f64 - 1.0) * editor::LINE_HEIGHT - el.client_height() as f64 / 3.0;
            el.set_scroll_top(top.max(0.0) as i32);
        }
    };
    // A diagnostic points into the text: show the YAML tab, then select the line once it is drawn.
    let focus_line = move |line: usize| {
        form_tab.set(false);
        focused_line.set(Some(line));
        request_animation_frame(move || select_line(line));
    };
    let has_errors = Memo::new(move |_| analysis.with(|a| a.count(Severity::Error) > 0));

    view! {
        <div class="app">
            <Header
                replace_text=replace_text
                undo=undo
                redo=redo
                history=history
                committed=committed
                plan=plan
            />
            {banner_view}
            <main class="layout">
                <section class="editor" aria-label="scenario">
                    <div class="pane-title" role="tablist" aria-label="edit the scenario as">
                        <button role="tab" class="tab" class:active=move || !form_tab.get() aria-selected=move || (!form_tab.get()).to_string() data-testid="tab-yaml" on:click=move |_| form_tab.set(false)>"YAML"</button>
                        <button role="tab" class="tab" class:active=move || form_tab.get() aria-selected=move || form_tab.get().to_string() data-testid="tab-form" on:click=move |_| form_tab.set(true)>"Form"</button>
                        <span class="hint">"fleetplan scenario, KubeFleet objects or GKE files; re-planned as you type"</span>
                    </div>
                    <Show when=move || form_tab.get()>
                        <ScenarioForm scenario=scenario plan=plan diagnostics=diagnostics stale=stale apply=replace_text />
                    </Show>
                    <YamlEditor
                        text=text
                        node=textarea
                        marks=marks
                        focused=focused_line
                        on_input=move || {
                            focused_line.set(None);
                            schedule();
                        }
                        on_commit=move || commit(text.get_untracked())
                        hidden=form_tab
                    />
                    <Diagnostics analysis=analysis focus_line=focus_line />
                </section>
                <section class="results" aria-label="plan">
                    <Summary analysis=analysis replan_ms=replan_ms />
                    <status_view::WhereItStands plan=plan />
                    <div class="compare-bar">
                        <button
                            data-testid="compare-toggle"
                            aria-pressed=move || compare_on.get().to_string()
                            title="compare this plan with another: the other KubeFleet strategy, an earlier version, a file"
                            on:click=move |_| {
                                if !compare_on.get_untracked() && !has_counterpart.get_untracked() {
                                    // Without a counterpart, the natural other side is this version, pinned.
                                    against.set(Against::Text { label: "the version pinned when the comparison opened".into(), text: Arc::new(committed.get_untracked()) });
                                }
                                compare_on.update(|c| *c = !*c);
                            }
                        >
                            {move || if compare_on.get() { "Hide the comparison" } else { "Compare…" }}
                        </button>
                        <Show when=move || has_errors.get()>
                            <span class="hint">"The plan below is what the controller would refuse or stop on; see the problems under the editor."</span>
                        </Show>
                    </div>
                    <GanttChart plan=plan stale=stale span=span />
                    <Show when=move || compare_on.get()>
                        <compare_view::Comparison
                            plan=plan
                            other=other
                            against=against
                            has_counterpart=has_counterpart
                            committed=committed
                            history=history
                            span=span
                        />
                    </Show>
                </section>
            </main>
        </div>
    }
    .into_any()
}
