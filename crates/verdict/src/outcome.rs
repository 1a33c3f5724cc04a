//! What happened to a test case, as data: outcomes, compiler diagnostics,
//! timings, and why a case ran without its memory checks. The words for
//! them are [`crate::report`]'s.

use serde::{Deserialize, Serialize};

mod memory;
mod result;

pub use memory::{MemoryError, OrderDependent, SubgroupSizeDependent};
pub use result::{CaseResult, Timing, Unchecked};

/// Largest number of mismatching elements an outcome lists; the total is
/// always counted.
pub const MAX_LISTED_MISMATCHES: usize = 64;

/// Severity of a compiler message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Stops compilation.
    Error,
    /// Compiles, but worth a look.
    Warning,
    /// Informational.
    Info,
}

/// A compiler message, positioned in the student's own text (after the
/// template column map).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Error, warning or info.
    pub severity: Severity,
    /// The compiler's message.
    pub message: String,
    /// Line, from 1; `None` when the compiler gave no position.
    pub line: Option<usize>,
    /// Column, from 1, in characters.
    pub column: Option<usize>,
    /// Byte offset of the position in the student's text.
    pub offset: Option<usize>,
    /// Length of the marked span in bytes (at least 1 when positioned).
    pub length: usize,
}

impl Diagnostic {
    /// An error at byte `offset` (length `length`) of the substituted text
    /// `sub`, mapped to the student's text `original` through the template
    /// column map.
    pub fn error_at(
        message: String,
        offset: usize,
        length: usize,
        sub: &gpu_puzzles_core::template::Substituted,
        original: &str,
    ) -> Diagnostic {
        let start = sub.to_source_offset(offset);
        let end = sub.to_source_offset(offset + length).max(start);
        let pos = gpu_puzzles_core::template::position_of_offset(original, start);
        Diagnostic {
            severity: Severity::Error,
            message: gpu_puzzles_core::print::explain(message),
            line: Some(pos.line),
            column: Some(pos.column),
            offset: Some(pos.offset),
            length: (end - pos.offset).max(1),
        }
    }

    /// An error with no position.
    pub fn unpositioned(message: String) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message,
            line: None,
            column: None,
            offset: None,
            length: 0,
        }
    }
}

/// One element that differs from the expected value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElementMismatch {
    /// Buffer name.
    pub buffer: String,
    /// Flat, row-major index.
    pub index: usize,
    /// `[row, col]` when the buffer has a 2-D shape.
    pub position: Option<[usize; 2]>,
    /// Expected value, as text.
    pub expected: String,
    /// Value the dispatch wrote, as text.
    pub actual: String,
}

/// What happened to one test case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Outcome {
    /// Every compared element matched.
    Passed,
    /// Some elements differ.
    Mismatch {
        /// Number of differing elements over all compared buffers.
        total: usize,
        /// The first [`MAX_LISTED_MISMATCHES`] of them.
        mismatches: Vec<ElementMismatch>,
        /// In a sampled case, how many elements were checked (all buffers
        /// together); `None` when every element was.
        #[serde(skip_serializing_if = "Option::is_none")]
        sampled: Option<usize>,
    },
    /// The shader did not compile, or the pipeline could not be created.
    CompileError {
        /// Compiler messages, errors first.
        diagnostics: Vec<Diagnostic>,
    },
    /// The case's configuration exceeds what the device allows, or does not
    /// match the shader (e.g. a missing binding).
    ConfigError {
        /// What is wrong, as data.
        problem: ConfigProblem,
        /// What is wrong and what to try ([`crate::report::config_problem`]).
        message: String,
    },
    /// The instrumented run found an out-of-bounds access (memcheck) or two
    /// unordered accesses to one element (racecheck), which WebGPU hides (it
    /// drops or clamps the access, and one run's order looks fine) and other
    /// devices and GPU APIs turn into wrong values or corrupted memory.
    MemoryError {
        /// The finding, as data.
        error: MemoryError,
        /// What happened, naming the invocations, the element and the lines,
        /// and what to try ([`crate::report`]).
        message: String,
    },
    /// A loop ran past [`crate::trace::LOOP_BUDGET`] iterations in one
    /// invocation; the instrumented run stopped it.
    RunawayLoop {
        /// The loop's line in the student's text, when known.
        line: Option<usize>,
        /// The first invocation that ran past the budget.
        invocation: crate::trace::Invocation,
        /// What happened and what to try.
        message: String,
    },
    /// The outputs are right, but the instrumented run counted more
    /// storage-buffer accesses than the puzzle's budget allows.
    OverBudget {
        /// Which budget, by how much, and where, as data.
        exceeded: BudgetExceeded,
        /// The same in words, with what to try
        /// ([`crate::report::budget_exceeded`]).
        message: String,
    },
    /// The outputs are right, but the kernel does not use the technique the
    /// puzzle teaches: it calls none of the built-in functions of the
    /// puzzle's `[lesson]` ([`crate::judge::lesson_outcome`]).
    WithoutTechnique {
        /// The built-in functions the puzzle asks for, any one of them.
        wanted: Vec<String>,
        /// The puzzle's sentence on what to use, and what the kernel called.
        message: String,
    },
    /// A performance case whose kernel is correct but, on a hardware
    /// adapter, reaches less than the puzzle's `performance_target` of the
    /// reference solution's rate ([`target_outcome`]).
    BelowTarget {
        /// The kernel's rate as a fraction of the reference's (the
        /// reference's median time over the kernel's).
        fraction: f64,
        /// The fraction the puzzle asks for.
        target: f64,
        /// How far it is and what to try.
        message: String,
    },
    /// A performance case that did not run because an ordinary case failed.
    Skipped {
        /// Why, and what to do first.
        message: String,
    },
    /// A `hardware_only` performance case on a software adapter: not run,
    /// and left out of the verdict, like the performance target there.
    Omitted {
        /// Why, and where it does run.
        message: String,
    },
}

