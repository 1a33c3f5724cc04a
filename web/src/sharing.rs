//! Share links (`?puzzle=<slug>#code=<payload>`, see `gpu_puzzles_core::share`).

use gpu_puzzles_core::share;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The share link of `code` for puzzle `slug`, absolute, on this page's
/// origin and path.
///
/// # Errors
/// The browser cannot compress (no `CompressionStream("deflate-raw")`:
/// Chrome and Edge have it from 103, Safari from 16.4, Firefox from 113).
pub async fn link(slug: &str, code: &str) -> Result<String, LinkError> {
    let deflated = deflate_raw(code.as_bytes()).await?;
    let (origin, path) = web_sys::window()
        .map(|w| {
            (w.location().origin().unwrap_or_default(), w.location().pathname().unwrap_or_default())
        })
        .unwrap_or_default();
    Ok(format!("{origin}{path}?puzzle={slug}#code={}", share::payload(&deflated)))
}

/// Why no share link could be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// No `CompressionStream` in this browser.
    #[error("this browser cannot compress a share link (it has no CompressionStream; Chrome 103, Safari 16.4 and Firefox 113 have it)")]
    NoCompression,
    /// The browser failed while compressing: its reason.
    #[error("the browser could not compress the code ({0})")]
    Compression(String),
}

#[wasm_bindgen]
extern "C" {
    /// The Compression Standard's `CompressionStream` (WHATWG), declared
    /// here because web-sys has it only behind its unstable APIs. Its
    /// `readable` and `writable` make it a `ReadableWritablePair`.
    #[wasm_bindgen(js_name = CompressionStream)]
    type Compressor;
    #[wasm_bindgen(constructor, js_class = "CompressionStream", catch)]
    fn new(format: &str) -> Result<Compressor, JsValue>;
}

/// `bytes` compressed with raw DEFLATE (RFC 1951) by the browser.
async fn deflate_raw(bytes: &[u8]) -> Result<Vec<u8>, LinkError> {
    let fail =
        |e: JsValue| LinkError::Compression(e.as_string().unwrap_or_else(|| format!("{e:?}")));
    let compressor = Compressor::new("deflate-raw").map_err(|_| LinkError::NoCompression)?;
    let mut input = bytes.to_vec();
    let body = web_sys::Response::new_with_opt_u8_array(Some(&mut input))
        .map_err(fail)?
        .body()
        .ok_or_else(|| fail(JsValue::from_str("no body")))?;
    let compressed = web_sys::Response::new_with_opt_readable_stream(Some(
        &body.pipe_through(compressor.unchecked_ref()),
    ))
    .map_err(fail)?;
    let buffer = JsFuture::from(compressed.array_buffer().map_err(fail)?).await.map_err(fail)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// What the current URL's fragment carries: nothing, code, or an error to
/// show.
pub fn from_url() -> Option<Result<String, share::ShareError>> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let payload = share::payload_from_fragment(&hash)?;
    Some(share::decode(payload))
}

/// Removes the fragment from the URL (without a reload or a history entry).
pub fn clear_fragment() {
    if let Some(w) = web_sys::window() {
        let url = format!(
            "{}{}",
            w.location().pathname().unwrap_or_default(),
            w.location().search().unwrap_or_default()
        );
        if let Ok(h) = w.history() {
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
        }
    }
}

/// Copies the text `link` resolves to, when the browser allows it (best
/// effort: the link is also shown for copying by hand). Called during the
/// click, with the text still to come: Safari lets a page write to the
/// clipboard only while it handles the click, so the text goes as a promise
/// in a `ClipboardItem`, which Chrome accepts too. Without `ClipboardItem`,
/// `writeText` once the text is ready.
pub fn copy_when_ready(link: &js_sys::Promise) {
    let Some(w) = web_sys::window() else { return };
    let get = |o: &JsValue, k: &str| js_sys::Reflect::get(o, &k.into()).unwrap_or_default();
    let clipboard = get(&w.navigator(), "clipboard");
    let (item, blob, write) = (get(&w, "ClipboardItem"), get(&w, "Blob"), get(&clipboard, "write"));
    if let (Some(item), Some(blob), Some(write)) = (
        item.dyn_ref::<js_sys::Function>(),
        blob.dyn_ref::<js_sys::Function>(),
        write.dyn_ref::<js_sys::Function>(),
    ) {
        let (blob, link) = (blob.clone(), link.clone());
        let as_blob = wasm_bindgen_futures::future_to_promise(async move {
            let text = JsFuture::from(link).await?;
            let options = js_sys::Object::new();
            js_sys::Reflect::set(&options, &"type".into(), &"text/plain".into())?;
            js_sys::Reflect::construct(
                &blob,
                &js_sys::Array::of2(&js_sys::Array::of1(&text), &options),
            )
        });
        let items = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&items, &"text/plain".into(), &as_blob);
        if let Ok(written) = js_sys::Reflect::construct(item, &js_sys::Array::of1(&items))
            .and_then(|item| write.call1(&clipboard, &js_sys::Array::of1(&item)))
        {
            ignore_refusal(written);
        }
        return;
    }
    let link = link.clone();
    wasm_bindgen_futures::spawn_local(async move {
        if let (Ok(text), Some(write_text)) =
            (JsFuture::from(link).await, get(&clipboard, "writeText").dyn_ref::<js_sys::Function>())
        {
            if let Ok(written) = write_text.call1(&clipboard, &text) {
                ignore_refusal(written);
            }
        }
    });
}

/// Awaits a clipboard write and drops its outcome: a refusal (no
/// permission, or the page not focused) is not an error worth a console line.
fn ignore_refusal(written: JsValue) {
    if let Ok(p) = written.dyn_into::<js_sys::Promise>() {
        wasm_bindgen_futures::spawn_local(async move {
            let _ = JsFuture::from(p).await;
        });
    }
}
