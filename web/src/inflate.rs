//! Share links inflated by the browser (`DecompressionStream`), so the viewer's main module carries no
//! inflater of its own.
//!
//! The core checks the payload (version, characters, length) and turns the inflated bytes into text
//! ([`share::unpack`], [`share::text_of`]); only the inflating happens here, under the same limit as
//! the core's own inflater ([`share::MAX_TEXT_LEN`]: a small link must not unpack into gigabytes),
//! read chunk by chunk and cancelled past it. The core's [`share::decode`] stays the one the app
//! (loaded on demand) and the tests use; both read the same zlib-wrapped deflate, Adler-32
//! checked (the browser's `deflate` format).
//!
//! The page's own script (index.html) starts the same inflate as soon as the page is parsed, while the
//! module downloads, and leaves its result in `fleetplanShare` ({p: payload, z: its bytes, t: the
//! inflated bytes}; nothing on any failure). [`early`] takes that result when it is there and made from
//! the very bytes the core unpacks, so the first chart needs no asynchronous step (another task could
//! run before the chart in it); otherwise [`decode`] inflates here.

use fleetplan::share::{self, ShareError};
use js_sys::{Array, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    type DecompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, JsValue>;

    #[wasm_bindgen(js_name = Blob)]
    type Bytes;
    #[wasm_bindgen(constructor, js_class = "Blob", catch)]
    fn new(parts: &Array) -> Result<Bytes, JsValue>;
    #[wasm_bindgen(method)]
    fn stream(this: &Bytes) -> Stream;

    type Stream;
    #[wasm_bindgen(method, js_name = pipeThrough)]
    fn pipe_through(this: &Stream, through: &DecompressionStream) -> Stream;
    #[wasm_bindgen(method, js_name = getReader)]
    fn get_reader(this: &Stream) -> Reader;

    type Reader;
    #[wasm_bindgen(method)]
    fn read(this: &Reader) -> Promise;
    #[wasm_bindgen(method)]
    fn cancel(this: &Reader) -> Promise;
}

/// The scenario text of a share payload, as [`share::decode`] reads it.
pub async fn decode(payload: &str) -> Result<String, ShareError> {
    let packed = share::unpack(payload)?;
    share::text_of(inflate(&packed, share::MAX_TEXT_LEN).await?)
}

/// The scenario text of a share payload as the page's script inflated it ahead of the module, or `None`
/// when it has not (yet): no result, another payload, other bytes than [`share::unpack`] reads from
/// it, or more than [`share::MAX_TEXT_LEN`]. A payload the core refuses is refused here, as
/// [`decode`] does, without looking further.
pub fn early(payload: &str) -> Option<Result<String, ShareError>> {
    let packed = match share::unpack(payload) {
        Ok(packed) => packed,
        Err(e) => return Some(Err(e)),
    };
    let found = Reflect::get(&js_sys::global(), &JsValue::from_str("fleetplanShare")).ok()?;
    let field = |k: &str| Reflect::get(&found, &JsValue::from_str(k)).ok();
    if field("p")?.as_string()? != payload {
        return None;
    }
    let same = field("z")?
        .dyn_into::<Uint8Array>()
        .ok()
        .is_some_and(|z| z.to_vec() == packed);
    let text = field("t")?.dyn_into::<Uint8Array>().ok()?;
    if !same || text.length() as usize > share::MAX_TEXT_LEN {
        return None;
    }
    Some(share::text_of(text.to_vec()))
}

/// Inflates zlib-wrapped deflate into at most `limit` bytes.
async fn inflate(packed: &[u8], limit: usize) -> Result<Vec<u8>, ShareError> {
    let inflater = DecompressionStream::new("deflate").map_err(|_| ShareError::Damaged)?;
    let source =
        Bytes::new(&Array::of1(&Uint8Array::from(packed))).map_err(|_| ShareError::Damaged)?;
    let reader = source.stream().pipe_through(&inflater).get_reader();
    let mut out = Vec::new();
    loop {
        let step = JsFuture::from(reader.read()).await.map_err(|e| why(&e))?;
        if Reflect::get(&step, &JsValue::from_str("done"))
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true)
        {
            return Ok(out);
        }
        let Ok(chunk) = Reflect::get(&step, &JsValue::from_str("value"))
            .and_then(|v| v.dyn_into::<Uint8Array>())
        else {
            return Err(ShareError::Damaged);
        };
        let at = out.len();
        let n = chunk.length() as usize;
        if at + n > limit {
            let _ = reader.cancel();
            return Err(ShareError::TextTooLarge);
        }
        out.resize(at + n, 0);
        chunk.copy_to(&mut out[at..]);
    }
}

/// What the browser's inflater stopped on: data that ends early (the link was cut) or anything else
/// it refuses (damaged data, bytes after the end, a wrong checksum).
fn why(error: &JsValue) -> ShareError {
    let message = Reflect::get(error, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_default();
    if fleetplan::substr::contains(&message.to_ascii_lowercase(), "truncat") {
        ShareError::Truncated
    } else {
        ShareError::Damaged
    }
}
