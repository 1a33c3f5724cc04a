//! The site's service worker (`web/sw.js`, with the build's file list
//! written in by `scripts/post-build.mjs`): registered once per page load,
//! after the editor is ready, so that after one visit the site opens and
//! judges offline. Where the browser has no service workers (an insecure
//! context, a private window) or refuses the registration, the site works
//! as before, online; nothing is shown.

use wasm_bindgen::JsCast;

/// The service worker's address, next to `index.html`; its scope is the
/// folder the site is served from, so sub-path hosting keeps working.
const SERVICE_WORKER_URL: &str = "./sw.js";

/// Registers the service worker, once per page load; failures are ignored
/// (the browser keeps no offline copy, and says why in its console).
pub(crate) fn register() {
    thread_local!(static DONE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });
    if DONE.replace(true) {
        return;
    }
    let Some(window) = web_sys::window() else { return };
    let container = match js_sys::Reflect::get(&window.navigator(), &"serviceWorker".into()) {
        Ok(c) if !c.is_undefined() && !c.is_null() => c,
        _ => return,
    };
    let Ok(register) = js_sys::Reflect::get(&container, &"register".into())
        .and_then(|f| f.dyn_into::<js_sys::Function>())
    else {
        return;
    };
    if let Ok(promise) = register
        .call1(&container, &SERVICE_WORKER_URL.into())
        .and_then(|p| p.dyn_into::<js_sys::Promise>())
    {
        leptos::task::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        });
    }
}
