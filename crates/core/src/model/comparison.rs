//! A performance puzzle's comparison kernels ([`super::Puzzle::comparisons`]).

use serde::{Deserialize, Serialize};

/// A comparison kernel: correct, written the way the puzzle teaches to avoid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// What it does differently, shown next to its figures.
    pub label: String,
    /// Its WGSL, with template placeholders.
    pub source: String,
    /// The lesson: how many times faster than this kernel the reference
    /// solution runs on a hardware adapter, at least.
    pub speedup: Option<f64>,
}

impl Comparison {
    /// The label's name alone: the text before its first `:` (the rest says
    /// how it differs: Transpose's `"naive: reads along rows of a, writes a
    /// row of out apart"` gives `"naive"`), for a roofline's point or a list
    /// of names.
    pub fn short_label(&self) -> &str {
        self.label.split(':').next().unwrap_or(&self.label)
    }
}
