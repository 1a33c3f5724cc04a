//! Judging: comparing a dispatch's outputs with the expected values, and the
//! outcomes the site and the command-line tool show.
//!
//! A student's broken shader is not an error of ours: compile errors, wrong
//! answers and configurations the device cannot run are [`Outcome`]s.

use crate::format::CompareSpec;
use crate::model::{Case, Puzzle, Values};
use crate::trace::Findings;
use serde::{Deserialize, Serialize};

mod budget;
mod lesson;
mod outcome;

pub use budget::*;
pub use lesson::*;
pub use outcome::*;

/// `n` with a comma every three digits, e.g. `2,147,483,648`.
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A one-line performance report for a case's timing, e.g.
/// `"12.5 ms (GPU timestamps) · 171.8 GFLOP/s"`.
pub fn performance_line(timing: &Timing, performance: &crate::model::Performance) -> String {
    let (ms, kind) = timing.best();
    let mut line = match timing.measured {
        Some(m) => m.describe(),
        None => format!("{ms:.2} ms ({kind}, one dispatch)"),
    };
    if let Some(r) = performance.flops.and_then(|f| timing.rate(f)) {
        line += &format!(" · {} GFLOP/s", three_figures(r));
    }
    if let Some(r) = performance.bytes.and_then(|b| timing.rate(b)) {
        line += &format!(" · {} GB/s", three_figures(r));
    }
    if let Some(warning) = timing.measured.and_then(|m| m.clock_warning()) {
        line += &format!(" · {warning}");
    }
    line
}

/// A rate to three significant figures, never in exponent notation
/// (`0.0503`, `4.81`, `172`, `1234`).
fn three_figures(x: f64) -> String {
    let decimals = if x <= 0.0 || !x.is_finite() {
        0
    } else {
        (2 - x.log10().floor() as i32).clamp(0, 6) as usize
    };
    format!("{x:.decimals$}")
}

/// The outcome of a passed performance case held to the puzzle's
/// `performance_target`: [`Outcome::BelowTarget`] when the kernel's rate is
/// less than that fraction of the reference solution's, measured on the
/// same case and device (`result.reference_timing`). `None` when the case
/// passes the target, is not a passed performance case, the puzzle has no
/// target or no reference timing, or on a software adapter (`software`),
/// whose timings say nothing about GPUs: there the target is not enforced.
/// Nor is it when either figure was taken under low clocks
/// ([`Timing::low_clocks`]): the target cannot be checked on it.
/// When the kernel runs within 15 % of a comparison kernel's time, the
/// message says so, since that is the approach the puzzle teaches to avoid.
pub fn target_outcome(
    puzzle: &Puzzle,
    case: &Case,
    result: &CaseResult,
    software: bool,
) -> Option<Outcome> {
    let target = puzzle.performance_target?;
    if software || !case.is_performance() || !result.outcome.passed() {
        return None;
    }
    let reference = result.reference_timing?;
    if result.timing.low_clocks() || reference.low_clocks() {
        return None;
    }
    let (ms, _) = result.timing.best();
    let (reference_ms, _) = reference.best();
    if ms <= 0.0 || reference_ms <= 0.0 {
        return None;
    }
    let fraction = reference_ms / ms;
    if fraction >= target {
        return None;
    }
    let like = puzzle
        .comparisons
        .iter()
        .zip(&result.comparison_timings)
        .find(|(_, t)| t.is_some_and(|t| (t.best().0 / ms - 1.0).abs() <= 0.15))
        .map(|(c, _)| format!(" It runs about as fast as the comparison kernel \"{}\": that is the approach this puzzle teaches to avoid.", c.label))
        .unwrap_or_default();
    let message = format!(
        "correct, but slow: {:.0} % of the reference kernel's rate on this GPU ({ms:.3} ms against {reference_ms:.3} ms), and this puzzle asks for {:.0} %.{like} Apply the technique in the statement and the hints, then compare your figures with the reference's.",
        fraction * 100.0,
        target * 100.0
    );
    Some(Outcome::BelowTarget { fraction, target, message })
}

/// The longest one dispatch of a `hardware_only` performance case may be
/// expected to take, in milliseconds. Operating systems reset a GPU whose
/// command buffer runs for about 2 s (Windows' TDR default), which loses
/// the page's device; a GPU that would come near it is too slow for the
/// case, and the smaller performance cases are timed instead.
pub const MAX_PREDICTED_DISPATCH_MS: f64 = 500.0;

