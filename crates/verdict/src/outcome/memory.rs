//! The memory error that fails a case, as data; `crate::report` words it.

use crate::trace::{Hazard, OutOfBounds};
use serde::{Deserialize, Serialize};

/// The finding that fails a case, as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "check", rename_all = "kebab-case")]
pub enum MemoryError {
    /// Accesses at or past the end of an array, vector or matrix: in a
    /// buffer, workgroup memory, a variable or a value (memcheck).
    OutOfBounds(OutOfBounds),
    /// Two unordered accesses to one element, one a write (racecheck).
    Hazard(Hazard),
    /// Outputs that differ between two legal orders of running the
    /// invocations (the CPU interpreter's schedules).
    OrderDependent(OrderDependent),
    /// Outputs right with subgroups of one size and wrong with another,
    /// both sizes WebGPU allows (the CPU interpreter run at each).
    SubgroupSizeDependent(SubgroupSizeDependent),
}

/// A result that depends on the subgroup size: right with `right`-lane
/// subgroups, wrong with `wrong`-lane ones at an output element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubgroupSizeDependent {
    /// Lanes per subgroup with which every output was right.
    pub right: u32,
    /// Lanes per subgroup with which one was wrong.
    pub wrong: u32,
    /// The output buffer.
    pub buffer: String,
    /// The first element that is wrong with `wrong` lanes.
    pub index: usize,
    /// Its value with `wrong` lanes, and the expected value.
    pub got: String,
    /// The expected value.
    pub expected: String,
    /// Every size tried, and whether it was right, in increasing size.
    pub tried: Vec<(u32, bool)>,
}

/// An output element whose value depends on the order the invocations run
/// in: its value under two schedules of the CPU interpreter, both legal
/// under WGSL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderDependent {
    /// The output buffer.
    pub buffer: String,
    /// The first element that differs.
    pub index: usize,
    /// The first order, in words, and the element's value under it.
    pub first: (String, String),
    /// The second order, in words, and the element's value under it.
    pub second: (String, String),
    /// Whether the puzzle asks for the same bits on every Run
    /// (`Puzzle::deterministic`) and these two differ in them, both values
    /// perhaps within the tolerance; else one value passed and the other
    /// failed. The values are then written with their bits in hexadecimal.
    #[serde(default)]
    pub bits: bool,
}
