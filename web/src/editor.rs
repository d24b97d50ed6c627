//! The YAML editor: a text area with line numbers beside it, the lines diagnostics point at marked
//! behind the text, Enter keeping the line's indentation, and for a long text only the lines near the
//! view in the text area (a window), so an edit lays out a few hundred lines instead of thousands.
//!
//! Still a `<textarea>`: the browser's own editing, caret, IME, spell-check off, screen readers and phones
//! all keep working. It sits in a scroller as tall as the whole text (every line is exactly
//! `LINE_HEIGHT` px: `white-space: pre`, no wrapping) and is exactly as tall and wide as the lines it holds,
//! so it never scrolls itself: the browser scrolls the scroller to keep the caret in view. The gutter
//! and the marks are placed by the text's own (logical) line numbers.
//!
//! Above `WINDOW_ABOVE` lines the text area holds only the lines in view and `MARGIN` lines each side;
//! the text is the part before the window, the text area's value and the part after it. Chromium's text
//! area holds a text node and a `<br>` per line and lays every line out again when its value is set and
//! when an editing command walks to the caret (bench/REPORT.md: 17-18 ms for the 2,030 lines of a
//! 1,000-cluster GKE text). The window moves when the view comes within `EDGE` lines of its edge
//! (scrolling, or the caret taking the view along), keeping the caret's place in the text; never during
//! an IME composition. What would cross the window is done on the whole text: Ctrl/Cmd+A selects the whole
//! text (until the selection changes), and copying, cutting, typing or pasting over it acts on the whole
//! text; Ctrl/Cmd+Home/End go to the text's ends; a paste is always inserted by the editor (one window
//! laid out, not the pasted lines; when the new window differs from what the text area holds in a few
//! lines, only those are edited, see `patch`); a caret left outside the window by scrolling away is
//! brought back by the next key, as the browser brings the view back to it. `EditorApi::select_line`
//! selects any line.
//!
//! Known limits of a windowed (long) text: the browser's find-in-page sees only the window; the context
//! menu's "Select all" selects the window; a selection dragged or shift-clicked from a place scrolled
//! far away starts at the window's edge; the browser's own undo knows only the window, so the context
//! menu's "Undo" after a paste that `patch` applied takes back the window's changed lines only (the
//! app's Ctrl+Z steps its history of whole texts, so it is unaffected).

use crate::dom;
use fleetplan::{lines, Severity};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlTextAreaElement};

/// Line height and top padding of the text area, px; the gutter and marks use the same.
pub const LINE_HEIGHT: f64 = 18.0;
const PAD: f64 = 8.0;
/// Texts of more lines than this are windowed. Below it a text area lays its lines out in about a
/// millisecond, and the editor behaves as a plain text area.
pub const WINDOW_ABOVE: usize = 400;
/// Lines kept in the window above and below the view: a page up or down stays inside it.
const MARGIN: usize = 80;
/// The window moves when the view comes this close to one of its edges (that is not the text's end).
const EDGE: usize = 20;
/// Lines a window may grow by (typed or pasted into) before it is cut back around the view.
const SLACK: usize = 300;
/// Lines assumed in view while the editor is hidden (the form tab) and has no height.
const VIEW_LINES_HIDDEN: usize = 40;

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
        if item.as_bytes().contains(&b':') && !item.ends_with(':') {
            n = indent + 2;
        } else if item.ends_with(':') {
            n = indent + 4;
        }
    } else if content.ends_with(':') {
        n = indent + 2;
    }
    format!("\n{}", " ".repeat(n))
}

/// A selection in the whole text, in bytes; `backward` when its moving end is `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sel {
    start: usize,
    end: usize,
    backward: bool,
}

impl Sel {
    fn caret(at: usize) -> Self {
        Sel {
            start: at,
            end: at,
            backward: false,
        }
    }
    fn focus(&self) -> usize {
        if self.backward {
            self.start
        } else {
            self.end
        }
    }
}

/// Which lines the text area holds: lines `first..first + lines` of the text, bytes `start..end` (the
/// newline before the part after the window belongs to that part).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Win {
    first: usize,
    lines: usize,
    after: usize,
    start: usize,
    end: usize,
    /// Widest line of the window, in columns: the text area is that wide.
    cols: usize,
    /// Ctrl+A selected the whole text (the text area shows its whole window selected).
    all: bool,
    composing: bool,
    /// The selection, while the window is elsewhere (scrolled away from it).
    away: Option<Sel>,
    /// The scroller's position at its last scroll event.
    seen_top: i32,
    /// The position focusing kept until the focus's own scroll event has come.
    hold: Option<i32>,
    /// A mouse button is down on the text: a selection being dragged keeps its window.
    dragging: bool,
    /// The editor itself is editing the text area (see `patch`): its input events are not the user's.
    patching: bool,
}

impl Win {
    fn windowed(&self) -> bool {
        self.first > 0 || self.after > 0
    }
}

