//! The lines a run prints: each `print(…)`'s values read back from the log
//! words of a run (`trace`), in the order the page and the command line
//! show them. Where the statements are and how they are rewritten is
//! `gpu_puzzles_core::print`.

use crate::trace::Invocation;
use gpu_puzzles_core::print::{PrintSite, LINE_HEADER_WORDS};
use serde::{Deserialize, Serialize};

/// One printed value: a scalar's or a vector's components.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum PrintScalar {
    /// An `f32`.
    F32(f32),
    /// An `i32`.
    I32(i32),
    /// A `u32`.
    U32(u32),
    /// A `bool`.
    Bool(bool),
}

/// The kind of a printed component: how its word reads back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScalarKind {
    /// `f32`, its bits.
    F32,
    /// `i32`, its bits.
    I32,
    /// `u32`.
    U32,
    /// `bool`, 0 or 1.
    Bool,
}

impl ScalarKind {
    /// The component a log word holds.
    pub fn read(self, word: u32) -> PrintScalar {
        match self {
            ScalarKind::F32 => PrintScalar::F32(f32::from_bits(word)),
            ScalarKind::I32 => PrintScalar::I32(word as i32),
            ScalarKind::U32 => PrintScalar::U32(word),
            ScalarKind::Bool => PrintScalar::Bool(word != 0),
        }
    }
}

impl std::fmt::Display for PrintScalar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // Rust's shortest form that reads back to the same f32.
            PrintScalar::F32(v) => write!(f, "{v:?}"),
            PrintScalar::I32(v) => write!(f, "{v}i"),
            PrintScalar::U32(v) => write!(f, "{v}u"),
            PrintScalar::Bool(v) => write!(f, "{v}"),
        }
    }
}

/// A printed value: one component for a scalar, 2 to 4 for a vector.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrintValue(pub Vec<PrintScalar>);

impl std::fmt::Display for PrintValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.as_slice() {
            [one] => write!(f, "{one}"),
            many => {
                f.write_str("(")?;
                for (k, c) in many.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// One line of the log: which print, which invocation, the values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrintLine {
    /// The print's number ([`PrintSite::id`]).
    pub site: u32,
    /// The entry point that printed it: its place among the entry points
    /// the case dispatches, in order of first dispatch, from 0 (every
    /// dispatch of one entry point shares its number).
    pub entry_point: u32,
    /// The invocation that printed it, numbered by the dispatch the shader
    /// ran with.
    pub invocation: Invocation,
    /// The values, one per argument.
    pub values: Vec<PrintValue>,
}

impl PrintLine {
    /// Words the line takes of the log ([`gpu_puzzles_core::print::LOG_WORDS`]).
    pub fn words(&self) -> u64 {
        LINE_HEADER_WORDS + self.values.iter().map(|v| v.0.len() as u64).sum::<u64>()
    }
}

/// What a case printed.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PrintLog {
    /// The lines kept, ordered by entry point, then workgroup (row-major),
    /// then invocation within it (`local_invocation_index`), then the order
    /// one invocation printed them in. Between invocations WGSL defines no
    /// order (barriers aside), so this is the order the log is shown in,
    /// whatever order the GPU ran them in.
    pub lines: Vec<PrintLine>,
    /// Lines printed past [`gpu_puzzles_core::print::LOG_WORDS`] and not kept.
    pub dropped: u64,
}

impl PrintLog {
    /// Puts `lines` in the log's order ([`PrintLog::lines`]); a stable sort,
    /// so each invocation's own lines keep the order it printed them in.
    pub fn sort(&mut self) {
        self.lines.sort_by_key(|l| {
            let w = l.invocation.workgroup_id;
            let i = l.invocation.local_invocation_id;
            (l.entry_point, [w[2], w[1], w[0]], [i[2], i[1], i[0]])
        });
    }

    /// Whether nothing was printed.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.dropped == 0
    }

    /// The line as the CLI and the page's log show it:
    /// `line 12 · workgroup (0, 0, 0) · invocation (3, 0, 0): i = 3u, sum = 10.5`.
    pub fn describe(line: &PrintLine, sites: &[PrintSite]) -> String {
        let site = sites.iter().find(|s| s.id == line.site);
        let inv = &line.invocation;
        let w = inv.workgroup_id;
        let l = inv.local_invocation_id;
        let at =
            site.map_or_else(|| format!("print {}", line.site), |s| format!("line {}", s.line));
        let values: Vec<String> = line
            .values
            .iter()
            .enumerate()
            .map(|(k, v)| match site.and_then(|s| s.args.get(k)) {
                Some(text) => format!("{text} = {v}"),
                None => v.to_string(),
            })
            .collect();
        let values = if values.is_empty() { "reached".to_string() } else { values.join(", ") };
        format!(
            "{at} · workgroup ({}, {}, {}) · invocation ({}, {}, {}): {values}",
            w[0], w[1], w[2], l[0], l[1], l[2]
        )
    }
}

#[cfg(test)]
mod tests;
