//! The viewer that loads first (web/src/viewer.rs), in headless Chromium: it draws a link's scenario
//! without the app, the app that replaces it shows the same chart, and a broken link says where it
//! breaks. Run as web/tests/components.rs is (scripts/test.sh).
#![cfg(target_arch = "wasm32")]

use fleetplan_web::viewer::{self, Page};
use fleetplan_web::PlannerArgs;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement};

mod common;

use common::{all, drawn_rows, sleep};

wasm_bindgen_test_configure!(run_in_browser);

fn host() -> HtmlElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let host: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    host.style().set_property("width", "1200px").unwrap();
    host.style().set_property("height", "600px").unwrap();
    doc.body().unwrap().append_child(&host).unwrap();
    host
}

fn embed(text: &str) -> Page<'_> {
    Page {
        text,
        banner: None,
        embed: true,
        zone: Some("UTC"),
        payload: None,
    }
}

fn text_of(host: &Element, selector: &str) -> String {
    host.query_selector(selector)
        .unwrap()
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

fn example() -> &'static str {
    fleetplan_web::link::example_text()
}

#[wasm_bindgen_test]
fn the_viewer_draws_the_scenario_of_a_link_without_the_app() {
    // The example's text names three stages (staging, canary, production) and the run `staged-rollout`.
    let link = fleetplan_web::link::link_to(
        "https://example.test/",
        &fleetplan::share::encode(example()),
    );
    let text = fleetplan_web::link::text_of_link(&link).unwrap();
    let h = host();
    assert!(viewer::draw(&h, &embed(&text)));
    let stages: Vec<String> = all(&h, "g.row-stage")
        .iter()
        .map(|g| g.get_attribute("data-row").unwrap())
        .collect();
    assert_eq!(stages, ["staging", "canary", "production"]);
    assert!(!all(&h, "svg.rows rect.bar").is_empty());
    let caption = text_of(&h, ".embed-caption");
    assert!(caption.starts_with("staged-rollout · ends "), "{caption}");
    assert!(caption.ends_with("open in fleetplan"), "{caption}");
    // One tab stop for the bars, as in the interactive chart.
    let stops = all(&h, "rect.bar[tabindex='0']");
    assert_eq!(stops.len(), 1);
    // The caption's link reopens the link's own payload in the app.
    let h2 = host();
    let hash = link.split_once('#').unwrap().1;
    let payload = fleetplan_web::link::fragment_payload(hash).unwrap();
    let page = Page {
        payload: Some(payload),
        ..embed(&text)
    };
    assert!(viewer::draw(&h2, &page));
    let href = h2
        .query_selector(".embed-caption a")
        .unwrap()
        .unwrap()
        .get_attribute("href")
        .unwrap();
    assert!(href.ends_with(&format!("#s={payload}")), "{href}");
    h2.remove();
    // Nothing of the editing side.
    assert!(h.query_selector("textarea").unwrap().is_none());
    h.remove();
}

#[wasm_bindgen_test]
async fn the_app_that_replaces_the_viewer_shows_the_same_chart() {
    let drawn = host();
    // An embed page's viewer draws in the browser's zone (lib.rs `show`), as the app then does.
    let page = Page {
        zone: None,
        ..embed(example())
    };
    assert!(viewer::draw(&drawn, &page));
    let mounted = host();
    let text = example().to_string();
    fleetplan_web::mount_planner(
        &mounted,
        PlannerArgs {
            initial: text,
            embed: true,
            ..Default::default()
        },
    );
    // The chart measures its width after mounting, then lays out again.
    sleep(100).await;
    let (v, a) = (drawn_rows(&drawn), drawn_rows(&mounted));
    assert!(!v.is_empty());
    assert_eq!(v, a, "the viewer's rows and the app's rows differ");
    assert_eq!(
        text_of(&drawn, ".embed-caption"),
        text_of(&mounted, ".embed-caption")
    );
    // Both end the run at the same instant, and the viewer's end marker stands where the app's does.
    let attr = |h: &Element, sel: &str, name: &str| {
        h.query_selector(sel)
            .unwrap()
            .and_then(|e| e.get_attribute(name))
            .unwrap_or_default()
    };
    assert_eq!(
        attr(&drawn, "[data-testid=plan-end]", "data-time"),
        attr(&mounted, "[data-testid=plan-end]", "data-time")
    );
    assert_eq!(
        attr(&drawn, "[data-testid=end-marker]", "x1"),
        attr(&mounted, "[data-testid=end-marker]", "x1")
    );
    assert_eq!(text_of(&drawn, "ul.legend"), text_of(&mounted, "ul.legend"));
    drawn.remove();
    mounted.remove();
}

