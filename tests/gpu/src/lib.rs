//! Test-only crate; see `puzzles.rs`. What its test binaries share: the
//! repository's root, the shipped puzzle set, and one device per binary.

use gpu_puzzles_core::load::{load_puzzle_set, read_dir, read_solutions};
use gpu_puzzles_core::PuzzleSet;
use gpu_puzzles_runner::Gpu;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `puzzles/` with the reference solutions of `shaders/`.
///
/// # Panics
/// When the set does not load: every test needs it.
pub fn shipped_set() -> PuzzleSet {
    let files = read_dir(&root().join("puzzles")).expect("puzzles/ is readable");
    let solutions = read_solutions(&root().join("shaders")).expect("shaders/ is readable");
    match load_puzzle_set(&files, Some(&solutions)) {
        Ok(s) => s,
        Err(problems) => panic!("the puzzle set has problems: {problems:#?}"),
    }
}

/// One device for the whole test binary, created on first use.
///
/// # Errors
/// No adapter: the message says so, and every test that needs one fails.
pub fn gpu() -> Result<&'static Gpu, String> {
    static GPU: OnceLock<Result<Gpu, String>> = OnceLock::new();
    GPU.get_or_init(|| pollster::block_on(Gpu::new()).map_err(|e| e.to_string())).as_ref().map_err(|e| format!("no GPU adapter, so nothing can be judged: {e}"))
}