/// Byte offset of the start of line `line` (0-based) of `text`; the text's length past its last line.
fn line_start(text: &str, line: usize) -> usize {
    lines::after_newline(text.as_bytes(), line).unwrap_or(text.len())
}

/// The 0-based line of byte offset `at`.
fn line_of(text: &str, at: usize) -> usize {
    lines::newlines(&text.as_bytes()[..at.min(text.len())])
}

fn line_count(text: &str) -> usize {
    lines::newlines(text.as_bytes()) + 1
}

/// The byte offset of UTF-16 offset `units` (what selection offsets count) in `s`.
fn byte_of_utf16(s: &str, units: u32) -> usize {
    let mut n = 0u32;
    for (i, c) in s.char_indices() {
        if n >= units {
            return i;
        }
        n += c.len_utf16() as u32;
    }
    s.len()
}

/// The UTF-16 offset of byte offset `at` in `s`, counting every character that starts before it: one
/// unit per character's first byte, two for a four-byte one. Byte by byte, without decoding the
/// characters: a paste's caret at the end of a window of a GKE text counts 20 KB.
fn utf16_of_byte(s: &str, at: usize) -> u32 {
    s.as_bytes()[..at.min(s.len())]
        .iter()
        .map(|&b| u32::from(b & 0xC0 != 0x80) + u32::from(b >= 0xF0))
        .sum()
}

/// Widest line of `s` in monospace columns: a tab is `tab-size` (2), a character outside ASCII may be
/// drawn two columns wide.
fn columns(s: &str) -> usize {
    s.split('\n')
        .map(|l| {
            l.chars()
                .map(|c| match c {
                    '\t' => 2,
                    c if c.is_ascii() => 1,
                    _ => 2,
                })
                .sum::<usize>()
        })
        .max()
        .unwrap_or(0)
}

/// The window, lines `first..last`, for a text of `total` lines whose view starts at line `top` and
/// shows `view` lines.
fn window_for(total: usize, top: usize, view: usize) -> (usize, usize) {
    if total <= WINDOW_ABOVE {
        return (0, total);
    }
    let top = top.min(total.saturating_sub(1));
    (top.saturating_sub(MARGIN), (top + view + MARGIN).min(total))
}

/// The editor's elements.
#[derive(Clone)]
struct Dom {
    root: HtmlElement,
    scroller: HtmlElement,
    sizer: HtmlElement,
    gutter: HtmlElement,
    code: HtmlElement,
    marks: HtmlElement,
    ta: HtmlTextAreaElement,
}

/// The editor's handle, for what the workbench asks of it (select a diagnostic's line).
#[derive(Clone, Copy)]
pub struct EditorApi {
    text: RwSignal<String>,
    win: StoredValue<Win>,
    dom: StoredValue<Option<Dom>, LocalStorage>,
    ready: RwSignal<bool>,
}

/// How `place` sets the selection.
#[derive(Clone, Copy)]
enum Caret {
    /// Keep the selection's place in the text.
    Keep,
    Set(Sel),
    /// At the text's end, as a text area puts it when its value is set.
    End,
}

impl EditorApi {
    pub fn new(text: RwSignal<String>) -> Self {
        EditorApi {
            text,
            win: StoredValue::new(Win::default()),
            dom: StoredValue::new_local(None),
            ready: RwSignal::new(false),
        }
    }

    fn dom(&self) -> Option<Dom> {
        self.dom.try_with_value(|d| d.clone()).flatten()
    }

    /// Selects line `line` (1-based) of the text, focuses the editor and scrolls the line into the
    /// view's upper third; a line past the text's end is ignored.
    pub fn select_line(self, line: usize) {
        let Some(d) = self.dom() else {
            return;
        };
        let range = self.text.with_untracked(|t| {
            if line == 0 || line > line_count(t) {
                return None;
            }
            let s = line_start(t, line - 1);
            Some((s, t[s..].find('\n').map_or(t.len(), |i| s + i)))
        });
        let Some((start, end)) = range else {
            return;
        };
        // Its focus handler keeps the view where it was; the line is scrolled to below.
        let _ = d.ta.focus();
        let top =
            ((line as f64 - 1.0) * LINE_HEIGHT - d.scroller.client_height() as f64 / 3.0).max(0.0);
        self.win.update_value(|w| w.all = false);
        place(
            self,
            Some(top),
            Caret::Set(Sel {
                start,
                end,
                backward: false,
            }),
            false,
        );
    }

    /// The logical selection from the text area's own, or where the caret was left (`away`).
    fn selection(self, d: &Dom, w: &Win) -> Sel {
        if let Some(s) = w.away {
            return s;
        }
        let value = d.ta.value();
        let s = d.ta.selection_start().ok().flatten().unwrap_or(0);
        let e = d.ta.selection_end().ok().flatten().unwrap_or(0);
        let backward = prop(&d.ta, "selectionDirection").as_string().as_deref() == Some("backward");
        Sel {
            start: w.start + byte_of_utf16(&value, s),
            end: w.start + byte_of_utf16(&value, e),
            backward,
        }
    }
}

