//! The editing side of the app, an on-demand part fetched while the first chart is drawn: the header
//! (new, open, examples, undo/redo, share, export, preferences), the YAML editor and the form tab, the
//! diagnostics, the comparison, the keyboard shortcuts and the mirroring of edits into the address bar
//! and localStorage. Embedded charts never fetch it.

use std::sync::Arc;
use std::time::Duration as StdDuration;

use fleetplan::plan::Plan;
use fleetplan::time::Time;
use fleetplan::Severity;
use leptos::prelude::*;

use crate::analysis::{self, Analysis};
use crate::compare_view::{self, Against, CompareArgs, CompareKit};
use crate::dom::{self, Mounted};
use crate::editor;
use crate::form::{self, FormArgs, FormKit};
use crate::header::{self, HeaderArgs};
use crate::history::History;
use crate::link::ShareKit;
use crate::on_demand::Part;
use crate::{browser, diagnostics_view, inflate, link};

/// What the workbench shares with the planner around it.
#[derive(Clone, Copy)]
pub struct BenchArgs {
    pub text: RwSignal<String>,
    /// Notified when `text` is set from elsewhere than the editor's text area.
    pub replaced: Trigger,
    pub committed: RwSignal<String>,
    pub history: RwSignal<History>,
    pub banner: RwSignal<Option<String>>,
    pub analysis: Memo<Analysis>,
    /// The analysis's plan (without a live status's range): the planner's own, not derived again here.
    pub plan: Signal<Option<Arc<Plan>>>,
    /// The plan compared with, written here while the comparison is open; the chart fits both.
    pub other: RwSignal<Option<Arc<Plan>>>,
    pub span: Signal<Option<(Time, Time)>>,
    /// Mirror committed edits into the address bar and localStorage.
    pub persist: bool,
    /// Commits a text now (undo records it, the plan follows).
    pub commit: Callback<String>,
    /// Commits the editor's text after the typing pause.
    pub schedule: Callback<()>,
    /// Replaces the editor's text and commits it.
    pub replace_text: Callback<String>,
    /// Steps back (`true`) or forward in the undo history.
    pub step: Callback<bool>,
}

/// The workbench's elements, each placed once where the planner keeps room for it: the title bar (with
/// the places of its note and share panel), the editor's side (tabs, the form's place, the text
/// editor, the problems), the compare bar, and the comparison's place (a comment it is mounted before).
pub struct BenchViews {
    pub header: web_sys::DocumentFragment,
    pub editor: web_sys::DocumentFragment,
    pub compare_bar: web_sys::HtmlElement,
    pub comparison: web_sys::Node,
}

#[derive(Clone, Copy)]
pub struct BenchKit {
    pub build: fn(BenchArgs) -> BenchViews,
}

crate::on_demand! {
    pub fn bench_kit() -> BenchKit {
        BenchKit { build }
    }
}

