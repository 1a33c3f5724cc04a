//! What a Run *means*: each case's outputs judged against the expected
//! values ([`judge`]), the findings of an instrumented run or of the CPU
//! interpreter read from its trace ([`trace`]) and said in a student's
//! words ([`report`]), the lines a shader printed ([`print`]), the view
//! models of values and memory use ([`grid`], [`heatmap`]), how a kernel is
//! timed and what its figures mean ([`timing`], [`roofline`]), the device
//! limits a case needs ([`limits`]), and a Run's state ([`session`]).
//!
//! It stands on the puzzle model (`gpu-puzzles-core`) and may not know the
//! GPU, the DOM or Leptos: the runner and the interpreter fill its traces,
//! the site and the command line show its words.

pub mod grid;
pub mod heatmap;
pub mod image;
pub mod judge;
pub mod limits;
pub mod outcome;
pub mod print;
pub mod report;
pub mod roofline;
pub mod run_report;
pub mod session;
pub mod timing;
pub mod trace;
pub mod words;

pub use judge::Verdict;
pub use outcome::{CaseResult, Diagnostic, Outcome, Severity, Timing};

/// The puzzle set this repository ships (`puzzles/`), for unit tests.
#[cfg(test)]
pub(crate) fn shipped_set() -> gpu_puzzles_core::PuzzleSet {
    let files = gpu_puzzles_core::load::read_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles"),
    )
    .expect("puzzles/ is readable");
    gpu_puzzles_core::load::load_puzzle_set(&files, None).expect("the shipped set loads")
}
