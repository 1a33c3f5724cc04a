//! The pure core of GPU Puzzles: the puzzle model and its file format, the
//! loader and validator, template substitution with a column map, judging,
//! and the view models of grids. The CPU references a puzzle names live in
//! `gpu-puzzles-reference`, below this crate, and the plain data both speak
//! in `gpu-puzzles-values`.
//!
//! Architecture invariant: this crate knows nothing of wgpu, the DOM or
//! Leptos. It is tested with plain `cargo test`, and both the GPU runner and
//! the site build on it.

pub mod contents;
pub mod format;
pub mod generate;
pub mod grid;
pub mod heatmap;
pub mod judge;
pub mod limits;
pub mod load;
#[cfg(feature = "markdown")]
pub mod markdown;
pub mod markup;
pub mod model;
pub mod print;
pub mod random;
pub mod report;
pub mod roofline;
pub mod session;
pub mod share;
pub mod template;
pub mod timing;
pub mod trace;
pub mod wgsl;

pub use format::{CompareSpec, ElementType, Role, FORMAT_VERSION};
pub use judge::{CaseResult, Diagnostic, Outcome, Severity, Timing, Verdict};
pub use load::{load_puzzle_set, Files, Problem};
pub use model::{
    Buffer, Case, CaseBuffer, CaseConfig, Chapter, IndexEntry, Puzzle, PuzzleSet, SetIndex, Values,
};
