//! fleetplan's browser planner: Leptos components that edit a scenario and render the core's plan.
//!
//! Data flow (signals live only in this crate): the editor's `text` → after a 150 ms pause, `committed`
//! → the `analysis` memo (`fleetplan::load` + `fleetplan::plan`, see [`analysis`]) → summary, diagnostics
//! and the chart, which lays itself out with `fleetplan::gantt`. Nothing here computes a time.
//! [`App`] reads the page's address and storage and hands the opening text to [`Planner`], which the
//! component tests mount directly.

pub mod analysis;
pub mod api;
pub mod browser;
pub mod chart;
pub mod compare_view;
pub mod exports;
pub mod form;
pub mod history;
pub mod link;

use std::sync::Arc;
use std::time::Duration as StdDuration;

use fleetplan::plan::{Outcome, Plan};
use fleetplan::time::Time;
use fleetplan::{Diagnostic, Severity};
use leptos::html;
use leptos::prelude::*;

use crate::analysis::Analysis;
use crate::chart::GanttChart;
use crate::exports::Format;
use crate::form::ScenarioForm;
use crate::history::History;

/// Pause after the last keystroke before re-planning: long enough not to plan every key of a word, short
/// enough to feel live.
const DEBOUNCE: StdDuration = StdDuration::from_millis(150);

