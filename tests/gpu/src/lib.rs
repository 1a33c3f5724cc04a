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

/// A file of `tests/gpu/solutions/`: `<slug>--<label>.wgsl`, whose first
/// line is `// expect: …` (see `puzzles.rs`).
#[derive(Debug, Clone)]
pub struct Held {
    /// The puzzle's slug.
    pub slug: String,
    /// What the file shows, e.g. `assumes-power-of-two`.
    pub label: String,
    /// The WGSL source.
    pub source: String,
    /// The expectation after `// expect:`, e.g. `failed`.
    pub expect: String,
}

/// Every held solution, in file-name order.
///
/// # Panics
/// A file not named `<slug>--<label>.wgsl` or without its `// expect:`
/// line, or an empty folder: the tests need them all.
pub fn held_solutions() -> Vec<Held> {
    let dir = root().join("tests/gpu/solutions");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir).expect("tests/gpu/solutions is readable").map(|e| e.unwrap().path()).collect();
    paths.sort();
    assert!(!paths.is_empty(), "no files in tests/gpu/solutions");
    paths
        .iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let (slug, label) = name.split_once("--").unwrap_or_else(|| panic!("{name}: name files <slug>--<label>.wgsl"));
            let source = std::fs::read_to_string(path).unwrap();
            let expect = source.lines().next().and_then(|l| l.strip_prefix("// expect:")).map(|e| e.trim().to_string());
            let expect = expect.unwrap_or_else(|| panic!("{name}: the first line must be `// expect: …`"));
            Held { slug: slug.to_string(), label: label.to_string(), source, expect }
        })
        .collect()
}