impl Outcome {
    /// Stable short name: `passed`, `mismatch`, `compile-error`,
    /// `config-error`, `memory-error`, `runaway-loop`, `over-budget`,
    /// `without-technique`, `below-target`, `skipped`, `omitted`.
    pub fn status(&self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Mismatch { .. } => "mismatch",
            Outcome::CompileError { .. } => "compile-error",
            Outcome::ConfigError { .. } => "config-error",
            Outcome::MemoryError { .. } => "memory-error",
            Outcome::RunawayLoop { .. } => "runaway-loop",
            Outcome::OverBudget { .. } => "over-budget",
            Outcome::WithoutTechnique { .. } => "without-technique",
            Outcome::BelowTarget { .. } => "below-target",
            Outcome::Skipped { .. } => "skipped",
            Outcome::Omitted { .. } => "omitted",
        }
    }

    /// True for [`Outcome::Passed`].
    pub fn passed(&self) -> bool {
        matches!(self, Outcome::Passed)
    }

    /// True when the outputs were right, whatever refused them after: a
    /// pass, a budget gone over, or a missing technique. A comparison kernel
    /// (the approach a puzzle teaches to avoid) must have right values on
    /// every case, and may be refused for its approach.
    pub fn right_values(&self) -> bool {
        matches!(
            self,
            Outcome::Passed | Outcome::OverBudget { .. } | Outcome::WithoutTechnique { .. }
        )
    }

    /// True for a case that failed: anything but passed or
    /// [`Outcome::Omitted`] (which counts neither way).
    pub fn failed(&self) -> bool {
        !matches!(self, Outcome::Passed | Outcome::Omitted { .. })
    }

    /// A one-line summary for a student, e.g. `"3 of 16 elements differ"`.
    pub fn summary(&self) -> String {
        match self {
            Outcome::Passed => "passed".into(),
            Outcome::Mismatch { total, sampled: Some(n), .. } => {
                format!("{total} of {n} sampled elements differ from the expected values")
            }
            Outcome::Mismatch { total, .. } if *total == 1 => {
                "1 element differs from the expected value".into()
            }
            Outcome::Mismatch { total, .. } => {
                format!("{total} elements differ from the expected values")
            }
            Outcome::CompileError { diagnostics } => match diagnostics.first() {
                Some(d) => match d.line {
                    Some(l) => format!("compile error at line {l}: {}", d.message),
                    None => format!("compile error: {}", d.message),
                },
                None => "compile error".into(),
            },
            Outcome::ConfigError { message, .. }
            | Outcome::MemoryError { message, .. }
            | Outcome::RunawayLoop { message, .. }
            | Outcome::OverBudget { message, .. }
            | Outcome::WithoutTechnique { message, .. }
            | Outcome::BelowTarget { message, .. }
            | Outcome::Skipped { message }
            | Outcome::Omitted { message } => message.clone(),
        }
    }
}

