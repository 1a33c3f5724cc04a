//! What the loader's tests share: the shipped set, edited, and its problems.

use gpu_puzzles_core::load::{load_puzzle_set, read_dir, Files};
use std::path::Path;

/// The shipped puzzle set's files.
pub fn shipped() -> Files {
    read_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles"))
        .expect("puzzles/ is readable")
}

/// The problems of the shipped set with `edit` applied, as text.
pub fn problems_after(edit: impl FnOnce(&mut Files)) -> String {
    let mut files = shipped();
    edit(&mut files);
    match load_puzzle_set(&files, None) {
        Ok(_) => String::new(),
        Err(problems) => problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"),
    }
}

/// Replaces the first `from` in `file` with `to`; `from` must be there.
pub fn replace(files: &mut Files, file: &str, from: &str, to: &str) {
    let text = files.get_mut(file).unwrap_or_else(|| panic!("{file} is shipped"));
    assert!(text.contains(from), "{file} contains {from:?}");
    *text = text.replacen(from, to, 1);
}
