//! What a puzzle *is*: its file format, the loader and validator, the
//! validated model (cases, expected values, budgets, promises), random
//! cases, template substitution with a column map, the WGSL scanning a
//! template needs (entry points, `print(…)` statements), and the statement's
//! Markdown.
//!
//! It stands on `gpu-puzzles-values` (plain data) and
//! `gpu-puzzles-reference` (what each puzzle expects, looked up by the name
//! a manifest gives). What a Run *means* (judging, findings and their words,
//! traces, heat maps, timing) is `gpu-puzzles-verdict`, above it; this crate
//! may not know it, nor wgpu, the DOM or Leptos. It is tested with plain
//! `cargo test`.

pub mod contents;
pub mod format;
pub mod generate;
pub mod load;
#[cfg(feature = "markdown")]
pub mod markdown;
pub mod markup;
pub mod model;
pub mod print;
pub mod random;
pub mod share;
pub mod source;
pub mod template;
pub mod wgsl;

pub use format::{CompareSpec, ElementType, Role, FORMAT_VERSION};
pub use load::{load_puzzle_set, Files, Problem};
pub use model::{
    Buffer, Case, CaseBuffer, CaseConfig, Chapter, IndexEntry, Puzzle, PuzzleSet, SetIndex, Values,
};