fn build(a: BenchArgs) -> BenchViews {
    let BenchArgs {
        text,
        replaced,
        committed,
        history,
        banner,
        analysis,
        plan,
        other,
        span,
        persist,
        commit,
        schedule,
        replace_text,
        step,
    } = a;
    let replace_text = move |t: String| replace_text.run(t);
    let undo = move || step.run(true);
    let redo = move || step.run(false);

    // Mirror committed edits into the address bar and localStorage. The opening text is not written
    // back: opening a broken link must not overwrite the user's autosaved work with the example.
    // Compressing a 1,000-cluster text and replacing the address take milliseconds that must fall
    // neither into an edit's repaint nor between two edits of a burst: the write waits until edits
    // pause (`link::mirror_delay`), writes only the latest text, skips a text already written, and
    // happens at once when the page is hidden or left, so the last edit is never lost.
    // The share codec comes with the first edit to mirror (the opening text is never encoded here).
    let sharer = Part::<ShareKit>::new();
    let timer: StoredValue<Option<TimeoutHandle>> = StoredValue::new(None);
    let first_unwritten: StoredValue<Option<f64>> = StoredValue::new(None);
    let written: StoredValue<Option<String>> = StoredValue::new(None);
    let write = move || {
        if let Some(h) = timer.try_get_value().flatten() {
            h.clear();
        }
        let _ = timer.try_set_value(None);
        let _ = first_unwritten.try_set_value(None);
        let Some(t) = committed.try_get_untracked() else {
            return;
        };
        if written.try_with_value(|w| w.as_deref() == Some(t.as_str())) != Some(false) {
            return;
        }
        browser::storage_set(link::AUTOSAVE_KEY, &t);
        let text = t.clone();
        let mirror = move |k: ShareKit| {
            let fragment = link::fragment_of(&(k.encode)(&text));
            browser::replace_fragment(if fragment.len() <= link::MIRROR_LIMIT {
                &fragment
            } else {
                ""
            });
        };
        // Fetched at the first edit, so it is nearly always here; else the address follows when it is
        // (writes keep their order: each waits on the same load).
        sharer.then(link::share_kit, mirror);
        written.set_value(Some(t));
    };
    dom::effect(move |first| {
        committed.track();
        if first || !persist {
            return;
        }
        sharer.fetch(link::share_kit);
        let now = browser::now_ms();
        let since = first_unwritten.get_value().unwrap_or(now);
        first_unwritten.set_value(Some(since));
        if let Some(h) = timer.get_value() {
            h.clear();
        }
        let wait = StdDuration::from_millis(link::mirror_delay(now, since) as u64);
        timer.set_value(set_timeout_with_handle(write, wait).ok());
    });
    let flush = move |_| {
        if first_unwritten.try_get_value().flatten().is_some() {
            write();
        }
    };
    let hidden = window_event_listener_untyped("visibilitychange", flush);
    let left = window_event_listener_untyped("pagehide", flush);

    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let ctrl = ev.ctrl_key() || ev.meta_key();
        let key = ev.key();
        if ctrl && key.eq_ignore_ascii_case("z") {
            ev.prevent_default();
            if ev.shift_key() {
                redo();
            } else {
                undo();
            }
        } else if ctrl && key.eq_ignore_ascii_case("y") {
            ev.prevent_default();
            redo();
        }
    });
    // Someone pasted another share link into the address bar of this tab.
    let hash = window_event_listener(leptos::ev::hashchange, move |_| {
        let (_, hash) = browser::location_parts();
        if let Some(payload) = link::fragment_payload(&hash) {
            // Inflated by the browser, as the page's first link was (no inflater in the app's code).
            let payload = payload.to_string();
            leptos::task::spawn_local(async move {
                let o = link::opening_of(Some(inflate::decode(&payload).await), None);
                let _ = banner.try_set(o.banner);
                replace_text(o.text);
            });
        }
    });
    // The workbench lives as long as the page, so its window listeners do too.
    let _ = (keys, hash, hidden, left);

    // Side by side with another plan on one time axis.
    let compare_on = RwSignal::new(false);
    let against = RwSignal::new(Against::Counterpart);
    let comparer = Part::<CompareKit>::new();
    // The other plan is planned only while the comparison is shown.
    dom::effect(move |_| {
        if !compare_on.get() {
            other.set(None);
            return;
        }
        let Some(k) = comparer.get(compare_view::compare_kit) else {
            return;
        };
        let s = analysis.with(|a| a.scenario.clone());
        other.set(against.with(|b| (k.other_plan)(s.as_deref(), b)));
    });

    let yaml_editor = editor::EditorApi::new(text);
    // The editor's tabs: the YAML text (the default, and where diagnostics point) or the form.
    let form_tab = RwSignal::new(false);
    // The editor's marks: every located diagnostic's line, and the line a click on one selected.
    let marks = move || {
        analysis.with(|a| {
            a.diagnostics
                .iter()
                .filter_map(|d| {
                    let l = d.location.as_ref()?;
                    (l.file == analysis::SOURCE_NAME).then_some((l.line, d.severity))
                })
                .collect::<Vec<_>>()
        })
    };
    let focused_line = RwSignal::new(None::<usize>);
    let select_line = move |line: usize| yaml_editor.select_line(line);
    // A diagnostic points into the text: show the YAML tab, then select the line once it is drawn.
    let focus_line = move |line: usize| {
        form_tab.set(false);
        focused_line.set(Some(line));
        request_animation_frame(move || select_line(line));
    };
    let former = Part::<FormKit>::new();
    let form_args = FormArgs {
        analysis,
        apply: Callback::new(replace_text),
    };

    let doc = dom::document().expect("a document");
    let header = header::header(HeaderArgs {
        replace_text,
        sharer,
        undo,
        redo,
        history,
        committed,
        plan,
    });

    // The owner of the views mounted here later (the form, the comparison): this build's, not the
    // effect's that mounts them, which re-runs (and would dispose of them) whenever it is notified.
    let owner = Owner::current();
    let mount_with = move |f: &dyn Fn() -> Mounted| match &owner {
        Some(o) => o.with(|| untrack(f)),
        None => untrack(f),
    };
    let mount_form = mount_with.clone();

    let tabs = dom::element(
        "div",
        &[
            ("class", "pane-title"),
            ("role", "tablist"),
            ("aria-label", "edit the scenario as"),
        ],
    )
    .expect("a document");
    tabs.set_inner_html(TABS);
    dom::listen(&tabs, &["click"], move |ev| {
        match dom::target_of(&ev)
            .and_then(|el| dom::closest_attr(&el, "button[role=tab]", "data-testid"))
            .as_deref()
        {
            Some("tab-yaml") => form_tab.set(false),
            Some("tab-form") => form_tab.set(true),
            _ => {}
        }
    });
    let tab_buttons = tabs.clone();
    dom::effect(move |_| {
        let form = form_tab.get();
        for (id, on) in [("tab-yaml", !form), ("tab-form", form)] {
            if let Ok(Some(b)) = tab_buttons.query_selector(&format!("[data-testid={id}]")) {
                let _ = b.class_list().toggle_with_force("active", on);
                let _ = b.set_attribute("aria-selected", if on { "true" } else { "false" });
            }
        }
    });
    // The form, shown while its tab is, mounted before this comment by its part (fetched when the tab
    // first opens); a new one each time the tab opens, as the text may have changed meanwhile.
    let form_at: web_sys::Node = doc.create_comment("").into();
    let form_shown = StoredValue::new_local(None::<Mounted>);
    let at = form_at.clone();
    dom::effect(move |_| {
        if !form_tab.get() {
            form_shown.set_value(None);
            return;
        }
        let Some(k) = former.get(form::form_kit) else {
            return;
        };
        let Some(parent) = at.parent_element() else {
            return;
        };
        if form_shown.with_value(|m| m.is_none()) {
            let m = mount_form(&|| (k.mount)(&parent, Some(&at), form_args));
            form_shown.set_value(Some(m));
        }
    });
    let editor = doc.create_document_fragment();
    let _ = editor.append_child(&tabs);
    let _ = editor.append_child(&form_at);
    let _ = editor.append_child(&editor::yaml_editor(editor::EditorArgs {
        replaced,
        api: yaml_editor,
        marks,
        focused: focused_line.into(),
        on_input: move || {
            // Set only when a line is marked: setting it notifies even when it is unchanged, and
            // the marks would be drawn again in every edit's repaint.
            if focused_line.get_untracked().is_some() {
                focused_line.set(None);
            }
            schedule.run(());
        },
        on_commit: move || commit.run(text.get_untracked()),
        hidden: form_tab.into(),
    }));
    let _ = editor.append_child(&diagnostics_view::diagnostics(analysis, focus_line));

    let compare_bar = dom::element("div", &[("class", "compare-bar")]).expect("a document");
    compare_bar.set_inner_html(COMPARE_BAR);
    dom::listen(&compare_bar, &["click"], move |ev| {
        let on_toggle = dom::target_of(&ev)
            .and_then(|el| el.closest("[data-testid=compare-toggle]").ok().flatten())
            .is_some();
        if !on_toggle {
            return;
        }
        if !compare_on.get_untracked() && !analysis.with_untracked(Analysis::has_counterpart) {
            // Without a counterpart, the natural other side is this version, pinned.
            against.set(Against::Text {
                label: "the version pinned when the comparison opened".into(),
                text: Arc::new(committed.get_untracked()),
            });
        }
        compare_on.update(|c| *c = !*c);
    });
    let bar = compare_bar.clone();
    dom::effect(move |_| {
        let on = compare_on.get();
        if let Ok(Some(b)) = bar.query_selector("[data-testid=compare-toggle]") {
            let _ = b.set_attribute("aria-pressed", if on { "true" } else { "false" });
            b.set_text_content(Some(if on {
                "Hide the comparison"
            } else {
                "Compare…"
            }));
        }
    });
    let bar = compare_bar.clone();
    // The errors are counted here, not in a memo of their own (a memo of another value type is
    // another copy of Leptos' memo code): this effect runs where that memo recomputed, and keeps the
    // last answer to do nothing when it is the same.
    let mut had_errors = None;
    dom::effect(move |_| {
        let errors = analysis.with(|a| a.count(Severity::Error) > 0);
        if had_errors.replace(errors) == Some(errors) {
            return;
        }
        match (errors, bar.query_selector(":scope > .hint").ok().flatten()) {
            (true, None) => {
                let _ = bar.insert_adjacent_html("beforeend", ERRORS_HINT);
            }
            (false, Some(hint)) => hint.remove(),
            _ => {}
        }
    });

    let compare_args = CompareArgs {
        plan,
        other: other.into(),
        against,
        analysis,
        committed,
        history,
        span,
    };
    // The comparison, shown while it is on, mounted before this comment once its part is here.
    let comparison: web_sys::Node = doc.create_comment("").into();
    let compare_shown = StoredValue::new_local(None::<Mounted>);
    let at = comparison.clone();
    dom::effect(move |_| {
        if !compare_on.get() {
            compare_shown.set_value(None);
            return;
        }
        let Some(k) = comparer.loaded() else { return };
        let Some(parent) = at.parent_element() else {
            return;
        };
        if compare_shown.with_value(|m| m.is_none()) {
            let m = mount_with(&|| (k.mount)(&parent, Some(&at), compare_args));
            compare_shown.set_value(Some(m));
        }
    });
    BenchViews {
        header,
        editor,
        compare_bar,
        comparison,
    }
}

/// The editor's tabs (the YAML tab chosen, as it opens); an effect marks the chosen one.
const TABS: &str = r#"<button role="tab" class="tab active" aria-selected="true" data-testid="tab-yaml">YAML</button><button role="tab" class="tab" aria-selected="false" data-testid="tab-form">Form</button><span class="hint">fleetplan scenario, KubeFleet objects or GKE files; re-planned as you type</span>"#;

/// The compare bar's button as it opens (the comparison hidden).
const COMPARE_BAR: &str = r#"<button data-testid="compare-toggle" aria-pressed="false" title="compare this plan with another: the other KubeFleet strategy, an earlier version, a file">Compare…</button>"#;

/// Shown in the compare bar while the text has errors.
const ERRORS_HINT: &str = r#"<span class="hint">The plan below is what the controller would refuse or stop on; see the problems under the editor.</span>"#;
