//! Component tests of the planner in headless Chromium (wasm-bindgen-test; scripts/test.sh runs them with
//! `WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown
//! -p fleetplan-web`). Each test mounts a planner (`mount_planner`) into its own element and reads the DOM.
#![cfg(target_arch = "wasm32")]

use fleetplan_web::PlannerArgs;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement, HtmlTextAreaElement};

mod common;

use common::{all, drawn_rows, sleep};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// Mounts a planner on `text` into a fresh 1200 px wide element and returns that element.
fn mount(text: &str, embed: bool) -> HtmlElement {
    let host: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    host.style().set_property("width", "1200px").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    let text = text.to_string();
    fleetplan_web::mount_planner(
        &host,
        PlannerArgs {
            initial: text,
            embed,
            ..Default::default()
        },
    );
    host
}

/// The first element matching `selector` once it is there: the editing side (tabs, form) is fetched and
/// built after the first chart is painted, so it appears a few frames after mounting.
async fn appeared(host: &Element, selector: &str) -> Element {
    for _ in 0..200 {
        if let Some(found) = host.query_selector(selector).unwrap() {
            return found;
        }
        sleep(10).await;
    }
    panic!("{selector} never appeared");
}

fn end_time(host: &Element) -> Option<String> {
    host.query_selector("[data-testid=plan-end]")
        .unwrap()?
        .get_attribute("data-time")
}

fn stage_labels(host: &Element) -> Vec<String> {
    all(host, "g.row-stage text.label")
        .iter()
        .map(|e| {
            e.text_content()
                .unwrap_or_default()
                .trim_start_matches(['▾', '▸', ' '])
                .to_string()
        })
        .collect()
}

fn example() -> &'static str {
    fleetplan_web::link::example_text()
}

/// Dispatches a bubbling event, as a real one would be: Leptos listens for most events at the root.
fn fire(target: &Element, name: &str) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict(name, &init).unwrap();
    target.dispatch_event(&ev).unwrap();
}

/// Types the example with its first stage's wait lengthened from 1h to 3h and waits for the re-plan:
/// the run then ends two hours later than the example's.
async fn lengthen_first_wait(host: &Element) {
    type_text(host, &example().replacen("waitTime: 1h", "waitTime: 3h", 1)).await;
    sleep(400).await;
    assert_eq!(end_time(host).as_deref(), Some("2026-11-23T14:15:00Z"));
}

/// Types `text` into the editor as the browser would report it, once the editor is there (the
/// editing side arrives after the first chart is painted).
async fn type_text(host: &Element, text: &str) {
    let ta: HtmlTextAreaElement = appeared(host, "[data-testid=yaml]").await.unchecked_into();
    ta.set_value(text);
    fire(&ta, "input");
}

#[wasm_bindgen_test]
async fn the_example_is_charted_with_its_three_stages() {
    let host = mount(example(), false);
    sleep(50).await;
    assert_eq!(stage_labels(&host), ["staging", "canary", "production"]);
    assert_eq!(end_time(&host).as_deref(), Some("2026-11-23T12:15:00Z"));
    // Bars carry their exact times in a tooltip.
    let titles: Vec<String> = all(&host, "rect.bar title")
        .iter()
        .filter_map(|t| t.text_content())
        .collect();
    assert!(titles.iter().any(|t| t.contains("member1")), "{titles:?}");
    appeared(&host, "[data-testid=yaml]").await;
}

#[wasm_bindgen_test]
async fn an_edit_re_plans_after_the_pause_and_errors_keep_the_chart() {
    let host = mount(example(), false);
    sleep(50).await;
    lengthen_first_wait(&host).await;

    type_text(&host, "strategy: [unclosed\n").await;
    sleep(400).await;
    assert!(host
        .query_selector("[data-testid=stale-note]")
        .unwrap()
        .is_some());
    assert_eq!(end_time(&host).as_deref(), Some("2026-11-23T14:15:00Z"));
    let places: Vec<String> = all(&host, ".diag-error .diag-place")
        .iter()
        .filter_map(|e| e.text_content())
        .collect();
    assert!(
        !places.is_empty() && places.iter().all(|p| p.contains(':')),
        "{places:?}"
    );
}

#[wasm_bindgen_test]
async fn embed_mode_shows_the_chart_alone() {
    let host = mount(example(), true);
    sleep(50).await;
    assert!(host.query_selector("[data-testid=yaml]").unwrap().is_none());
    assert!(host
        .query_selector("[data-testid=copy-link]")
        .unwrap()
        .is_none());
    assert_eq!(stage_labels(&host).len(), 3);
}

