//! Browser tests of the YAML editor on long texts, whose text area holds only the lines near the view
//! (run with the component tests: `WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER=/usr/bin/chromedriver cargo
//! test --target wasm32-unknown-unknown -p fleetplan-web`). The page gets the app's own styles: the
//! window follows the layout (18 px lines, the scroller's height).
#![cfg(target_arch = "wasm32")]

use fleetplan_web::PlannerArgs;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement, HtmlTextAreaElement};

// The shared chart-row reader is for the chart's tests.
#[allow(dead_code)]
mod common;

use common::{all, sleep};

wasm_bindgen_test_configure!(run_in_browser);

const LINE: f64 = 18.0;
const PAD: f64 = 8.0;

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A KubeFleet rolling update of `clusters` clusters, one line each (line 4 is the first cluster's);
/// `extra` is appended to cluster `odd`'s line.
fn long_text(clusters: usize, odd: usize, extra: &str) -> String {
    let mut s = String::from("name: long\nstart: 2026-11-23T09:00:00Z\nclusters:\n");
    for i in 0..clusters {
        let more = if i == odd { extra } else { "" };
        s.push_str(&format!(
            "  - {{name: r-{i:05}, labels: {{env: prod}}{more}}}\n"
        ));
    }
    s.push_str(
        "strategy:\n  kind: kubefleet-rolling\n  placement:\n    name: web-app\n    type: PickAll\n    affinity: \"env=prod\"\n  rollingUpdate: {maxUnavailable: \"10%\", maxSurge: \"10%\", unavailablePeriodSeconds: 60}\n  resources: [Namespace, Deployment]\n  change: {update: true}\nassumptions:\n  applyDuration: 30s\n  updateDuration: 3m\n",
    );
    s
}

struct Editor {
    host: HtmlElement,
    root: Element,
    ta: HtmlTextAreaElement,
    scroller: HtmlElement,
}

/// Mounts a planner on `text` with the app's styles and waits for its editor.
async fn editor(text: &str) -> Editor {
    if document()
        .query_selector("style[data-test-styles]")
        .unwrap()
        .is_none()
    {
        let style = document().create_element("style").unwrap();
        style.set_attribute("data-test-styles", "").unwrap();
        style.set_text_content(Some(concat!(
            include_str!("../style.css"),
            include_str!("../editor.css")
        )));
        document().head().unwrap().append_child(&style).unwrap();
    }
    let host: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    host.style().set_property("width", "1200px").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    let owned = text.to_string();
    fleetplan_web::mount_planner(
        &host,
        PlannerArgs {
            initial: owned,
            embed: false,
            ..Default::default()
        },
    );
    for _ in 0..300 {
        if host.query_selector("[data-testid=yaml]").unwrap().is_some() {
            break;
        }
        sleep(10).await;
    }
    sleep(100).await;
    let root = host
        .query_selector(".code-editor")
        .unwrap()
        .expect("an editor");
    Editor {
        ta: root
            .query_selector("textarea")
            .unwrap()
            .unwrap()
            .unchecked_into(),
        scroller: root
            .query_selector(".scroller")
            .unwrap()
            .unwrap()
            .unchecked_into(),
        root,
        host,
    }
}

impl Editor {
    fn windowed(&self) -> bool {
        self.root.class_list().contains("windowed")
    }

    /// The text's line number of the text area's first line.
    fn first_line(&self) -> usize {
        self.ta
            .get_attribute("data-first-line")
            .unwrap()
            .parse()
            .unwrap()
    }

    fn gutter(&self) -> Vec<usize> {
        let g = self.root.query_selector(".gutter").unwrap().unwrap();
        g.text_content()
            .unwrap()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect()
    }

    fn key(&self, key: &str, ctrl: bool) {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(key);
        init.set_ctrl_key(ctrl);
        init.set_bubbles(true);
        init.set_cancelable(true);
        let ev =
            web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        self.ta.dispatch_event(&ev).unwrap();
    }

    /// Fires a clipboard event carrying `data`; returns what the clipboard holds after it.
    fn clipboard(&self, name: &str, data: &str) -> String {
        let dt = web_sys::DataTransfer::new().unwrap();
        if !data.is_empty() {
            dt.set_data("text/plain", data).unwrap();
        }
        let init = web_sys::ClipboardEventInit::new();
        init.set_clipboard_data(Some(&dt));
        init.set_bubbles(true);
        init.set_cancelable(true);
        let ev = web_sys::ClipboardEvent::new_with_event_init_dict(name, &init).unwrap();
        self.ta.dispatch_event(&ev).unwrap();
        dt.get_data("text/plain").unwrap()
    }

    /// Focuses the text area as a click on it would: without scrolling.
    fn focus(&self) {
        let opts = web_sys::FocusOptions::new();
        opts.set_prevent_scroll(true);
        self.ta.focus_with_options(&opts).unwrap();
    }

    /// The whole text, as a user gets it: Ctrl+A, then copy.
    fn copied_text(&self) -> String {
        self.focus();
        self.key("a", true);
        self.clipboard("copy", "")
    }

    /// Scrolls so that line `line` (1-based) is at the view's top, as the wheel would.
    async fn scroll_to(&self, line: usize) {
        self.scroller
            .set_scroll_top(((line - 1) as f64 * LINE) as i32);
        // The scroll event comes with the next frame.
        sleep(100).await;
    }

    /// Replaces UTF-16 offsets `start..end` of the text area's value with `with`, as typing does.
    fn type_at(&self, start: u32, end: u32, with: &str) {
        self.ta
            .set_range_text_with_start_and_end_and_mode(with, start, end, "end")
            .unwrap();
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        let ev = web_sys::Event::new_with_event_init_dict("input", &init).unwrap();
        self.ta.dispatch_event(&ev).unwrap();
    }
}

fn lines(text: &str) -> Vec<&str> {
    text.split('\n').collect()
}

/// The text area holds the text's lines from its first line on, and the gutter numbers exactly those.
fn assert_window(ed: &Editor, text: &str) {
    let first = ed.first_line();
    let value = ed.ta.value();
    let held = lines(&value);
    assert_eq!(held[..], lines(text)[first - 1..first - 1 + held.len()]);
    assert_eq!(ed.gutter(), (first..first + held.len()).collect::<Vec<_>>());
    // Its first line is drawn where that line of the whole text is.
    let top = ed.ta.unchecked_ref::<HtmlElement>().offset_top() as f64 + PAD;
    assert_eq!(top, PAD + (first - 1) as f64 * LINE);
}

#[wasm_bindgen_test]
async fn a_long_text_holds_only_the_lines_near_the_view_under_a_true_scrollbar() {
    let text = long_text(1000, usize::MAX, "");
    let ed = editor(&text).await;
    assert!(ed.windowed());
    let held = lines(&ed.ta.value()).len();
    assert!(held < 300, "{held} lines in the text area");
    assert_eq!(ed.first_line(), 1);
    assert_window(&ed, &text);
    let total = lines(&text).len() as f64;
    assert!(
        ed.scroller.scroll_height() as f64 >= total * LINE,
        "the scrollbar covers every line"
    );
    ed.host.remove();
}

#[wasm_bindgen_test]
async fn a_short_text_is_not_windowed() {
    let text = fleetplan_web::link::example_text();
    let ed = editor(text).await;
    assert!(!ed.windowed());
    assert_eq!(ed.ta.value(), text);
    assert_eq!(ed.gutter(), (1..=lines(text).len()).collect::<Vec<_>>());
    ed.host.remove();
}

#[wasm_bindgen_test]
async fn scrolling_far_moves_the_window_and_its_line_numbers() {
    let text = long_text(1000, usize::MAX, "");
    let ed = editor(&text).await;
    ed.scroll_to(700).await;
    let first = ed.first_line();
    let held = lines(&ed.ta.value()).len();
    assert!(
        first <= 700 && first + held > 740,
        "lines {first}.. ({held}) around 700"
    );
    assert_window(&ed, &text);
    // And back up.
    ed.scroll_to(100).await;
    assert!(ed.first_line() <= 100);
    assert_window(&ed, &text);
    ed.host.remove();
}

#[wasm_bindgen_test]
async fn typing_in_the_middle_and_at_the_window_edges_edits_the_whole_text() {
    let text = long_text(1000, usize::MAX, "");
    let ed = editor(&text).await;
    ed.scroll_to(400).await;
    ed.focus();
    let first = ed.first_line();
    let value = ed.ta.value();
    let start: usize = lines(&text)[..first - 1].iter().map(|l| l.len() + 1).sum();
    assert_eq!(&text[start..start + value.len()], value);
    // The name of the cluster on line 420, its first digit typed over.
    let mid = value.find("r-00416").unwrap() + 2;
    ed.type_at(mid as u32, mid as u32 + 1, "7");
    // A line typed before the window's first line and one after its last.
    ed.type_at(0, 0, "# top\n");
    let end = ed.ta.text_length();
    ed.type_at(end, end, "\n# bottom");
    let mut expected = text.clone();
    let bottom = start + value.len();
    expected.insert_str(bottom, "\n# bottom");
    expected.replace_range(start + mid..start + mid + 1, "7");
    expected.insert_str(start, "# top\n");
    let copied = ed.copied_text();
    let differs = copied
        .bytes()
        .zip(expected.bytes())
        .position(|(a, b)| a != b);
    assert!(
        copied == expected,
        "the text differs from byte {differs:?} ({} and {} bytes)",
        copied.len(),
        expected.len()
    );
    // The two new lines are numbered: the gutter counts on from the window's first line.
    assert_window(&ed, &expected);
    ed.host.remove();
}

#[wasm_bindgen_test]
async fn ctrl_a_then_copy_carries_and_a_paste_replaces_the_whole_text() {
    let text = long_text(1000, usize::MAX, "");
    let ed = editor(&text).await;
    ed.scroll_to(500).await;
    assert!(ed.copied_text() == text, "the copy is the whole text");
    // Still all selected: a paste replaces all of it.
    let example = fleetplan_web::link::example_text();
    ed.clipboard("paste", example);
    assert_eq!(ed.ta.value(), example);
    assert!(!ed.windowed());
    sleep(800).await;
    let end = ed
        .host
        .query_selector("[data-testid=plan-end]")
        .unwrap()
        .and_then(|e| e.get_attribute("data-time"));
    assert_eq!(end.as_deref(), Some("2026-11-23T12:15:00Z"));
    ed.host.remove();
}

/// A paste over the whole text that changes a few lines near the view (the editor then edits only
/// those in its text area, see editor.rs `patch`) leaves the text, the window, its line numbers and
/// the caret as any paste does, whatever changed: a line in view, lines added or removed in view, a
/// line far from the view, characters outside ASCII; and the plan follows.
#[wasm_bindgen_test]
async fn a_paste_that_changes_a_few_lines_replaces_the_whole_text() {
    let text = long_text(1000, usize::MAX, "");
    let ed = editor(&text).await;
    let bottom = text.split('\n').count();
    ed.scroll_to(bottom).await;
    let end_time = || {
        ed.host
            .query_selector("[data-testid=plan-end]")
            .unwrap()
            .and_then(|e| e.get_attribute("data-time"))
    };
    let before = end_time();
    let one_more = text.replace(
        "  - {name: r-00999, labels: {env: prod}}\n",
        "  - {name: r-00999, labels: {env: prod}}\n  - {name: r-01000, labels: {env: prod}}\n  - {name: r-01001, labels: {env: prod}}\n",
    );
    let pastes = [
        // A line in view: each cluster's update takes longer.
        text.replace("updateDuration: 3m", "updateDuration: 9m"),
        // Two lines added in view, then removed again.
        one_more.clone(),
        text.replace("updateDuration: 3m", "updateDuration: 4m"),
        // A line far above the view only.
        text.replace("name: long", "name: longer"),
        // Characters outside ASCII, in view (two bytes, four bytes).
        long_text(1000, 998, ", note: \u{e9}t\u{e9} \u{1F600}"),
        long_text(1000, 998, ", note: \u{e9}t\u{1F600}"),
        // Lines removed far above the view and in it: the window follows the shorter text.
        long_text(990, usize::MAX, ""),
    ];
    for pasted in &pastes {
        ed.focus();
        ed.key("a", true);
        ed.clipboard("paste", pasted);
        // The caret after the pasted text: the text's end, where the window ends.
        let len = ed.ta.value().encode_utf16().count() as u32;
        assert_eq!(
            (
                ed.ta.selection_start().unwrap(),
                ed.ta.selection_end().unwrap()
            ),
            (Some(len), Some(len))
        );
        assert_window(&ed, pasted);
        assert!(
            ed.copied_text() == *pasted,
            "the pasted text is the whole text"
        );
    }
    ed.focus();
    ed.key("a", true);
    ed.clipboard("paste", &pastes[0]);
    let len = ed.ta.value().encode_utf16().count() as u32;
    assert_eq!(
        (
            ed.ta.selection_start().unwrap(),
            ed.ta.selection_end().unwrap()
        ),
        (Some(len), Some(len))
    );
    assert_window(&ed, &pastes[0]);
    sleep(800).await;
    let after = end_time();
    assert!(
        after.is_some() && after != before,
        "{before:?} -> {after:?}"
    );
    ed.host.remove();
}

#[wasm_bindgen_test]
async fn a_problem_far_down_is_marked_on_its_line_and_its_button_selects_that_line() {
    // Cluster 800 is on line 804.
    let text = long_text(1000, 800, ", colour: red");
    let ed = editor(&text).await;
    sleep(400).await;
    let button = all(&ed.host, ".diag-place")
        .into_iter()
        .find(|b| b.text_content().unwrap_or_default().starts_with("804:"))
        .expect("a problem on line 804");
    let marks: Vec<f64> = all(&ed.root, ".mark")
        .iter()
        .map(|m| m.unchecked_ref::<HtmlElement>().offset_top() as f64)
        .collect();
    assert_eq!(marks, [PAD + 803.0 * LINE]);
    button.unchecked_ref::<HtmlElement>().click();
    sleep(100).await;
    let value = ed.ta.value();
    let (s, e) = (
        ed.ta.selection_start().unwrap().unwrap() as usize,
        ed.ta.selection_end().unwrap().unwrap() as usize,
    );
    assert_eq!(&value[s..e], lines(&text)[803]);
    assert_eq!(ed.first_line() + lines(&value[..s]).len() - 1, 804);
    // In view.
    let top = ed.scroller.scroll_top() as f64;
    let y = PAD + 803.0 * LINE;
    assert!(
        y >= top && y + LINE <= top + ed.scroller.client_height() as f64,
        "line at {y}, view from {top}"
    );
    assert_eq!(
        document().active_element().as_ref(),
        Some(ed.ta.unchecked_ref::<Element>())
    );
    ed.host.remove();
}
