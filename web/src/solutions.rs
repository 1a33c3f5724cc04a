//! Our reference solutions, kept beside the site as plain files
//! (`solutions/<slug>.wgsl`, one per puzzle, copied there from the set's
//! `shaders/` by `scripts/post-build.mjs`) rather than in either wasm, and
//! fetched only when needed:
//! - by the page, when a student asks to see one ([`crate::help`]);
//! - by the judge's worker, when a performance case is timed against ours
//!   ([`gpu_puzzles_runner::add_yardsticks`]) and when the capstone runs
//!   one of ours for a kernel the student has not solved.
//!
//! `index.html`'s `<meta name="gpu-puzzles-solutions" content="?v=HASH">`
//! (HASH: 16 hex digits of SHA-256 over the files) says that the build has
//! them and versions their addresses, so a host's long-lived cache never
//! serves another build's. A build without them
//! (`scripts/build-site.sh --no-solutions`) has neither the folder nor the
//! meta, and offers no solution. The page reads the meta
//! ([`in_this_build`]) and passes the query to the worker with each request
//! that may need a solution; both fetch the same addresses, which the
//! service worker (`web/sw.js`) keeps for offline use.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

thread_local! {
    /// Solutions fetched so far, by slug: each is fetched once per page or
    /// worker.
    static KEPT: RefCell<HashMap<String, Rc<str>>> = RefCell::new(HashMap::new());
}

/// The query that versions the solutions' addresses (`?v=` and 16 hex
/// digits), from the page's `index.html`; `None` in a build without
/// solutions. The page's alone: a worker has no document (it gets the query
/// from the page's requests).
pub fn in_this_build() -> Option<String> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(r#"meta[name="gpu-puzzles-solutions"]"#).ok().flatten())
        .and_then(|m| m.get_attribute("content"))
        .filter(|v| !v.is_empty())
}

/// Our solution of the puzzle `slug`: `solutions/<slug>.wgsl` with the
/// `version` query, relative to the site (the page and the worker's loader
/// both sit at its root), fetched on first use and kept.
///
/// # Errors
/// The network failed, or the site answered without the file; in words for
/// the student, with what to try.
pub async fn fetch(slug: &str, version: &str) -> Result<Rc<str>, String> {
    if let Some(kept) = KEPT.with_borrow(|k| k.get(slug).cloned()) {
        return Ok(kept);
    }
    let url = format!("./solutions/{slug}.wgsl{version}");
    let response = fetch_response(&url, "our solution").await?;
    if !response.ok() {
        return Err(format!(
            "the site answered {} {} for solutions/{slug}.wgsl: this build may not have our solution of this puzzle",
            response.status(),
            response.status_text()
        ));
    }
    let text = response.text().map_err(|e| js_text(&e))?;
    let text = JsFuture::from(text)
        .await
        .map_err(|e| format!("our solution could not be read ({})", js_text(&e)))?
        .as_string()
        .ok_or("our solution's file is not text")?;
    let text: Rc<str> = text.into();
    KEPT.with_borrow_mut(|k| k.insert(slug.to_string(), text.clone()));
    Ok(text)
}

/// Fetches `url` (relative to the site's root) from the page or from a
/// worker, whichever this is, and gives the response, whatever its status.
///
/// # Errors
/// The network failed (`{what} could not be fetched (…); check the
/// connection and try again`) or the fetch gave no response; in words for
/// the student, with `what` naming the file, e.g. `"our solution"`.
pub(crate) async fn fetch_response(url: &str, what: &str) -> Result<web_sys::Response, String> {
    let global = js_sys::global();
    let promise = match global.dyn_ref::<web_sys::Window>() {
        Some(window) => window.fetch_with_str(url),
        None => global.unchecked_ref::<web_sys::WorkerGlobalScope>().fetch_with_str(url),
    };
    JsFuture::from(promise)
        .await
        .map_err(|e| {
            format!(
                "{what} could not be fetched ({}); check the connection and try again",
                js_text(&e)
            )
        })?
        .dyn_into()
        .map_err(|_| format!("fetching {what} gave no response"))
}

/// A JavaScript error or value in words.
pub(crate) fn js_text(v: &wasm_bindgen::JsValue) -> String {
    v.as_string()
        .or_else(|| v.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())))
        .unwrap_or_else(|| format!("{v:?}"))
}
