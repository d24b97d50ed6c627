//! Thin, failure-tolerant wrappers over the browser APIs the app uses (location, history, storage,
//! clipboard, downloads, clock).
//!
//! Every function returns `Option`/`bool` or does nothing when an API is missing or refuses (private
//! mode without storage, a sandboxed iframe, a denied clipboard): none of these may panic, because a panic
//! kills the whole app. They compile natively too, so the crate builds and its pure tests run there.

use fleetplan::time::Time;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// `location.search` and `location.hash`, including their leading `?`/`#`; empty strings when absent.
pub fn location_parts() -> (String, String) {
    let Some(loc) = window().map(|w| w.location()) else {
        return (String::new(), String::new());
    };
    (
        loc.search().unwrap_or_default(),
        loc.hash().unwrap_or_default(),
    )
}

/// The page's address without query and fragment, e.g. `http://127.0.0.1:8080/`.
pub fn base_url() -> String {
    let Some(loc) = window().map(|w| w.location()) else {
        return String::new();
    };
    format!(
        "{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default()
    )
}

/// Where the full app lives, for links out of a chart embedded elsewhere: the page's own address, or
/// the one the `<fleetplan-chart>` script set (`globalThis.fleetplanAppUrl`) when the chart sits on
/// another site's page.
pub fn app_url() -> String {
    js_sys::Reflect::get(&js_sys::global(), &"fleetplanAppUrl".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(base_url)
}

/// Adds the stylesheet `file` to the page once, from beside the app's files (the directory of
/// [`app_url`]): the styles of parts no first chart shows (the editing side, a live status) come with
/// those parts instead of with every first load. A stylesheet added by script holds up no rendering.
pub fn stylesheet(file: &str) {
    let Some(doc) = window().and_then(|w| w.document()) else {
        return;
    };
    let marker = format!("link[data-style=\"{file}\"]");
    if doc.query_selector(&marker).ok().flatten().is_some() {
        return;
    }
    let (Some(head), Ok(link)) = (
        doc.query_selector("head").ok().flatten(),
        doc.create_element("link"),
    ) else {
        return;
    };
    let app = app_url();
    let dir = &app[..app.rfind('/').map_or(0, |i| i + 1)];
    let _ = link.set_attribute("rel", "stylesheet");
    let _ = link.set_attribute("href", &format!("{dir}{file}"));
    let _ = link.set_attribute("data-style", file);
    let _ = head.append_child(&link);
}

/// Whether `globalThis[name]` is `true`.
pub fn global_flag(name: &str) -> bool {
    js_sys::Reflect::get(&js_sys::global(), &name.into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// The browser's clock, for what only the front end may know: "now" (a new scenario starts at the
/// next hour, a pinned version is labelled with its time). The core never reads it.
pub fn now() -> Time {
    Time(js_sys::Date::now() as i64)
}

/// Sets (or with `None` removes) an attribute of the page's root element (`data-theme`).
pub fn set_root_attribute(name: &str, value: Option<&str>) {
    let Some(root) = window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return;
    };
    let _ = match value {
        Some(v) => root.set_attribute(name, v),
        None => root.remove_attribute(name),
    };
}

/// Opens the browser's print dialog (the stylesheet lays the page out as one page).
pub fn print() {
    if let Some(w) = window() {
        let _ = w.print();
    }
}

/// Reads the file chosen in the file input a `change` event came from as text and hands `(name, text
/// or the reason it failed)` to `done`; the input is then cleared so choosing the same file again reads
/// it again.
pub fn read_chosen_file(
    ev: &web_sys::Event,
    done: impl FnOnce(String, Result<String, String>) + 'static,
) {
    let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
    else {
        return;
    };
    let Some(file) = input.files().and_then(|f| f.get(0)) else {
        return;
    };
    input.set_value("");
    let name = file.name();
    // A scenario is text; a file far larger than any fleet would only freeze the tab.
    if file.size() > 64.0 * 1024.0 * 1024.0 {
        done(name, Err("it is larger than 64 MB".into()));
        return;
    }
    let promise = file.text();
    wasm_bindgen_futures::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(promise)
            .await
            .ok()
            .and_then(|v| v.as_string())
            .ok_or_else(|| "the browser refused to read it".to_string());
        done(name, text);
    });
}

