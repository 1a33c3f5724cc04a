//! The puzzle set compiled into the site by `build.rs` (validated there), in
//! the two forms the two binaries need; without our solutions, which the
//! site keeps as files ([`crate::solutions`]).

use gpu_puzzles_core::{load_puzzle_set, Files, PuzzleSet};
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/puzzle_files.rs"));

/// The set baked by `build.rs` with `postcard`.
static BAKED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/puzzle_set.postcard"));

/// The page's puzzle set: everything the page shows, read once from the
/// copy `build.rs` baked, so the page's wasm holds neither the TOML reader,
/// the loader nor the reference functions. It differs from the loaded set
/// ([`judged_set`]) in three ways:
/// - `statement` and `hints` are sanitised HTML, rendered from the Markdown
///   at build time;
/// - hidden cases have no expected values (the page never shows them);
/// - (as in the judge's) no puzzle has its `solution`: see
///   [`crate::solutions`];
/// - no puzzle has a random case generator, and no performance case its
///   reference function: the judge's worker draws and judges those, and
///   sends the random cases it drew.
pub fn puzzle_set() -> &'static PuzzleSet {
    static SET: OnceLock<PuzzleSet> = OnceLock::new();
    SET.get_or_init(|| {
        postcard::from_bytes(BAKED).expect("build.rs baked this set with the same model")
    })
}

/// The judge's puzzle set, loaded from the puzzle files on first use: the
/// whole model, with the reference functions and random case generators,
/// but no puzzle's `solution` ([`crate::solutions`]).
/// The worker's alone; the page reads [`puzzle_set`].
pub fn judged_set() -> &'static PuzzleSet {
    static SET: OnceLock<PuzzleSet> = OnceLock::new();
    SET.get_or_init(|| {
        let files: Files =
            PUZZLE_FILES.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        // build.rs refused a set with problems, so this cannot fail at run
        // time. No puzzle has its `solution` here: those are files beside
        // the site, fetched when needed (crate::solutions).
        load_puzzle_set(&files, None).expect("the embedded puzzle set was validated at build time")
    })
}

#[cfg(test)]
mod tests {
    use super::{judged_set, puzzle_set};

    /// The baked set is the loaded one, but for the documented differences.
    #[test]
    fn the_page_set_is_the_loaded_set() {
        let (page, judged) = (puzzle_set(), judged_set());
        assert_eq!(page.puzzles.len(), judged.puzzles.len());
        assert!(!page.puzzles.is_empty());
        for (p, j) in page.puzzles.iter().zip(&judged.puzzles) {
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
                    if c.is_performance() {
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
