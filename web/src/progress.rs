//! Progress that moves with the student: everything the site keeps in this
//! browser (each puzzle's saved code and when it was saved, solved marks
//! with the code that solved each, settings) as one JSON file, and such a
//! file merged back in on another machine.
//!
//! The file (`FORMAT`, version [`VERSION`]):
//!
//! ```json
//! { "format": "gpu-puzzles-progress", "version": 1, "exported": "2026-12-07T10:00:00.000Z",
//!   "puzzles": { "map": { "code": "…", "savedAt": 1796637600000, "solved": true, "passed": "…" } },
//!   "settings": { "vim": "0", "heatmaps": "1" } }
//! ```
//!
//! `savedAt` is milliseconds since 1970 (`Date.now()`), absent for code
//! saved before the site kept it. Merging ([`merge`]) never loses work:
//! solved marks add up, code is taken where this browser has none, the
//! newer of two saves wins, and where either time is unknown the student is
//! asked. A file that is not one, or of a later version, changes nothing.

use std::collections::BTreeMap;

/// The `format` field every export carries.
pub const FORMAT: &str = "gpu-puzzles-progress";
/// The version this site writes and the newest it reads; a later site reads
/// this one's files.
pub const VERSION: u32 = 1;

/// What the site keeps of one puzzle.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PuzzleProgress {
    /// The editor's saved code.
    pub code: Option<String>,
    /// When it was saved, milliseconds since 1970; `None` when unknown.
    pub saved_at: Option<f64>,
    /// Solved in this browser.
    pub solved: bool,
    /// The code that solved it (the capstone runs it).
    pub passed: Option<String>,
}

/// Everything the site keeps: puzzles by slug, settings by name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Progress {
    /// Each puzzle with anything kept, by slug.
    pub puzzles: BTreeMap<String, PuzzleProgress>,
    /// Settings by name (`vim`, `heatmaps`), as stored.
    pub settings: BTreeMap<String, String>,
}

/// What a merge did, by slug, for the words shown after an import.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MergeReport {
    /// Puzzles whose code came from the file.
    pub code_taken: Vec<String>,
    /// Puzzles whose code here was newer than the file's, and was kept.
    pub kept_newer: Vec<String>,
    /// Puzzles whose code differs where either save's time is unknown:
    /// replaced only when the student said so.
    pub conflicts: Vec<String>,
    /// Puzzles solved in the file and not here.
    pub newly_solved: Vec<String>,
}

/// `file` merged into `local`: the progress this browser should hold, and
/// what changed. Solved marks add up (a solved puzzle stays solved); code
/// is taken where `local` has none, the newer save wins where both times
/// are known, and where either is unknown the file's code replaces this
/// browser's only when `replace_conflicts` (the student was asked). The code
/// that solved a puzzle is taken where this browser has none. Settings are
/// taken only where this browser has not set them.
pub fn merge(
    local: &Progress,
    file: &Progress,
    replace_conflicts: bool,
) -> (Progress, MergeReport) {
    let mut out = local.clone();
    let mut report = MergeReport::default();
    for (slug, theirs) in &file.puzzles {
        let ours = out.puzzles.entry(slug.clone()).or_default();
        if let Some(code) = &theirs.code {
            let take = match (&ours.code, ours.saved_at, theirs.saved_at) {
                (None, _, _) => true,
                (Some(mine), _, _) if mine == code => false,
                (Some(_), Some(mine), Some(their)) if their > mine => true,
                (Some(_), Some(_), Some(_)) => {
                    report.kept_newer.push(slug.clone());
                    false
                }
                (Some(_), _, _) => {
                    report.conflicts.push(slug.clone());
                    replace_conflicts
                }
            };
            if take {
                ours.code = Some(code.clone());
                ours.saved_at = theirs.saved_at;
                report.code_taken.push(slug.clone());
            }
        }
        if theirs.solved && !ours.solved {
            ours.solved = true;
            report.newly_solved.push(slug.clone());
        }
        if ours.passed.is_none() {
            ours.passed = theirs.passed.clone();
        }
    }
    for (name, value) in &file.settings {
        out.settings.entry(name.clone()).or_insert_with(|| value.clone());
    }
    (out, report)
}

/// Whether `slug` can name a puzzle (lowercase letters, digits and `-`, as
/// the loader requires of a folder): a file's other keys are refused.
pub fn is_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug.len() <= 64
        && slug.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The settings a file may carry.
