//! The JavaScript API for docs portals: `plan(scenario)` and `drawChart(element, scenario)`, exported
//! from the same wasm module as the app (Trunk's build, `fleetplan-web.js`).
//!
//! A page that only wants the API marks its body `data-fleetplan="api"` so the module does not mount the
//! full app on load (see [`crate::start`]). Scenarios are YAML/JSON text or a plain JS object (sent to the
//! core as JSON text, which its YAML reader accepts). Results are plain JS objects: the core's `Plan` and
//! diagnostics, serialized exactly as the CLI's JSON.

use wasm_bindgen::prelude::*;

use crate::analysis;

/// The scenario as text: a string as is, anything else through `JSON.stringify`.
fn scenario_text(scenario: &JsValue) -> Result<String, JsValue> {
    if let Some(text) = scenario.as_string() {
        return Ok(text);
    }
    js_sys::JSON::stringify(scenario)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| {
            JsValue::from_str("fleetplan: the scenario must be YAML/JSON text or a plain object")
        })
}

/// Plans a scenario: a promise of `{ plan, diagnostics }`, where `plan` is `null` when the text cannot
/// be read. A promise because the planners of every kind and the serializer are fetched on first use.
#[wasm_bindgen(js_name = plan)]
pub async fn plan_js(scenario: JsValue) -> Result<JsValue, JsValue> {
    let text = scenario_text(&scenario)?;
    (planner_kit().await.plan)(&text)
}

#[derive(Clone, Copy)]
struct PlannerKit {
    plan: fn(&str) -> Result<JsValue, JsValue>,
}

crate::on_demand! {
    fn planner_kit() -> PlannerKit {
        PlannerKit { plan: plan_text }
    }
}

fn plan_text(text: &str) -> Result<JsValue, JsValue> {
    let a = analysis::analyse(text, None);
    // Through the same pretty serializer as the JSON export: a second serializer (a `json!` value)
    // would add another copy of the whole plan's serialization code to the bundle.
    let plan = a
        .plan
        .as_deref()
        .map_or_else(|| "null".to_string(), fleetplan::export::json);
    let diagnostics = serde_json::to_string_pretty(&a.diagnostics).unwrap_or_else(|_| "[]".into());
    js_sys::JSON::parse(&format!(
        "{{\"plan\":{plan},\"diagnostics\":{diagnostics}}}"
    ))
}

/// The scenario text a share link carries (what `<fleetplan-chart link="…">` shows): a promise, rejected
/// with the reason when the link holds none or is damaged. A promise because the browser inflates it
/// ([`crate::inflate`]).
#[wasm_bindgen(js_name = scenarioFromLink)]
pub async fn scenario_from_link(link: String) -> Result<String, JsValue> {
    let payload = crate::link::payload_of_link(&link).map_err(|e| JsValue::from_str(&e))?;
    crate::inflate::decode(payload)
        .await
        .map_err(|e| JsValue::from_str(&crate::link::link_error(&e)))
}

/// Draws the read-only chart of a scenario into `element` (as embed mode does). Give the element a height.
/// The [`crate::viewer`] draws it at once; the interactive chart replaces it once the reader first
/// points at, touches or keys into it and its code has arrived.
#[wasm_bindgen(js_name = drawChart)]
pub fn draw_chart(element: web_sys::HtmlElement, scenario: JsValue) -> Result<(), JsValue> {
    let text = scenario_text(&scenario)?;
    let drawn = crate::viewer::draw(
        &element,
        &crate::viewer::Page {
            text: &text,
            banner: None,
            embed: true,
            zone: None,
            payload: None,
        },
    );
    let target: web_sys::EventTarget = element.clone().into();
    let take_over = move || {
        wasm_bindgen_futures::spawn_local(async move {
            (crate::app_kit().await.mount_chart)(element, text);
        })
    };
    // As an embedded page's chart: interactive once the reader first touches it.
    if drawn {
        crate::browser::on_first_interaction(&target, take_over);
    } else {
        take_over();
    }
    Ok(())
}
