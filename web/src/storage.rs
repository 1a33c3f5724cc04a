//! The student's code and solved marks in localStorage. Failures (storage
//! disabled, full) are reported, never fatal: the code stays in memory.

const PREFIX: &str = "gpu-puzzles:v1";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The saved code of puzzle `slug`, if any.
pub fn load_code(slug: &str) -> Option<String> {
    storage()?.get_item(&format!("{PREFIX}:code:{slug}")).ok().flatten()
}

/// Saves the code of puzzle `slug`.
///
/// # Errors
/// A message when the browser refuses (storage disabled or full).
pub fn save_code(slug: &str, code: &str) -> Result<(), String> {
    let s = storage().ok_or("this browser keeps no local storage here, so your code lives only in this tab")?;
    s.set_item(&format!("{PREFIX}:code:{slug}"), code)
        .map_err(|_| "the browser's storage is full: your code is kept in this tab but not saved".to_string())
}

/// Whether puzzle `slug` was solved in this browser.
pub fn is_solved(slug: &str) -> bool {
    storage().and_then(|s| s.get_item(&format!("{PREFIX}:solved:{slug}")).ok().flatten()).is_some()
}

/// Marks puzzle `slug` as solved.
pub fn mark_solved(slug: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(&format!("{PREFIX}:solved:{slug}"), "1");
    }
}
