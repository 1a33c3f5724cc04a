//! Each puzzle's page data, fetched when the puzzle is opened: the page's
//! wasm carries only the set's table of contents ([`crate::puzzle_index`]),
//! so a first visit does not download every puzzle's statement and cases,
//! and the first visit stays the same size as the set grows.
//!
//! `build.rs` bakes each puzzle with `postcard` into
//! `puzzle-data/<slug>.postcard`, and `scripts/post-build.mjs` copies the
//! folder beside the site. The page asks for `puzzle-data/<slug>.postcard`
//! with `?v=` and the data's version (16 hex digits of FNV-1a over the
//! files, compiled into the page's wasm by `build.rs`), so a host's
//! long-lived cache never serves another build's data, and the service
//! worker (`web/sw.js`) keeps the same addresses for offline use.
//!
//! A puzzle's page data differs from the loaded puzzle (the judge's,
//! [`crate::embedded::judged_puzzle`]) in four ways:
//! - `statement` and `hints` are sanitised HTML, rendered from the Markdown
//!   at build time, so the Markdown renderer is in neither wasm's page;
//! - hidden cases have no expected values (the page never shows them);
//! - no puzzle has its `solution` ([`crate::solutions`]);
//! - no puzzle has a random case generator, and no performance case its
//!   reference function: the judge's worker draws and judges those, and
//!   sends the random cases it drew.

use crate::solutions::js_text;
use gpu_puzzles_core::Puzzle;
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen_futures::JsFuture;

/// The data's version as `build.rs` computed it: 16 hex digits, which
/// `scripts/post-build.mjs` looks for in the built page's wasm to copy the
/// data of this very build beside it.
const VERSION: &str = env!("GPU_PUZZLES_DATA_VERSION");

thread_local! {
    /// Puzzles fetched so far, by slug: each is fetched once per page load.
    static KEPT: RefCell<HashMap<String, &'static Puzzle>> = RefCell::new(HashMap::new());
}

/// The puzzle `slug`'s page data, if this page has fetched it already.
pub fn kept(slug: &str) -> Option<&'static Puzzle> {
    KEPT.with_borrow(|k| k.get(slug).copied())
}

/// The puzzle `slug`'s page data: `puzzle-data/<slug>.postcard?v=VERSION`,
/// relative to the page, fetched on first use and kept for the page's life
/// (leaked: at most one copy per puzzle of the set, and the page's views
/// hold `&'static Puzzle`).
///
/// # Errors
/// The network failed (and the service worker had no copy), the site
/// answered without the file, or the file is not this build's data; in
/// words for the student, with what to try.
pub async fn fetch(slug: &str) -> Result<&'static Puzzle, String> {
    if let Some(p) = kept(slug) {
        return Ok(p);
    }
    let file = format!("puzzle-data/{slug}.postcard");
    let response =
        crate::solutions::fetch_response(&format!("./{file}?v={VERSION}"), "the puzzle").await?;
    if !response.ok() {
        return Err(format!(
            "the site answered {} {} for {file}: the site may be only partly uploaded; reload the page, and if it stays, tell the site's host",
            response.status(),
            response.status_text()
        ));
    }
    let buffer = response.array_buffer().map_err(|e| js_text(&e))?;
    let buffer = JsFuture::from(buffer).await.map_err(|e| {
        format!(
            "the puzzle could not be read ({}); check the connection and try again",
            js_text(&e)
        )
    })?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    let puzzle: Puzzle = postcard::from_bytes(&bytes).map_err(|e| {
        format!(
            "{file} is not this build's puzzle data ({e}): the host may serve files of two builds; reload the page"
        )
    })?;
    if puzzle.slug != slug {
        return Err(format!("{file} holds the puzzle `{}`: reload the page", puzzle.slug));
    }
    let puzzle: &'static Puzzle = Box::leak(Box::new(puzzle));
    KEPT.with_borrow_mut(|k| k.insert(slug.to_string(), puzzle));
    Ok(puzzle)
}
