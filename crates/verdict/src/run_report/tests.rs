use super::*;
use crate::judge::{ElementMismatch, Timing, Unchecked};
use crate::timing::{Measurement, Timer};
use gpu_puzzles_core::PuzzleSet;

fn set() -> PuzzleSet {
    crate::shipped_set()
}

fn checked(case: &Case, outcome: Outcome, ms: f64) -> CaseResult {
    CaseResult {
        instrumented_timing: Some(Timing { wall_ms: ms, gpu_ms: None, measured: None }),
        ..CaseResult::new(case, outcome)
    }
}

fn mismatch(index: usize, expected: &str, actual: &str) -> ElementMismatch {
    ElementMismatch {
        buffer: "out".into(),
        index,
        position: None,
        expected: expected.into(),
        actual: actual.into(),
    }
}

fn measured(median: f64, dispatches: u32) -> Timing {
    let measured = Measurement::from_spans(
        &[
            median * 0.99 * dispatches as f64,
            median * dispatches as f64,
            median * 1.01 * dispatches as f64,
        ],
        dispatches,
        Timer::Timestamps,
        None,
    );
    Timing { wall_ms: 9.0, gpu_ms: Some(median), measured }
}

fn words(report: &RunReport, file: &str) -> String {
    format!("{}\n{}", report.headline, report.text(file))
}

#[test]
fn a_failing_run_words_shown_hidden_and_random_cases() {
    let set = set();
    let p = set.get("map").unwrap();
    let random = gpu_puzzles_core::load::random_cases(p, 7).unwrap();
    let wrong = |total, list| Outcome::Mismatch { total, mismatches: list, sampled: None };
    let results = vec![
        checked(&p.cases[0], Outcome::Passed, 1.25),
        checked(&p.cases[1], wrong(2, vec![mismatch(0, "10", "0"), mismatch(3, "13", "3")]), 1.5),
        checked(&p.cases[2], Outcome::Passed, 0.75),
        checked(&p.cases[3], wrong(5, vec![mismatch(1, "11", "1")]), 2.0),
        checked(&random[0], wrong(1, vec![mismatch(9, "19", "9")]), 3.0),
    ];
    let report = RunReport::new(p, &random, &results, Context::default());
    assert_eq!((report.verdict, report.solved), (Verdict::Failed, false));
    let statuses: Vec<CaseStatus> = report.cases.iter().map(|c| c.status).collect();
    assert_eq!(
        statuses,
        [
            CaseStatus::Passed,
            CaseStatus::Failed,
            CaseStatus::Passed,
            CaseStatus::Failed,
            CaseStatus::Failed
        ]
    );
    assert!(
        !report.cases[3].shown && report.cases[3].notes.is_empty(),
        "a hidden case's data stays hidden"
    );
    assert!(report.cases[4].shown, "a failing random case is shown, with its seed");
    crate::report::snapshot("run-failing", &words(&report, "map.wgsl"));
}

#[test]
fn compiler_messages_are_listed_once_errors_first() {
    let set = set();
    let p = set.get("zip").unwrap();
    let d = |severity, line, message: &str| Diagnostic {
        severity,
        message: message.into(),
        line: Some(line),
        column: Some(5),
        offset: Some(40),
        length: 3,
    };
    let error = d(Severity::Error, 12, "no definition in scope for identifier: `idx`");
    let warning = d(Severity::Warning, 3, "unused variable `n`");
    let results: Vec<CaseResult> = p
        .cases
        .iter()
        .map(|c| CaseResult {
            warnings: vec![warning.clone()],
            ..CaseResult::new(c, Outcome::CompileError { diagnostics: vec![error.clone()] })
        })
        .collect();
    let report = RunReport::new(p, &[], &results, Context::default());
    assert_eq!(report.diagnostics, vec![error, warning]);
    crate::report::snapshot("run-compile-error", &words(&report, "zip.wgsl"));
}

