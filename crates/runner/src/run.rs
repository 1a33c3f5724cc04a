//! A Run: a student's shader judged on every case of a puzzle, in five
//! phases, each a function below whose inputs and outputs are values
//! (ARCHITECTURE.md, "A Run"):
//!
//! 1. [`prepare`]: each distinct (text, case configuration) substituted and
//!    parsed once ([`PreparedShader`]), shared by every later phase;
//! 2. and 3. [`run_ordinary`]: each ordinary case checked on the CPU
//!    interpreter (when asked) and dispatched on the GPU, plain or
//!    instrumented, and read back ([`crate::case`]);
//! 4. [`check_behind_the_gpu`]: the order and subgroup checks of the cases
//!    the GPU judged, and the lesson check;
//! 5. [`run_performance`]: the performance cases, timed, once every other
//!    case passed.

use crate::case::{complete, start_case};
use crate::cpu_checks::Early;
use crate::{Gpu, RunnerError};
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_interp::PreparedShader;
use gpu_puzzles_verdict::judge::{too_slow_for_case, CaseResult, Outcome};
use std::sync::Arc;
use web_time::Instant;

/// How to run a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunOptions {
    /// Run the shader instrumented (heat maps, memcheck, racecheck, loop
    /// guards) on every case but the performance ones; the instrumented
    /// run's outputs and findings give the verdict. Off only to time a
    /// kernel ([`crate::time_kernel`]): without it nothing catches a race, an
    /// out-of-bounds access or a loop that never ends.
    pub instrument: bool,
    /// With `instrument`: run each ordinary case on the CPU interpreter
    /// first, and dispatch a case it finds clean as written, with the
    /// interpreter's findings, instead of instrumented (a wrong kernel's
    /// cases still run instrumented). For browsers, whose compilers take
    /// far longer over the instrumented shader than the interpreter takes
    /// over the case (docs/performance.md). A shader that uses subgroups
    /// runs instrumented unless the adapter has one subgroup size (the
    /// interpreter then runs at that size).
    pub cpu_checks: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self { instrument: true, cpu_checks: false }
    }
}

/// Judges every case of `puzzle` with the student's `source`, in order, on
/// one device. Stops at the first [`RunnerError`] (our failure), never at a
/// student's error.
///
/// # Errors
/// [`RunnerError::DeviceLost`], [`RunnerError::Timeout`] or
/// [`RunnerError::Readback`].
///
/// Performance cases run last, and only when every other case passed (a
/// wrong or runaway shader is not worth timing, and the instrumented runs of
/// the small cases are what guard against runaway loops); otherwise they are
/// [`Outcome::Skipped`]. Every ordinary case that passed instrumented is
/// also run on the CPU in several orders of its invocations, and fails when
/// its result depends on the order ([`check_behind_the_gpu`]). A
/// `hardware_only` one is [`Outcome::Omitted`] on a software adapter, and
/// on a GPU where an earlier performance case predicts a dispatch near an
/// operating system's GPU reset
/// ([`gpu_puzzles_verdict::judge::too_slow_for_case`]). Results come back in
/// case order.
pub async fn judge_puzzle(
    gpu: &Gpu,
    puzzle: &Puzzle,
    source: &str,
    options: RunOptions,
) -> Result<Vec<CaseResult>, RunnerError> {
    judge_with(gpu, puzzle, &[], source, options).await
}

/// [`judge_puzzle`] with `extra` cases judged after the puzzle's ordinary
/// ones and before its performance cases: the random cases of a Run
/// ([`gpu_puzzles_core::load::random_cases`]), numbered after the puzzle's.
///
/// # Errors
/// As [`judge_puzzle`].
pub async fn judge_with(
    gpu: &Gpu,
    puzzle: &Puzzle,
    extra: &[Case],
    source: &str,
    options: RunOptions,
) -> Result<Vec<CaseResult>, RunnerError> {
    judge_with_helper(gpu, puzzle, extra, source, options, None).await
}

/// [`judge_with`], with the order checks of the cases that pass made by
/// `helper` (started with the Run, awaited after the read-backs); a check
/// it cannot make is made here.
///
/// # Errors
/// As [`judge_puzzle`].
pub async fn judge_with_helper(
    gpu: &Gpu,
    puzzle: &Puzzle,
    extra: &[Case],
    source: &str,
    options: RunOptions,
    helper: Option<&dyn crate::OrderCheckHelper>,
) -> Result<Vec<CaseResult>, RunnerError> {
    if let Ok(mut p) = gpu.phases.lock() {
        *p = Some(crate::RunPhases::default());
    }
    let since = Instant::now();
    let cases = prepare(gpu, puzzle, extra, source);
    let prepare_ms = ms(since);
    let mut early = Early { helper, helped: Default::default() };
    let mut ordinary = run_ordinary(gpu, &cases, options, &mut early).await?;
    let since = Instant::now();
    check_behind_the_gpu(gpu, &cases, &mut ordinary, early, options).await;
    let checks_ms = ms(since);
    let since = Instant::now();
    let performance = run_performance(gpu, &cases, &ordinary, options).await?;
    let performance_ms = ms(since);
    gpu.note_phase(|p| {
        (p.prepare_ms, p.checks_ms, p.performance_ms) = (prepare_ms, checks_ms, performance_ms)
    });
    let mut results = ordinary;
    results.extend(performance);
    results.sort_by_key(|r| r.case);
    Ok(results)
}

