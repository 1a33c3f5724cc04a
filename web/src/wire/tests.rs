//! The round trip of every kind of result between the worker and the page.

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
            bits: true,
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
        first_ms: Some(41.5),
        pipeline_ms: Some(30.25),
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
        Outcome::CompileError { diagnostics: vec![Diagnostic::unpositioned(m("expected `;`"))] },
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
        Outcome::WithoutTechnique { wanted: vec!["subgroupBallot".into()], message: m("lesson") },
        Outcome::BelowTarget { fraction: 0.25, target: 0.5, message: m("slow") },
        Outcome::Skipped { message: m("skipped") },
        Outcome::Omitted { message: m("omitted") },
    ];
    outcomes.extend(
        problems.into_iter().map(|problem| Outcome::ConfigError { problem, message: m("config") }),
    );
    outcomes.extend(
        memory_errors.into_iter().map(|error| Outcome::MemoryError { error, message: m("memory") }),
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
                r.cpu_ms = Some(812.5);
                r.comparison_timings = vec![
                    None,
                    Some(timing(Some(Measurement { quantum_ms: None, clock: None, ..measured }))),
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
        encode_bytes(&Envelope { id: 9, body: Reply::Run(Ok(Box::new(reply))) }).expect("encodes");
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
