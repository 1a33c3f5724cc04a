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
mod tests {
    use crate::protocol::{decode_bytes, encode_bytes, Envelope, Reply, RunReply, WireResult};
    use gpu_puzzles_verdict::trace::Findings;
    use gpu_puzzles_verdict::{CaseResult, Outcome};

    /// One result of every shape the worker can send: every variant of every
    /// enum in a [`CaseResult`], and each optional part both present and
    /// absent (the JSON form leaves empty ones out; this one must not).
    fn every_kind_of_result() -> Vec<CaseResult> {
        use gpu_puzzles_verdict::judge::{
            BudgetExceeded, ConfigProblem, Diagnostic, ElementMismatch, Timing, Unchecked,
        };
        use gpu_puzzles_verdict::report::{MemoryError, OrderDependent};
        use gpu_puzzles_verdict::timing::{Measurement, Timer};
        use gpu_puzzles_verdict::trace::{
            AccessKind, Hazard, HazardAccess, HazardKind, Invocation, MemoryKind, OutOfBounds,
            OutOfBoundsAccess, RunawayLoop, Site,
        };
        let case = &crate::embedded::judged_puzzle("map").expect("the set has Map").cases[0];
        let inv = Invocation { id: 7, workgroup_id: [1, 0, 0], local_invocation_id: [3, 0, 0] };
        let access =
            |kind| HazardAccess { invocation: inv, kind, site: Some(Site { line: 4, column: 9 }) };
        let m = String::from;
        let memory_errors = vec![
            MemoryError::OutOfBounds(OutOfBounds {
                space: m("a"),
                memory: MemoryKind::Storage,
                kind: AccessKind::Read,
                total: 3,
                elements: 4,
                first: vec![OutOfBoundsAccess { index: 4, invocation: inv, site: None }],
            }),
            MemoryError::Hazard(Hazard {
                kind: HazardKind::ReadAfterWrite,
                space: m("tile"),
                workgroup_memory: true,
                element: Some(2),
                entry_point: m("main"),
                dispatch: 1,
                across_workgroups: false,
                first: access(AccessKind::Write),
                second: access(AccessKind::Read),
            }),
            MemoryError::OrderDependent(OrderDependent {
                buffer: m("out"),
                index: 1,
                first: (m("x"), m("1")),
                second: (m("y"), m("2")),
            }),
        ];
        let problems = vec![
            ConfigProblem::WorkgroupSize { axis: 1, size: 512, max: 256 },
            ConfigProblem::InvocationsPerWorkgroup { workgroup_size: [32, 32, 2], max: 256 },
            ConfigProblem::Workgroups { axis: 0, count: 70000, max: 65535 },
            ConfigProblem::CaseWorkgroupMemory { elements: 9000, max: 4096 },
            ConfigProblem::ShaderWorkgroupMemory { bytes: 40000, max: 16384 },
            ConfigProblem::StorageBuffers { count: 9, max: 8 },
            ConfigProblem::BufferSize { buffer: m("a"), bytes: 1 << 40, max: 1 << 27 },
            ConfigProblem::NotGroupZero { group: 1, binding: 0 },
            ConfigProblem::UnknownBinding { binding: 5, known: vec![(m("a"), 0), (m("out"), 1)] },
            ConfigProblem::UniformForStorage { binding: 2, buffer: m("dims") },
        ];
        let measured = Measurement {
            median_ms: 1.5,
            min_ms: 1.25,
            max_ms: 2.0,
            runs: 9,
            dispatches_per_run: 4,
            timer: Timer::Timestamps,
            quantum_ms: Some(0.001),
            clock: Some(0.3),
        };
        let timing = |measured| Timing { wall_ms: 3.5, gpu_ms: Some(1.0), measured };
        let mut outcomes = vec![
            Outcome::Passed,
            Outcome::Mismatch {
                total: 2,
                mismatches: vec![ElementMismatch {
                    buffer: m("out"),
                    index: 3,
                    position: Some([0, 3]),
                    expected: m("1"),
                    actual: m("0"),
                }],
                sampled: Some(100),
            },
            Outcome::Mismatch { total: 1, mismatches: vec![], sampled: None },
            Outcome::CompileError {
                diagnostics: vec![Diagnostic::unpositioned(m("expected `;`"))],
            },
            Outcome::RunawayLoop { line: Some(6), invocation: inv, message: m("loop") },
            Outcome::OverBudget {
                exceeded: BudgetExceeded::ReadsPerInvocation {
                    invocation: inv,
                    reads: 90,
                    limit: 64,
                    rule: None,
                },
                message: m("reads"),
            },
            Outcome::OverBudget {
                exceeded: BudgetExceeded::ReadsPerWorkgroup {
                    workgroup: [0, 1, 0],
                    reads: 120,
                    limit: 100,
                    rule: Some("(wgs_x + 2) * (wgs_y + 2)".into()),
                },
                message: m("workgroup reads"),
            },
            Outcome::OverBudget {
                exceeded: BudgetExceeded::WritesPerWorkgroup {
                    workgroup: [1, 2, 0],
                    writes: 90,
                    limit: 64,
                    rule: None,
                },
                message: m("writes"),
            },
            Outcome::OverBudget {
                exceeded: BudgetExceeded::Barriers {
                    invocation: inv,
                    barriers: 6,
                    limit: 5,
                    rule: Some("(dims_k + 7) / 8 + 2".into()),
                },
                message: m("barriers"),
            },
            Outcome::WithoutTechnique {
                wanted: vec!["subgroupBallot".into()],
                message: m("lesson"),
            },
            Outcome::BelowTarget { fraction: 0.25, target: 0.5, message: m("slow") },
            Outcome::Skipped { message: m("skipped") },
            Outcome::Omitted { message: m("omitted") },
        ];
        outcomes.extend(
            problems
                .into_iter()
                .map(|problem| Outcome::ConfigError { problem, message: m("config") }),
        );
        outcomes.extend(
            memory_errors
                .into_iter()
                .map(|error| Outcome::MemoryError { error, message: m("memory") }),
        );
        let unchecked = [
            None,
            Some(Unchecked::PerformanceCase),
            Some(Unchecked::Unsupported { why: m("why") }),
            Some(Unchecked::DeviceRejected { message: m("rejected") }),
            Some(Unchecked::TraceTooLarge { bytes: 1 << 33, limit: 1 << 30 }),
        ];
        outcomes
            .into_iter()
            .enumerate()
            .map(|(k, outcome)| {
                let mut r = CaseResult::new(case, outcome);
                r.warnings = vec![Diagnostic {
                    severity: gpu_puzzles_verdict::Severity::Warning,
                    message: m("unused"),
                    line: Some(2),
                    column: Some(3),
                    offset: Some(20),
                    length: 4,
                }];
                r.timing = timing(if k % 2 == 0 { Some(measured) } else { None });
                r.instrumentation = unchecked[k % unchecked.len()].clone();
                if k % 3 == 0 {
                    r.instrumented_timing = Some(timing(None));
                    r.reference_timing = Some(timing(Some(measured)));
                    r.comparison_timings = vec![
                        None,
                        Some(timing(Some(Measurement {
                            quantum_ms: None,
                            clock: None,
                            ..measured
                        }))),
                    ];
                    r.findings = Some(Findings {
                        hazard_total: 3,
                        runaway_loop: Some(RunawayLoop { line: None, invocation: inv }),
                        unchecked: vec![m("workgroup memory of `tile`")],
                        ..Findings::default()
                    });
                }
                r
            })
            .collect()
    }

