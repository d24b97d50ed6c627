//! The YAML editor: a plain text area with line numbers beside it, the lines diagnostics point at
//! marked behind the text, and Enter keeping the line's indentation (one level more after a `key:`).
//!
//! Still a `<textarea>`: the browser's own editing, undo of a burst of typing, spell-check off, screen
//! readers and phones all keep working. The gutter and the marks are drawn in a fixed line height and
//! follow its scroll position.

use fleetplan::Severity;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Line height and top padding of the text area, px; the gutter and marks use the same.
pub const LINE_HEIGHT: f64 = 18.0;
const PAD: f64 = 8.0;

/// What Enter inserts after `before` (the text up to the caret): a newline and the current line's
/// indentation, two spaces more after a line ending in `:` (a mapping or list opens), and for a list
/// item `- key: value` the indentation of its keys.
pub fn newline_for(before: &str) -> String {
    let line = before.rsplit('\n').next().unwrap_or("");
    let indent = line.len() - line.trim_start_matches(' ').len();
    let content = line.trim();
    let mut n = indent;
    if let Some(item) = content.strip_prefix("- ") {
        // Keys of a list item line up after the dash.
        if item.contains(':') && !item.ends_with(':') {
            n = indent + 2;
        } else if item.ends_with(':') {
            n = indent + 4;
        }
    } else if content.ends_with(':') {
        n = indent + 2;
    }
    format!("\n{}", " ".repeat(n))
}

/// The editor. `replaced`: notified when `text` was set from elsewhere (an example, the form, undo),
/// the only texts written into the text area; `marks`: (line, severity) of the diagnostics;
/// `focused`: the line a click on a diagnostic selected, marked more strongly.
#[component]
pub fn YamlEditor(
    text: RwSignal<String>,
    replaced: Trigger,
    node: NodeRef<html::Textarea>,
    #[prop(into)] marks: Signal<Vec<(usize, Severity)>>,
    #[prop(into)] focused: Signal<Option<usize>>,
    on_input: impl Fn() + Copy + Send + Sync + 'static,
    on_commit: impl Fn() + Copy + Send + Sync + 'static,
    #[prop(into)] hidden: Signal<bool>,
) -> impl IntoView {
    let scroll = RwSignal::new(0.0_f64);
    // An edit typed here is already shown: only a text from elsewhere is written into the text area.
    // The effect follows `replaced`, not `text`, so a typed edit neither keeps a copy of the text to
    // compare with nor compares it (each a pass over 179 KB for a 1,000-cluster GKE text, in the
    // edit's repaint). The text area's own value is compared instead, on the rare writes from elsewhere:
    // the same text written again would move the caret to the end.
    Effect::new(move |_| {
        replaced.track();
        let Some(el) = node.get() else {
            return;
        };
        text.with_untracked(|t| {
            if el.value() != *t {
                el.set_value(t);
            }
        });
    });
    let lines = Memo::new(move |_| text.with(|t| t.split('\n').count()));
    let gutter = Memo::new(move |_| {
        let n = lines.get();
        let mut s = String::with_capacity(n * 5);
        for i in 1..=n {
            s.push_str(&i.to_string());
            s.push('\n');
        }
        s
    });
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() != "Enter"
            || ev.ctrl_key()
            || ev.meta_key()
            || ev.alt_key()
            || ev.shift_key()
            || ev.is_composing()
        {
            return;
        }
        let Some(el) = node.get_untracked() else {
            return;
        };
        let (Ok(Some(start)), Ok(Some(end))) = (el.selection_start(), el.selection_end()) else {
            return;
        };
        let value = el.value();
        // Selection offsets count UTF-16 units.
        let units: Vec<u16> = value.encode_utf16().collect();
        let before = String::from_utf16_lossy(&units[..(start as usize).min(units.len())]);
        ev.prevent_default();
        let insert = newline_for(&before);
        if el
            .set_range_text_with_start_and_end_and_mode(&insert, start, end, "end")
            .is_ok()
        {
            text.set(el.value());
            on_input();
        }
    };
    let mark_views = move || {
        let f = focused.get();
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for (line, sev) in marks.get() {
            if seen.contains(&line) {
                continue;
            }
            seen.push(line);
            let class = match sev {
                Severity::Error => "mark mark-error",
                Severity::Warning => "mark mark-warning",
                Severity::Info => "mark mark-info",
            };
            out.push(view! { <div class=class style:top=format!("{}px", PAD + (line as f64 - 1.0) * LINE_HEIGHT)></div> });
        }
        if let Some(line) = f {
            out.push(view! { <div class="mark mark-focus" style:top=format!("{}px", PAD + (line as f64 - 1.0) * LINE_HEIGHT)></div> });
        }
        out
    };
    view! {
        <div class="code-editor" style:display=move || if hidden.get() { "none" } else { "flex" }>
            <pre class="gutter" aria-hidden="true" style:transform=move || format!("translateY({}px)", -scroll.get())>{gutter}</pre>
            <div class="code">
                <div class="marks" aria-hidden="true" style:transform=move || format!("translateY({}px)", -scroll.get())>{mark_views}</div>
                <textarea
                    node_ref=node
                    class="yaml"
                    data-testid="yaml"
                    spellcheck="false"
                    autocomplete="off"
                    autocapitalize="off"
                    aria-label="scenario text (YAML)"
                    on:input=move |ev| {
                        text.set(event_target_value(&ev));
                        on_input();
                    }
                    on:change=move |_| on_commit()
                    on:keydown=on_key
                    on:scroll=move |ev| {
                        if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok()) {
                            scroll.set(el.scroll_top() as f64);
                        }
                    }
                ></textarea>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn enter_keeps_the_indentation_and_opens_blocks() {
        assert_eq!(newline_for("name: x"), "\n");
        assert_eq!(newline_for("a: 1\n  clusters:"), "\n    ");
        assert_eq!(newline_for("stages:\n    - name: canary"), "\n      ");
        assert_eq!(newline_for("  - labelSelector:"), "\n      ");
        assert_eq!(newline_for("  - member1"), "\n  ");
        assert_eq!(newline_for("    waitTime: 1h"), "\n    ");
        assert_eq!(newline_for(""), "\n");
    }
}