pub const SETTINGS: [&str; 3] = ["vim", "heatmaps", "theme"];

/// True when `value` is one that setting `name` takes (a file's other
/// values are left out).
pub fn setting_value_ok(name: &str, value: &str) -> bool {
    match name {
        "theme" => crate::theme::Theme::parse(value).is_some(),
        _ => value == "0" || value == "1",
    }
}

/// The progress as an export's JSON text, with the time of export.
pub fn to_json(p: &Progress) -> String {
    use js_sys::{Object, Reflect};
    use wasm_bindgen::JsValue;
    let set = |o: &Object, k: &str, v: JsValue| {
        let _ = Reflect::set(o, &JsValue::from_str(k), &v);
    };
    let root = Object::new();
    set(&root, "format", FORMAT.into());
    set(&root, "version", VERSION.into());
    set(&root, "exported", js_sys::Date::new_0().to_iso_string().into());
    let puzzles = Object::new();
    for (slug, e) in &p.puzzles {
        let o = Object::new();
        if let Some(code) = &e.code {
            set(&o, "code", code.as_str().into());
        }
        if let Some(t) = e.saved_at {
            set(&o, "savedAt", t.into());
        }
        set(&o, "solved", e.solved.into());
        if let Some(code) = &e.passed {
            set(&o, "passed", code.as_str().into());
        }
        set(&puzzles, slug, o.into());
    }
    set(&root, "puzzles", puzzles.into());
    let settings = Object::new();
    for (k, v) in &p.settings {
        set(&settings, k, v.as_str().into());
    }
    set(&root, "settings", settings.into());
    js_sys::JSON::stringify_with_replacer_and_space(&root, &JsValue::NULL, &JsValue::from(2))
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_default()
}

