//! The puzzle set compiled into the site by `build.rs` (validated there).

use gpu_puzzles_core::{load_puzzle_set, Files, PuzzleSet};
use std::collections::BTreeMap;
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/puzzle_files.rs"));

/// The puzzle set, parsed once on first use.
pub fn puzzle_set() -> &'static PuzzleSet {
    static SET: OnceLock<PuzzleSet> = OnceLock::new();
    SET.get_or_init(|| {
        let files: Files = PUZZLE_FILES.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let solutions: BTreeMap<String, String> = SOLUTIONS.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let solutions = (!SOLUTIONS.is_empty()).then_some(&solutions);
        // build.rs refused a set with problems, so this cannot fail at run time.
        load_puzzle_set(&files, solutions).expect("the embedded puzzle set was validated at build time")
    })
}

/// The puzzle's statement as sanitised HTML, rendered from its Markdown at
/// build time; empty for a slug not in the set.
pub fn statement_html(slug: &str) -> &'static str {
    RENDERED.iter().find(|r| r.0 == slug).map_or("", |r| r.1)
}

/// The puzzle's hints as sanitised HTML, in the order they are revealed.
pub fn hints_html(slug: &str) -> &'static [&'static str] {
    RENDERED.iter().find(|r| r.0 == slug).map_or(&[], |r| r.2)
}
