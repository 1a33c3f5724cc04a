//! What judging one case yields besides its outcome: the [`CaseResult`]
//! with its values and findings, the case's [`Timing`], and why it ran
//! without its memory checks ([`Unchecked`]).

use super::{Diagnostic, Outcome};
use crate::trace::Findings;
use gpu_puzzles_core::model::{Case, Values};
use serde::{Deserialize, Serialize};

/// Timing of one case, in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Wall time from submitting the judged dispatch to the read-back being
    /// mapped.
    pub wall_ms: f64,
    /// The judged dispatch's compute pass alone, from GPU timestamp queries,
    /// where the adapter supports them.
    pub gpu_ms: Option<f64>,
    /// The kernel timed repeatedly, per dispatch (performance cases only):
    /// the figure that performance lines and lessons use.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measured: Option<crate::timing::Measurement>,
}

/// Why a case ran without the instrumentation (so without heat maps and
/// memory checks), as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum Unchecked {
    /// A performance case: it is timed plain, since the trace would slow
    /// the kernel being measured. The other cases are checked.
    PerformanceCase,
    /// The pass does not support this shader (naga accepts it, but an entry
    /// point is missing, the trace's binding is taken, or the rewrite has a
    /// gap), or panicked inside naga.
    Unsupported {
        /// Why, from the pass.
        why: String,
    },
    /// The device's compiler rejected the instrumented shader: a gap in the
    /// pass, never the student's.
    DeviceRejected {
        /// The compiler's message.
        message: String,
    },
    /// The trace would not fit this device's buffer limit, even without the
    /// racecheck's shadow memory.
    TraceTooLarge {
        /// Bytes the trace needs.
        bytes: u64,
        /// The device's limit in bytes (`maxStorageBufferBindingSize`).
        limit: u64,
    },
}

/// The result of judging one case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    /// The case's number, from 1.
    pub case: usize,
    /// Whether the case is hidden (its data must not be shown).
    pub hidden: bool,
    /// What happened.
    pub outcome: Outcome,
    /// Contents of each compared buffer after the dispatch, in binding order;
    /// empty when the shader did not run.
    #[serde(skip)]
    pub actual: Vec<Values>,
    /// Compiler warnings and infos of a shader that compiled.
    pub warnings: Vec<Diagnostic>,
    /// Timing of the plain dispatch; zero when there was none (the case ran
    /// instrumented, or the shader did not run).
    pub timing: Timing,
    /// Timing of the instrumented dispatch, when it ran (slower than the
    /// plain shader: every access also updates the trace).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instrumented_timing: Option<Timing>,
    /// What the instrumented run saw, when it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub findings: Option<Findings>,
    /// Why there are no findings (no heat maps, no memory checks), when the
    /// case was not instrumented ([`crate::report::unchecked`] words it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instrumentation: Option<Unchecked>,
    /// Performance cases: the reference solution's timing of the same case on
    /// the same device, when the caller measured it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_timing: Option<Timing>,
    /// Performance cases: each comparison kernel's timing
    /// ([`gpu_puzzles_core::model::Puzzle::comparisons`], same order), when measured;
    /// `None` for one that did not pass.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comparison_timings: Vec<Option<Timing>>,
    /// Performance cases: how long one CPU thread took to compute the
    /// case's outputs with the CPU reference, in milliseconds
    /// ([`gpu_puzzles_core::model::Puzzle::reference_ms`]); `None` where
    /// the outputs were sampled or not computed here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<f64>,
}

impl CaseResult {
    /// The result of `case` with `outcome` and nothing measured yet: no
    /// values, timings or findings.
    pub fn new(case: &Case, outcome: Outcome) -> Self {
        CaseResult {
            case: case.number,
            hidden: case.hidden,
            outcome,
            actual: vec![],
            warnings: vec![],
            timing: Timing::default(),
            instrumented_timing: None,
            findings: None,
            instrumentation: None,
            reference_timing: None,
            comparison_timings: vec![],
            cpu_ms: None,
        }
    }
}

impl Timing {
    /// The best figure available, in milliseconds, and its kind: the
    /// repeated measurement's median when there is one, else the one
    /// dispatch's GPU timestamps, else its wall time (which adds submission
    /// and read-back).
    pub fn best(&self) -> (f64, &'static str) {
        match (self.measured, self.gpu_ms) {
            (Some(m), _) => (m.median_ms, m.timer.describe()),
            (None, Some(ms)) => (ms, "GPU timestamps"),
            (None, None) => (self.wall_ms, "wall time"),
        }
    }

    /// Whether the repeated measurement was taken under low clocks
    /// ([`crate::timing::Measurement::low_clocks`]): its figure may be
    /// several times too slow, and no lesson or target is judged on it.
    pub fn low_clocks(&self) -> bool {
        self.measured.is_some_and(|m| m.low_clocks())
    }

    /// Work per second for `count` units (FLOPs or bytes) done in this time,
    /// in billions per second (GFLOP/s or GB/s); `None` for a zero time.
    pub fn rate(&self, count: u64) -> Option<f64> {
        let (ms, _) = self.best();
        (ms > 0.0).then(|| count as f64 / (ms * 1e6))
    }
}
