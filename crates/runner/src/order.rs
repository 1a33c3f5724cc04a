//! The order check, the judge's second line of defence behind the
//! racecheck ([`gpu_puzzles_interp::emulate::order_check`]), with the
//! checks a device has made kept for Runs of unchanged code.

use crate::Gpu;
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_interp::PreparedShader;
use gpu_puzzles_verdict::judge::{CaseResult, Outcome};
use std::sync::Arc;

/// The second line of defence behind the racecheck
/// ([`gpu_puzzles_interp::emulate::order_check`]): a case that passed on
/// the GPU is run on the CPU in several orders of its invocations, and
/// fails when the result passes in one order and not in another. Then, for
/// a shader that uses subgroups, passed or with wrong outputs, the
/// subgroup check ([`gpu_puzzles_interp::emulate::subgroup_check`]): a
/// result right at one subgroup size and wrong at another fails, naming
/// both, whatever size this GPU has. When the
/// interpreter cannot run the shader, the case keeps its verdict and its
/// findings say the order check did not run.
pub(crate) fn order_check(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    shader: &Arc<PreparedShader>,
    r: &mut CaseResult,
) {
    let checked = order_check_outcome(gpu, puzzle, case, shader, r.outcome.passed());
    match checked {
        Ok(Some(outcome)) => r.outcome = outcome,
        Ok(None) => {}
        Err(why) => {
            if let Some(f) = r.findings.as_mut() {
                f.unchecked.push(format!("the order check (the case run on the CPU in several orders of its invocations) did not run: {why}"));
            }
        }
    }
}

/// What [`order_check`] imposes on a case judged `passed` (or not) on the
/// GPU: a failing outcome, nothing, or why the check did not run. Kept per
/// device, so a case checked while its shader compiled
/// ([`crate::run`]'s step 3) is not checked again after its read-back.
pub(crate) fn order_check_outcome(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    shader: &Arc<PreparedShader>,
    passed: bool,
) -> Result<Option<Outcome>, String> {
    let case_key = crate::cpu_checks::case_key(case, shader);
    let key = order_key(case_key, passed);
    let known = gpu.order_checks.lock().ok().and_then(|c| c.get(&key).cloned());
    known.unwrap_or_else(|| {
        // One preparation (parse, validation) for both checks; a case the
        // interpreter ran already (RunOptions::cpu_checks) is not run in
        // lockstep again.
        let clean = crate::cpu_checks::kept(gpu, case_key).flatten();
        let lockstep = clean.as_ref().and_then(|c| c.lockstep.as_deref()).map(Vec::as_slice);
        let checked = gpu_puzzles_interp::emulate::checks_behind_the_gpu_prepared(
            puzzle, case, shader, passed, lockstep,
        )
        .map_err(|u| u.message);
        keep(gpu, key, checked.clone());
        checked
    })
}

/// The key of an order check: the case's [`crate::cpu_checks::case_key`]
/// and whether the GPU passed the case.
fn order_key(case_key: u64, passed: bool) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (case_key, passed).hash(&mut h);
    h.finish()
}

fn keep(gpu: &Gpu, key: u64, checked: Result<Option<Outcome>, String>) {
    if let Ok(mut c) = gpu.order_checks.lock() {
        if c.len() >= MAX_ORDER_CHECKS {
            c.clear();
        }
        c.insert(key, checked);
    }
}

/// Whether the order check of `case`, passed on the GPU, is kept already.
pub(crate) fn kept_passed(gpu: &Gpu, case: &Case, shader: &PreparedShader) -> bool {
    let key = order_key(crate::cpu_checks::case_key(case, shader), true);
    gpu.order_checks.lock().is_ok_and(|c| c.contains_key(&key))
}

/// Keeps what a [`OrderCheckHelper`] found for `case`, passed on the GPU,
/// so that [`order_check`] uses it.
pub(crate) fn keep_passed(
    gpu: &Gpu,
    case: &Case,
    shader: &PreparedShader,
    checked: Result<Option<Outcome>, String>,
) {
    keep(gpu, order_key(crate::cpu_checks::case_key(case, shader), true), checked);
}

/// What a helper's order check gives: `Err` when the helper could not
/// make it (it crashed or went away: the judge makes it itself), else the
/// check's own result, as [`order_check_outcome`]'s.
pub type HelperCheck = std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<Result<Option<Outcome>, String>, String>>>,
>;

/// Makes order checks away from the judge's thread: in a browser, a second
/// Web Worker on another core, while the judge's worker checks the cases
/// in lockstep and runs them on the GPU
/// ([`crate::run::judge_with_helper`]). The check it makes is
/// [`gpu_puzzles_interp::emulate::checks_behind_the_gpu_after`] for a case
/// that passed, as the judge would make it.
pub trait OrderCheckHelper {
    /// Starts the order check of `case` (`source` as the student wrote
    /// it), assuming the GPU passes the case; `lockstep`, the compared
    /// buffers after the interpreter's lockstep run, when the check can
    /// reuse them (the helper then runs the other two schedules only).
    /// `None` when the helper cannot take it now (not started yet, or
    /// gone).
    fn start(
        &self,
        puzzle: &Puzzle,
        case: &Case,
        source: &str,
        lockstep: Option<&[gpu_puzzles_core::Values]>,
    ) -> Option<HelperCheck>;
}

/// [`order_check`] on each of `cases`: one after another in a browser (one
/// thread), natively each case on a thread of its own, as the CPU has
/// cores: the checks are independent, and they are most of the CPU time of
/// judging a puzzle.
pub(crate) fn order_checks(
    gpu: &Gpu,
    puzzle: &Puzzle,
    cases: Vec<(&Case, &Arc<PreparedShader>, &mut CaseResult)>,
) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        if threads > 1 && cases.len() > 1 {
            let mut queue = cases;
            let per_thread = queue.len().div_ceil(threads);
            std::thread::scope(|s| {
                while !queue.is_empty() {
                    let mine: Vec<_> = queue.drain(..per_thread.min(queue.len())).collect();
                    s.spawn(move || {
                        mine.into_iter()
                            .for_each(|(case, shader, r)| order_check(gpu, puzzle, case, shader, r))
                    });
                }
            });
            return;
        }
    }
    for (case, shader, r) in cases {
        order_check(gpu, puzzle, case, shader, r);
    }
}

/// Order checks by a hash of the puzzle, the case (its number and random
/// seed) and the student's text: the outcome it imposes, if any, or why it
/// did not run.
pub(crate) type OrderChecks = std::collections::HashMap<u64, Result<Option<Outcome>, String>>;

/// Order checks a device keeps before starting over (each is a few bytes,
/// or an outcome's message).
const MAX_ORDER_CHECKS: usize = 1024;