fn px(v: f64) -> String {
    format!("{v}px")
}

fn set_style(el: &HtmlElement, name: &str, value: &str) {
    let _ = el.style().set_property(name, value);
}

/// Lines in view and the first of them, at scroll position `top`.
fn view_of(d: &Dom, top: f64) -> (usize, usize) {
    let h = d.scroller.client_height() as f64;
    let view = if h <= 0.0 {
        VIEW_LINES_HIDDEN
    } else {
        (h / LINE_HEIGHT).ceil() as usize + 1
    };
    (((top - PAD).max(0.0) / LINE_HEIGHT) as usize, view)
}

/// Writes the window's line numbers, the text area's place and size and the scroller's height.
fn draw_frame(d: &Dom, w: &Win) {
    let total = w.first + w.lines + w.after;
    let class = if w.windowed() {
        "code-editor windowed"
    } else {
        "code-editor"
    };
    let _ = d.root.set_attribute("class", class);
    set_style(
        &d.sizer,
        "height",
        &px(total as f64 * LINE_HEIGHT + 2.0 * PAD),
    );
    set_style(&d.ta, "top", &px(w.first as f64 * LINE_HEIGHT));
    // One line more than it holds: Enter never scrolls the text area itself before it grows.
    set_style(
        &d.ta,
        "height",
        &px((w.lines + 1) as f64 * LINE_HEIGHT + 2.0 * PAD),
    );
    draw_width(d, w.cols);
    set_style(
        &d.gutter,
        "padding-top",
        &px(PAD + w.first as f64 * LINE_HEIGHT),
    );
    let mut s = String::with_capacity(w.lines * 6);
    for i in w.first + 1..=w.first + w.lines {
        s.push_str(&i.to_string());
        s.push('\n');
    }
    d.gutter.set_text_content(Some(&s));
    let _ =
        d.ta.set_attribute("data-first-line", &(w.first + 1).to_string());
}

/// A few columns to spare: typing at the end of the widest line never scrolls the text area itself.
fn draw_width(d: &Dom, cols: usize) {
    set_style(
        &d.code,
        "width",
        &format!("calc({}ch + {}px)", cols + 4, 2.0 * PAD),
    );
}

/// Puts the window around the view at scroll position `top` (the current one if `None`), holding the
/// selection (`caret`) when the view or the selection's moving end is near it, and scrolls to `top`.
/// `fresh`: the text changed without the text area (the window's offsets are stale).
fn place(api: EditorApi, top: Option<f64>, caret: Caret, fresh: bool) {
    let Some(d) = api.dom() else {
        return;
    };
    let old = api.win.get_value();
    let sel = match caret {
        Caret::Set(s) => Some(s),
        Caret::End => None,
        Caret::Keep if fresh => None,
        Caret::Keep => Some(api.selection(&d, &old)),
    };
    let now = d.scroller.scroll_top();
    let top = top.unwrap_or(now as f64);
    let Some((w, value, sel)) = api.text.try_with_untracked(|t| {
        let total = line_count(t);
        let (top_line, view) = view_of(&d, top);
        let (mut first, mut last) = window_for(total, top_line, view);
        let sel = sel.unwrap_or(Sel::caret(t.len()));
        let sel = Sel {
            start: sel.start.min(t.len()),
            end: sel.end.min(t.len()),
            ..sel
        };
        // A selection whose moving end is in the window comes whole into it.
        let focus = line_of(t, sel.focus());
        if focus >= first && focus < last {
            first = first.min(line_of(t, sel.start));
            last = last.max(line_of(t, sel.end) + 1);
        }
        let start = line_start(t, first);
        let end = if last >= total {
            t.len()
        } else {
            line_start(t, last) - 1
        };
        let value = t[start..end].to_string();
        let w = Win {
            first,
            lines: last - first,
            after: total - last,
            start,
            end,
            cols: columns(&value),
            all: old.all,
            composing: old.composing,
            away: None,
            seen_top: old.seen_top,
            hold: None,
            dragging: old.dragging,
            patching: false,
        };
        (w, value, sel)
    }) else {
        return;
    };
    let mut w = w;
    let moved = fresh || (w.first, w.start, w.end) != (old.first, old.start, old.end);
    let mut patched = false;
    if moved {
        // The same lines in the same place (a paste over the whole text that changed a few lines):
        // the line numbers and sizes stand.
        if (w.first, w.lines, w.after, w.cols) != (old.first, old.lines, old.after, old.cols) {
            draw_frame(&d, &w);
        }
        patched = patch(api, &d, &value);
        if !patched {
            d.ta.set_value(&value);
        }
    }
    if w.all {
        let _ =
            d.ta.set_selection_range(0, utf16_of_byte(&value, value.len()));
    } else if sel.start >= w.start && sel.end <= w.end {
        let s = utf16_of_byte(&value, sel.start - w.start);
        let e = utf16_of_byte(&value, sel.end - w.start);
        let dir = if sel.backward { "backward" } else { "forward" };
        let _ = d.ta.set_selection_range(s, e);
        let _ = js_sys::Reflect::set(&d.ta, &"selectionDirection".into(), &dir.into());
    } else {
        // The caret stays where it was in the text; the next key brings the view back to it.
        w.away = Some(sel);
        if moved {
            let _ = d.ta.set_selection_range(0, 0);
        }
    }
    w.seen_top = top.round() as i32;
    api.win.set_value(w);
    // Setting the position lays the page out at once (the text area's new lines with it): only when
    // it moves. `now` was read before anything here changed the page, so reading it cost no layout;
    // the editing command of a patch laid the page out and may have scrolled to its caret.
    let now = if patched {
        d.scroller.scroll_top()
    } else {
        now
    };
    if w.seen_top != now {
        d.scroller.set_scroll_top(w.seen_top);
    }
}