/// Mounts the app on the page's body, unless the page only loads the module for its JavaScript API
/// (`<body data-fleetplan="api">`). A panic hook is installed only as a last line of defence: input errors
/// are diagnostics, never panics.
pub fn start() {
    console_error_panic_hook::set_once();
    let api_only = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
        .and_then(|b| b.get_attribute("data-fleetplan"))
        .is_some_and(|v| v == "api");
    if !api_only {
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
    // How long the last re-plan took, ms; shown in the summary for the performance budget.
    let replan_ms = StoredValue::new(0.0_f64);

    let analysis = Memo::new(move |prev: Option<&Analysis>| {
        let t0 = browser::now_ms();
        let a = committed.with(|t| analysis::analyse(t, prev));
        replan_ms.set_value(browser::now_ms() - t0);
        a
    });
    let plan = Signal::derive(move || analysis.with(|a| a.plan.clone()));
    let stale = Signal::derive(move || analysis.with(|a| a.stale));

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
    let undo = move || {
        commit(text.get_untracked());
        if let Some(t) = history
            .try_update(|h| h.undo().map(str::to_string))
            .flatten()
        {
            text.set(t.clone());
            committed.set(t);
        }
    };
    let redo = move || {
        commit(text.get_untracked());
        if let Some(t) = history
            .try_update(|h| h.redo().map(str::to_string))
            .flatten()
        {
            text.set(t.clone());
            committed.set(t);
        }
    };

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
    }

    let banner_view = move || {
        banner.get().map(|b| {
            view! {
                <div class="banner" role="alert" data-testid="banner">
                    <span>{b}</span>
                    <button on:click=move |_| banner.set(None) aria-label="dismiss">"×"</button>
                </div>
            }
        })
    };

    if embed {
        return view! {
            <div class="app app-embed">
                {banner_view}
                <EmbedCaption plan=plan committed=committed />
                <GanttChart plan=plan stale=stale embed=true />
            </div>
        }
        .into_any();
    }

    // Side by side with the counterpart strategy (staged ↔ rolling) on one time axis.
    let compare_on = RwSignal::new(false);
    let comparable = Memo::new(move |_| {
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
    // The counterpart is planned only while the comparison is shown; both charts then share one window.
    let other: Memo<Option<Arc<Plan>>> = Memo::new(move |_| {
        if !compare_on.get() {
            return None;
        }
        analysis.with(|a| compare_view::counterpart_plan(a.scenario.as_deref()))
    });
    let span = Memo::new(move |_| {
        plan.with(|a| other.with(|b| Some(compare_view::shared_span(a.as_ref()?, b.as_ref()?))))
    });
    let select_line = move |line: usize| {
        let Some(el) = textarea.get_untracked() else {
            return;
        };
        let value = el.value();
        if let Some((s, e)) = analysis::line_range_utf16(&value, line) {
            let _ = el.focus();
            let _ = el.set_selection_range(s, e);
            // Scroll the line into the upper third: the text area does not always do it on focus.
            let lines = value.split('\n').count().max(1) as f64;
            let per_line = el.scroll_height() as f64 / lines;
            let top = (line as f64 - 1.0) * per_line - el.client_height() as f64 / 3.0;
            el.set_scroll_top(top.max(0.0) as i32);
        }
    };
    // A diagnostic points into the text: show the YAML tab, then select the line once it is drawn.
    let focus_line = move |line: usize| {
        form_tab.set(false);
        request_animation_frame(move || select_line(line));
    };

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
                    <div class="pane-title" role="tablist">
                        <button role="tab" class="tab" class:active=move || !form_tab.get() aria-selected=move || (!form_tab.get()).to_string() data-testid="tab-yaml" on:click=move |_| form_tab.set(false)>"YAML"</button>
                        <button role="tab" class="tab" class:active=move || form_tab.get() aria-selected=move || form_tab.get().to_string() data-testid="tab-form" on:click=move |_| form_tab.set(true)>"Form"</button>
                        <span class="hint">"fleetplan scenario or KubeFleet objects; re-planned as you type"</span>
                    </div>
                    <Show when=move || form_tab.get()>
                        <ScenarioForm scenario=scenario plan=plan diagnostics=diagnostics stale=stale apply=replace_text />
                    </Show>
                    <textarea
                        style:display=move || if form_tab.get() { "none" } else { "block" }
                        node_ref=textarea
                        class="yaml"
                        data-testid="yaml"
                        spellcheck="false"
                        autocomplete="off"
                        aria-label="scenario text"
                        prop:value=move || text.get()
                        on:input=move |ev| {
                            text.set(event_target_value(&ev));
                            schedule();
                        }
                        on:change=move |_| commit(text.get_untracked())
                    ></textarea>
                    <Diagnostics analysis=analysis focus_line=focus_line />
                </section>
                <section class="results" aria-label="plan">
                    <Summary analysis=analysis replan_ms=replan_ms />
                    <Show when=move || comparable.get()>
                        <div class="compare-bar">
                            <button
                                data-testid="compare-toggle"
                                class:primary=move || compare_on.get()
                                title="plan the same fleet with the other KubeFleet strategy and show both on one time axis"
                                on:click=move |_| compare_on.update(|c| *c = !*c)
                            >
                                {move || if compare_on.get() { "Hide the comparison" } else { "Compare staged and rolling" }}
                            </button>
                        </div>
                    </Show>
                    <GanttChart plan=plan stale=stale span=span />
                    <Show when=move || compare_on.get() && comparable.get()>
                        <compare_view::Comparison plan=plan other=other span=span />
                    </Show>
                </section>
            </main>
        </div>
    }
    .into_any()
}

/// Title bar: examples gallery, undo/redo, share and export.
#[component]
fn Header(
    replace_text: impl Fn(String) + Copy + Send + Sync + 'static,
    undo: impl Fn() + Copy + Send + Sync + 'static,
    redo: impl Fn() + Copy + Send + Sync + 'static,
    history: RwSignal<History>,
    committed: RwSignal<String>,
    plan: Signal<Option<Arc<Plan>>>,
) -> impl IntoView {
    // The share panel: the link, the iframe snippet, and a warning when the link is long.
    let share: RwSignal<Option<(String, String, Option<String>)>> = RwSignal::new(None);
    let open_share = move |_| {
        let t = committed.get_untracked();
        let base = browser::base_url();
        let url = link::share_url(&base, &t);
        let snippet = link::iframe_snippet(&link::embed_url(&base, &t));
        let warning = fleetplan::share::link_warning(&fleetplan::share::encode(&t));
        browser::copy_to_clipboard(&url);
        share.set(Some((url, snippet, warning)));
    };
    let export_note = RwSignal::new(None::<String>);
    let menu = NodeRef::<html::Details>::new();
    let on_export = move |f: Format| {
        // Close the menu, as a menu does once something is chosen.
        if let Some(d) = menu.get_untracked() {
            d.set_open(false);
        }
        let t = committed.get_untracked();
        let p = plan.get_untracked();
        let ok = exports::download(f, &t, p.as_deref());
        export_note.set((!ok).then(|| match f {
            Format::Csv | Format::Mermaid => {
                format!("{} export is not available in this build yet", f.label())
            }
            _ => format!("{}: nothing to export until the scenario plans", f.label()),
        }));
    };
    let examples = fleetplan::examples::all()
        .iter()
        .map(|e| view! { <option value=e.name title=e.title>{format!("{} — {}", e.name, e.title)}</option> })
        .collect_view();
    let exports = Format::ALL
        .iter()
        .map(|&f| {
            view! {
                <button
                    data-testid=format!("export-{f:?}").to_lowercase()
                    disabled=move || f.needs_plan() && plan.with(|p| p.is_none())
                    on:click=move |_| on_export(f)
                >
                    {f.label()}
                </button>
            }
        })
        .collect_view();
    view! {
        <header class="top">
            <h1>"fleetplan"</h1>
            <span class="tagline">"staged rollouts, projected before they run"</span>
            <label class="examples">
                "Examples "
                <select
                    data-testid="examples"
                    on:change=move |ev| {
                        let name = event_target_value(&ev);
                        if let Some(e) = fleetplan::examples::get(&name) {
                            replace_text(e.text.to_string());
                        }
                        // Back to the prompt, so picking the same example again still works.
                        if let Some(sel) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlSelectElement>(t).ok()) {
                            sel.set_value("");
                        }
                    }
                >
                    <option value="" selected>"open an example…"</option>
                    {examples}
                </select>
            </label>
            <span class="spacer"></span>
            <button on:click=move |_| undo() disabled=move || history.with(|h| !h.can_undo()) title="undo (ctrl+z)">"Undo"</button>
            <button on:click=move |_| redo() disabled=move || history.with(|h| !h.can_redo()) title="redo (ctrl+shift+z)">"Redo"</button>
            <button class="primary" data-testid="copy-link" on:click=open_share>"Copy link"</button>
            <details class="export-menu" node_ref=menu>
                <summary>"Export"</summary>
                <div class="export-items">{exports}</div>
            </details>
        </header>
        {move || export_note.get().map(|n| view! { <div class="note" role="status">{n}</div> })}
        {move || share.get().map(|(url, snippet, warning)| view! {
            <div class="share-panel" role="region" aria-label="share">
                <label>"Link (copied to the clipboard) "
                    <input readonly data-testid="share-link" prop:value=url.clone() on:focus=|ev| select_all(&ev) />
                </label>
                <label>"Embed in a docs page "
                    <input readonly data-testid="embed-snippet" prop:value=snippet.clone() on:focus=|ev| select_all(&ev) />
                </label>
                {warning.map(|w| view! { <p class="warning">{w}</p> })}
                <button on:click=move |_| share.set(None) aria-label="close">"×"</button>
            </div>
        })}
    }
}