#[test]
fn a_performance_run_gives_figures_peaks_targets_and_omitted_cases() {
    let set = set();
    let p = set.get("matmul-register").unwrap();
    let mut results: Vec<CaseResult> = Vec::new();
    for c in &p.cases {
        results.push(match c.performance {
            Some(perf) if perf.hardware_only => CaseResult::new(
                c,
                Outcome::Omitted { message: "not run on a software adapter".into() },
            ),
            Some(_) => CaseResult {
                timing: measured(0.2, 50),
                reference_timing: Some(measured(0.132, 76)),
                comparison_timings: vec![Some(measured(0.281, 36))],
                instrumentation: Some(Unchecked::PerformanceCase),
                ..CaseResult::new(c, Outcome::Passed)
            },
            None => checked(c, Outcome::Passed, 0.5),
        });
    }
    let copy = Measurement::from_spans(&[10.0, 10.0, 10.0], 150, Timer::Timestamps, None).unwrap();
    let fma = Measurement::from_spans(&[12.0, 12.0, 12.0], 20, Timer::Timestamps, None).unwrap();
    let peaks = Peaks { bandwidth_gbs: 4098.0, gflops: 55808.0, copy, fma };
    let hardware = RunReport::new(
        p,
        &[],
        &results,
        Context { software: false, peaks: Some(&peaks), emulated: Emulated::No },
    );
    assert_eq!(
        (hardware.verdict, hardware.solved),
        (Verdict::Passed, true),
        "an omitted case counts neither way"
    );
    assert!(hardware.headline.contains("runs only on a hardware GPU"), "{}", hardware.headline);
    crate::report::snapshot("run-performance", &words(&hardware, "matmul-register.wgsl"));
    let software = RunReport::new(
        p,
        &[],
        &results,
        Context { software: true, peaks: Some(&peaks), emulated: Emulated::No },
    );
    let target =
        software.cases.iter().find_map(|c| c.performance.as_ref()?.target.clone()).unwrap();
    assert!(target.contains("not enforced on this software adapter"), "{target}");
    // Comparison kernels timed: no note; on a software adapter a front end
    // that left them untimed gets one sentence that names them.
    assert!(software
        .cases
        .iter()
        .all(|c| c.performance.as_ref().is_none_or(|p| p.comparisons_untimed.is_none())));
    let untimed: Vec<CaseResult> =
        results.iter().map(|r| CaseResult { comparison_timings: vec![], ..r.clone() }).collect();
    let untimed_report = |software| {
        let context = Context { software, peaks: Some(&peaks), emulated: Emulated::No };
        let report = RunReport::new(p, &[], &untimed, context);
        report.cases.iter().find_map(|c| c.performance.clone()).unwrap()
    };
    let note = untimed_report(true).comparisons_untimed.unwrap();
    let label = p.comparisons[0].label.split(':').next().unwrap();
    assert!(
        note.starts_with(&format!(
            "Not timed on this software adapter: the comparison kernel ({label})"
        )),
        "{note}"
    );
    assert_eq!(untimed_report(false).comparisons_untimed, None, "a hardware GPU always times them");
    // The reference timed while the GPU's clocks were held down: the figure
    // says so, and the target is not checked on it.
    for r in results.iter_mut().filter(|r| r.reference_timing.is_some()) {
        let t = r.reference_timing.as_mut().unwrap();
        t.measured = t.measured.map(|m| Measurement { clock: Some(0.3), ..m });
    }
    let low = RunReport::new(
        p,
        &[],
        &results,
        Context { software: false, peaks: Some(&peaks), emulated: Emulated::No },
    );
    let perf = low.cases.iter().find_map(|c| c.performance.clone()).unwrap();
    assert!(
        perf.target.as_deref().unwrap().contains("not checked: the GPU's clocks were low"),
        "{:?}",
        perf.target
    );
    assert!(
        perf.reference
            .as_deref()
            .unwrap()
            .ends_with("the GPU's clocks were low while this was measured (its FP32 rate at 30 % of the rate measured at start); the figure may be slow"),
        "{:?}",
        perf.reference
    );
    assert!(!perf.yours.contains("clocks"), "{}", perf.yours);
}

