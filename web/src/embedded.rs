//! The puzzle set compiled into the site by `build.rs` (validated there), in
//! the two forms the two binaries need: the page's table of contents, and
//! the judge's whole set; without our solutions, which the site keeps as
//! files ([`crate::solutions`]).

use gpu_puzzles_core::load::load_one_puzzle;
use gpu_puzzles_core::{Files, Puzzle, PuzzleSet, SetIndex};
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/puzzle_files.rs"));

/// The set's table of contents, baked by `build.rs` with `postcard`.
static INDEX: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/puzzle_index.postcard"));

/// The page's table of contents of the set: each puzzle's number, slug and
/// title, and the chapters; all the list, the navigation and the capstone's
/// card need. Read once from the copy `build.rs` baked into the page's
/// wasm. A puzzle's page data (statement, hints, starter, cases) is a file
/// of its own, fetched when the puzzle is opened ([`crate::puzzle_data`]),
/// so the first visit does not carry every puzzle's.
pub fn puzzle_index() -> &'static SetIndex {
    static INDEX_SET: OnceLock<SetIndex> = OnceLock::new();
    INDEX_SET.get_or_init(|| {
        postcard::from_bytes(INDEX).expect("build.rs baked this index with the same model")
    })
}

/// The puzzle files `build.rs` embedded, by path relative to `puzzles/`;
/// copied into a map once, when the judge first loads a puzzle.
fn files() -> &'static Files {
    static FILES: OnceLock<Files> = OnceLock::new();
    FILES.get_or_init(|| PUZZLE_FILES.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
}

/// The judge's puzzle `slug`, loaded from the puzzle files the first time a
/// Run, the debugger or the helper asks for it, then kept: the whole model,
/// with its reference function and random case generator, but without our
/// `solution` ([`crate::solutions`]). `None` for a slug the set does not
/// have. Loading one puzzle computes its written cases' expected values
/// ([`load_one_puzzle`] skips the generator checks the build made); the
/// whole set, loaded at a page's first Run, took about 1.1 s of the
/// worker's time in headless Chromium on 2 cores, a cost every student
/// paid on every page.
/// The worker's alone; the page reads [`puzzle_index`] and
/// [`crate::puzzle_data`].
pub fn judged_puzzle(slug: &str) -> Option<&'static Puzzle> {
    static LOADED: OnceLock<Vec<OnceLock<Puzzle>>> = OnceLock::new();
    let index = puzzle_index();
    let at = index.puzzles.iter().position(|p| p.slug == slug)?;
    let loaded = LOADED.get_or_init(|| index.puzzles.iter().map(|_| OnceLock::new()).collect());
    Some(loaded[at].get_or_init(|| {
        // build.rs refused a set with problems, so this cannot fail at run
        // time.
        load_one_puzzle(files(), slug).expect("the embedded puzzle set was validated at build time")
    }))
}

/// The puzzles the capstone composes ([`gpu_puzzles_runner::generate::puzzles`]),
/// as a set: each loaded through [`judged_puzzle`], so a Run of one of them
/// before or after shares its load.
pub fn capstone_set() -> PuzzleSet {
    let puzzles = gpu_puzzles_runner::generate::puzzles()
        .filter_map(|slug| judged_puzzle(slug).cloned())
        .collect();
    PuzzleSet { puzzles, chapters: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::{judged_puzzle, puzzle_index};
    use gpu_puzzles_core::Puzzle;

    /// The page's data of the puzzle `slug`, as `build.rs` wrote it for
    /// this (native) build.
    fn page_data(slug: &str) -> Puzzle {
        let path = format!("{}/puzzle-data/{slug}.postcard", env!("OUT_DIR"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        postcard::from_bytes(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// The index is the loaded set's, and every puzzle's page data file is
    /// the loaded puzzle, but for the documented differences.
    #[test]
    fn the_page_data_is_the_loaded_set() {
        let index = puzzle_index();
        let files = super::files().clone();
        let judged =
            gpu_puzzles_core::load_puzzle_set(&files, None).expect("the embedded set loads");
        assert_eq!(*index, judged.index());
        assert!(!index.puzzles.is_empty());
        assert!(judged_puzzle("no-such-puzzle").is_none());
        let version = std::fs::read_to_string(format!("{}/puzzle-data/VERSION", env!("OUT_DIR")))
            .expect("build.rs wrote the data's version");
        assert_eq!(version, env!("GPU_PUZZLES_DATA_VERSION"));
        for whole in &judged.puzzles {
            // What the judge loads alone is the set's puzzle.
            let j = judged_puzzle(&whole.slug).expect("the judge has every indexed puzzle");
            assert_eq!((j.number, &j.title), (whole.number, &whole.title));
            let p = page_data(&j.slug);
            assert_eq!(
                (p.number, &p.slug, &p.title, &p.starter, &p.solution),
                (j.number, &j.slug, &j.title, &j.starter, &j.solution)
            );
            assert_eq!(
                (
                    &p.buffers,
                    &p.uniforms,
                    &p.entry_points,
                    &p.dispatch_plan,
                    &p.budget,
                    &p.comparisons
                ),
                (
                    &j.buffers,
                    &j.uniforms,
                    &j.entry_points,
                    &j.dispatch_plan,
                    &j.budget,
                    &j.comparisons
                )
            );
            assert_eq!(p.performance_target, j.performance_target);
            assert_eq!(p.hints.len(), j.hints.len(), "{}", p.slug);
            assert!(p.statement.starts_with('<'), "{}: the statement is HTML", p.slug);
            assert!(p.generator.is_none());
            assert_eq!(p.cases.len(), j.cases.len(), "{}", p.slug);
            for (c, d) in p.cases.iter().zip(&j.cases) {
                let at = format!("{} case {}", p.slug, c.number);
                assert_eq!(
                    (c.number, &c.name, c.hidden, c.config, c.compare, c.performance),
                    (d.number, &d.name, d.hidden, d.config, d.compare, d.performance),
                    "{at}"
                );
                assert_eq!(c.uniforms, d.uniforms, "{at}");
                assert_eq!(c.dispatches, d.dispatches, "{at}");
                for (b, e) in c.buffers.iter().zip(&d.buffers) {
                    assert_eq!((b.initial.len(), b.shape), (e.initial.len(), e.shape), "{at}");
                    // Large performance inputs are compared by their first elements.
                    if c.hidden && !c.is_performance() {
                        // Withheld: the page has a recipe of zeros.
                        assert!(!b.initial.is_generated(), "{at}: a hidden case's input is baked");
                    } else if c.is_performance() {
                        assert!(!b.initial.is_generated(), "{at}: baked as a recipe, not values");
                        assert_eq!(
                            b.initial.get(b.initial.len() - 1),
                            e.initial.get(e.initial.len() - 1),
                            "{at}"
                        );
                    } else {
                        assert_eq!(*b.initial, *e.initial, "{at}");
                    }
                    assert_eq!(
                        b.expected,
                        if c.hidden { None } else { e.expected.clone() },
                        "{at}"
                    );
                }
            }
        }
    }
}