/// Replaces the address bar's fragment without a reload or a history entry (typing must not flood the
/// back button). An empty `fragment` removes it.
pub fn replace_fragment(fragment: &str) {
    let Some(w) = window() else { return };
    let loc = w.location();
    let url = format!(
        "{}{}{}",
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default(),
        if fragment.is_empty() {
            String::new()
        } else {
            format!("#{fragment}")
        }
    );
    if let Ok(history) = w.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

fn storage() -> Option<web_sys::Storage> {
    // `local_storage` is an Err in some sandboxed iframes and Ok(None) where storage is disabled.
    window()?.local_storage().ok().flatten()
}

pub fn storage_remove(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}

pub fn storage_get(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Stores `value`; false when storage is unavailable or full (the caller may tell the user).
pub fn storage_set(key: &str, value: &str) -> bool {
    storage().is_some_and(|s| s.set_item(key, value).is_ok())
}

/// Puts `text` on the clipboard. The browser may refuse (no focus, no permission); the page also shows
/// the text in a field so it can be copied by hand.
pub fn copy_to_clipboard(text: &str) {
    if let Some(w) = window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

/// Runs `f` once the next frame has been painted: work the screen does not show (mirroring into the
/// address bar and storage) then never delays the frame that shows an edit's new plan.
pub fn after_next_paint(f: impl FnOnce() + 'static) {
    let Some(w) = window() else {
        return;
    };
    let later = Closure::once_into_js(move || {
        if let Some(w) = window() {
            let run = Closure::once_into_js(f);
            let _ = w.set_timeout_with_callback(run.unchecked_ref());
        }
    });
    let _ = w.request_animation_frame(later.unchecked_ref());
}

/// What a reader does first to an interactive chart: point at it, press on it, focus or key into it,
/// scroll or touch it (chart.rs answers each: hover text, drag, keyboard, wheel zoom, pinch).
const INTERACTIONS: [&str; 6] = [
    "pointerover",
    "pointerdown",
    "focusin",
    "keydown",
    "wheel",
    "touchstart",
];

/// Runs `f` once, on the reader's first interaction with `target` ([`INTERACTIONS`]), then removes
/// the listeners. They are passive (a chart that only listens never holds up scrolling) and capture
/// (an element inside that stops an event still counts as touched).
pub fn on_first_interaction(target: &web_sys::EventTarget, f: impl FnOnce() + 'static) {
    use std::cell::RefCell;
    use std::rc::Rc;
    let run = RefCell::new(Some(f));
    // The listener removes itself, so it must know its own JavaScript function: set right after it
    // is made, dropped when it has run (which also ends the cycle between the two).
    let own: Rc<RefCell<Option<JsValue>>> = Rc::new(RefCell::new(None));
    let options = web_sys::AddEventListenerOptions::new();
    options.set_passive(true);
    options.set_capture(true);
    let (at, mine) = (target.clone(), Rc::clone(&own));
    let listener = Closure::<dyn FnMut()>::new(move || {
        if let Some(me) = mine.borrow_mut().take() {
            for name in INTERACTIONS {
                let _ =
                    at.remove_event_listener_with_callback_and_bool(name, me.unchecked_ref(), true);
            }
        }
        if let Some(f) = run.borrow_mut().take() {
            f();
        }
    })
    .into_js_value();
    for name in INTERACTIONS {
        let _ = target.add_event_listener_with_callback_and_add_event_listener_options(
            name,
            listener.unchecked_ref(),
            &options,
        );
    }
    *own.borrow_mut() = Some(listener);
}

/// Keeps `value` alive until the next frame has been painted, then drops it: freeing the previous
/// plan of a 1,000-cluster scenario (its clusters, phases and messages) is work the new frame does
/// not need done first. Outside a browser it is dropped at once.
pub fn drop_after_paint<T: 'static>(value: T) {
    after_next_paint(move || drop(value));
}

/// Milliseconds from the page's time origin, for the app's own timing display.
pub fn now_ms() -> f64 {
    window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Offers `content` as a file download named `filename`.
pub fn download_text(filename: &str, mime: &str, content: &str) -> bool {
    let parts = js_sys::Array::of1(&JsValue::from_str(content));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return false;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return false;
    };
    let ok = click_link(&url, filename);
    // Revoked a little later: the download may still be reading the blob when the click returns.
    if let Some(w) = window() {
        let revoke = Closure::once_into_js(move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        });
        let _ =
            w.set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 30_000);
    }
    ok
}

/// Clicks a temporary `<a download>`: the one way to save a file from a page without a server.
fn click_link(href: &str, filename: &str) -> bool {
    let Some(doc) = window().and_then(|w| w.document()) else {
        return false;
    };
    let Some(a) = doc
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    else {
        return false;
    };
    a.set_href(href);
    a.set_download(filename);
    let Some(body) = doc.body() else { return false };
    if body.append_child(&a).is_err() {
        return false;
    }
    a.click();
    a.remove();
    true
}

/// Rasterises an SVG document and offers it as a PNG download. The browser does the drawing: the SVG goes
/// into an `<img>` (as a data URL, so the canvas is not tainted), is drawn onto a canvas at `scale`, and
/// the canvas is saved. Asynchronous: the image loads first.
pub fn download_svg_as_png(svg: &str, width: f64, height: f64, scale: f64, filename: &str) -> bool {
    let Some(doc) = window().and_then(|w| w.document()) else {
        return false;
    };
    let Ok(img) = web_sys::HtmlImageElement::new() else {
        return false;
    };
    let Some(canvas) = doc
        .create_element("canvas")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
    else {
        return false;
    };
    // Browsers cap canvas area (Chromium at about 268 million pixels); shrink rather than fail.
    let mut scale = scale;
    while width * height * scale * scale > 200_000_000.0 && scale > 0.05 {
        scale /= 2.0;
    }
    canvas.set_width((width * scale).ceil() as u32);
    canvas.set_height((height * scale).ceil() as u32);
    let filename = filename.to_string();
    let img2 = img.clone();
    let onload = Closure::once_into_js(move || {
        let Some(ctx) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let _ = ctx.scale(scale, scale);
        let _ = ctx.draw_image_with_html_image_element(&img2, 0.0, 0.0);
        if let Ok(url) = canvas.to_data_url_with_type("image/png") {
            click_link(&url, &filename);
        }
    });
    img.set_onload(Some(onload.unchecked_ref()));
    let encoded = js_sys::encode_uri_component(svg);
    img.set_src(&format!("data:image/svg+xml;charset=utf-8,{encoded}"));
    true
}