fn select_all(ev: &web_sys::FocusEvent) {
    if let Some(input) = ev
        .target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok())
    {
        input.select();
    }
}

/// The diagnostics of the current text; a click selects the line in the editor.
#[component]
fn Diagnostics(
    analysis: Memo<Analysis>,
    focus_line: impl Fn(usize) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let items = move || {
        analysis.with(|a| {
            a.diagnostics
                .iter()
                .enumerate()
                .map(|(i, d)| (i, d.clone()))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div class="diagnostics" data-testid="diagnostics">
            <Show when=move || analysis.with(|a| a.diagnostics.is_empty())>
                <p class="ok">"No problems found."</p>
            </Show>
            <ul>
                <For
                    each=items
                    key=|(i, d)| format!("{i}:{d}")
                    children=move |(_, d)| diagnostic_item(d, focus_line)
                />
            </ul>
        </div>
    }
}

fn diagnostic_item(
    d: Diagnostic,
    focus_line: impl Fn(usize) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let (class, word) = match d.severity {
        Severity::Error => ("diag diag-error", "error"),
        Severity::Warning => ("diag diag-warning", "warning"),
        Severity::Info => ("diag diag-info", "info"),
    };
    let line = d.location.as_ref().map(|l| (l.line, l.column));
    let place = line.map_or_else(|| "—".to_string(), |(l, c)| format!("{l}:{c}"));
    let path = d.path.clone().map(|p| format!(" (at {p})"));
    view! {
        <li class=class>
            <button
                class="diag-place"
                disabled=line.is_none()
                title="show this line in the editor"
                on:click=move |_| {
                    if let Some((l, _)) = line {
                        focus_line(l);
                    }
                }
            >
                {place}
            </button>
            <span class="diag-sev">{word}</span>
            <code class="diag-code">{d.code}</code>
            <span class="diag-msg">{d.message}{path}</span>
        </li>
    }
}

/// A time for people: `Mon 23 Nov 2026 11:06 UTC` (the plan's instants are UTC). Written out by hand:
/// chrono's strftime formatter would add its whole machinery to the bundle for this one line.
pub fn human_time(t: Time) -> String {
    use chrono::{Datelike, Timelike};
    const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let d = t.to_datetime();
    format!(
        "{} {} {} {} {:02}:{:02} UTC",
        DAYS[d.weekday().num_days_from_monday() as usize % 7],
        d.day(),
        MONTHS[(d.month0() as usize) % 12],
        d.year(),
        d.hour(),
        d.minute()
    )
}

/// A time for people, with the exact RFC 3339 instant kept in `data-time`.
fn time_view(t: Option<Time>, testid: &'static str) -> impl IntoView {
    match t {
        Some(t) => {
            let exact = t.to_string();
            let human = human_time(t);
            view! { <time data-testid=testid data-time=exact.clone() datetime=exact.clone() title=exact>{human}</time> }.into_any()
        }
        None => view! { <span data-testid=testid data-time="never">"never"</span> }.into_any(),
    }
}

pub(crate) fn outcome_words(o: Outcome) -> (&'static str, &'static str) {
    match o {
        Outcome::Succeeded => ("succeeds", "outcome-ok"),
        Outcome::Failed => ("fails", "outcome-bad"),
        Outcome::Blocked => ("blocks (waits forever)", "outcome-warn"),
        Outcome::Invalid => ("is refused by the controller", "outcome-bad"),
        Outcome::Stalled => ("stalls (never finishes)", "outcome-bad"),
    }
}

/// Above the chart: end time, total duration, outcome, ETA per stage, problem counts.
#[component]
fn Summary(analysis: Memo<Analysis>, replan_ms: StoredValue<f64>) -> impl IntoView {
    move || {
        analysis.with(|a| {
            let errors = a.count(Severity::Error);
            let warnings = a.count(Severity::Warning);
            let counts = format!(
                "{errors} error{}, {warnings} warning{}",
                if errors == 1 { "" } else { "s" },
                if warnings == 1 { "" } else { "s" }
            );
            let timing = format!("{:.1}", replan_ms.get_value());
            let Some(p) = a.plan.clone() else {
                return view! {
                    <div class="summary" data-testid="summary" data-replan-ms=timing>
                        <p class="counts">{counts}</p>
                    </div>
                }
                .into_any();
            };
            let (outcome, outcome_class) = outcome_words(p.outcome);
            let has_errors = errors > 0;
            let duration = p
                .summary
                .total_duration
                .map_or_else(|| "—".to_string(), |d| d.to_string());
            let etas = p
                .summary
                .stage_etas
                .iter()
                .map(|e| view! { <li><span class="eta-stage">{e.stage.clone()}</span>" "{time_view(e.end, "stage-eta")}</li> })
                .collect_view();
            let name = p.scenario.clone().unwrap_or_else(|| p.run.clone());
            let runs_note = (a.runs > 1).then(|| {
                format!("the input has {} update runs; showing the first", a.runs)
            });
            view! {
                <div class="summary" class:stale=a.stale data-testid="summary" data-replan-ms=timing>
                    <div class="summary-main">
                        <h2 class="run-name">{name}</h2>
                        <span class=format!("outcome {outcome_class}")>"The run "{outcome}</span>
                        <span class="counts" class:has-errors=has_errors>{counts}</span>
                    </div>
                    <dl class="facts">
                        <div><dt>"start"</dt><dd>{time_view(Some(p.start), "plan-start")}</dd></div>
                        <div><dt>"end"</dt><dd>{time_view(p.end, "plan-end")}</dd></div>
                        <div><dt>"total"</dt><dd data-testid="plan-duration">{duration}</dd></div>
                        <div><dt>"clusters updated"</dt><dd>{format!("{} of {}", p.summary.clusters_updated, p.summary.clusters)}</dd></div>
                    </dl>
                    <ul class="kind-lines">{kind_lines(&p).into_iter().map(|(id, t)| view! { <li data-testid=id>{t}</li> }).collect_view()}</ul>
                    <ol class="etas" aria-label="end of each stage">{etas}</ol>
                    {runs_note.map(|n| view! { <p class="note">{n}</p> })}
                </div>
            }
            .into_any()
        })
    }
}

/// What only this kind of plan can say: when each version reaches every cluster of each fleet (GKE);
/// the stall, or the end and the fewest available clusters (rolling). `(testid, text)` per line.
pub fn kind_lines(p: &Plan) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    // One line per version and fleet: the control planes' time, with the nodes' after it.
    let reach = &p.summary.version_reach;
    for v in reach.iter().filter(|v| v.upgrade_type != "node") {
        let when = |t: Option<Time>| t.map_or_else(|| "never".to_string(), human_time);
        let nodes = reach
            .iter()
            .find(|n| n.upgrade_type == "node" && n.version == v.version && n.fleet == v.fleet)
            .map(|n| format!(" (nodes: {})", when(n.at)))
            .unwrap_or_default();
        out.push((
            "version-reach",
            match v.at {
                Some(t) => format!(
                    "version {} reaches every cluster of fleet {} ({}) at {}{nodes}",
                    v.version,
                    v.fleet,
                    v.clusters,
                    human_time(t)
                ),
                None => format!(
                    "version {} never reaches every cluster of fleet {}{nodes}",
                    v.version, v.fleet
                ),
            },
        ));
    }
    // Node-only releases have no control-plane line to ride on.
    for n in reach.iter().filter(|n| {
        n.upgrade_type == "node"
            && !reach
                .iter()
                .any(|v| v.upgrade_type != "node" && v.version == n.version && v.fleet == n.fleet)
    }) {
        out.push((
            "version-reach",
            format!(
                "node version {} reaches every cluster of fleet {} at {}",
                n.version,
                n.fleet,
                n.at.map_or_else(|| "never".to_string(), human_time)
            ),
        ));
    }
    if let Some(g) = &p.gke {
        let mut reasons: Vec<(&str, Vec<&str>)> = Vec::new();
        for s in &g.skipped {
            match reasons.iter_mut().find(|(r, _)| *r == s.reason) {
                Some((_, names)) if !names.contains(&s.cluster.as_str()) => names.push(&s.cluster),
                Some(_) => {}
                None => reasons.push((s.reason, vec![&s.cluster])),
            }
        }
        for (reason, names) in reasons {
            out.push((
                "skipped",
                format!("skipped ({reason}): {}", names.join(", ")),
            ));
        }
    }
    if let Some(r) = &p.rolling {
        match &r.stall {
            Some(s) => out.push((
                "stall",
                format!(
                    "stalls from {}: {} wait forever: {}",
                    human_time(s.at),
                    s.waiting.join(", "),
                    s.reason
                ),
            )),
            None => out.push((
                "rolling-end",
                match p.end {
                    Some(e) => format!("every cluster is rolled at {}", human_time(e)),
                    None => "the rollout does not finish".to_string(),
                },
            )),
        }
        let lowest = r
            .availability
            .iter()
            .map(|a| a.available)
            .min()
            .unwrap_or(r.target);
        out.push((
            "min-available",
            format!(
                "fewest available clusters: {lowest} of {} (budget: at least {} = N − maxUnavailable {})",
                r.target, r.min_available, r.max_unavailable
            ),
        ));
    }
    out
}

/// Embed mode's one-line caption: what the chart is, when it ends, and a way into the full app.
#[component]
fn EmbedCaption(plan: Signal<Option<Arc<Plan>>>, committed: RwSignal<String>) -> impl IntoView {
    move || {
        plan.get().map(|p| {
            let name = p.scenario.clone().unwrap_or_else(|| p.run.clone());
            let open = link::share_url(&browser::base_url(), &committed.get_untracked());
            view! {
                <p class="embed-caption">
                    <strong>{name}</strong>" · ends "{time_view(p.end, "plan-end")}
                    " · "<a href=open target="_blank" rel="noopener">"open in fleetplan"</a>
                </p>
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn times_read_like_a_calendar() {
        let t = Time::parse("2026-11-23T09:05:00Z").unwrap();
        assert_eq!(human_time(t), "Mon 23 Nov 2026 09:05 UTC");
        let t = Time::parse("2027-01-03T23:59:59Z").unwrap();
        assert_eq!(human_time(t), "Sun 3 Jan 2027 23:59 UTC");
    }
}
