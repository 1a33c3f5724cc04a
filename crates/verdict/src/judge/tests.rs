//! Unit tests of judging: budgets counted by the declared workgroup size,
//! comparisons and tolerances, performance lines and targets, sampled cases,
//! and the verdict's checks.

use super::*;
use crate::trace::invocation_counter;
use gpu_puzzles_core::model::CaseConfig;

#[test]
fn budgets_count_by_the_workgroup_size_the_shader_ran() {
    // Block Sum allows one global write per workgroup. The shader
    // declares 512 invocations per workgroup where the case says 256:
    // invocations 0 and 300 are then both in workgroup 0, two writes.
    let set = crate::shipped_set();
    let puzzle = set.get("block-sum").unwrap();
    let case = &puzzle.cases[0];
    assert_eq!(case.config.workgroup_size, [256, 1, 1]);
    let mut invocations = vec![[0u32; crate::trace::INVOCATION_WORDS as usize]; 4 * 512];
    invocations[0][invocation_counter::GLOBAL_WRITES as usize] = 1;
    invocations[300][invocation_counter::GLOBAL_WRITES as usize] = 1;
    let as_case = Findings { invocations, ..Default::default() };
    assert_eq!(
        budget_outcome(puzzle, case, &as_case),
        None,
        "numbered by the case's 256, the writes fall in two workgroups"
    );
    let as_run = Findings { workgroup_size: [512, 1, 1], ..as_case };
    match budget_outcome(puzzle, case, &as_run) {
        Some(Outcome::OverBudget {
            exceeded: BudgetExceeded::WritesPerWorkgroup { workgroup, writes, limit, .. },
            ..
        }) => {
            assert_eq!((workgroup, writes, limit), ([0, 0, 0], 2, 1));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_declared_workgroup_size_replaces_the_cases() {
    let case = CaseConfig {
        workgroup_size: [6, 1, 1],
        workgroups: [2, 1, 1],
        workgroup_memory: Some([6, 1, 1]),
    };
    assert_eq!(case.as_declared([]), case);
    let run = case.as_declared([[64, 1, 1]]);
    assert_eq!(
        (run.workgroup_size, run.workgroups, run.workgroup_memory),
        ([64, 1, 1], [2, 1, 1], Some([6, 1, 1]))
    );
    assert_eq!(
        case.as_declared([[4, 2, 1], [8, 1, 1]]).workgroup_size,
        [8, 2, 1],
        "per dimension the largest"
    );
    assert_eq!(
        case.as_declared([[2, 1, 1]]).workgroup_size,
        [2, 1, 1],
        "smaller than the case's too"
    );
}

#[test]
fn exact_comparison_by_default() {
    let exact = CompareSpec::default();
    assert!(close(1.0, 1.0, exact));
    assert!(!close(1.0, 1.0 + 1e-7, exact));
    assert!(!close(f64::NAN, f64::NAN, exact));
    assert!(close(f64::INFINITY, f64::INFINITY, exact));
}

#[test]
fn rates_keep_three_significant_figures() {
    assert_eq!(three_figures(0.05034), "0.0503");
    assert_eq!(three_figures(4.8123), "4.81");
    assert_eq!(three_figures(171.83), "172");
    assert_eq!(three_figures(1234.5), "1234");
    let t = Timing { wall_ms: 10.0, gpu_ms: None, measured: None };
    let line = performance_line(
        &t,
        &gpu_puzzles_core::model::Performance { flops: Some(2_000_000_000), ..Default::default() },
    );
    assert_eq!(line, "10.00 ms (wall time, one dispatch) · 200 GFLOP/s");
    let measured = crate::timing::Measurement::from_spans(
        &[40.0, 42.0, 44.0],
        4,
        crate::timing::Timer::Timestamps,
        None,
    );
    let t = Timing { wall_ms: 50.0, gpu_ms: Some(11.0), measured };
    let line = performance_line(
        &t,
        &gpu_puzzles_core::model::Performance { flops: Some(2_000_000_000), ..Default::default() },
    );
    assert_eq!(
        line,
        "10.50 ms (median of 3 runs × 4 dispatches, 10.00–11.00, GPU timestamps) · 190 GFLOP/s"
    );
    let low = Timing {
        measured: measured.map(|m| crate::timing::Measurement { clock: Some(0.24), ..m }),
        ..t
    };
    let line = performance_line(
        &low,
        &gpu_puzzles_core::model::Performance { flops: Some(2_000_000_000), ..Default::default() },
    );
    assert!(line.ends_with(" · 190 GFLOP/s · the GPU's clocks were low while this was measured (its FP32 rate at 24 % of the rate measured at start); the figure may be slow"), "{line}");
}

#[test]
fn a_correct_kernel_below_the_target_fails_on_a_gpu_only() {
    let set = crate::shipped_set();
    let puzzle = set.get("coalesced-access").unwrap();
    let case = puzzle.cases.iter().find(|c| c.is_performance()).unwrap();
    let ms = |m: f64| Timing { wall_ms: m, gpu_ms: Some(m), measured: None };
    let result = |student: f64, strided: f64| CaseResult {
        timing: ms(student),
        reference_timing: Some(ms(0.06)),
        comparison_timings: vec![Some(ms(strided))],
        ..CaseResult::new(case, Outcome::Passed)
    };
    // The strided walk: 16 % of the reference's rate, and as fast as the comparison kernel.
    match target_outcome(puzzle, case, &result(0.37, 0.36), false) {
        Some(Outcome::BelowTarget { fraction, target, message }) => {
            assert!((fraction - 0.06 / 0.37).abs() < 1e-9 && target == 0.7);
            assert!(
                message.contains("16 %")
                    && message.contains("70 %")
                    && message.contains("about as fast as the comparison kernel"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        target_outcome(puzzle, case, &result(0.37, 0.36), true),
        None,
        "not enforced on a software adapter"
    );
    // The same kernel timed while the GPU's clocks were held down: not judged on that figure.
    let measured =
        crate::timing::Measurement::from_spans(&[0.37], 1, crate::timing::Timer::Timestamps, None)
            .unwrap();
    let low = CaseResult {
        timing: Timing {
            measured: Some(crate::timing::Measurement { clock: Some(0.3), ..measured }),
            ..ms(0.37)
        },
        ..result(0.37, 0.36)
    };
    assert_eq!(
        target_outcome(puzzle, case, &low, false),
        None,
        "a figure taken under low clocks is not held to the target"
    );
    let full = CaseResult {
        timing: Timing {
            measured: Some(crate::timing::Measurement { clock: Some(0.97), ..measured }),
            ..ms(0.37)
        },
        ..low
    };
    assert!(
        matches!(target_outcome(puzzle, case, &full, false), Some(Outcome::BelowTarget { .. })),
        "at full clocks it is"
    );
    assert_eq!(
        target_outcome(puzzle, case, &result(0.08, 0.36), false),
        None,
        "75 % of the reference's rate is enough"
    );
    let ordinary = &puzzle.cases[0];
    assert_eq!(target_outcome(puzzle, ordinary, &result(0.37, 0.36), false), None);
}

#[test]
fn a_pass_without_memory_checks_is_not_fully_checked() {
    let set = crate::shipped_set();
    let case = &set.get("map").unwrap().cases[0];
    let result =
        |instrumentation| CaseResult { instrumentation, ..CaseResult::new(case, Outcome::Passed) };
    assert!(fully_checked(&[result(None), result(Some(Unchecked::PerformanceCase))]));
    let skipped = Unchecked::TraceTooLarge { bytes: 10, limit: 5 };
    assert!(!fully_checked(&[result(None), result(Some(skipped))]));
}

#[test]
fn a_sampled_case_is_judged_on_its_sample_alone() {
    let set = crate::shipped_set();
    let puzzle = set.get("matmul-register").unwrap();
    let case =
        puzzle.cases.iter().find(|c| c.performance.is_some_and(|p| p.sample.is_some())).unwrap();
    let expected = puzzle.expected(case).unwrap();
    let (elements, values) = (expected[0].elements.unwrap(), expected[0].values.as_f32().unwrap());
    let len = case.buffers[2].initial.len();
    // Right at every sampled element, NaN elsewhere: a pass, since only the
    // sample is known (the ordinary cases check every element).
    let mut out = vec![f32::NAN; len];
    for (&e, &v) in elements.iter().zip(values) {
        out[e] = v;
    }
    assert_eq!(judge(puzzle, case, &[Values::F32(out.clone())]).unwrap(), Outcome::Passed);
    // One sampled element wrong: a mismatch that says it was a sample.
    out[elements[1]] += 1.0;
    match judge(puzzle, case, &[Values::F32(out)]).unwrap() {
        Outcome::Mismatch { total: 1, mismatches, sampled: Some(n) } => {
            assert_eq!((mismatches[0].index, n), (elements[1], elements.len()));
            assert_eq!(mismatches[0].position, Some([elements[1] / 2048, elements[1] % 2048]));
        }
        other => panic!("{other:?}"),
    }
    let zeros = judge(puzzle, case, &[Values::F32(vec![0.0; len])]).unwrap();
    assert!(
        zeros.summary().ends_with(&format!(
            " of {} sampled elements differ from the expected values",
            elements.len()
        )),
        "{}",
        zeros.summary()
    );
}

#[test]
fn a_case_is_too_slow_when_an_earlier_one_predicts_a_long_dispatch() {
    let gflop = Some(1_000_000_000);
    let eight = Some(8_000_000_000);
    assert_eq!(too_slow_for_case(gflop, 10.0, eight), None, "80 ms is fine");
    assert_eq!(too_slow_for_case(gflop, 100.0, eight), Some(800.0), "800 ms nears a GPU reset");
    assert_eq!(too_slow_for_case(None, 100.0, eight), None, "no counts, no prediction");
    assert_eq!(too_slow_for_case(Some(0), 100.0, eight), None);
}

#[test]
fn digits_are_grouped_in_threes() {
    assert_eq!(group_digits(0), "0");
    assert_eq!(group_digits(999), "999");
    assert_eq!(group_digits(1000), "1,000");
    assert_eq!(group_digits(2_147_483_648), "2,147,483,648");
}

#[test]
fn tolerances_follow_isclose() {
    let tol = CompareSpec { abs: 0.01, rel: 0.1 };
    assert!(close(100.0, 110.0, tol));
    assert!(!close(100.0, 110.1, tol));
    assert!(close(0.0, 0.01, tol));
    assert!(!close(1.0, f64::INFINITY, tol));
}
