//! Share links (`?puzzle=<slug>#code=<payload>`, see `gpu_puzzles_core::share`).

use gpu_puzzles_core::share;

/// The share link of `code` for puzzle `slug`, absolute, on this page's
/// origin and path.
pub fn link(slug: &str, code: &str) -> String {
    let (origin, path) =
        web_sys::window().map(|w| (w.location().origin().unwrap_or_default(), w.location().pathname().unwrap_or_default())).unwrap_or_default();
    format!("{origin}{path}?puzzle={slug}#code={}", share::encode(code))
}

/// What the current URL's fragment carries: nothing, code, or an error to
/// show.
pub fn from_url() -> Option<Result<String, String>> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let payload = share::payload_from_fragment(&hash)?;
    Some(share::decode(payload).map_err(|e| e.to_string()))
}

/// Removes the fragment from the URL (without a reload or a history entry).
pub fn clear_fragment() {
    if let Some(w) = web_sys::window() {
        let url = format!("{}{}", w.location().pathname().unwrap_or_default(), w.location().search().unwrap_or_default());
        if let Ok(h) = w.history() {
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
        }
    }
}

/// Copies `text` to the clipboard when the browser allows it (best effort;
/// the link is also shown for copying by hand).
pub fn copy(text: &str) {
    let Some(w) = web_sys::window() else { return };
    let clipboard = js_sys::Reflect::get(&w.navigator(), &"clipboard".into()).unwrap_or_default();
    if let Ok(write) = js_sys::Reflect::get(&clipboard, &"writeText".into()) {
        if let Some(f) = wasm_bindgen::JsCast::dyn_ref::<js_sys::Function>(&write) {
            let _ = f.call1(&clipboard, &text.into());
        }
    }
}
