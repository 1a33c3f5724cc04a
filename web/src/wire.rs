//! How a case's result crosses between the worker and the page in
//! `postcard`, a compact binary serde format with a small reader.
//!
//! The result types' own serde form is the command line's JSON report:
//! internally tagged enums (`{"status": "mismatch", ...}`) and fields left
//! out when empty. Reading either needs a self-describing format, and the
//! code serde generates for internally tagged enums buffers every message
//! first (tens of kilobytes of the page's wasm). postcard has no field names
//! or tags: a message is its fields in order, an enum its variant's number.
//! So these are mirrors of those types (serde's `remote` derive) in that
//! form: externally tagged, every field always written. The compiler checks
//! each mirror against its type (every field by name and type, every
//! variant), so a field added there and not here fails the build.

use gpu_puzzles_core::Values;
use gpu_puzzles_verdict::judge::{
    BudgetExceeded, CaseResult, ConfigProblem, Diagnostic, ElementMismatch, Outcome, Timing,
    Unchecked,
};
use gpu_puzzles_verdict::report::{MemoryError, OrderDependent, SubgroupSizeDependent};
use gpu_puzzles_verdict::timing::{Measurement, Peaks, Timer};
use gpu_puzzles_verdict::trace::{
    BufferTrace, Findings, Hazard, Invocation, OutOfBounds, RunawayLoop,
};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// [`CaseResult`] in postcard's form. `actual` is not here: it travels in
/// [`crate::protocol::WireResult::bulk`].
#[derive(Serialize, Deserialize)]
#[serde(remote = "CaseResult")]
pub(crate) struct CaseResultDef {
    case: usize,
    hidden: bool,
    #[serde(with = "OutcomeDef")]
    outcome: Outcome,
    #[serde(skip)]
    actual: Vec<Values>,
    warnings: Vec<Diagnostic>,
    #[serde(with = "TimingDef")]
    timing: Timing,
    #[serde(with = "option")]
    instrumented_timing: Option<Timing>,
    #[serde(with = "option")]
    findings: Option<Findings>,
    #[serde(with = "option")]
    instrumentation: Option<Unchecked>,
    #[serde(with = "option")]
    reference_timing: Option<Timing>,
    #[serde(with = "vec_of_options")]
    comparison_timings: Vec<Option<Timing>>,
    cpu_ms: Option<f64>,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Outcome")]
pub(crate) enum OutcomeDef {
    Passed,
    Mismatch {
        total: usize,
        mismatches: Vec<ElementMismatch>,
        sampled: Option<usize>,
    },
    CompileError {
        diagnostics: Vec<Diagnostic>,
    },
    ConfigError {
        #[serde(with = "ConfigProblemDef")]
        problem: ConfigProblem,
        message: String,
    },
    MemoryError {
        #[serde(with = "MemoryErrorDef")]
        error: MemoryError,
        message: String,
    },
    RunawayLoop {
        line: Option<usize>,
        invocation: Invocation,
        message: String,
    },
    OverBudget {
        #[serde(with = "BudgetExceededDef")]
        exceeded: BudgetExceeded,
        message: String,
    },
    WithoutTechnique {
        wanted: Vec<String>,
        message: String,
    },
    BelowTarget {
        fraction: f64,
        target: f64,
        message: String,
    },
    Skipped {
        message: String,
    },
    Omitted {
        message: String,
    },
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "ConfigProblem")]
enum ConfigProblemDef {
    WorkgroupSize { axis: usize, size: u32, max: u32 },
    InvocationsPerWorkgroup { workgroup_size: [u32; 3], max: u32 },
    Workgroups { axis: usize, count: u32, max: u32 },
    CaseWorkgroupMemory { elements: u64, max: u64 },
    ShaderWorkgroupMemory { bytes: u64, max: u64 },
    StorageBuffers { count: usize, max: u32 },
    BufferSize { buffer: String, bytes: u64, max: u64 },
    NotGroupZero { group: u32, binding: u32 },
    UnknownBinding { binding: u32, known: Vec<(String, u32)> },
    UniformForStorage { binding: u32, buffer: String },
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "MemoryError")]
enum MemoryErrorDef {
    OutOfBounds(OutOfBounds),
    Hazard(Hazard),
    OrderDependent(OrderDependent),
    SubgroupSizeDependent(SubgroupSizeDependent),
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "BudgetExceeded")]
enum BudgetExceededDef {
    ReadsPerInvocation { invocation: Invocation, reads: u32, limit: u32, rule: Option<String> },
    ReadsPerWorkgroup { workgroup: [u32; 3], reads: u32, limit: u32, rule: Option<String> },
    WritesPerWorkgroup { workgroup: [u32; 3], writes: u32, limit: u32, rule: Option<String> },
    Barriers { invocation: Invocation, barriers: u32, limit: u32, rule: Option<String> },
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Unchecked")]
enum UncheckedDef {
    PerformanceCase,
    Unsupported { why: String },
    DeviceRejected { message: String },
    TraceTooLarge { bytes: u64, limit: u64 },
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Timing")]
struct TimingDef {
    wall_ms: f64,
    gpu_ms: Option<f64>,
    #[serde(with = "option")]
    measured: Option<Measurement>,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Measurement")]
struct MeasurementDef {
    median_ms: f64,
    min_ms: f64,
    max_ms: f64,
    runs: u32,
    dispatches_per_run: u32,
    timer: Timer,
    quantum_ms: Option<f64>,
    clock: Option<f64>,
    first_ms: Option<f64>,
    pipeline_ms: Option<f64>,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Peaks")]
struct PeaksDef {
    bandwidth_gbs: f64,
    gflops: f64,
    #[serde(with = "MeasurementDef")]
    copy: Measurement,
    #[serde(with = "MeasurementDef")]
    fma: Measurement,
}

/// [`Findings`] without the per-word and per-invocation counts and the
/// workgroup size, which travel in [`crate::protocol::WireResult`]'s block.
#[derive(Serialize, Deserialize)]
#[serde(remote = "Findings")]
struct FindingsDef {
    #[serde(skip)]
    buffers: Vec<BufferTrace>,
    #[serde(skip)]
    invocations: Vec<[u32; gpu_puzzles_verdict::trace::INVOCATION_WORDS as usize]>,
    out_of_bounds: Vec<OutOfBounds>,
    hazards: Vec<Hazard>,
    hazard_total: u32,
    runaway_loop: Option<RunawayLoop>,
    unchecked: Vec<String>,
    #[serde(skip)]
    workgroup_size: [u32; 3],
    prints: gpu_puzzles_verdict::print::PrintLog,
}

/// A type with a mirror here: serde's `with` modules below wrap it in
/// containers.
pub(crate) trait Mirrored: Sized {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

macro_rules! mirrored {
    ($($t:ty => $def:ident),* $(,)?) => {$(
        impl Mirrored for $t {
            fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $def::serialize(self, s)
            }
            fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $def::deserialize(d)
            }
        }
    )*};
}

mirrored!(Timing => TimingDef, Measurement => MeasurementDef, Findings => FindingsDef, Unchecked => UncheckedDef, Peaks => PeaksDef);

/// A mirrored value being written.
struct Out<'a, T>(&'a T);

impl<T: Mirrored> Serialize for Out<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.write(s)
    }
}

/// A mirrored value being read.
struct In<T>(T);

impl<'de, T: Mirrored> Deserialize<'de> for In<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::read(d).map(In)
    }
}

/// serde `with` module for `Option<T>` of a mirrored `T`.
pub(crate) mod option {
    use super::{In, Mirrored, Out};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Mirrored, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        v.as_ref().map(Out).serialize(s)
    }

    pub fn deserialize<'de, T: Mirrored, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        Ok(Option::<In<T>>::deserialize(d)?.map(|In(v)| v))
    }
}

/// serde `with` module for `Vec<Option<T>>` of a mirrored `T`.
mod vec_of_options {
    use super::{In, Mirrored, Out};
    use serde::{Deserialize, Deserializer, Serializer};

    #[allow(clippy::ptr_arg)] // serde's `with` hands over the field itself
    pub fn serialize<T: Mirrored, S: Serializer>(
        v: &Vec<Option<T>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|o| o.as_ref().map(Out)))
    }

    pub fn deserialize<'de, T: Mirrored, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<Option<T>>, D::Error> {
        Ok(Vec::<Option<In<T>>>::deserialize(d)?.into_iter().map(|o| o.map(|In(v)| v)).collect())
    }
}

#[cfg(test)]
mod tests;
