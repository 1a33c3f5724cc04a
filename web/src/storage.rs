//! The student's code (with when it was saved), solved marks (with the code
//! that solved each, for the capstone) and settings in localStorage, and all
//! of it at once for an export ([`progress`], [`write_progress`]).
//!
//! Every code entry starts with a version tag, so an entry written by another
//! version of the site (or by anything else) is recognised and skipped with a
//! notice, never misread. Failures (storage disabled, full) are reported, never
//! fatal: the code stays in memory.

const PREFIX: &str = "gpu-puzzles:v1";
/// First line of every saved code entry.
const TAG: &str = "gpu-puzzles-code/1\n";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// What localStorage holds for a puzzle's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Saved {
    /// Nothing saved.
    Nothing,
    /// The saved code.
    Code(String),
    /// An entry this version cannot read (left untouched).
    Unreadable,
}

/// The saved code of puzzle `slug`.
pub fn load_code(slug: &str) -> Saved {
    match get(&format!("code:{slug}")) {
        None => Saved::Nothing,
        Some(v) => match v.strip_prefix(TAG) {
            Some(code) => Saved::Code(code.to_string()),
            None => Saved::Unreadable,
        },
    }
}

/// Why code could not be saved; its words say where the code still is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SaveError {
    /// No `localStorage` here (disabled, or a sandboxed frame).
    #[error("this browser keeps no local storage here, so your code lives only in this tab")]
    NoStorage,
    /// The browser refused the write (its quota is full).
    #[error("the browser's storage is full: your code is kept in this tab but not saved")]
    Full,
}

/// Saves the code of puzzle `slug`.
///
/// # Errors
/// [`SaveError`] when the browser refuses (storage disabled or full).
pub fn save_code(slug: &str, code: &str) -> Result<(), SaveError> {
    let s = storage().ok_or(SaveError::NoStorage)?;
    s.set_item(&format!("{PREFIX}:code:{slug}"), &format!("{TAG}{code}"))
        .map_err(|_| SaveError::Full)?;
    // When, for merging an export into another browser (`progress::merge`).
    // Whole milliseconds, written and read as integers: the page carries no
    // float formatting or parsing code.
    set(&format!("saved:{slug}"), &(js_sys::Date::now() as u64).to_string());
    Ok(())
}

/// Everything the site keeps in this browser, for an export: every puzzle
/// with saved code, a solved mark or the code that solved it (whether or
/// not this site's set lists it), and the settings. Entries this version
/// cannot read are left out.
pub fn progress() -> crate::progress::Progress {
    let mut p = crate::progress::Progress::default();
    let Some(s) = storage() else { return p };
    let keys: Vec<String> =
        (0..s.length().unwrap_or(0)).filter_map(|i| s.key(i).ok().flatten()).collect();
    for key in keys {
        let Some(rest) = key.strip_prefix(&format!("{PREFIX}:")) else { continue };
        let Some((kind, slug)) = rest.split_once(':') else { continue };
        if !crate::progress::is_slug(slug) {
            continue;
        }
        let value = get(rest);
        let e = p.puzzles.entry(slug.to_string()).or_default();
        match kind {
            "code" => {
                e.code = value.as_deref().and_then(|v| v.strip_prefix(TAG)).map(str::to_string)
            }
            "saved" => e.saved_at = value.and_then(|v| v.parse::<u64>().ok()).map(|t| t as f64),
            "solved" => e.solved = value.as_deref() == Some("1"),
            "passed" => {
                e.passed = value.as_deref().and_then(|v| v.strip_prefix(TAG)).map(str::to_string)
            }
            _ => {}
        }
    }
    // A time with no code left says nothing.
    p.puzzles.retain(|_, e| e.code.is_some() || e.solved || e.passed.is_some());
    for name in crate::progress::SETTINGS {
        if let Some(v) = get(name) {
            p.settings.insert(name.to_string(), v);
        }
    }
    p
}