/// What is wrong with a case's configuration, or with the shader's
/// interface to the puzzle, as data. Limits are WebGPU's, by their names in
/// <https://www.w3.org/TR/webgpu/#limits>; sizes are in bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "problem", rename_all = "kebab-case")]
pub enum ConfigProblem {
    /// `workgroup_size[axis]` above `maxComputeWorkgroupSize{X,Y,Z}`.
    WorkgroupSize {
        /// 0, 1 or 2 for x, y, z.
        axis: usize,
        /// The case's size along the axis.
        size: u32,
        /// The device's limit.
        max: u32,
    },
    /// A workgroup's invocation count above
    /// `maxComputeInvocationsPerWorkgroup`.
    InvocationsPerWorkgroup {
        /// The case's workgroup size.
        workgroup_size: [u32; 3],
        /// The device's limit.
        max: u32,
    },
    /// `workgroups[axis]` above `maxComputeWorkgroupsPerDimension`.
    Workgroups {
        /// 0, 1 or 2 for x, y, z.
        axis: usize,
        /// The case's workgroup count along the axis.
        count: u32,
        /// The device's limit.
        max: u32,
    },
    /// The case's workgroup memory above `maxComputeWorkgroupStorageSize`.
    CaseWorkgroupMemory {
        /// Elements (4 bytes each).
        elements: u64,
        /// The device's limit in bytes.
        max: u64,
    },
    /// The shader's `var<workgroup>` declarations above the
    /// `maxComputeWorkgroupStorageSize` WebGPU guarantees.
    ShaderWorkgroupMemory {
        /// Bytes the shader declares.
        bytes: u64,
        /// The limit in bytes.
        max: u64,
    },
    /// More storage buffers than `maxStorageBuffersPerShaderStage`.
    StorageBuffers {
        /// The puzzle's storage buffers.
        count: usize,
        /// The device's limit.
        max: u32,
    },
    /// A buffer larger than `maxStorageBufferBindingSize` (or
    /// `maxBufferSize`, whichever is smaller).
    BufferSize {
        /// The buffer's name.
        buffer: String,
        /// Its size in bytes.
        bytes: u64,
        /// The device's limit in bytes.
        max: u64,
    },
    /// A declaration outside `@group(0)`.
    NotGroupZero {
        /// The declared group.
        group: u32,
        /// The declared binding.
        binding: u32,
    },
    /// A binding number that is not one of the puzzle's.
    UnknownBinding {
        /// The declared binding.
        binding: u32,
        /// The puzzle's bindings: name and number, storage buffers first.
        known: Vec<(String, u32)>,
    },
    /// A storage buffer declared `var<uniform>`.
    UniformForStorage {
        /// The binding.
        binding: u32,
        /// The puzzle's name for the buffer.
        buffer: String,
    },
}

/// The first access budget ([`gpu_puzzles_core::model::Budget`]) a run went past.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "budget", rename_all = "kebab-case")]
pub enum BudgetExceeded {
    /// One invocation read storage buffers more often than
    /// `global_reads_per_invocation`.
    ReadsPerInvocation {
        /// The invocation.
        invocation: crate::trace::Invocation,
        /// Its storage-buffer reads (loads and atomics, whatever the width).
        reads: u32,
        /// The budget for this case.
        limit: u32,
        /// The formula the budget came from, when it is one (without `=`).
        rule: Option<String>,
    },
    /// One workgroup read storage buffers more often than
    /// `global_reads_per_workgroup`.
    ReadsPerWorkgroup {
        /// The workgroup's `workgroup_id`.
        workgroup: [u32; 3],
        /// Its invocations' storage-buffer reads, together.
        reads: u32,
        /// The budget for this case.
        limit: u32,
        /// The formula the budget came from, when it is one (without `=`).
        rule: Option<String>,
    },
    /// One workgroup wrote storage buffers more often than
    /// `global_writes_per_workgroup`.
    WritesPerWorkgroup {
        /// The workgroup's `workgroup_id`.
        workgroup: [u32; 3],
        /// Its invocations' storage-buffer writes, together.
        writes: u32,
        /// The budget for this case.
        limit: u32,
        /// The formula the budget came from, when it is one (without `=`).
        rule: Option<String>,
    },
    /// An invocation (so its whole workgroup) waited at more barriers than
    /// `barriers_per_invocation`.
    Barriers {
        /// The first invocation over the limit.
        invocation: crate::trace::Invocation,
        /// The barriers it waited at: each `workgroupBarrier()`,
        /// `storageBarrier()` or `textureBarrier()` it passed, and one for
        /// each `workgroupUniformLoad`
        /// ([`crate::trace::invocation_counter::BARRIERS`]).
        barriers: u32,
        /// The budget for this case.
        limit: u32,
        /// The formula the budget came from, when it is one (without `=`).
        rule: Option<String>,
    },
}
