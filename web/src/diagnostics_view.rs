//! The diagnostics of the current text under the editor, errors first: where (`line:column`, a click
//! selects the line), how bad, the rule's code, the message, and the object it is about as the author
//! named it.

use fleetplan::{Diagnostic, Severity};
use leptos::prelude::*;

use crate::analysis::Analysis;

#[component]
pub fn Diagnostics(
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
        <div class="diagnostics" data-testid="diagnostics" role="region" aria-label="problems">
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
    // The accessible name starts with the visible text (`21:5`), as speech-input users say it.
    let place_name = line.map_or_else(
        || "— no line to show".to_string(),
        |(l, c)| format!("{l}:{c} show this line in the editor"),
    );
    let subject = d
        .subject()
        .map(|s| fleetplan::visible::visible(s).into_owned());
    let path = d.path.clone();
    view! {
        <li class=class>
            <button
                class="diag-place"
                disabled=line.is_none()
                title=place_name.clone()
                aria-label=place_name
                on:click=move |_| {
                    if let Some((l, _)) = line {
                        focus_line(l);
                    }
                }
            >
                {place}
            </button>
            <span class="diag-sev">{word}</span>
            <span class="diag-body">
                {subject.map(|s| view! { <strong class="diag-subject" data-testid="diag-subject">{s}</strong> })}
                <span class="diag-msg">{fleetplan::visible::visible(&d.message).into_owned()}</span>
                {path.map(|p| view! { <code class="diag-path" title="field path">{p}</code> })}
                <code class="diag-code" title="rule">{d.code}</code>
            </span>
        </li>
    }
}
