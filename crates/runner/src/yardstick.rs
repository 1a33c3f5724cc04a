//! Yardsticks for a performance case: the reference solution's and the
//! comparison kernels' timings on the same device, and the performance
//! target held against them.

use crate::run::{run_case, RunOptions};
use crate::{Gpu, RunnerError};
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_verdict::judge::{target_outcome, CaseResult, Outcome, Timing};

/// A likely cause of a slow kernel, for its below-target message: the
/// function-local arrays it indexes with run-time values
/// ([`gpu_puzzles_instrument::IndexedLocal`]), each named with its first
/// such line; empty when there are none (or the text does not parse).
fn indexed_locals(gpu: &Gpu, puzzle: &Puzzle, case: &Case, source: &str) -> String {
    let prepared = gpu.prepared(puzzle, source, &case.config);
    let (sub, Ok(shader)) = (prepared.sub(), prepared.shader()) else { return String::new() };
    let found: Vec<String> = shader
        .dynamically_indexed_locals()
        .iter()
        .map(|l| {
            format!(
                "`{}` (line {})",
                l.name,
                gpu_puzzles_core::template::position_of_offset(
                    source,
                    sub.to_source_offset(l.offset)
                )
                .line
            )
        })
        .collect();
    match found.as_slice() {
        [] => String::new(),
        [one] => format!(" A likely cause: the array {one} is indexed with a value known only at run time, so the GPU keeps it in memory instead of registers; index it with constants where it is hot (write the steps out)."),
        many => format!(" A likely cause: the arrays {} are indexed with values known only at run time, so the GPU keeps them in memory instead of registers; index them with constants where they are hot (write the steps out).", many.join(", ")),
    }
}

/// Times a kernel on a performance case, on the same device and in the same
/// way as a student's run (one uninstrumented dispatch): the reference
/// solution and the comparison kernels of [`Puzzle::comparisons`], the
/// yardsticks printed next to a student's figures. `Ok(None)`
/// when the kernel does not pass the case.
///
/// # Errors
/// As [`run_case`].
pub async fn time_kernel(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    source: &str,
) -> Result<Option<Timing>, RunnerError> {
    let r =
        run_case(gpu, puzzle, case, source, RunOptions { instrument: false, cpu_checks: false })
            .await?;
    Ok(r.outcome.passed().then_some(r.timing))
}

/// Timings of yardstick kernels by puzzle slug, case number and kernel (0 the
/// reference solution, `k + 1` comparison kernel `k`); `None` for one that
/// did not pass or does not exist in this build.
pub type YardstickCache = std::collections::HashMap<(String, usize, usize), Option<Timing>>;

/// Fills in the reference solution's and every comparison kernel's timing on
/// each performance case of `results` that passed, measuring only what
/// `cache` does not hold yet (and taking the student's own figure as the
/// reference's when `source` is the reference solution's very text) (a front end keeps one cache per device, since
/// the yardsticks do not change between a student's runs), and then holds
/// each to the puzzle's `performance_target`
/// ([`gpu_puzzles_verdict::judge::target_outcome`]).
///
/// A kernel below its target is not failed on one comparison: the student's
/// kernel (`source`, the one `results` judged) and the reference are timed
/// again, back to back, and the target is checked on those figures. A GPU's
/// clocks can change between two measurements (a cached reference taken at
/// full clocks against a student's run at low ones would fail a correct
/// kernel), and back to back they share the same clocks. Nor is it failed
/// on a figure taken under low clocks
/// ([`gpu_puzzles_verdict::timing::Measurement::low_clocks`]): the target is
/// then not checked, and such a yardstick is not kept in `cache`.
///
/// With `time_comparisons` false the comparison kernels are not run and
/// each result's `comparison_timings` stays empty: a front end on a
/// software adapter, where one dispatch at a performance size takes
/// seconds, times them only when the student asks
/// ([`gpu_puzzles_verdict::run_report::PerformanceReport::comparisons_untimed`]
/// says so).
///
/// # Errors
/// As [`run_case`].
pub async fn add_yardsticks(
    gpu: &Gpu,
    puzzle: &Puzzle,
    source: &str,
    results: &mut [CaseResult],
    cache: &mut YardstickCache,
    time_comparisons: bool,
) -> Result<(), RunnerError> {
    let comparisons = if time_comparisons { &puzzle.comparisons[..] } else { &[] };
    for r in results.iter_mut().filter(|r| r.outcome.passed()) {
        let Some(case) = puzzle.cases.get(r.case - 1).filter(|c| c.is_performance()) else {
            continue;
        };
        let kernels: Vec<Option<&str>> = std::iter::once(puzzle.solution.as_deref())
            .chain(comparisons.iter().map(|c| Some(c.source.as_str())))
            .collect();
        let mut timings = Vec::with_capacity(kernels.len());
        for (k, kernel) in kernels.into_iter().enumerate() {
            let key = (puzzle.slug.clone(), case.number, k);
            let t = match cache.get(&key) {
                Some(t) => *t,
                None => {
                    let t = match kernel {
                        // The student ran our reference as it is (as after
                        // "Show it"): its figure is the reference's on this
                        // device, not measured a second time.
                        Some(s) if k == 0 && s == source => Some(r.timing),
                        Some(s) => time_kernel(gpu, puzzle, case, s).await?,
                        None => None,
                    };
                    // A figure taken under low clocks is measured again next
                    // time; so is a kernel absent this time (the site fetches
                    // our solution, which can fail and succeed later).
                    if kernel.is_some() && !t.is_some_and(|t| t.low_clocks()) {
                        cache.insert(key, t);
                    }
                    t
                }
            };
            timings.push(t);
        }
        r.reference_timing = timings[0];
        r.comparison_timings = timings[1..].to_vec();
        if target_outcome(puzzle, case, r, gpu.adapter().software).is_none() {
            continue;
        }
        // Below target on one comparison: both kernels again, back to back.
        let (Some(student), Some(reference)) = (
            time_kernel(gpu, puzzle, case, source).await?,
            match puzzle.solution.as_deref() {
                Some(s) => time_kernel(gpu, puzzle, case, s).await?,
                None => None,
            },
        ) else {
            continue;
        };
        r.timing = student;
        r.reference_timing = Some(reference);
        if !reference.low_clocks() {
            cache.insert((puzzle.slug.clone(), case.number, 0), Some(reference));
        }
        if let Some(Outcome::BelowTarget { fraction, target, message }) =
            target_outcome(puzzle, case, r, gpu.adapter().software)
        {
            let message =
                format!("{message}{} (Measured twice; the second time your kernel and the reference ran back to back.)", indexed_locals(gpu, puzzle, case, source));
            r.outcome = Outcome::BelowTarget { fraction, target, message };
        }
    }
    Ok(())
}