/// A Run's cases, each with the student's text prepared for it: the
/// ordinary cases (the puzzle's, then the extra ones) in the order they
/// are judged, and the performance cases. Cases whose configurations
/// substitute alike share one [`PreparedShader`].
pub(crate) struct RunCases<'a> {
    pub(crate) puzzle: &'a Puzzle,
    pub(crate) ordinary: Vec<(&'a Case, Arc<PreparedShader>)>,
    pub(crate) performance: Vec<(&'a Case, Arc<PreparedShader>)>,
}

/// Phase 1: the student's `source` substituted for each case and parsed,
/// once per distinct configuration, from the device's kept shaders when a
/// Run met the same text before ([`Gpu::prepared`]).
pub(crate) fn prepare<'a>(
    gpu: &Gpu,
    puzzle: &'a Puzzle,
    extra: &'a [Case],
    source: &str,
) -> RunCases<'a> {
    // This Run's own, by what substitution puts in the text (the puzzle
    // and the text are the Run's), so that a device's kept set starting
    // over midway prepares nothing twice, and the text is hashed once per
    // configuration rather than once per case.
    let mut mine = std::collections::HashMap::new();
    let mut prepared = |c: &'a Case| {
        let substituted = gpu_puzzles_core::template::replacements(&c.config);
        let shader =
            mine.entry(substituted).or_insert_with(|| gpu.prepared(puzzle, source, &c.config));
        (c, Arc::clone(shader))
    };
    RunCases {
        puzzle,
        ordinary: puzzle
            .cases
            .iter()
            .filter(|c| !c.is_performance())
            .chain(extra)
            .map(&mut prepared)
            .collect(),
        performance: puzzle
            .cases
            .iter()
            .filter(|c| c.is_performance())
            .map(&mut prepared)
            .collect(),
    }
}

/// Phases 2 and 3: every ordinary case started (its CPU checks, compile
/// and dispatch; [`start_case`]) and read back and judged ([`complete`]),
/// in the order of [`RunCases::ordinary`].
///
/// In a browser every case is submitted before any read-back is awaited:
/// each await is a round trip to the GPU process. Natively the map
/// callbacks only run when the device is polled, so a case's time would
/// include the cases compiled after it: each is awaited at once.
async fn run_ordinary(
    gpu: &Gpu,
    cases: &RunCases<'_>,
    options: RunOptions,
    early: &mut Early<'_>,
) -> Result<Vec<CaseResult>, RunnerError> {
    let puzzle = cases.puzzle;
    let since = Instant::now();
    let mut started = Vec::new();
    let mut results = Vec::with_capacity(cases.ordinary.len());
    for (case, shader) in &cases.ordinary {
        let s = start_case(gpu, puzzle, case, shader, options, early).await?;
        if PIPELINED {
            started.push((case, s));
        } else {
            results.push(complete(gpu, puzzle, case, s).await?);
        }
    }
    let submit_ms = ms(since);
    let since = Instant::now();
    for (case, s) in started {
        results.push(complete(gpu, puzzle, case, s).await?);
    }
    let read_back_ms = ms(since);
    gpu.note_phase(|p| (p.submit_ms, p.read_back_ms) = (submit_ms, read_back_ms));
    Ok(results)
}

