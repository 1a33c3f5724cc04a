//! Reading a puzzle set from disk, and the files a set may hold.

use super::{problem, Files, Problem, PUZZLE_FILES, TOP_LEVEL_FILES};
#[cfg(not(target_arch = "wasm32"))]
use std::collections::BTreeMap;
use std::collections::BTreeSet;

/// Reads a puzzles folder from disk into [`Files`]: the top-level files and
/// each folder's files (one level deep; deeper entries are reported as stray
/// by the loader through their folder path).
///
/// # Errors
/// I/O errors, and files that are not UTF-8, with their path.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_dir(root: &std::path::Path) -> Result<Files, String> {
    let mut files = Files::new();
    let entries = |dir: &std::path::Path| -> Result<Vec<std::fs::DirEntry>, String> {
        let mut v: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| format!("cannot read folder {}: {e}", dir.display()))?
            .collect::<Result<_, _>>()
            .map_err(|e| format!("cannot read folder {}: {e}", dir.display()))?;
        v.sort_by_key(|e| e.file_name());
        Ok(v)
    };
    let read = |path: &std::path::Path| -> Result<String, String> {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {} as UTF-8 text: {e}", path.display()))
    };
    for entry in entries(root)? {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            for inner in entries(&path)? {
                let inner_name = inner.file_name().to_string_lossy().into_owned();
                let key = format!("{name}/{inner_name}");
                if inner.path().is_dir() {
                    files.insert(key + "/", String::new());
                } else {
                    files.insert(key, read(&inner.path())?);
                }
            }
        } else {
            files.insert(name, read(&path)?);
        }
    }
    Ok(files)
}

/// Reads every `*.wgsl` in a solutions folder (`shaders/`), keyed by slug.
///
/// # Errors
/// I/O errors with the path.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_solutions(dir: &std::path::Path) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    let rd = std::fs::read_dir(dir).map_err(|e| format!("cannot read folder {}: {e}", dir.display()))?;
    for entry in rd {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().and_then(|e| e.to_str()) == Some("wgsl") {
            let slug = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
            let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            out.insert(slug, text);
        }
    }
    Ok(out)
}

pub(super) fn is_valid_slug(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') && !s.starts_with('-') && !s.ends_with('-')
}

pub(super) fn stray_files(files: &Files, listed: &BTreeSet<&str>) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut unlisted = BTreeSet::new();
    for path in files.keys() {
        match path.split_once('/') {
            None if TOP_LEVEL_FILES.contains(&path.as_str()) => {}
            None => out.push(problem(path, None, None, "stray file: the top of puzzles/ holds only index.toml, FORMAT.md and puzzle folders")),
            Some((dir, _)) if !listed.contains(dir) => {
                unlisted.insert(dir);
            }
            Some((_, name)) if !PUZZLE_FILES.contains(&name) && !is_comparison_file(name) => out.push(problem(
                path,
                None,
                None,
                "stray file: a puzzle folder holds only puzzle.toml, statement.md, starter.wgsl and compare-*.wgsl kernels (solutions go in shaders/)",
            )),
            Some(_) => {}
        }
    }
    for dir in unlisted {
        out.push(problem(&format!("{dir}/"), None, None, "a puzzle folder that index.toml does not list: add it to `order` or remove it"));
    }
    out
}

/// Comparison kernels are named `compare-<name>.wgsl`.
pub(super) fn is_comparison_file(name: &str) -> bool {
    name.strip_prefix("compare-").and_then(|n| n.strip_suffix(".wgsl")).is_some_and(|n| !n.is_empty() && !n.contains('/'))
}