#[test]
fn a_pass_without_its_memory_checks_is_not_solved() {
    let set = set();
    let p = set.get("map").unwrap();
    let mut results: Vec<CaseResult> =
        p.cases.iter().map(|c| checked(c, Outcome::Passed, 1.0)).collect();
    results[1].instrumentation =
        Some(Unchecked::TraceTooLarge { bytes: 300 << 20, limit: 256 << 20 });
    let report = RunReport::new(p, &[], &results, Context::default());
    assert_eq!(
        (report.verdict, report.fully_checked, report.solved),
        (Verdict::Passed, false, false)
    );
    assert!(report.headline.contains("not marked solved"), "{}", report.headline);
    assert!(report.text("map.wgsl").ends_with("PASSED on values only: the memory checks could not run on some cases (each says why above)\n"));
}

#[test]
fn a_performance_case_shows_its_first_call_and_the_cpu_beside_the_gpu() {
    let mut t = measured(0.25, 64);
    t.measured =
        t.measured.map(|m| Measurement { first_ms: Some(2.0), pipeline_ms: Some(48.0), ..m });
    // 48 ms to create the pipeline and 2 ms for the cold dispatch: 50 ms,
    // 200 times the warm 0.25 ms.
    let first = super::figures::first_call_line(&t).unwrap();
    assert!(
        first.starts_with(
            "50.0 ms for one call: creating the pipeline 48.0 ms, then the first dispatch 2.00 ms"
        ),
        "{first}"
    );
    assert!(first.contains("against 0.250 ms a dispatch once warm: 200× as long"), "{first}");
    // A pipeline reused from an earlier case: the first dispatch alone.
    t.measured = t.measured.map(|m| Measurement { pipeline_ms: None, ..m });
    let reused = super::figures::first_call_line(&t).unwrap();
    assert!(reused.starts_with("2.00 ms for one call: the first dispatch 2.00 ms"), "{reused}");
    assert!(reused.contains("8.0× as long"), "{reused}");
    // Not measured: no line.
    assert_eq!(super::figures::first_call_line(&Timing { measured: None, ..t }), None);

    // 1,725 ms on one CPU thread against 0.25 ms: 6,900 times as fast.
    let cpu = super::figures::cpu_line(1725.0, &t, false);
    assert!(cpu.starts_with("1,725 ms on one CPU thread"), "{cpu}");
    assert!(cpu.contains("your kernel, 0.250 ms a dispatch, is 6,900× as fast"), "{cpu}");
    assert!(!cpu.contains("software"), "{cpu}");
    // Slower than the CPU, on a software adapter: said both ways.
    let slow = super::figures::cpu_line(0.1, &t, true);
    assert!(slow.contains("takes 0.250 ms a dispatch, 2.5× as long"), "{slow}");
    assert!(
        slow.contains("This software adapter runs the kernel on this computer's CPU too"),
        "{slow}"
    );

    // Through the report: the figures reach the case's performance lines.
    let set = set();
    let p = set.puzzles.iter().find(|p| p.slug == "fft").unwrap();
    let case = p.cases.iter().find(|c| c.is_performance()).unwrap();
    let r =
        CaseResult { timing: t, cpu_ms: Some(1725.0), ..CaseResult::new(case, Outcome::Passed) };
    let context = Context { software: false, peaks: None, emulated: Emulated::No };
    let report = RunReport::new(p, &[], &[r], context);
    let perf = report.cases.iter().find_map(|c| c.performance.clone()).unwrap();
    assert_eq!(perf.cpu.as_deref(), Some(cpu.as_str()));
    assert!(perf.first_call.is_some());
    let text = report.text("fft.wgsl");
    assert!(text.contains("      the CPU: 1,725 ms on one CPU thread"), "{text}");
    assert!(text.contains("      first call: 2.00 ms for one call"), "{text}");
}
