//! The diagnostics of the current text under the editor, errors first: where (`line:column`, a click
//! selects the line), how bad, the rule's code, the message, and the object it is about as the author
//! named it.
//!
//! The list is markup written here ([`diagnostics_html`]) and set whole when it changes, with one
//! click listener for its buttons (`data-line`), instead of a keyed Leptos list: the first visit then
//! carries no keyed-list or per-item view code.

use std::fmt::Write;

use fleetplan::export::xml_escape;
use fleetplan::visible::visible;
use fleetplan::{Diagnostic, Severity};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::analysis::Analysis;

pub fn diagnostics(
    analysis: Memo<Analysis>,
    focus_line: impl Fn(usize) + Copy + 'static,
) -> web_sys::HtmlElement {
    let list = crate::dom::element(
        "div",
        &[
            ("class", "diagnostics"),
            ("data-testid", "diagnostics"),
            ("role", "region"),
            ("aria-label", "problems"),
        ],
    )
    .expect("a document");
    let el = list.clone();
    // What is on screen: a re-plan that changes no diagnostic (most edits, a live status's minute)
    // leaves the list, and a focused button in it, alone.
    let shown: StoredValue<Option<String>> = StoredValue::new(None);
    crate::dom::effect(move |_| {
        let html = analysis.with(|a| diagnostics_html(&a.diagnostics));
        if shown.with_value(|s| s.as_deref() == Some(html.as_str())) {
            return;
        }
        rewrite_keeping_focus(&el, &html);
        shown.set_value(Some(html));
    });
    crate::dom::listen(&list, &["click"], move |ev| {
        let line = crate::dom::target_of(&ev)
            .and_then(|el| crate::dom::closest_attr(&el, "button[data-line]", "data-line"))
            .and_then(|l| l.parse().ok());
        if let Some(l) = line {
            focus_line(l);
        }
    });
    list
}

/// Sets `el`'s markup; the button that had the keyboard's focus in it (the n-th) gets it back, so a
/// keyboard user reading the list keeps their place when it changes under them.
fn rewrite_keeping_focus(el: &web_sys::HtmlElement, html: &str) {
    let place = el
        .owner_document()
        .and_then(|d| d.active_element())
        .filter(|a| el.contains(Some(a)))
        .and_then(|active| {
            let all = el.query_selector_all("button").ok()?;
            (0..all.length()).find(|&i| all.item(i).is_some_and(|n| n.is_same_node(Some(&active))))
        });
    el.set_inner_html(html);
    if let Some(i) = place {
        let again = el
            .query_selector_all("button")
            .ok()
            .and_then(|all| all.item(i))
            .and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(b) = again {
            let _ = b.focus();
        }
    }
}

/// The list's markup: "No problems found." or one item per diagnostic, in the analysis' order.
pub fn diagnostics_html(diagnostics: &[Diagnostic]) -> String {
    let mut out = String::with_capacity(64 + 400 * diagnostics.len());
    if diagnostics.is_empty() {
        out.push_str(r#"<p class="ok">No problems found.</p>"#);
    }
    out.push_str("<ul>");
    for d in diagnostics {
        item_html(&mut out, d);
    }
    out.push_str("</ul>");
    out
}

fn item_html(out: &mut String, d: &Diagnostic) {
    let (class, word) = match d.severity {
        Severity::Error => ("diag diag-error", "error"),
        Severity::Warning => ("diag diag-warning", "warning"),
        Severity::Info => ("diag diag-info", "info"),
    };
    let _ = write!(out, r#"<li class="{class}"><button class="diag-place""#);
    // The accessible name starts with the visible text (`21:5`), as speech-input users say it.
    match d.location.as_ref().map(|l| (l.line, l.column)) {
        Some((l, c)) => {
            let _ = write!(
                out,
                r#" data-line="{l}" title="{l}:{c} show this line in the editor" aria-label="{l}:{c} show this line in the editor">{l}:{c}"#
            );
        }
        None => {
            out.push_str(r#" disabled title="— no line to show" aria-label="— no line to show">—"#)
        }
    }
    let _ = write!(
        out,
        r#"</button><span class="diag-sev">{word}</span><span class="diag-body">"#
    );
    if let Some(s) = d.subject() {
        let _ = write!(
            out,
            r#"<strong class="diag-subject" data-testid="diag-subject">{}</strong>"#,
            xml_escape(&visible(s))
        );
    }
    let _ = write!(
        out,
        r#"<span class="diag-msg">{}</span>"#,
        xml_escape(&visible(&d.message))
    );
    if let Some(p) = &d.path {
        let _ = write!(
            out,
            r#"<code class="diag-path" title="field path">{}</code>"#,
            xml_escape(p)
        );
    }
    let _ = write!(
        out,
        r#"<code class="diag-code" title="rule">{}</code></span></li>"#,
        xml_escape(d.code)
    );
}