/// Makes the text area hold `value` by replacing only the part that differs from what it holds, with
/// the editing command a keystroke runs: Chromium then lays out again the lines that changed, where
/// setting the value rebuilds and lays out every line of the window (a paste over a 1,000-cluster GKE
/// text that changed one line: the value set and its layout were two thirds of the paste's handler).
/// Only when the text area has the focus (the command edits the focused element) and the change is a
/// small part of the window; false when it did not make the text area hold `value`.
fn patch(api: EditorApi, d: &Dom, value: &str) -> bool {
    let ta: &web_sys::Element = d.ta.as_ref();
    let Some(doc) = dom::document().filter(|doc| doc.active_element().as_ref() == Some(ta)) else {
        return false;
    };
    let held = d.ta.value();
    let (a, b) = (held.as_bytes(), value.as_bytes());
    let n = a.len().min(b.len());
    let mut front = 0;
    while front < n && a[front] == b[front] {
        front += 1;
    }
    let mut back = 0;
    while back < n - front && a[a.len() - 1 - back] == b[b.len() - 1 - back] {
        back += 1;
    }
    // Whole characters: the two texts agree up to `front` and from `back`, so a boundary of one is one
    // of the other.
    while !held.is_char_boundary(front) {
        front -= 1;
    }
    while !held.is_char_boundary(a.len() - back) {
        back -= 1;
    }
    let new = &value[front..b.len() - back];
    if a.len() - back - front + new.len() > b.len() / 4 {
        return false;
    }
    let _ = d.ta.set_selection_range(
        utf16_of_byte(&held, front),
        utf16_of_byte(&held, a.len() - back),
    );
    api.win.update_value(|w| w.patching = true);
    // `insertText` with nothing to insert deletes the selection; the check below catches a browser
    // that does otherwise.
    let _ = js_sys::Reflect::get(&doc, &"execCommand".into()).and_then(|f| {
        f.unchecked_into::<js_sys::Function>().call3(
            &doc,
            &"insertText".into(),
            &false.into(),
            &new.into(),
        )
    });
    api.win.update_value(|w| w.patching = false);
    d.ta.value() == value
}

/// The text area's value changed (typing, Enter, a native edit): the text follows.
fn edited(api: EditorApi, composing: bool, on_input: impl Fn()) {
    let Some(d) = api.dom() else {
        return;
    };
    let mut w = api.win.get_value();
    if w.patching {
        return;
    }
    let value = d.ta.value();
    let lines = line_count(&value);
    let cols = columns(&value);
    let whole = !w.windowed()
        && api
            .text
            .with_untracked(|t| w.start == 0 && w.end == t.len());
    let new_end = w.start + value.len();
    let text = if whole {
        value
    } else {
        api.text.with_untracked(|t| {
            let mut s = String::with_capacity(w.start + value.len() + t.len() - w.end);
            s.push_str(&t[..w.start]);
            s.push_str(&value);
            s.push_str(&t[w.end..]);
            s
        })
    };
    w.end = new_end;
    w.all = false;
    w.away = None;
    if lines != w.lines {
        w.lines = lines;
        w.cols = cols;
        draw_frame(&d, &w);
    } else if cols != w.cols {
        w.cols = cols;
        draw_width(&d, cols);
    }
    api.win.set_value(w);
    api.text.set(text);
    on_input();
    if !composing {
        settle(api);
    }
}

/// Windows a text grown past `WINDOW_ABOVE` lines or a window grown too large, and unwindows a text
/// shrunk under it. Reads no layout: it runs in a typed edit's input handler.
fn settle(api: EditorApi) {
    let w = api.win.get_value();
    if w.composing {
        return;
    }
    let total = w.first + w.lines + w.after;
    let big = total > WINDOW_ABOVE && w.lines > 4 * MARGIN + SLACK;
    if big || (w.windowed() && total <= WINDOW_ABOVE) {
        place(api, None, Caret::Keep, false);
    }
}