#[wasm_bindgen_test]
async fn clicking_a_stage_collapses_its_cluster_rows() {
    let host = mount(example(), false);
    sleep(50).await;
    let clusters = all(&host, "g.row-cluster").len();
    assert_eq!(clusters, 7);
    let production = all(&host, "g.row-stage text.label")
        .into_iter()
        .find(|e| e.text_content().unwrap_or_default().contains("production"))
        .unwrap();
    fire(&production, "click");
    sleep(50).await;
    assert_eq!(all(&host, "g.row-cluster").len(), 2);
}

#[wasm_bindgen_test]
async fn the_keyboard_focus_stays_on_its_bar_when_the_rows_are_redrawn() {
    // The bars are one tab stop: an arrow key moves it and the focus, and an edit that redraws every
    // row in view (the run ends 2 h later, so every bar moves) leaves the focus on the same bar.
    let host = mount(example(), false);
    sleep(50).await;
    let stops = || all(&host, r#"svg.rows rect.bar[tabindex="0"]"#);
    let focused = || document().active_element()?.get_attribute("data-pos");
    assert_eq!(stops().len(), 1, "one tab stop among the bars");
    let first: web_sys::SvgElement = stops()[0].clone().unchecked_into();
    first.focus().unwrap();
    let init = web_sys::KeyboardEventInit::new();
    init.set_bubbles(true);
    init.set_key("ArrowDown");
    let key = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    first.dispatch_event(&key).unwrap();
    sleep(50).await;
    assert_eq!(focused().as_deref(), Some("1:0"), "the next row's bar");
    assert_eq!(stops().len(), 1);
    assert_eq!(stops()[0].get_attribute("data-pos").as_deref(), Some("1:0"));
    let before = drawn_rows(&host);
    type_text(
        &host,
        &example().replacen("waitTime: 1h", "waitTime: 3h", 1),
    )
    .await;
    sleep(400).await;
    assert_ne!(drawn_rows(&host), before, "the rows were redrawn");
    assert_eq!(focused().as_deref(), Some("1:0"));
    assert_eq!(stops().len(), 1);
    host.remove();
}

#[wasm_bindgen_test]
async fn a_ten_thousand_cluster_fleet_puts_only_visible_rows_in_the_dom() {
    let text = fleetplan::examples::get("large-fleet")
        .unwrap()
        .text
        .replace("count: 2000", "count: 10000");
    let host = mount(&text, false);
    sleep(100).await;
    let rows = all(&host, "g.row").len();
    assert!(rows > 10 && rows < 200, "{rows} rows in the DOM");
    let elements = host.get_elements_by_tag_name("*").length();
    assert!(elements < 3000, "{elements} elements");
}

#[wasm_bindgen_test]
async fn the_time_cursor_tells_what_the_run_does_then() {
    let host = mount(example(), false);
    sleep(50).await;
    assert!(host
        .query_selector("[data-testid=snapshot]")
        .unwrap()
        .is_none());
    let slider: web_sys::HtmlInputElement = host
        .query_selector("[data-testid=playback] input[type=range]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    // Halfway through the run (09:00 → 12:15): canary waits for its after-stage approval or later.
    slider.set_value("500");
    fire(&slider, "input");
    sleep(50).await;
    let snapshot = host
        .query_selector("[data-testid=snapshot]")
        .unwrap()
        .expect("a snapshot at the cursor")
        .text_content()
        .unwrap_or_default();
    assert!(snapshot.contains("done"), "{snapshot}");
    assert!(snapshot.contains("staging"), "{snapshot}");
    // The cursor's instant is halfway (10:37 UTC); its words are that instant on the reader's clock,
    // so the test holds in any browser zone.
    let instant = cursor_time(&host);
    assert!(instant.starts_with("2026-11-23T10:"), "{instant}");
    let t = fleetplan::time::Time::parse(&instant).unwrap();
    let shown = host
        .query_selector("[data-testid=cursor-time]")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap_or_default();
    assert_eq!(shown, fleetplan_web::clock::zone_over(None, t, t).human(t));
    assert_eq!(
        all(&host, "line.cursor").len(),
        2,
        "cursor on the axis and across the rows"
    );
}

/// The cursor's time as the playback bar holds it (RFC 3339, empty with no cursor).
fn cursor_time(host: &Element) -> String {
    host.query_selector("[data-testid=cursor-time]")
        .unwrap()
        .unwrap()
        .get_attribute("data-time")
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn the_axis_comes_with_a_plan_and_dragging_on_it_moves_the_cursor() {
    // No plan yet: the chart says why where its axis would be.
    let host = mount("strategy: [unclosed\n", false);
    sleep(50).await;
    assert!(host.query_selector(".chart-empty").unwrap().is_some());
    assert!(host.query_selector("svg.axis").unwrap().is_none());
    type_text(&host, example()).await;
    sleep(400).await;
    assert!(host.query_selector(".chart-empty").unwrap().is_none());
    let axis = host
        .query_selector("svg.axis")
        .unwrap()
        .expect("the axis once the text plans");
    assert!(!all(&axis, "text.axis-major").is_empty());
    // A mouse pressed on the axis puts the cursor there; moving it pressed moves the cursor along,
    // until it leaves the axis.
    let mouse = js_sys::Function::new_with_args(
        "el, kind, x, y, buttons",
        "el.dispatchEvent(new MouseEvent(kind, {bubbles: true, clientX: x, clientY: y, buttons}))",
    );
    let r = axis.get_bounding_client_rect();
    let (left, y) = (r.left() + 180.0, r.top() + 10.0);
    let at = |kind: &str, x: f64, buttons: u32| {
        let args = js_sys::Array::of5(&axis, &kind.into(), &x.into(), &y.into(), &buttons.into());
        mouse.apply(&wasm_bindgen::JsValue::NULL, &args).unwrap();
    };
    assert_eq!(cursor_time(&host), "");
    at("mousedown", left + 200.0, 1);
    sleep(50).await;
    let first = cursor_time(&host);
    assert!(!first.is_empty(), "a press on the axis sets the cursor");
    assert_eq!(all(&host, "line.cursor").len(), 2);
    at("mousemove", left + 400.0, 1);
    sleep(50).await;
    let dragged = cursor_time(&host);
    assert!(dragged > first, "{dragged} after {first}");
    at("mouseout", left + 400.0, 1);
    at("mousemove", left + 600.0, 1);
    sleep(50).await;
    assert_eq!(
        cursor_time(&host),
        dragged,
        "out of the axis, the drag ended"
    );
}

#[wasm_bindgen_test]
async fn a_resize_that_keeps_the_chart_width_leaves_the_axis_and_backdrop_as_drawn() {
    // The chart measures itself on every resize (a phone's address bar coming and going fires one) and
    // in the frame after each new layout, so after every edit. Only a width that changed may draw the
    // axis, clip path and backdrop again: a redraw for the same width delayed that frame's paint.
    let host = mount(example(), false);
    sleep(100).await;
    let first = |sel: &str| all(&host, sel).into_iter().next().expect(sel);
    let (tick, backdrop) = (
        first("svg.axis text.axis-major"),
        first("svg.rows g.backdrop > *"),
    );
    let resize = || {
        let ev = web_sys::Event::new("resize").unwrap();
        web_sys::window().unwrap().dispatch_event(&ev).unwrap();
    };
    resize();
    sleep(50).await;
    assert!(tick.is_connected(), "the same width kept the axis");
    assert!(backdrop.is_connected(), "the same width kept the backdrop");
    host.style().set_property("width", "900px").unwrap();
    resize();
    sleep(50).await;
    assert!(
        !tick.is_connected(),
        "a narrower chart draws its axis again"
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn an_edit_that_keeps_the_charts_size_sets_no_size_on_its_svgs() {
    // Any set of an SVG's width or height, even to the value it has, makes the browser lay the whole
    // SVG out again: an edit that moves bars within the same width and rows must not.
    let host = mount(example(), false);
    sleep(100).await;
    let watch = js_sys::Function::new_with_args(
        "els",
        "const seen = []; const o = new MutationObserver((l) => seen.push(...l)); \
         for (const el of els) o.observe(el, {attributes: true, attributeFilter: ['width', 'height']}); \
         return () => [...seen, ...o.takeRecords()].map((r) => r.target.getAttribute('class') + ' ' + r.attributeName).join(', ');",
    );
    let svgs = js_sys::Array::new();
    for sel in ["svg.rows", "svg.axis"] {
        svgs.push(&host.query_selector(sel).unwrap().expect(sel));
    }
    let sets: js_sys::Function = watch
        .call1(&wasm_bindgen::JsValue::NULL, &svgs)
        .unwrap()
        .unchecked_into();
    lengthen_first_wait(&host).await;
    let set = sets
        .call0(&wasm_bindgen::JsValue::NULL)
        .unwrap()
        .as_string()
        .unwrap();
    assert_eq!(set, "", "sizes set by an edit that kept them");
    host.remove();
}

#[wasm_bindgen_test]
async fn the_form_edits_the_text_and_the_plan_follows() {
    let host = mount(example(), false);
    sleep(50).await;
    let tab = appeared(&host, "[data-testid=tab-form]").await;
    fire(&tab, "click");
    sleep(50).await;
    let selects: Vec<String> = all(&host, "[data-testid=selects]")
        .iter()
        .filter_map(|e| e.text_content())
        .collect();
    assert_eq!(selects.len(), 3, "{selects:?}");
    assert!(
        selects[2].starts_with("selects 5 clusters: member3"),
        "{selects:?}"
    );
    // staging's soak: 1h → 3h.
    let wait: web_sys::HtmlInputElement = host
        .query_selector("[data-stage=staging] input.wait")
        .unwrap()
        .unwrap()
        .unchecked_into();
    wait.set_value("3h");
    fire(&wait, "change");
    sleep(100).await;
    assert_eq!(end_time(&host).as_deref(), Some("2026-11-23T14:15:00Z"));
    let ta: HtmlTextAreaElement = host
        .query_selector("[data-testid=yaml]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert!(ta.value().contains("waitTime: 3h"), "{}", ta.value());
}

/// Only texts from elsewhere are written into the text area: a typed edit, committed and re-planned,
/// leaves the caret where the typing left it.
#[wasm_bindgen_test]
async fn a_typed_edit_keeps_the_caret_where_the_typing_left_it() {
    let host = mount(example(), false);
    sleep(50).await;
    let ta: HtmlTextAreaElement = appeared(&host, "[data-testid=yaml]").await.unchecked_into();
    let text = example().replacen("waitTime: 1h", "waitTime: 3h", 1);
    let at = text.find("waitTime: 3h").unwrap() + "waitTime: 3".len();
    // Selection offsets count UTF-16 units.
    let caret = text[..at].encode_utf16().count() as u32;
    ta.set_value(&text);
    ta.set_selection_range(caret, caret).unwrap();
    fire(&ta, "input");
    fire(&ta, "change");
    sleep(400).await;
    assert_eq!(end_time(&host).as_deref(), Some("2026-11-23T14:15:00Z"));
    assert_eq!(ta.selection_start().unwrap(), Some(caret));
    assert_eq!(ta.selection_end().unwrap(), Some(caret));
}

/// Presses ctrl+z (or ctrl+shift+z) as the keyboard would: a keydown on the window.
fn press_undo(shift: bool) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("z");
    init.set_ctrl_key(true);
    init.set_shift_key(shift);
    init.set_bubbles(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    web_sys::window().unwrap().dispatch_event(&ev).unwrap();
}

#[wasm_bindgen_test]
async fn ctrl_z_undoes_an_edit_and_ctrl_shift_z_redoes_it() {
    let host = mount(example(), false);
    sleep(50).await;
    lengthen_first_wait(&host).await;
    press_undo(false);
    sleep(50).await;
    assert_eq!(end_time(&host).as_deref(), Some("2026-11-23T12:15:00Z"));
    // The editor shows the text the plan is of: undo writes it back into the text area.
    assert_eq!(yaml_text(&host), example());
    press_undo(true);
    sleep(50).await;
    assert_eq!(end_time(&host).as_deref(), Some("2026-11-23T14:15:00Z"));
    assert_eq!(
        yaml_text(&host),
        example().replacen("waitTime: 1h", "waitTime: 3h", 1)
    );
}

#[wasm_bindgen_test]
async fn the_undo_and_redo_buttons_follow_the_history() {
    // Rule (header, History): Undo is offered once there is an edit to go back on, Redo once there is
    // an undone one; each button steps the text and the plan, and the other follows.
    let host = mount(example(), false);
    let undo: HtmlElement = appeared(&host, r#"header.top button[title^="undo"]"#)
        .await
        .unchecked_into();
    let redo: HtmlElement = appeared(&host, r#"header.top button[title^="redo"]"#)
        .await
        .unchecked_into();
    let disabled = |b: &HtmlElement| b.has_attribute("disabled");
    sleep(50).await;
    assert!(
        disabled(&undo) && disabled(&redo),
        "nothing to undo or redo yet"
    );
    lengthen_first_wait(&host).await;
    assert!(
        !disabled(&undo) && disabled(&redo),
        "the edit can be undone"
    );
    undo.click();
    sleep(50).await;
    assert_eq!(end_time(&host).as_deref(), Some("2026-11-23T12:15:00Z"));
    assert_eq!(yaml_text(&host), example());
    assert!(
        disabled(&undo) && !disabled(&redo),
        "back at the start, the edit can be redone"
    );
    redo.click();
    sleep(50).await;
    assert_eq!(end_time(&host).as_deref(), Some("2026-11-23T14:15:00Z"));
    assert!(!disabled(&undo) && disabled(&redo));
    host.remove();
}

#[wasm_bindgen_test]
async fn a_broken_text_marks_the_summary_stale_and_a_problem_selects_its_line() {
    // Rule (summary, diagnostics): a text that does not load keeps the last plan, said to be stale and
    // why; a located problem's place button selects its line in the editor.
    let host = mount(example(), false);
    sleep(50).await;
    assert_eq!(
        host.query_selector("[data-testid=outcome]")
            .unwrap()
            .and_then(|o| o.text_content())
            .as_deref(),
        Some("The run succeeds")
    );
    type_text(&host, &format!("{}\n  - {{broken: [\n", example())).await;
    sleep(400).await;
    let summary = host
        .query_selector("[data-testid=summary]")
        .unwrap()
        .unwrap();
    assert!(summary.class_list().contains("stale"));
    assert_eq!(
        host.query_selector("[data-testid=outcome]")
            .unwrap()
            .and_then(|o| o.text_content())
            .as_deref(),
        Some("Stale plan")
    );
    assert!(host
        .query_selector("[data-testid=stale-reason]")
        .unwrap()
        .is_some());
    // An unknown key is a located warning.
    type_text(
        &host,
        &example().replacen("    - name: staging", "    - name: staging\n      x: 1", 1),
    )
    .await;
    sleep(400).await;
    let place: HtmlElement = appeared(&host, ".diag-warning .diag-place[data-line]")
        .await
        .unchecked_into();
    let line: usize = place.get_attribute("data-line").unwrap().parse().unwrap();
    place.click();
    sleep(50).await;
    let ta: HtmlTextAreaElement = host
        .query_selector("[data-testid=yaml]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert!(document()
        .active_element()
        .is_some_and(|a| a.is_same_node(Some(&ta))));
    let start = ta.selection_start().unwrap().unwrap() as usize;
    let value = ta.value();
    let selected_line = value
        .encode_utf16()
        .take(start)
        .filter(|&c| c == u16::from(b'\n'))
        .count()
        + 1;
    assert_eq!(selected_line, line, "the problem's line is selected");
    host.remove();
}

/// Types `text` over the planner's, then opens a chart on `text` alone: the planner's rows must then
/// show exactly what that fresh chart shows (and end the run where it does).
async fn edit_and_compare_with_a_fresh_chart(host: &Element, text: &str) {
    type_text(host, text).await;
    sleep(400).await;
    let fresh = mount(text, false);
    sleep(400).await;
    assert!(end_time(host).is_some());
    assert_eq!(end_time(host), end_time(&fresh));
    let rows = |h: &Element| all(h, "svg.rows g.rows-in-view")[0].inner_html();
    assert_eq!(drawn_rows(host), drawn_rows(&fresh));
    assert_eq!(rows(host), rows(&fresh));
    fresh.remove();
}

#[wasm_bindgen_test]
async fn rows_redrawn_after_an_edit_match_a_fresh_chart_and_moved_bars_stay_the_same_elements() {
    // Each edit lengthens staging's soak, so every later bar moves and the fitted time axis changes
    // scale. The first edit writes the rows again (the part that moves bars comes with it, with the
    // memo part); a later edit that keeps the same rows in view with the same bars moves the bars the
    // chart holds (the focus, a hover and the elements stay). Either way the rows must read exactly
    // as a chart opened on the edited text writes them: places, widths, tooltips, texts on the bars.
    let host = mount(example(), false);
    sleep(50).await;
    let before = drawn_rows(&host);
    edit_and_compare_with_a_fresh_chart(
        &host,
        &example().replacen("waitTime: 1h", "waitTime: 2h", 1),
    )
    .await;
    assert_ne!(drawn_rows(&host), before, "the edit moved the bars");
    let before = drawn_rows(&host);
    let last_bar = all(&host, "svg.rows rect.bar").pop().unwrap();
    edit_and_compare_with_a_fresh_chart(
        &host,
        &example().replacen("waitTime: 1h", "waitTime: 3h", 1),
    )
    .await;
    assert_ne!(drawn_rows(&host), before, "the second edit moved the bars");
    assert!(
        last_bar.is_connected(),
        "the bar was moved, not drawn again"
    );
    assert!(
        all(&host, "svg.rows g.rows-in-view")[0]
            .inner_html()
            .contains("bar-label"),
        "texts on bars were moved too"
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn an_edit_updates_the_summary_in_place_as_a_fresh_chart_writes_it_and_an_opened_part_stays_open(
) {
    // The first edit fetches the part that updates in place; the second is made by it.
    let host = mount(example(), false);
    sleep(50).await;
    edit_and_compare_with_a_fresh_chart(
        &host,
        &example().replacen("waitTime: 1h", "waitTime: 2h", 1),
    )
    .await;
    let summary = |h: &Element| h.query_selector("[data-testid=summary]").unwrap().unwrap();
    let assumptions = summary(&host)
        .query_selector("[data-testid=assumptions]")
        .unwrap()
        .unwrap();
    assumptions.set_attribute("open", "").unwrap();
    let end = summary(&host)
        .query_selector("[data-testid=plan-end]")
        .unwrap()
        .unwrap();
    let text = example().replacen("waitTime: 1h", "waitTime: 3h", 1);
    lengthen_first_wait(&host).await;
    assert!(end.is_connected(), "the end's element stayed");
    assert_eq!(
        end.get_attribute("data-time").as_deref(),
        Some("2026-11-23T14:15:00Z")
    );
    assert!(assumptions.is_connected() && assumptions.has_attribute("open"));
    let fresh = mount(&text, false);
    sleep(400).await;
    assumptions.remove_attribute("open").unwrap();
    assert_eq!(summary(&host).inner_html(), summary(&fresh).inner_html());
    fresh.remove();
    host.remove();
}

#[wasm_bindgen_test]
async fn the_caret_stays_where_the_user_typed_after_the_re_plan() {
    // Typing "3" over the "1" of the first "waitTime: 1h" re-plans (staging soaks 3 h, so the run ends
    // 2 h later, as in the test above) and leaves the caret right after the typed character, where the
    // browser put it: the re-plan must not rewrite the text area's text or move its caret.
    let host = mount(example(), false);
    let ta: HtmlTextAreaElement = appeared(&host, "[data-testid=yaml]").await.unchecked_into();
    sleep(50).await;
    // Selection offsets count UTF-16 units.
    let byte = example().find("waitTime: 1h").unwrap() + "waitTime: ".len();
    let at = example()[..byte].encode_utf16().count() as u32;
    ta.set_range_text_with_start_and_end_and_mode("3", at, at + 1, "end")
        .unwrap();
    fire(&ta, "input");
    sleep(400).await;
    assert_eq!(end_time(&host).as_deref(), Some("2026-11-23T14:15:00Z"));
    assert_eq!(
        (ta.selection_start().unwrap(), ta.selection_end().unwrap()),
        (Some(at + 1), Some(at + 1))
    );
    assert_eq!(
        yaml_text(&host),
        example().replacen("waitTime: 1h", "waitTime: 3h", 1)
    );
}

#[wasm_bindgen_test]
async fn a_longer_plan_fills_the_chart_body_it_grows() {
    // Opened on the 10-row example, then replaced by 2,000 clusters: the rows in the DOM must cover
    // the body's new height, not the height it had for ten rows.
    let host = mount(example(), false);
    sleep(50).await;
    let large = fleetplan::examples::get("large-fleet").unwrap().text;
    type_text(&host, large).await;
    sleep(500).await;
    let body: HtmlElement = host
        .query_selector(".chart-body")
        .unwrap()
        .unwrap()
        .unchecked_into();
    let window = web_sys::window()
        .unwrap()
        .inner_height()
        .unwrap()
        .as_f64()
        .unwrap();
    let shown = (body.client_height() as f64).min(window);
    let rows = all(&host, "g.row").len() as f64;
    assert!(rows * 22.0 >= shown, "{rows} rows for {shown} px");
}

const GKE: &str = r#"name: gke-form
start: 2026-11-23T09:00:00Z
clusters:
  - name: test-1
    fleet: testing
    version: {controlPlane: 1.31.5-gke.100, node: 1.31.5-gke.100}
    releaseChannel: REGULAR
    maintenance: {window: {daily: "22:00"}}
  - name: prod-us
    fleet: production
    labels: {prod-region: us-west1}
    version: {controlPlane: 1.31.5-gke.100}
    releaseChannel: REGULAR
strategy:
  kind: gke-rollout-sequence
  name: bank-sequence
  stages:
    - {fleetProjects: [projects/testing], soakDuration: 3d}
    - fleetProjects: [projects/production]
      labelSelector: resource.labels['prod-region'] == 'us-west1'
      soakDuration: 3d
    - {fleetProjects: [projects/production], soakDuration: 1d}
  versions:
    - {version: 1.32.1-gke.200}
"#;

fn input(host: &Element, selector: &str) -> web_sys::HtmlInputElement {
    host.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector}"))
        .unchecked_into()
}

fn yaml_text(host: &Element) -> String {
    input(host, "[data-testid=yaml]")
        .unchecked_into::<HtmlTextAreaElement>()
        .value()
}

#[wasm_bindgen_test]
async fn the_gke_form_edits_stages_windows_and_versions() {
    let host = mount(GKE, false);
    sleep(50).await;
    fire(&appeared(&host, "[data-testid=tab-form]").await, "click");
    sleep(50).await;
    assert_eq!(all(&host, "[data-testid=gke-stage]").len(), 3);
    assert_eq!(all(&host, "[data-testid=version-event]").len(), 1);
    assert_eq!(all(&host, "[data-testid=gke-cluster]").len(), 2);
    // The selector is shown as written; the soak is editable and lands in the text.
    assert_eq!(
        input(&host, "[data-testid=gke-stage]:nth-child(2) input.selector").value(),
        "resource.labels['prod-region'] == 'us-west1'"
    );
    let soak = input(&host, "[data-testid=gke-stage]:nth-child(1) input.soak");
    soak.set_value("4d");
    fire(&soak, "change");
    sleep(100).await;
    assert!(
        yaml_text(&host).contains("soakDuration: 4d"),
        "{}",
        yaml_text(&host)
    );
    // A Saturday-only window on prod-us, written as a recurring window with its RRULE.
    let window = input(&host, "[data-testid=gke-cluster]:nth-child(2) input.window");
    window.set_value("2026-11-28T02:00:00Z 2026-11-28T06:00:00Z FREQ=WEEKLY;BYDAY=SA");
    fire(&window, "change");
    sleep(100).await;
    let text = yaml_text(&host);
    assert!(text.contains("FREQ=WEEKLY;BYDAY=SA"), "{text}");
    // A badly formed window is refused with the reason next to the field; the form and the text stay.
    let window = input(&host, "[data-testid=gke-cluster]:nth-child(2) input.window");
    window.set_value("whenever");
    fire(&window, "change");
    sleep(100).await;
    assert_eq!(yaml_text(&host), text);
    assert_eq!(
        window.get_attribute("aria-invalid").as_deref(),
        Some("true")
    );
    let problem = window
        .parent_element()
        .unwrap()
        .query_selector(".field-problem")
        .unwrap()
        .expect("the reason is shown next to the field");
    assert!(problem.text_content().unwrap().contains("is not a window"));
    assert_eq!(all(&host, "[data-testid=gke-cluster]").len(), 2);
    // Another version released later.
    fire(
        &all(&host, "fieldset button")
            .into_iter()
            .find(|b| b.text_content().as_deref() == Some("+ Add version"))
            .unwrap(),
        "click",
    );
    sleep(100).await;
    assert_eq!(all(&host, "[data-testid=version-event]").len(), 2);
}

#[wasm_bindgen_test]
async fn after_a_burst_of_edits_the_address_bar_and_autosave_hold_the_last_text() {
    // Rule (workbench, link::mirror_delay): committed edits are mirrored into the address bar and
    // localStorage once edits pause, writing the latest committed text; the opening text is never
    // written back.
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage
        .remove_item(fleetplan_web::link::AUTOSAVE_KEY)
        .unwrap();
    let host: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let opening = example().to_string();
    fleetplan_web::mount_planner(
        &host,
        PlannerArgs {
            initial: opening,
            persist: true,
            ..Default::default()
        },
    );
    let ta: HtmlTextAreaElement = appeared(&host, "[data-testid=yaml]").await.unchecked_into();
    let texts: Vec<String> = ["2h", "3h", "4h"]
        .iter()
        .map(|w| example().replacen("waitTime: 1h", &format!("waitTime: {w}"), 1))
        .collect();
    for t in &texts {
        ta.set_value(t);
        fire(&ta, "input");
        fire(&ta, "change");
        sleep(20).await;
    }
    // Well past the pause (500 ms) after the last commit.
    sleep(1500).await;
    let last = texts.last().unwrap();
    assert_eq!(
        storage
            .get_item(fleetplan_web::link::AUTOSAVE_KEY)
            .unwrap()
            .as_ref(),
        Some(last)
    );
    let hash = web_sys::window().unwrap().location().hash().unwrap();
    let reopened = fleetplan_web::link::opening(&hash, None);
    assert_eq!(&reopened.text, last);
    assert_eq!(reopened.banner, None);
    // Leave the page as the other tests expect it: no autosave, no fragment.
    storage
        .remove_item(fleetplan_web::link::AUTOSAVE_KEY)
        .unwrap();
    fleetplan_web::browser::replace_fragment("");
}

#[wasm_bindgen_test]
async fn the_tabs_switch_between_the_text_and_the_form() {
    // Rule (workbench): one tab is chosen at a time (its `active` class and `aria-selected`); the form
    // shows in place of the text editor while its tab is chosen, and goes when the YAML tab is.
    let host = mount(example(), false);
    let form_tab = appeared(&host, "[data-testid=tab-form]").await;
    let yaml_tab = appeared(&host, "[data-testid=tab-yaml]").await;
    let editor: HtmlElement = appeared(&host, ".code-editor").await.unchecked_into();
    sleep(20).await;
    let chosen = |t: &Element| {
        (
            t.class_list().contains("active"),
            t.get_attribute("aria-selected"),
        )
    };
    assert_eq!(chosen(&yaml_tab), (true, Some("true".into())));
    assert_eq!(chosen(&form_tab), (false, Some("false".into())));
    assert_eq!(
        editor.style().get_property_value("display").unwrap(),
        "flex"
    );
    fire(&form_tab, "click");
    appeared(&host, "[data-testid=selects]").await;
    assert_eq!(chosen(&form_tab), (true, Some("true".into())));
    assert_eq!(chosen(&yaml_tab), (false, Some("false".into())));
    assert_eq!(
        editor.style().get_property_value("display").unwrap(),
        "none"
    );
    // The form stands between the tabs and the (hidden) text editor.
    let form = host
        .query_selector("[data-testid=selects]")
        .unwrap()
        .unwrap();
    let after_tabs = host.query_selector(".pane-title").unwrap().unwrap();
    let follows = |a: &Element, b: &Element| {
        a.compare_document_position(b) & web_sys::Node::DOCUMENT_POSITION_FOLLOWING != 0
    };
    assert!(follows(&after_tabs, &form) && follows(&form, &editor));
    // Choosing the form again keeps it (and what is typed in it).
    fire(&form_tab, "click");
    sleep(50).await;
    assert!(host
        .query_selector("[data-testid=selects]")
        .unwrap()
        .is_some());
    fire(&yaml_tab, "click");
    sleep(50).await;
    assert!(host
        .query_selector("[data-testid=selects]")
        .unwrap()
        .is_none());
    assert_eq!(chosen(&yaml_tab), (true, Some("true".into())));
    assert_eq!(
        editor.style().get_property_value("display").unwrap(),
        "flex"
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn the_compare_bar_opens_and_closes_the_comparison() {
    // Rule (workbench): the compare button says whether the comparison is shown (`aria-pressed`, its
    // label); shown, the comparison (with the other plan's chart) follows the plan's chart; a text with
    // errors adds a hint to the bar.
    let host = mount(example(), false);
    let toggle = appeared(&host, "[data-testid=compare-toggle]").await;
    sleep(20).await;
    let state = |t: &Element| (t.get_attribute("aria-pressed"), t.text_content());
    assert_eq!(
        state(&toggle),
        (Some("false".into()), Some("Compare…".into()))
    );
    assert_eq!(all(&host, "section.chart").len(), 1);
    fire(&toggle, "click");
    appeared(&host, "[data-testid=compare-table]").await;
    assert_eq!(
        state(&toggle),
        (Some("true".into()), Some("Hide the comparison".into()))
    );
    let charts = all(&host, "section.chart");
    assert_eq!(charts.len(), 2);
    let compare = host
        .query_selector("[data-testid=compare]")
        .unwrap()
        .unwrap();
    assert!(compare.contains(Some(&charts[1])));
    assert!(
        charts[0].compare_document_position(&compare) & web_sys::Node::DOCUMENT_POSITION_FOLLOWING
            != 0
    );
    // Both charts share one window: the same ticks on both axes.
    sleep(100).await;
    let ticks = |c: &Element| {
        all(c, "svg.axis text.axis-minor")
            .iter()
            .map(|t| {
                format!(
                    "{}:{:?}",
                    t.get_attribute("x").unwrap_or_default(),
                    t.text_content()
                )
            })
            .collect::<Vec<_>>()
    };
    assert!(!ticks(&charts[0]).is_empty());
    assert_eq!(ticks(&charts[0]), ticks(&charts[1]));
    fire(&toggle, "click");
    sleep(50).await;
    assert_eq!(
        state(&toggle),
        (Some("false".into()), Some("Compare…".into()))
    );
    assert!(host
        .query_selector("[data-testid=compare]")
        .unwrap()
        .is_none());
    assert_eq!(all(&host, "section.chart").len(), 1);
    assert!(host.query_selector(".compare-bar .hint").unwrap().is_none());
    // A text that does not load is an error.
    type_text(&host, &format!("{}\n  - {{broken: [\n", example())).await;
    sleep(400).await;
    assert!(host.query_selector(".compare-bar .hint").unwrap().is_some());
    host.remove();
}

#[wasm_bindgen_test]
async fn a_banner_shows_its_message_as_text_and_its_button_dismisses_it() {
    // Rule (planner): the banner (why a link could not be opened) says its message as written, markup
    // included, above the layout, until dismissed.
    let host: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    fleetplan_web::mount_planner(
        &host,
        PlannerArgs {
            initial: example().to_string(),
            banner: Some("the link <b>could not</b> be opened".into()),
            ..Default::default()
        },
    );
    sleep(50).await;
    let banner = appeared(&host, "[data-testid=banner]").await;
    assert_eq!(
        banner.text_content().as_deref(),
        Some("the link <b>could not</b> be opened×")
    );
    assert!(banner.query_selector("b").unwrap().is_none());
    let layout = host.query_selector("main.layout").unwrap().unwrap();
    assert!(
        banner.compare_document_position(&layout) & web_sys::Node::DOCUMENT_POSITION_FOLLOWING != 0
    );
    let dismiss: HtmlElement = banner
        .query_selector("button[aria-label='dismiss this message']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    dismiss.click();
    sleep(20).await;
    assert!(host
        .query_selector("[data-testid=banner]")
        .unwrap()
        .is_none());
    host.remove();
}