/// Phase 4: the checks behind the GPU's verdicts (CPU work), with every
/// read-back in: the helper's order checks for the cases that passed
/// (started in phase 2), the order and subgroup checks of the rest
/// ([`crate::order::order_checks`]), for a puzzle that asks for the same
/// bits every Run the passed cases run again on the GPU
/// ([`crate::repeats`]), and the puzzle's lesson check on the first case's
/// shader. `ordinary` is [`run_ordinary`]'s, in its order.
async fn check_behind_the_gpu(
    gpu: &Gpu,
    cases: &RunCases<'_>,
    ordinary: &mut [CaseResult],
    mut early: Early<'_>,
    options: RunOptions,
) {
    let puzzle = cases.puzzle;
    for ((case, shader), r) in cases.ordinary.iter().zip(ordinary.iter()) {
        if let Some(check) = early.helped.remove(&case.number).filter(|_| r.outcome.passed()) {
            if let Ok(checked) = check.await {
                crate::order::keep_passed(gpu, case, shader, checked);
                gpu.note_phase(|p| p.helper_checks += 1.0);
            }
        }
    }
    if options.instrument {
        // Wrong outputs of a subgroup shader are checked too: if another
        // subgroup size gives the right ones, the finding says so.
        let checked = |shader: &PreparedShader, r: &CaseResult| {
            r.outcome.passed()
                || (shader.mentions_subgroups() && matches!(r.outcome, Outcome::Mismatch { .. }))
        };
        let to_check = cases
            .ordinary
            .iter()
            .zip(ordinary.iter_mut())
            .filter(|((_, s), r)| checked(s, r))
            .map(|((c, s), r)| (*c, s, r))
            .collect();
        crate::order::order_checks(gpu, puzzle, to_check);
    }
    if puzzle.deterministic {
        for ((case, shader), r) in cases.ordinary.iter().zip(ordinary.iter_mut()) {
            if !r.outcome.passed() {
                continue;
            }
            match crate::repeats::same_bits_check(gpu, puzzle, case, shader).await {
                Ok(Some(outcome)) => r.outcome = outcome,
                Ok(None) => {}
                Err(e) => {
                    if let Some(f) = r.findings.as_mut() {
                        f.unchecked.push(format!("the repeated runs (the case run again on the GPU, its bits compared) did not run: {e}"));
                    }
                }
            }
        }
    }
    let first = cases.ordinary.first().or(cases.performance.first()).map(|(_, s)| s);
    gpu_puzzles_instrument::lesson_checks(puzzle, first.and_then(|s| s.shader().ok()), ordinary);
}

/// Phase 5: the performance cases, timed when every case in `ordinary`
/// passed, else [`Outcome::Skipped`]; a `hardware_only` one is
/// [`Outcome::Omitted`] on a software adapter, or where the last case
/// timed predicts a dispatch near an operating system's GPU reset.
async fn run_performance(
    gpu: &Gpu,
    cases: &RunCases<'_>,
    ordinary: &[CaseResult],
    options: RunOptions,
) -> Result<Vec<CaseResult>, RunnerError> {
    let puzzle = cases.puzzle;
    let all_passed = ordinary.iter().all(|r| r.outcome.passed());
    let mut results = Vec::with_capacity(cases.performance.len());
    // The last performance case timed: its operations and time per dispatch.
    let mut timed: Option<(Option<u64>, f64)> = None;
    for (case, shader) in &cases.performance {
        let hardware_only = case.performance.is_some_and(|p| p.hardware_only);
        let flops = case.performance.and_then(|p| p.flops);
        let too_slow = timed
            .filter(|_| hardware_only)
            .and_then(|(before, ms)| too_slow_for_case(before, ms, flops));
        let r = if !all_passed {
            skipped(case)
        } else if hardware_only && gpu.adapter().software {
            omitted(case, "not run on a software adapter: this size is for a hardware GPU, where it takes milliseconds (here, minutes). The other performance cases are timed instead.".into())
        } else if let Some(ms) = too_slow {
            omitted(case, format!("not run: on this GPU one dispatch of this size would take about {ms:.0} ms, near the time after which the operating system resets a GPU (losing the page's device). The smaller performance cases are timed instead."))
        } else {
            let started =
                start_case(gpu, puzzle, case, shader, options, &mut Early::default()).await?;
            complete(gpu, puzzle, case, started).await?
        };
        if r.outcome.passed() {
            timed = Some((flops, r.timing.best().0));
        }
        results.push(r);
    }
    Ok(results)
}

/// Runs and judges one case: [`start_case`] and [`complete`] on the
/// student's text as the device keeps it prepared.
///
/// # Errors
/// Only our own failures: a lost device, a timeout, a failed read-back, a
/// puzzle whose reference fails.
pub async fn run_case(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    source: &str,
    options: RunOptions,
) -> Result<CaseResult, RunnerError> {
    let shader = gpu.prepared(puzzle, source, &case.config);
    let started = start_case(gpu, puzzle, case, &shader, options, &mut Early::default()).await?;
    complete(gpu, puzzle, case, started).await
}

/// Milliseconds since `since`.
pub(crate) fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

/// The result of a performance case left out because another case failed.
fn skipped(case: &Case) -> CaseResult {
    CaseResult::new(case, Outcome::Skipped { message: "not timed: performance cases run once every other case passes. Fix the failing cases first.".into() })
}

/// The result of a `hardware_only` performance case left out on this
/// adapter, saying why.
fn omitted(case: &Case, message: String) -> CaseResult {
    CaseResult::new(case, Outcome::Omitted { message })
}

/// Whether [`run_ordinary`] submits every ordinary case before awaiting any
/// read-back: in a browser, where each await is a round trip to the GPU
/// process and map callbacks run as soon as the mapping is done.
const PIPELINED: bool = cfg!(target_arch = "wasm32");