/// The predicted time in milliseconds of one dispatch of a performance case
/// of `flops` operations, from an earlier performance case of the same
/// puzzle that did `earlier_flops` in `earlier_ms` (the work scales with
/// the operations, and a larger case is at least as efficient), when that
/// prediction is above [`MAX_PREDICTED_DISPATCH_MS`]; `None` when it is
/// within it or either count is missing.
pub fn too_slow_for_case(
    earlier_flops: Option<u64>,
    earlier_ms: f64,
    flops: Option<u64>,
) -> Option<f64> {
    let (before, now) = (earlier_flops? as f64, flops? as f64);
    let predicted = earlier_ms * now / before;
    (before > 0.0 && predicted > MAX_PREDICTED_DISPATCH_MS).then_some(predicted)
}

/// For `u32` count outputs (histograms): when the counts the dispatch wrote
/// add up to less than the expected counts and the racecheck found a lost
/// update on that buffer (`findings`: a read-modify-write by several
/// invocations at one line, [`crate::report::HazardPattern::LostUpdate`]),
/// a sentence saying how many increments were lost; `None` otherwise (counts
/// that are short for another reason, such as a count never written, or a
/// write conflict in a buffer of keys, are not put down to lost increments).
pub fn lost_counts(
    puzzle: &Puzzle,
    case: &Case,
    actual: &[Values],
    findings: Option<&Findings>,
) -> Option<String> {
    let expected = puzzle.expected(case).ok()?;
    let raced = |name: &str| {
        findings.is_some_and(|f| {
            crate::report::group_hazards(&f.hazards).iter().any(|g| {
                g.pattern == crate::report::HazardPattern::LostUpdate
                    && g.hazards.iter().any(|h| h.space == name && !h.workgroup_memory)
            })
        })
    };
    for ((k, i), e) in puzzle.compared_buffers().enumerate().zip(expected) {
        let (Some(Values::U32(e)), Some(Values::U32(a))) = (e.whole(), actual.get(k)) else {
            continue;
        };
        if !raced(&puzzle.buffers[i].name) {
            continue;
        }
        let (want, got) =
            (e.iter().map(|&x| x as u64).sum::<u64>(), a.iter().map(|&x| x as u64).sum::<u64>());
        if got < want {
            return Some(format!(
                "`{}` counts {got} of {want}: {} increments were lost, because two invocations read the same old value and both wrote it back plus one.",
                puzzle.buffers[i].name,
                want - got
            ));
        }
    }
    None
}

/// The outcome that findings impose on a case, if any: a runaway loop, or
/// the memory error [`crate::report::memory_error`] picks (any out-of-bounds
/// access, any racecheck hazard), worded by [`crate::report`].
pub fn memory_outcome(findings: &Findings) -> Option<Outcome> {
    if let Some(l) = &findings.runaway_loop {
        return Some(Outcome::RunawayLoop {
            line: l.line,
            invocation: l.invocation,
            message: crate::report::runaway_loop(l.line, &l.invocation),
        });
    }
    let error = crate::report::memory_error(findings)?;
    Some(Outcome::MemoryError {
        message: crate::report::memory_error_summary(findings, &error),
        error,
    })
}

/// Overall result of a run over every case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Every case passed.
    Passed,
    /// At least one case did not pass.
    Failed,
}

/// Whether every case that could be instrumented was: no case lacks its
/// memory checks for a reason other than being a performance case. A Run
/// that passes on values alone while a check could not run is not a pass a
/// student can trust (a race or an out-of-bounds access could be hiding),
/// so the page does not mark the puzzle solved.
pub fn fully_checked(results: &[CaseResult]) -> bool {
    results
        .iter()
        .all(|r| !matches!(&r.instrumentation, Some(u) if *u != Unchecked::PerformanceCase))
}

/// The verdict over a set of case results: `Passed` when none failed and at
/// least one passed ([`Outcome::Omitted`] cases count neither way); `Failed`
/// when there are none.
pub fn verdict(results: &[CaseResult]) -> Verdict {
    if results.iter().any(|r| r.outcome.passed()) && !results.iter().any(|r| r.outcome.failed()) {
        Verdict::Passed
    } else {
        Verdict::Failed
    }
}

/// True when `actual` is acceptable for `expected` under `compare`:
/// `|actual - expected| <= abs + rel * |expected|`; exact when both are zero.
/// NaN never matches; infinities match only themselves.
pub fn close(expected: f64, actual: f64, compare: CompareSpec) -> bool {
    if expected == actual {
        return true;
    }
    if expected.is_nan() || actual.is_nan() || expected.is_infinite() || actual.is_infinite() {
        return false;
    }
    (actual - expected).abs() <= compare.abs + compare.rel * expected.abs()
}