/// Moves the window when the view came near one of its edges.
fn scrolled(api: EditorApi) {
    let Some(d) = api.dom() else {
        return;
    };
    let w = api.win.get_value();
    if let Some(top) = w.hold {
        api.win.update_value(|w| w.hold = None);
        if d.scroller.scroll_top() != top {
            d.scroller.set_scroll_top(top);
        }
        return;
    }
    let seen_top = d.scroller.scroll_top();
    api.win.update_value(|w| w.seen_top = seen_top);
    let w = api.win.get_value();
    if !w.windowed() || w.composing || w.dragging {
        return;
    }
    let (top, view) = view_of(&d, d.scroller.scroll_top() as f64);
    let near_top = w.first > 0 && top < w.first + EDGE;
    let near_bottom = w.after > 0 && top + view + EDGE > w.first + w.lines;
    if near_top || near_bottom {
        place(api, None, Caret::Keep, false);
    }
}

/// Replaces bytes `start..end` of the text with `with` (a paste, a cut or Enter over the whole text),
/// puts the caret after it and scrolls it into view.
fn replace(api: EditorApi, start: usize, end: usize, with: &str, on_input: impl Fn()) {
    let Some(d) = api.dom() else {
        return;
    };
    let Some(text) = api.text.try_with_untracked(|t| {
        let (start, end) = (start.min(t.len()), end.min(t.len()));
        let mut s = String::with_capacity(t.len() - (end - start) + with.len());
        s.push_str(&t[..start]);
        s.push_str(with);
        s.push_str(&t[end..]);
        s
    }) else {
        return;
    };
    let caret = start + with.len();
    let line = line_of(&text, caret);
    api.text.set(text);
    api.win.update_value(|w| {
        w.all = false;
        w.away = None;
    });
    place(
        api,
        Some(reveal(&d, line)),
        Caret::Set(Sel::caret(caret)),
        true,
    );
    on_input();
}

/// The scroll position that brings line `line` (0-based) into view, moving as little as possible.
fn reveal(d: &Dom, line: usize) -> f64 {
    let now = d.scroller.scroll_top() as f64;
    let h = d.scroller.client_height() as f64;
    let y = PAD + line as f64 * LINE_HEIGHT;
    if y < now {
        y - PAD
    } else if y + LINE_HEIGHT > now + h {
        y + LINE_HEIGHT + PAD - h
    } else {
        now
    }
}

/// Whether Ctrl+A's whole-text selection still holds: the text area's whole window is selected.
fn all_selected(api: EditorApi, d: &Dom) -> bool {
    let w = api.win.get_value();
    if !w.all {
        return false;
    }
    let len = d.ta.value().encode_utf16().count() as u32;
    let held = d.ta.selection_start().ok().flatten() == Some(0)
        && d.ta.selection_end().ok().flatten() == Some(len);
    if !held {
        api.win.update_value(|w| w.all = false);
    }
    held
}

/// Drops the part before and after the window: an edit the browser makes over the whole text (typing
/// or an IME over Ctrl+A's selection) then replaces all of it.
fn collapse(api: EditorApi, d: &Dom) {
    let len = api.text.with_untracked(|t| t.len());
    api.win.update_value(|w| {
        w.first = 0;
        w.after = 0;
        w.start = 0;
        w.end = len;
        w.all = false;
    });
    draw_frame(d, &api.win.get_value());
}

