//! Reading a puzzle set from disk, and the files a set may hold.

use super::photo::{IMAGES_DIR, IMAGES_TEXT_FILES};
use super::{problem, Files, Problem, PUZZLE_FILES, TOP_LEVEL_FILES};
#[cfg(not(target_arch = "wasm32"))]
use std::collections::BTreeMap;
use std::collections::BTreeSet;

/// A file or folder of a puzzle set that could not be read from disk.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug)]
pub struct ReadError {
    /// The file or folder.
    pub path: std::path::PathBuf,
    /// Whether it is a folder that could not be listed (else a file that
    /// could not be read as UTF-8 text).
    pub folder: bool,
    /// The operating system's error (or invalid UTF-8).
    pub source: std::io::Error,
}

#[cfg(not(target_arch = "wasm32"))]
impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.folder {
            write!(f, "cannot read folder {}: {}", self.path.display(), self.source)
        } else {
            write!(f, "cannot read {} as UTF-8 text: {}", self.path.display(), self.source)
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// The files of a folder, sorted by name.
#[cfg(not(target_arch = "wasm32"))]
fn entries(dir: &std::path::Path) -> Result<Vec<std::fs::DirEntry>, ReadError> {
    let error = |source| ReadError { path: dir.to_path_buf(), folder: true, source };
    let mut v: Vec<_> =
        std::fs::read_dir(dir).map_err(error)?.collect::<Result<_, _>>().map_err(error)?;
    v.sort_by_key(|e| e.file_name());
    Ok(v)
}

/// A file's text.
#[cfg(not(target_arch = "wasm32"))]
fn read(path: &std::path::Path) -> Result<String, ReadError> {
    std::fs::read_to_string(path).map_err(|source| ReadError {
        path: path.to_path_buf(),
        folder: false,
        source,
    })
}

/// A binary file's bytes, base64-encoded ([`Files`] holds text).
#[cfg(not(target_arch = "wasm32"))]
fn read_base64(path: &std::path::Path) -> Result<String, ReadError> {
    use base64::Engine as _;
    std::fs::read(path)
        .map(|bytes| base64::engine::general_purpose::STANDARD.encode(bytes))
        .map_err(|source| ReadError { path: path.to_path_buf(), folder: false, source })
}

/// Reads a puzzles folder from disk into [`Files`]: the top-level files and
/// each folder's files (one level deep; deeper entries are reported as stray
/// by the loader through their folder path). The photographs of
/// `images/*.png` are held base64-encoded.
///
/// # Errors
/// [`ReadError`]: a folder that cannot be listed or a file that cannot be
/// read as UTF-8 text, with its path.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_dir(root: &std::path::Path) -> Result<Files, ReadError> {
    let mut files = Files::new();
    for entry in entries(root)? {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            for inner in entries(&path)? {
                let inner_name = inner.file_name().to_string_lossy().into_owned();
                let key = format!("{name}/{inner_name}");
                if inner.path().is_dir() {
                    files.insert(key + "/", String::new());
                } else if name == IMAGES_DIR && inner_name.ends_with(".png") {
                    files.insert(key, read_base64(&inner.path())?);
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
/// [`ReadError`] with the path, as [`read_dir`].
#[cfg(not(target_arch = "wasm32"))]
pub fn read_solutions(dir: &std::path::Path) -> Result<BTreeMap<String, String>, ReadError> {
    let mut out = BTreeMap::new();
    for entry in entries(dir)? {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) == Some("wgsl") {
            let slug = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
            out.insert(slug, read(&path)?);
        }
    }
    Ok(out)
}

pub(super) fn is_valid_slug(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

pub(super) fn stray_files(files: &Files, listed: &BTreeSet<&str>) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut unlisted = BTreeSet::new();
    for path in files.keys() {
        match path.split_once('/') {
            None if TOP_LEVEL_FILES.contains(&path.as_str()) => {}
            None => out.push(problem(path, None, None, "stray file: the top of puzzles/ holds only index.toml, FORMAT.md, images/ and puzzle folders")),
            Some((IMAGES_DIR, name)) => {
                let photograph = name.ends_with(".png") && !name.contains('/');
                if !photograph && !IMAGES_TEXT_FILES.contains(&name) {
                    out.push(problem(path, None, None, "stray file: puzzles/images/ holds only photographs (`*.png`) and LICENSES.md"));
                }
            }
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
        out.push(problem(
            &format!("{dir}/"),
            None,
            None,
            "a puzzle folder that index.toml does not list: add it to a chapter's `puzzles` (or to `order`) or remove it",
        ));
    }
    out
}

/// Comparison kernels are named `compare-<name>.wgsl`.
pub(super) fn is_comparison_file(name: &str) -> bool {
    name.strip_prefix("compare-")
        .and_then(|n| n.strip_suffix(".wgsl"))
        .is_some_and(|n| !n.is_empty() && !n.contains('/'))
}
