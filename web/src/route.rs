//! Routing in the query string (`?puzzle=<slug>`), so that deep links work
//! on any static host and under any sub-path without server rewrites.

/// The puzzle slug in the current URL, if any.
pub fn current_slug() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    slug_from_search(&search)
}

/// Reads `puzzle=<slug>` from a query string such as `"?puzzle=map"`.
pub fn slug_from_search(search: &str) -> Option<String> {
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == "puzzle")
        .map(|(_, v)| v.to_string())
        .filter(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
}

/// `seed=<n>` in the current URL: the seed of the random cases, so that a
/// failing random case can be drawn again (`?puzzle=map&seed=123`).
pub fn current_seed() -> Option<u64> {
    let search = web_sys::window()?.location().search().ok()?;
    seed_from_search(&search)
}

/// Reads `seed=<n>` from a query string.
pub fn seed_from_search(search: &str) -> Option<u64> {
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == "seed")
        .and_then(|(_, v)| v.parse().ok())
}

/// The relative link to a puzzle (or to the list with `None`); relative, so
/// the site's own path is kept.
pub fn href(slug: Option<&str>) -> String {
    match slug {
        Some(s) => format!("?puzzle={s}"),
        None => "./".to_string(),
    }
}

/// Pushes a history entry for `slug` without reloading.
pub fn push(slug: Option<&str>) {
    if let Some(w) = web_sys::window() {
        if let Ok(h) = w.history() {
            let url = match slug {
                Some(_) => href(slug),
                None => w.location().pathname().unwrap_or_else(|_| "./".into()),
            };
            let _ = h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
        }
    }
}