/// A property of a DOM object read without a typed binding: every binding the app uses is an import of
/// the module each view loads first (an embed's too), and the editor's events' few fields need none.
fn prop(target: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(target, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

/// The text on a clipboard event's data (`clipboardData`), read or written as `text/plain`.
fn clipboard(ev: &web_sys::Event) -> Option<web_sys::DataTransfer> {
    let data = prop(ev, "clipboardData");
    (!data.is_undefined() && !data.is_null()).then(|| data.unchecked_into())
}

const MARKUP: &str = concat!(
    r#"<div class="scroller"><div class="sizer">"#,
    r#"<pre class="gutter" aria-hidden="true"></pre>"#,
    r#"<div class="code"><div class="marks" aria-hidden="true"></div>"#,
    r#"<textarea class="yaml" data-testid="yaml" spellcheck="false" autocomplete="off" autocapitalize="off" aria-label="scenario text (YAML)"></textarea>"#,
    r#"</div></div></div>"#
);

fn child(root: &web_sys::Element, selector: &str) -> Option<HtmlElement> {
    root.query_selector(selector).ok()??.dyn_into().ok()
}

/// Wires the editor's elements once they are mounted.
fn setup(
    api: EditorApi,
    root: web_sys::HtmlDivElement,
    on_input: impl Fn() + Copy + 'static,
    on_commit: impl Fn() + Copy + 'static,
) {
    let (Some(scroller), Some(sizer), Some(gutter), Some(code), Some(marks), Some(ta)) = (
        child(&root, ".scroller"),
        child(&root, ".sizer"),
        child(&root, ".gutter"),
        child(&root, ".code"),
        child(&root, ".marks"),
        child(&root, "textarea"),
    ) else {
        return;
    };
    let ta: HtmlTextAreaElement = ta.unchecked_into();
    let d = Dom {
        root: root.unchecked_into(),
        scroller,
        sizer,
        gutter,
        code,
        marks,
        ta,
    };
    api.dom.set_value(Some(d.clone()));
    place(api, Some(0.0), Caret::End, true);

    // Tests and scripts fire plain `input` events: only a real one says whether an IME composes.
    dom::listen(&d.ta, &["input"], move |ev: web_sys::Event| {
        let composing = prop(&ev, "isComposing").is_truthy();
        edited(api, composing, on_input)
    });
    dom::listen(&d.ta, &["change"], move |_: web_sys::Event| on_commit());
    dom::listen(&d.scroller, &["scroll"], move |_: web_sys::Event| {
        scrolled(api)
    });
    // It is exactly as large as its lines: anything that scrolled it (a character typed past its
    // width before it grew) is undone, the scroller shows the caret.
    let ta = d.ta.clone();
    dom::listen(&d.ta, &["scroll"], move |_: web_sys::Event| {
        if ta.scroll_top() != 0 || ta.scroll_left() != 0 {
            ta.set_scroll_top(0);
            ta.set_scroll_left(0);
        }
    });
    // Focus by the keyboard scrolls a focused element into view, here to the window's first line,
    // far above the view: the view stays where it was (the scroll event comes a frame later).
    let dd = d.clone();
    dom::listen(&d.ta, &["focus"], move |_: web_sys::Event| {
        let w = api.win.get_value();
        if !w.windowed() {
            return;
        }
        if dd.scroller.scroll_top() != w.seen_top {
            dd.scroller.set_scroll_top(w.seen_top);
        }
        api.win.update_value(|w| w.hold = Some(w.seen_top));
        // Scroll events come before the frame's animation callbacks.
        request_animation_frame(move || api.win.update_value(|w| w.hold = None));
    });
    dom::listen(&d.ta, &["mousedown"], move |_: web_sys::Event| {
        api.win.update_value(|w| {
            w.all = false;
            w.away = None;
            w.dragging = true;
        })
    });
    if let Some(win) = web_sys::window() {
        dom::listen(&win, &["mouseup"], move |_: web_sys::Event| {
            if api.win.get_value().dragging {
                api.win.update_value(|w| w.dragging = false);
                scrolled(api);
            }
        });
    }
    let dd = d.clone();
    dom::listen(&d.ta, &["compositionstart"], move |_: web_sys::Event| {
        if all_selected(api, &dd) {
            collapse(api, &dd);
        }
        api.win.update_value(|w| w.composing = true);
    });
    dom::listen(&d.ta, &["compositionend"], move |_: web_sys::Event| {
        api.win.update_value(|w| w.composing = false);
        settle(api);
        scrolled(api);
    });
    let dd = d.clone();
    dom::listen(&d.ta, &["beforeinput"], move |ev: web_sys::Event| {
        if api.win.get_value().patching {
            return;
        }
        let kind = prop(&ev, "inputType").as_string().unwrap_or_default();
        if (kind.starts_with("insert") || kind.starts_with("delete")) && all_selected(api, &dd) {
            collapse(api, &dd);
        }
    });
    let dd = d.clone();
    dom::listen(&d.ta, &["paste"], move |ev: web_sys::Event| {
        if api.win.get_value().composing {
            return;
        }
        let Some(data) = clipboard(&ev).and_then(|c| c.get_data("text/plain").ok()) else {
            return;
        };
        if data.is_empty() {
            return;
        }
        ev.prevent_default();
        // As the text area stores line breaks (a pass and a copy of the pasted text only when it has
        // a carriage return).
        let data = if data.as_bytes().contains(&b'\r') {
            fleetplan::substr::replace(&data, "\r\n", "\n").replace('\r', "\n")
        } else {
            data
        };
        let (start, end) = if all_selected(api, &dd) {
            (0, api.text.with_untracked(|t| t.len()))
        } else {
            let s = api.selection(&dd, &api.win.get_value());
            (s.start, s.end)
        };
        replace(api, start, end, &data, on_input);
    });
    for name in ["copy", "cut"] {
        let dd = d.clone();
        dom::listen(&d.ta, &[name], move |ev: web_sys::Event| {
            if !all_selected(api, &dd) {
                return;
            }
            let Some(c) = clipboard(&ev) else {
                return;
            };
            ev.prevent_default();
            let _ = api.text.with_untracked(|t| c.set_data("text/plain", t));
            if ev.type_() == "cut" {
                let len = api.text.with_untracked(|t| t.len());
                replace(api, 0, len, "", on_input);
            }
        });
    }
    let dd = d.clone();
    dom::listen(&d.ta, &["keydown"], move |ev: web_sys::Event| {
        key(api, &dd, ev.unchecked_ref(), on_input)
    });
}

fn key(api: EditorApi, d: &Dom, ev: &web_sys::KeyboardEvent, on_input: impl Fn()) {
    let w = api.win.get_value();
    if ev.is_composing() || w.composing {
        return;
    }
    let k = ev.key();
    let ctrl = ev.ctrl_key() || ev.meta_key();
    let (shift, alt) = (ev.shift_key(), ev.alt_key());
    let modifier = matches!(
        k.as_str(),
        "Shift" | "Control" | "Alt" | "Meta" | "CapsLock"
    );
    if let Some(s) = w.away {
        if !(modifier || ctrl && k.eq_ignore_ascii_case("c")) {
            let line = api.text.with_untracked(|t| line_of(t, s.focus()));
            place(api, Some(reveal(d, line)), Caret::Set(s), false);
        }
    }
    let w = api.win.get_value();
    let nav = matches!(
        k.as_str(),
        "ArrowUp"
            | "ArrowDown"
            | "ArrowLeft"
            | "ArrowRight"
            | "Home"
            | "End"
            | "PageUp"
            | "PageDown"
    );
    if w.windowed() {
        let len = api.text.with_untracked(|t| t.len());
        let bottom = (w.first + w.lines + w.after) as f64 * LINE_HEIGHT;
        if ctrl && !alt && !shift && k.eq_ignore_ascii_case("a") {
            ev.prevent_default();
            let _ =
                d.ta.set_selection_range(0, d.ta.value().encode_utf16().count() as u32);
            api.win.update_value(|w| w.all = true);
            return;
        }
        let all = all_selected(api, d);
        let to_end = matches!(k.as_str(), "End" | "ArrowDown" | "ArrowRight" | "PageDown");
        if (ctrl && !alt && (k == "Home" || k == "End")) || (all && nav && !shift) {
            ev.prevent_default();
            let target = if to_end { len } else { 0 };
            let sel = if shift && !all {
                let s = api.selection(d, &w);
                let anchor = if s.backward { s.end } else { s.start };
                Sel {
                    start: anchor.min(target),
                    end: anchor.max(target),
                    backward: target < anchor,
                }
            } else {
                Sel::caret(target)
            };
            api.win.update_value(|w| w.all = false);
            place(
                api,
                Some(if to_end { bottom } else { 0.0 }),
                Caret::Set(sel),
                false,
            );
            return;
        }
        if all && nav {
            api.win.update_value(|w| w.all = false);
        }
    }
    if k != "Enter" || ctrl || alt || shift {
        return;
    }
    if all_selected(api, d) {
        ev.prevent_default();
        let len = api.text.with_untracked(|t| t.len());
        replace(api, 0, len, &newline_for(""), on_input);
        return;
    }
    let (Ok(Some(start)), Ok(Some(end))) = (d.ta.selection_start(), d.ta.selection_end()) else {
        return;
    };
    // The line's indentation is in the window: the window starts at a line's start.
    let value = d.ta.value();
    let before = &value[..byte_of_utf16(&value, start)];
    ev.prevent_default();
    let insert = newline_for(before);
    if d.ta
        .set_range_text_with_start_and_end_and_mode(&insert, start, end, "end")
        .is_ok()
    {
        edited(api, false, on_input);
    }
}

/// The editor of `api`'s text. `replaced`: notified when the text was set from elsewhere (an example, the form, undo),
/// the only texts written into the text area; `marks`: (line, severity) of the diagnostics, read
/// (tracked) by the effect that draws them, which keeps its last answer: a function, not a memo, as
/// a memo of this value type would cost its own copy of Leptos' memo code in the first visit;
/// `focused`: the line a click on a diagnostic selected, marked more strongly.
/// `hidden`: the form tab is shown instead.
pub struct EditorArgs<M, I, C> {
    pub replaced: Trigger,
    pub api: EditorApi,
    pub marks: M,
    pub focused: Signal<Option<usize>>,
    pub on_input: I,
    pub on_commit: C,
    pub hidden: Signal<bool>,
}

pub fn yaml_editor(
    args: EditorArgs<
        impl Fn() -> Vec<(usize, Severity)> + 'static,
        impl Fn() + Copy + Send + Sync + 'static,
        impl Fn() + Copy + Send + Sync + 'static,
    >,
) -> web_sys::HtmlElement {
    let EditorArgs {
        replaced,
        api,
        marks,
        focused,
        on_input,
        on_commit,
        hidden,
    } = args;
    let frame = crate::dom::element("div", &[("class", "code-editor")]).expect("a document");
    frame.set_inner_html(MARKUP);
    let el = frame.clone();
    crate::dom::effect(move |_| {
        let _ = el
            .style()
            .set_property("display", if hidden.get() { "none" } else { "flex" });
    });
    let el = frame.clone();
    crate::dom::effect(move |_| {
        if api.dom().is_none() {
            setup(api, el.clone().unchecked_into(), on_input, on_commit);
            api.ready.set(true);
        }
    });
    // An edit typed here is already shown: only a text from elsewhere is written into the text area.
    // The effect follows `replaced`, not `text`, so a typed edit neither keeps a copy of the text to
    // compare with nor compares it (each a pass over 179 KB for a 1,000-cluster GKE text, in the
    // edit's repaint). For a text under the window's threshold the text area's own value is compared
    // instead, on the rare writes from elsewhere: the same text written again would move the caret to
    // the end.
    crate::dom::effect(move |first| {
        replaced.track();
        // The text the editor opened with is written when it is set up.
        let (false, Some(d)) = (first, api.dom()) else {
            return;
        };
        let w = api.win.get_value();
        let same = !w.windowed()
            && api
                .text
                .with_untracked(|t| w.end == t.len() && d.ta.value() == *t);
        if !same {
            api.win.update_value(|w| {
                w.all = false;
                w.away = None;
            });
            place(api, None, Caret::End, true);
        }
    });
    // What the marks drawn last were made from: the effect wakes on every edit's analysis, and
    // writes only when the marks, the focused line or the editor's readiness changed.
    type Drawn = (Option<usize>, Vec<(usize, Severity)>, bool);
    let mut drawn: Option<Drawn> = None;
    crate::dom::effect(move |_| {
        let f = focused.get();
        let marks = marks();
        let ready = api.ready.get();
        let Some(d) = api.dom() else {
            return;
        };
        let key = (f, marks, ready);
        if drawn.as_ref() == Some(&key) {
            return;
        }
        let (f, marks, _) = drawn.insert(key).clone();
        let top = |line: usize| PAD + (line as f64 - 1.0) * LINE_HEIGHT;
        let mut seen = Vec::new();
        let mut html = String::new();
        for (line, sev) in marks {
            if seen.contains(&line) {
                continue;
            }
            seen.push(line);
            let class = match sev {
                Severity::Error => "mark mark-error",
                Severity::Warning => "mark mark-warning",
                Severity::Info => "mark mark-info",
            };
            html.push_str(&format!(
                r#"<div class="{class}" style="top:{}px"></div>"#,
                top(line)
            ));
        }
        if let Some(line) = f {
            html.push_str(&format!(
                r#"<div class="mark mark-focus" style="top:{}px"></div>"#,
                top(line)
            ));
        }
        d.marks.set_inner_html(&html);
    });
    frame
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn selection_offsets_count_utf16_units() {
        // The text area's selection offsets count UTF-16 units: the emoji is two (four bytes), the é
        // one (two bytes), so a line's selection past them must not be taken as bytes.
        let text = "a: 1\nb: \u{1F600}x\nc: \u{e9}3";
        let emoji = text.find('\u{1F600}').unwrap();
        assert_eq!(utf16_of_byte(text, emoji), 8);
        assert_eq!(utf16_of_byte(text, emoji + 4), 10);
        // Inside a character: the characters that start before it.
        assert_eq!(utf16_of_byte(text, emoji + 1), 10);
        assert_eq!(
            utf16_of_byte(text, text.len() + 5),
            utf16_of_byte(text, text.len())
        );
        assert_eq!(byte_of_utf16(text, 10), emoji + 4);
        let total = text.encode_utf16().count() as u32;
        assert_eq!(utf16_of_byte(text, text.len()), total);
        assert_eq!(byte_of_utf16(text, total), text.len());
        for (i, _) in text.char_indices() {
            assert_eq!(byte_of_utf16(text, utf16_of_byte(text, i)), i);
        }
    }

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

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_long_text_is_windowed_around_the_view_and_a_short_one_is_whole() {
        assert_eq!(window_for(WINDOW_ABOVE, 100, 30), (0, WINDOW_ABOVE));
        assert_eq!(
            window_for(2000, 1000, 30),
            (1000 - MARGIN, 1000 + 30 + MARGIN)
        );
        // At the text's ends the window stops there.
        assert_eq!(window_for(2000, 0, 30), (0, 30 + MARGIN));
        assert_eq!(window_for(2000, 1990, 30), (1990 - MARGIN, 2000));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn offsets_convert_between_lines_bytes_and_utf16() {
        let t = "ab\n😀c\n\nd";
        assert_eq!(line_start(t, 0), 0);
        assert_eq!(line_start(t, 1), 3);
        assert_eq!(line_start(t, 3), 10);
        assert_eq!(line_start(t, 9), t.len());
        assert_eq!(line_of(t, 4), 1);
        assert_eq!(line_count(t), 4);
        // The emoji is four bytes and two UTF-16 units.
        assert_eq!(byte_of_utf16(t, 5), 7);
        assert_eq!(utf16_of_byte(t, 7), 5);
        assert_eq!(columns("a\tb\n😀"), 4);
    }
}