#[wasm_bindgen_test]
async fn the_interactive_chart_arrives_on_demand_and_takes_the_viewers_place() {
    let h = host();
    assert!(viewer::draw(&h, &embed(example())));
    assert_eq!(all(&h, "[data-viewer]").len(), 1);
    (fleetplan_web::app_kit().await.mount_chart)(h.clone(), example().to_string());
    sleep(100).await;
    assert!(
        all(&h, "[data-viewer]").is_empty(),
        "the viewer's chart is gone"
    );
    assert_eq!(all(&h, "section.chart").len(), 1, "one chart, the app's");
    // Its toolbar works now: zooming in widens the bars.
    let width = |h: &Element| -> f64 {
        all(h, "svg.rows rect.bar")[0]
            .get_attribute("width")
            .unwrap()
            .parse()
            .unwrap()
    };
    let before = width(&h);
    let zoom_in: HtmlElement = h
        .query_selector("button[aria-label='zoom in']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    zoom_in.click();
    sleep(50).await;
    assert!(width(&h) > before, "{} <= {before}", width(&h));
    h.remove();
}

#[wasm_bindgen_test]
async fn a_broken_embedded_link_says_which_line_breaks() {
    // Line 2 opens a flow mapping that never closes: a YAML error located on that line.
    let text = "clusters: [\n  - {";
    let h = host();
    // The viewer draws it when the main module can read it; otherwise the app does.
    if !viewer::draw(&h, &embed(text)) {
        let t = text.to_string();
        fleetplan_web::mount_planner(
            &h,
            PlannerArgs {
                initial: t,
                embed: true,
                ..Default::default()
            },
        );
    }
    let mut why = String::new();
    for _ in 0..200 {
        why = text_of(&h, "[data-testid=stale-reason]");
        if !why.is_empty() {
            break;
        }
        sleep(10).await;
    }
    assert!(
        why.starts_with("No plan: the text does not load. line 2: "),
        "{why}"
    );
    assert!(all(&h, "svg.rows rect.bar").is_empty());
    h.remove();
}

/// A share link inflated by the page's script before the module started (index.html leaves
/// `fleetplanShare`: the payload, its bytes and the inflated bytes) is taken only when it was made
/// from the same payload and the same bytes the core unpacks from it; a payload the core refuses is
/// refused with the core's reason whatever the page left (web/src/inflate.rs `early`).
#[wasm_bindgen_test]
fn a_link_inflated_by_the_page_is_taken_only_for_the_same_bytes() {
    use fleetplan::share;
    use fleetplan_web::inflate;
    use js_sys::{Object, Reflect, Uint8Array};
    use wasm_bindgen::JsValue;
    let leave = |p: &str, z: &[u8], t: &str| {
        let o = Object::new();
        Reflect::set(&o, &"p".into(), &p.into()).unwrap();
        Reflect::set(&o, &"z".into(), &Uint8Array::from(z).into()).unwrap();
        Reflect::set(&o, &"t".into(), &Uint8Array::from(t.as_bytes()).into()).unwrap();
        Reflect::set(&js_sys::global(), &"fleetplanShare".into(), &o).unwrap();
    };
    let text = example();
    let payload = share::encode(text);
    let packed = share::unpack(&payload).unwrap();
    assert_eq!(inflate::early(&payload), None, "nothing left by the page");
    // The page's text stands in for the module's own inflate only when it came from these bytes:
    // a marker text shows which one was taken.
    leave(&payload, &packed, "from the page");
    assert_eq!(
        inflate::early(&payload),
        Some(Ok("from the page".to_string()))
    );
    let other = share::encode("kind: other");
    assert_eq!(inflate::early(&other), None, "another link's result");
    let mut changed = packed.clone();
    changed[0] ^= 1;
    leave(&payload, &changed, "from the page");
    assert_eq!(inflate::early(&payload), None, "other bytes");
    leave("1.AAAA", &packed, "from the page");
    assert_eq!(inflate::early(&payload), None, "another payload");
    let refused = "2.abc";
    leave(refused, &packed, "from the page");
    assert_eq!(inflate::early(refused), Some(share::decode(refused)));
    assert!(inflate::early(refused).unwrap().is_err());
    // More than the core's cap is never taken (the page's script stops there too).
    let over = "b".repeat(share::MAX_TEXT_LEN + 1);
    leave(&payload, &packed, &over);
    assert_eq!(inflate::early(&payload), None, "over the cap");
    Reflect::delete_property(&js_sys::global(), &JsValue::from_str("fleetplanShare")).unwrap();
    assert_eq!(inflate::early(&payload), None);
}

/// The browser's inflater (web/src/inflate.rs, the page's first chart) reads share links as the core's
/// own (`share::decode`, the app and the CLI) does: the same texts from good links, the same refusals
/// of cut and oversized ones (the core's rules: a cut stream is `Truncated`, more than `MAX_TEXT_LEN`
/// bytes is `TextTooLarge`, exactly that many is fine).
#[wasm_bindgen_test]
async fn the_browsers_inflater_reads_links_as_the_core_does() {
    use fleetplan::share::{self, ShareError, MAX_TEXT_LEN};
    use fleetplan_web::inflate;
    for example in fleetplan::examples::all() {
        let payload = share::encode(example.text);
        assert_eq!(
            inflate::decode(&payload).await.as_deref(),
            Ok(example.text),
            "{}",
            example.name
        );
    }
    let payload = share::encode(example());
    for cut in [
        3,
        10,
        payload.len() / 2,
        payload.len() - 40,
        payload.len() - 1,
    ] {
        let cut = &payload[..cut];
        assert_eq!(share::decode(cut), Err(ShareError::Truncated));
        assert_eq!(
            inflate::decode(cut).await,
            Err(ShareError::Truncated),
            "{cut}"
        );
    }
    // A character changed in the middle: refused or read, never a different text without an error.
    let mut flipped = payload.clone().into_bytes();
    let mid = flipped.len() / 2;
    flipped[mid] = if flipped[mid] == b'A' { b'B' } else { b'A' };
    let flipped = String::from_utf8(flipped).unwrap();
    assert!(inflate::decode(&flipped).await.is_err());
    assert!(share::decode(&flipped).is_err());
    let at_cap = "b".repeat(MAX_TEXT_LEN);
    assert_eq!(
        inflate::decode(&share::encode(&at_cap))
            .await
            .map(|t| t.len()),
        Ok(MAX_TEXT_LEN)
    );
    let over = "b".repeat(MAX_TEXT_LEN + 1);
    assert_eq!(
        inflate::decode(&share::encode(&over)).await,
        Err(ShareError::TextTooLarge)
    );
}

/// The page's script marks a browser in UTC (index.html, by Temporal) so the first chart needs no
/// Intl formatter: with that mark the reader's own zone is UTC, a chosen zone is still that zone, and
/// without the mark the browser's zone is the one the zone picker names.
#[wasm_bindgen_test]
fn the_pages_utc_mark_stands_for_the_browsers_zone_only() {
    use fleetplan::time::{Time, DAY};
    use fleetplan::zone::Zone;
    use fleetplan_web::clock;
    let from = Time(20_000 * DAY.0);
    let to = Time(from.0 + 400 * DAY.0);
    let own = clock::zone_over(None, from, to);
    assert_eq!(
        own,
        clock::zone_over(Some(&clock::browser_zone()), from, to)
    );
    let global = js_sys::global();
    js_sys::Reflect::set(&global, &clock::UTC_FLAG.into(), &true.into()).unwrap();
    let marked = clock::zone_over(None, from, to);
    let tokyo = clock::zone_over(Some("Asia/Tokyo"), from, to);
    js_sys::Reflect::delete_property(&global, &clock::UTC_FLAG.into()).unwrap();
    assert_eq!(marked, Zone::utc());
    assert_eq!(tokyo.name, "Asia/Tokyo");
    assert_eq!(tokyo.spans[0].offset_minutes, 9 * 60);
    assert_eq!(clock::zone_over(None, from, to), own);
}