/// An export's JSON text read back.
///
/// # Errors
/// What makes the text not a progress file this site reads, in words for
/// the student: not JSON, another format, a later version, or a field of
/// the wrong type (naming it).
pub fn from_json(text: &str) -> Result<Progress, String> {
    use js_sys::{Object, Reflect};
    use wasm_bindgen::{JsCast, JsValue};
    let not_ours = "it is not a progress file exported by GPU Puzzles";
    let root = js_sys::JSON::parse(text).map_err(|_| format!("{not_ours}: it is not JSON"))?;
    let get =
        |o: &JsValue, k: &str| Reflect::get(o, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED);
    let object = |v: &JsValue| v.is_object() && !js_sys::Array::is_array(v);
    if !object(&root) || get(&root, "format").as_string().as_deref() != Some(FORMAT) {
        return Err(format!("{not_ours} (its `format` is not \"{FORMAT}\")"));
    }
    match get(&root, "version").as_f64() {
        Some(v) if v == f64::from(VERSION) => {}
        Some(v) if v > f64::from(VERSION) => {
            return Err(format!(
                "it was exported by a newer version of the site (version {}); this one reads version {VERSION}: open the site where it was made, or update this one", v as u64
            ))
        }
        _ => return Err(format!("{not_ours} (its `version` is not a number this site knows)")),
    }
    let mut p = Progress::default();
    let puzzles = get(&root, "puzzles");
    if !object(&puzzles) {
        return Err(format!("{not_ours} (`puzzles` is not an object)"));
    }
    let puzzles: &Object = puzzles.unchecked_ref();
    for key in Object::keys(puzzles).iter() {
        let slug = key.as_string().unwrap_or_default();
        if !is_slug(&slug) {
            return Err(format!("{not_ours} (`{slug}` is not the name of a puzzle)"));
        }
        let e = get(puzzles, &slug);
        if !object(&e) {
            return Err(format!("{not_ours} (`puzzles.{slug}` is not an object)"));
        }
        let text = |k: &str| -> Result<Option<String>, String> {
            let v = get(&e, k);
            if v.is_undefined() || v.is_null() {
                return Ok(None);
            }
            v.as_string()
                .map(Some)
                .ok_or_else(|| format!("{not_ours} (`puzzles.{slug}.{k}` is not text)"))
        };
        let saved_at =
            match get(&e, "savedAt") {
                v if v.is_undefined() || v.is_null() => None,
                v => Some(v.as_f64().filter(|t| t.is_finite() && *t >= 0.0).ok_or_else(|| {
                    format!("{not_ours} (`puzzles.{slug}.savedAt` is not a time)")
                })?),
            };
        let solved = match get(&e, "solved") {
            v if v.is_undefined() => false,
            v => v.as_bool().ok_or_else(|| {
                format!("{not_ours} (`puzzles.{slug}.solved` is not true or false)")
            })?,
        };
        p.puzzles.insert(
            slug.clone(),
            PuzzleProgress { code: text("code")?, saved_at, solved, passed: text("passed")? },
        );
    }
    let settings = get(&root, "settings");
    if object(&settings) {
        for name in SETTINGS {
            if let Some(v) = get(&settings, name).as_string().filter(|v| setting_value_ok(name, v))
            {
                p.settings.insert(name.to_string(), v);
            }
        }
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str, at: Option<f64>) -> PuzzleProgress {
        PuzzleProgress { code: Some(text.into()), saved_at: at, ..Default::default() }
    }

    fn progress(entries: &[(&str, PuzzleProgress)]) -> Progress {
        Progress {
            puzzles: entries.iter().map(|(s, e)| (s.to_string(), e.clone())).collect(),
            settings: BTreeMap::new(),
        }
    }

    #[test]
    fn code_is_taken_where_there_is_none_and_the_newer_save_wins() {
        let local =
            progress(&[("zip", code("mine", Some(200.0))), ("map", code("old", Some(100.0)))]);
        let file = progress(&[
            ("map", code("newer", Some(150.0))),
            ("zip", code("older", Some(50.0))),
            ("guards", code("new here", Some(10.0))),
        ]);
        let (out, report) = merge(&local, &file, false);
        assert_eq!(out.puzzles["map"].code.as_deref(), Some("newer"));
        assert_eq!(out.puzzles["map"].saved_at, Some(150.0));
        assert_eq!(
            out.puzzles["zip"].code.as_deref(),
            Some("mine"),
            "newer code here is never replaced"
        );
        assert_eq!(out.puzzles["guards"].code.as_deref(), Some("new here"));
        assert_eq!(report.code_taken, ["guards", "map"]);
        assert_eq!(report.kept_newer, ["zip"]);
        assert!(report.conflicts.is_empty());
    }

    #[test]
    fn code_of_unknown_age_is_replaced_only_when_the_student_says_so() {
        let local = progress(&[("map", code("mine", None))]);
        let file = progress(&[("map", code("theirs", Some(100.0)))]);
        let (kept, report) = merge(&local, &file, false);
        assert_eq!(kept.puzzles["map"].code.as_deref(), Some("mine"));
        assert_eq!(report.conflicts, ["map"]);
        assert!(report.code_taken.is_empty());
        let (replaced, report) = merge(&local, &file, true);
        assert_eq!(replaced.puzzles["map"].code.as_deref(), Some("theirs"));
        assert_eq!(report.code_taken, ["map"]);
        // The same code is no conflict.
        let (_, report) = merge(&local, &progress(&[("map", code("mine", None))]), false);
        assert_eq!(report, MergeReport::default());
    }

    #[test]
    fn solved_marks_add_up_and_settings_here_stay() {
        let mut local = progress(&[("map", PuzzleProgress { solved: true, ..Default::default() })]);
        local.settings.insert("vim".into(), "1".into());
        let mut file = progress(&[
            ("map", PuzzleProgress { solved: false, ..Default::default() }),
            (
                "zip",
                PuzzleProgress {
                    solved: true,
                    passed: Some("passing".into()),
                    ..Default::default()
                },
            ),
        ]);
        file.settings.insert("vim".into(), "0".into());
        file.settings.insert("heatmaps".into(), "0".into());
        let (out, report) = merge(&local, &file, true);
        assert!(out.puzzles["map"].solved, "a solved mark is never taken away");
        assert!(out.puzzles["zip"].solved);
        assert_eq!(out.puzzles["zip"].passed.as_deref(), Some("passing"));
        assert_eq!(report.newly_solved, ["zip"]);
        assert_eq!(out.settings["vim"], "1");
        assert_eq!(out.settings["heatmaps"], "0");
    }

    #[test]
    fn only_folder_names_are_slugs() {
        assert!(is_slug("map-2d"));
        for bad in ["", "Map", "../x", "a b", "x".repeat(65).as_str()] {
            assert!(!is_slug(bad), "{bad}");
        }
    }
}