    #[test]
    fn every_kind_of_result_survives_the_trip_between_worker_and_page() {
        let sent = every_kind_of_result();
        let peaks = gpu_puzzles_verdict::timing::Peaks {
            bandwidth_gbs: 900.0,
            gflops: 50000.0,
            copy: gpu_puzzles_verdict::timing::Measurement::from_spans(
                &[1.0, 2.0],
                1,
                gpu_puzzles_verdict::timing::Timer::Wall,
                None,
            )
            .unwrap(),
            fma: gpu_puzzles_verdict::timing::Measurement::from_spans(
                &[3.0],
                2,
                gpu_puzzles_verdict::timing::Timer::Timestamps,
                Some(0.5),
            )
            .unwrap(),
        };
        let reply = RunReply {
            results: sent.iter().cloned().map(WireResult::new).collect(),
            random: vec![],
            recreated: true,
            peaks: Some(peaks),
            software: false,
            emulated: gpu_puzzles_verdict::run_report::Emulated::NoWebGpu,
            phases: Some([1.5, 2.0, 0.25, 0.0, 0.5, 0.5, 0.5, 0.75, 3.0, 0.125]),
            wasm_bytes: 164 << 20,
        };
        let bytes =
            encode_bytes(&Envelope { id: 9, body: Reply::Run(Ok(reply)) }).expect("encodes");
        let got: Envelope<Reply> = decode_bytes(&bytes).expect("decodes");
        assert_eq!(got.id, 9);
        let Reply::Run(Ok(got)) = got.body else { panic!("a Run reply, got {:?}", got.body) };
        assert_eq!(got.wasm_bytes, 164 << 20);
        assert_eq!(
            (got.recreated, got.peaks, got.software, got.emulated),
            (true, Some(peaks), false, gpu_puzzles_verdict::run_report::Emulated::NoWebGpu)
        );
        assert_eq!(got.phases, Some([1.5, 2.0, 0.25, 0.0, 0.5, 0.5, 0.5, 0.75, 3.0, 0.125]));
        let got: Vec<CaseResult> = got
            .results
            .into_iter()
            .map(WireResult::into_result)
            .collect::<Result<_, _>>()
            .expect("whole blocks");
        assert_eq!(got.len(), sent.len());
        for (g, s) in got.iter().zip(&sent) {
            assert_eq!(g, s);
        }
    }
}
