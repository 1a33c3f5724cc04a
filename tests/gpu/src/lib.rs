//! Test-only crate; see `puzzles.rs`.