/// Writes what `merged` holds and `before` does not (a merged import).
///
/// # Errors
/// [`SaveError`] when the browser refuses a write; the entries written
/// before it stay.
pub fn write_progress(
    before: &crate::progress::Progress,
    merged: &crate::progress::Progress,
) -> Result<(), SaveError> {
    let s = storage().ok_or(SaveError::NoStorage)?;
    let put = |key: String, value: String| {
        s.set_item(&format!("{PREFIX}:{key}"), &value).map_err(|_| SaveError::Full)
    };
    for (slug, e) in &merged.puzzles {
        let old = before.puzzles.get(slug).cloned().unwrap_or_default();
        if e.code != old.code {
            if let Some(code) = &e.code {
                put(format!("code:{slug}"), format!("{TAG}{code}"))?;
            }
        }
        if e.saved_at != old.saved_at {
            if let Some(t) = e.saved_at {
                put(format!("saved:{slug}"), (t as u64).to_string())?;
            }
        }
        if e.solved && !old.solved {
            put(format!("solved:{slug}"), "1".into())?;
        }
        if e.passed != old.passed {
            if let Some(code) = &e.passed {
                put(format!("passed:{slug}"), format!("{TAG}{code}"))?;
            }
        }
    }
    for (name, value) in &merged.settings {
        if before.settings.get(name) != Some(value) {
            put(name.clone(), value.clone())?;
        }
    }
    Ok(())
}

/// The value stored under `gpu-puzzles:v1:<key>`, if any.
fn get(key: &str) -> Option<String> {
    storage()?.get_item(&format!("{PREFIX}:{key}")).ok().flatten()
}

/// Stores `value` under `gpu-puzzles:v1:<key>`, best effort (a flag lost to
/// a full storage only costs a setting).
fn set(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(&format!("{PREFIX}:{key}"), value);
    }
}

/// Whether puzzle `slug` was solved in this browser.
pub fn is_solved(slug: &str) -> bool {
    get(&format!("solved:{slug}")).as_deref() == Some("1")
}

/// Marks puzzle `slug` as solved.
pub fn mark_solved(slug: &str) {
    set(&format!("solved:{slug}"), "1");
}

/// Keeps `code` as the code that solved puzzle `slug` (the capstone runs
/// it, whatever the editor holds since), best effort: without it the
/// capstone takes the saved code.
pub fn save_passed_code(slug: &str, code: &str) {
    set(&format!("passed:{slug}"), &format!("{TAG}{code}"));
}

/// The code of a solved puzzle `slug` for the capstone: the code that
/// passed, else (solved before the site kept it) the saved code; `None`
/// when the puzzle is not solved in this browser or no code can be read.
pub fn solved_code(slug: &str) -> Option<String> {
    if !is_solved(slug) {
        return None;
    }
    let passed =
        get(&format!("passed:{slug}")).and_then(|v| v.strip_prefix(TAG).map(str::to_string));
    passed.or(match load_code(slug) {
        Saved::Code(c) => Some(c),
        Saved::Nothing | Saved::Unreadable => None,
    })
}

/// Whether the student turned Vim key bindings on.
pub fn vim() -> bool {
    get("vim").as_deref() == Some("1")
}

/// Remembers the Vim setting.
pub fn set_vim(on: bool) {
    set("vim", if on { "1" } else { "0" });
}

/// Whether heat maps are shown under each case; on unless the student
/// turned them off (the memory checks run either way).
pub fn heatmaps() -> bool {
    get("heatmaps").as_deref() != Some("0")
}

/// The theme the student chose ([`crate::theme::Theme::System`] unless
/// one was chosen).
pub fn theme() -> crate::theme::Theme {
    get("theme").as_deref().and_then(crate::theme::Theme::parse).unwrap_or_default()
}

/// Remembers the theme.
pub fn set_theme(theme: crate::theme::Theme) {
    set("theme", theme.name());
}

/// Remembers the heat-map setting.
pub fn set_heatmaps(on: bool) {
    set("heatmaps", if on { "1" } else { "0" });
}
