//! What the browser test files share: waiting for the page's timers, and reading the chart's rows.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::Element;

/// Lets timers (the debounce) and the reactive system's scheduled effects run.
pub async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

/// Every element under `host` that matches `selector`, in document order.
pub fn all(host: &Element, selector: &str) -> Vec<Element> {
    let list = host.query_selector_all(selector).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
        .collect()
}

/// Every row and bar drawn in `host`'s chart: the row's name, then each bar's place, size, class and
/// accessible name (its tooltip).
pub fn drawn_rows(host: &Element) -> Vec<(String, Vec<[String; 6]>)> {
    all(host, "svg.rows g.row")
        .iter()
        .map(|g| {
            let bars = all(g, "rect.bar")
                .iter()
                .map(|b| {
                    let [x, y, w, h, c] = ["x", "y", "width", "height", "class"]
                        .map(|a| b.get_attribute(a).unwrap_or_default());
                    [x, y, w, h, c, b.text_content().unwrap_or_default()]
                })
                .collect();
            (g.get_attribute("data-row").unwrap_or_default(), bars)
        })
        .collect()
}
