//! Judging: comparing a dispatch's outputs with the expected values, and the
//! outcomes the site and the command-line tool show.
//!
//! A student's broken shader is not an error of ours: compile errors, wrong
//! answers and configurations the device cannot run are [`Outcome`]s.

use crate::trace::Findings;
use gpu_puzzles_core::format::CompareSpec;
use gpu_puzzles_core::model::{Case, Puzzle, Values};
use serde::{Deserialize, Serialize};

mod budget;
mod lesson;

pub use crate::outcome::*;
pub use budget::*;
pub use lesson::*;

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
pub fn performance_line(
    timing: &Timing,
    performance: &gpu_puzzles_core::model::Performance,
) -> String {
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
        error: gpu_puzzles_core::model::ExpectedError,
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

impl Outcome {
    /// A configuration error: `problem` and its words.
    pub fn config(problem: ConfigProblem) -> Outcome {
        Outcome::ConfigError { message: crate::report::config_problem(&problem), problem }
    }
}

#[cfg(test)]
mod tests;
