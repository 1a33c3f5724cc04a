//! Routing in the query string (`?puzzle=<slug>`, `?generate`), so that
//! deep links work on any static host and under any sub-path without
//! server rewrites.

/// What the URL asks the site to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// The puzzle list (`./`).
    List,
    /// A puzzle, by slug (`?puzzle=<slug>`); one the set lacks shows the
    /// list with a notice.
    Puzzle(String),
    /// The capstone, "Generate" (`?generate`).
    Generate,
}

impl Route {
    /// The puzzle's slug, for a puzzle's route.
    pub fn slug(&self) -> Option<&str> {
        match self {
            Route::Puzzle(s) => Some(s),
            _ => None,
        }
    }
}

/// The route in the current URL.
pub fn current() -> Route {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .map_or(Route::List, |s| route_from_search(&s))
}

/// Reads the route from a query string such as `"?puzzle=map"` or
/// `"?generate"`.
pub fn route_from_search(search: &str) -> Route {
    let pairs = || search.trim_start_matches('?').split('&');
    if let Some(slug) = slug_from_search(search) {
        return Route::Puzzle(slug);
    }
    if pairs().any(|kv| kv == "generate" || kv.starts_with("generate=")) {
        return Route::Generate;
    }
    Route::List
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

/// The relative link to a route; relative, so the site's own path is kept.
pub fn href(route: &Route) -> String {
    match route {
        Route::Puzzle(s) => format!("?puzzle={s}"),
        Route::Generate => "?generate".to_string(),
        Route::List => "./".to_string(),
    }
}

/// The relative link to a puzzle.
pub fn puzzle_href(slug: &str) -> String {
    href(&Route::Puzzle(slug.to_string()))
}

/// Pushes a history entry for `route` without reloading.
pub fn push(route: &Route) {
    if let Some(w) = web_sys::window() {
        if let Ok(h) = w.history() {
            let url = match route {
                Route::List => w.location().pathname().unwrap_or_else(|_| "./".into()),
                _ => href(route),
            };
            let _ = h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_read_from_the_query_and_written_back() {
        for route in [Route::List, Route::Puzzle("map".into()), Route::Generate] {
            let href = href(&route);
            let search = if href.starts_with('?') { href.as_str() } else { "" };
            assert_eq!(route_from_search(search), route, "{href}");
        }
        assert_eq!(route_from_search("?generate&seed=3"), Route::Generate);
        assert_eq!(route_from_search("?puzzle=map&generate"), Route::Puzzle("map".into()));
        assert_eq!(route_from_search("?generated"), Route::List);
        assert_eq!(route_from_search("?puzzle=../x"), Route::List);
    }
}