/// Why [`judge`] could not judge: our failure, never the student's.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum JudgeError {
    /// The puzzle's reference could not compute case `case`.
    #[error("the puzzle's reference could not compute case {case}: {error}")]
    Expected {
        /// The case's number.
        case: usize,
        /// Why.
        error: crate::model::ExpectedError,
    },
    /// A compared buffer was not read back.
    #[error("no contents were read back for `{buffer}`")]
    NotReadBack {
        /// The buffer's name.
        buffer: String,
    },
}

/// Compares the contents of each compared buffer (outputs and input-outputs,
/// in binding order) with the case's expected values (every element, or a
/// sampled case's sample).
///
/// A performance case's expected values are computed here on first use
/// ([`Puzzle::expected`]).
///
/// # Errors
/// Our failures, never the student's: the puzzle's reference could not
/// compute the case, or a compared buffer was not read back.
pub fn judge(puzzle: &Puzzle, case: &Case, actual: &[Values]) -> Result<Outcome, JudgeError> {
    let (mut total, mut sampled) = (0, None::<usize>);
    let mut mismatches = Vec::new();
    let all_expected =
        puzzle.expected(case).map_err(|error| JudgeError::Expected { case: case.number, error })?;
    for ((k, i), expected) in puzzle.compared_buffers().enumerate().zip(all_expected) {
        let buffer = &puzzle.buffers[i];
        let cb = &case.buffers[i];
        let got =
            actual.get(k).ok_or_else(|| JudgeError::NotReadBack { buffer: buffer.name.clone() })?;
        if let Some(e) = expected.elements {
            *sampled.get_or_insert(0) += e.len();
        }
        for (j, e) in expected.checked() {
            let a = if j < got.len() { got.get(j) } else { f64::NAN };
            if !close(expected.values.get(e), a, case.compare) {
                total += 1;
                if mismatches.len() < MAX_LISTED_MISMATCHES {
                    mismatches.push(ElementMismatch {
                        buffer: buffer.name.clone(),
                        index: j,
                        position: cb.shape.map(|[_, c]| [j / c as usize, j % c as usize]),
                        expected: expected.values.format(e),
                        actual: if j < got.len() { got.format(j) } else { "missing".into() },
                    });
                }
            }
        }
    }
    Ok(if total == 0 { Outcome::Passed } else { Outcome::Mismatch { total, mismatches, sampled } })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CaseConfig;
    use crate::trace::invocation_counter;

    #[test]
    fn budgets_count_by_the_workgroup_size_the_shader_ran() {
        // Block Sum allows one global write per workgroup. The shader
        // declares 512 invocations per workgroup where the case says 256:
        // invocations 0 and 300 are then both in workgroup 0, two writes.
        let set = crate::load::shipped_set();
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
            &crate::model::Performance { flops: Some(2_000_000_000), ..Default::default() },
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
            &crate::model::Performance { flops: Some(2_000_000_000), ..Default::default() },
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
            &crate::model::Performance { flops: Some(2_000_000_000), ..Default::default() },
        );
        assert!(line.ends_with(" · 190 GFLOP/s · the GPU's clocks were low while this was measured (its FP32 rate at 24 % of the rate measured at start); the figure may be slow"), "{line}");
    }

    #[test]
    fn a_correct_kernel_below_the_target_fails_on_a_gpu_only() {
        let set = crate::load::shipped_set();
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
        let measured = crate::timing::Measurement::from_spans(
            &[0.37],
            1,
            crate::timing::Timer::Timestamps,
            None,
        )
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
        let set = crate::load::shipped_set();
        let case = &set.get("map").unwrap().cases[0];
        let result = |instrumentation| CaseResult {
            instrumentation,
            ..CaseResult::new(case, Outcome::Passed)
        };
        assert!(fully_checked(&[result(None), result(Some(Unchecked::PerformanceCase))]));
        let skipped = Unchecked::TraceTooLarge { bytes: 10, limit: 5 };
        assert!(!fully_checked(&[result(None), result(Some(skipped))]));
    }

    #[test]
    fn a_sampled_case_is_judged_on_its_sample_alone() {
        let set = crate::load::shipped_set();
        let puzzle = set.get("matmul-register").unwrap();
        let case = puzzle
            .cases
            .iter()
            .find(|c| c.performance.is_some_and(|p| p.sample.is_some()))
            .unwrap();
        let expected = puzzle.expected(case).unwrap();
        let (elements, values) =
            (expected[0].elements.unwrap(), expected[0].values.as_f32().unwrap());
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
}
