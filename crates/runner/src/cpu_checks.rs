//! The checks of a case made on the CPU before its GPU dispatch
//! ([`RunOptions::cpu_checks`](crate::RunOptions::cpu_checks)), kept per
//! device for Runs of unchanged code.
//!
//! Why: a browser compiles the instrumented shader with the GPU's own
//! compiler, and that shader is several times the student's (every access
//! gains its trace and shadow-memory updates). On SwiftShader those
//! compiles were 84-96 % of a Run after an edit, while the interpreter ran
//! the same cases in a few milliseconds (docs/performance.md). So a case
//! the interpreter finds clean (no out-of-bounds access, no race, every
//! loop within its budget, every barrier reached) is dispatched as the
//! student wrote it, with the interpreter's findings (heat maps, counts
//! for the budget) beside the GPU's outputs (a shader that uses subgroups
//! only on an adapter with one subgroup size, at which the interpreter
//! runs); any other case, or one the interpreter cannot run, is dispatched
//! instrumented as before, so every
//! finding shown for a wrong kernel still comes from the GPU's trace. The
//! interpreter follows the racecheck's and memcheck's rules (the native
//! tests judge every held solution both ways and compare the verdicts).

use crate::Gpu;
use gpu_puzzles_core::{Case, Puzzle, Values};
use gpu_puzzles_interp::PreparedShader;
use gpu_puzzles_verdict::judge::{memory_outcome, Outcome};
use gpu_puzzles_verdict::trace::Findings;
use std::collections::HashMap;
use std::sync::Arc;

/// What the interpreter's run of a clean case left: its findings and its
/// outputs (which the order check reuses as its first schedule's).
#[derive(Debug, Clone)]
pub(crate) struct Clean {
    /// Heat-map counts and the rest, with nothing wrong in them.
    pub(crate) findings: Arc<Findings>,
    /// The compared buffers' contents after the run, in lockstep, when
    /// the order check can reuse them: not for a shader that uses
    /// subgroups, which ran at the GPU's subgroup size, not the order
    /// check's.
    pub(crate) lockstep: Option<Arc<Vec<Values>>>,
    /// Whether the case passed in that run.
    pub(crate) passed: bool,
}

/// Cases by [`case_key`]: what the interpreter left when the case is
/// clean, `None` when it is not (or the interpreter cannot run it).
pub(crate) type CpuFindings = HashMap<u64, Option<Clean>>;

/// Cases a device keeps before starting over (each holds a case's
/// per-element and per-invocation counts and its outputs).
const MAX_KEPT: usize = 256;

/// Iterations a loop may run in one invocation in the interpreter's check
/// before the case is left to the instrumented GPU run (whose loop guard
/// allows [`gpu_puzzles_verdict::trace::LOOP_BUDGET`], 32 times more, and
/// gives the verdict). A loop that never ends took the interpreter up to
/// 12.8 s natively to reach the full budget (Tree Reduction's 256-wide
/// case with a barrier in the loop). Every reference solution's written
/// cases stay within it; a random case of Sparse Matrix–Vector Product
/// with one row of thousands of entries does not, and is judged
/// instrumented, as before.
const LOOP_BUDGET: u32 = 1024;

/// A hash of the prepared shader's key (the puzzle, the student's text and
/// its substitution, [`PreparedShader::key_of`]) and the case (its number
/// and random seed).
pub(crate) fn case_key(case: &Case, shader: &PreparedShader) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (shader.key(), case.number, case.random_seed).hash(&mut h);
    h.finish()
}

/// The interpreter's run of `case` in lockstep, when it shows nothing
/// wrong: no memory error, no runaway loop, and an outcome that the
/// outputs alone decide (passed, wrong values, or over budget). A shader
/// that uses subgroups runs with `subgroup_size` lanes, the GPU's. `None`
/// when the interpreter found a problem, stopped, or cannot run the
/// shader: the case is then judged instrumented on the GPU.
pub(crate) fn clean_run(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    shader: &Arc<PreparedShader>,
    subgroups: Option<u32>,
) -> Option<Clean> {
    let key = case_key(case, shader);
    if let Some(known) = kept(gpu, key) {
        return known;
    }
    let size = subgroups.unwrap_or(gpu_puzzles_interp::subgroup::DEFAULT_SIZE);
    let clean =
        gpu_puzzles_interp::emulate::lockstep_prepared(puzzle, case, shader, size, LOOP_BUDGET)
            .ok()
            .and_then(|r| {
                let decided_by_outputs = matches!(
                    r.outcome,
                    Outcome::Passed | Outcome::Mismatch { .. } | Outcome::OverBudget { .. }
                );
                let passed = r.outcome.passed();
                let findings =
                    r.findings.filter(|f| decided_by_outputs && memory_outcome(f).is_none())?;
                Some(Clean {
                    findings: Arc::new(findings),
                    lockstep: subgroups.is_none().then(|| Arc::new(r.actual)),
                    passed,
                })
            });
    if let Ok(mut c) = gpu.cpu_findings.lock() {
        if c.len() >= MAX_KEPT {
            c.clear();
        }
        c.insert(key, clean.clone());
    }
    clean
}

/// The interpreter's run of `case` kept by [`clean_run`], if any: `None`
/// when it never ran, `Some(None)` when the case was not clean.
pub(crate) fn kept(gpu: &Gpu, key: u64) -> Option<Option<Clean>> {
    gpu.cpu_findings.lock().ok().and_then(|c| c.get(&key).cloned())
}

/// What a Run starts beside its cases: the order checks an
/// [`OrderCheckHelper`](crate::OrderCheckHelper) makes, by case number.
#[derive(Default)]
pub(crate) struct Early<'h> {
    pub(crate) helper: Option<&'h dyn crate::OrderCheckHelper>,
    pub(crate) helped: std::collections::HashMap<usize, crate::HelperCheck>,
}

/// The interpreter's run of a case ([`clean_run`]) and, when the case
/// passes there, its order check started: by the helper when there is one
/// (on another core, awaited after the read-backs), else, `while_compiling`
/// (the GPU process compiles the case's shader meanwhile), here, kept for
/// the check after the read-back ([`crate::order::order_check_outcome`]).
/// In a browser these two were about half of a Run after an edit, one after
/// the other with the compile (docs/performance.md). Only a case the
/// interpreter passed goes to the helper: a loop that never ends, or
/// another mistake, would only keep it busy.
pub(crate) fn checked(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    shader: &Arc<PreparedShader>,
    subgroups: Option<u32>,
    early: &mut Early<'_>,
    while_compiling: bool,
) -> Option<Clean> {
    let since = web_time::Instant::now();
    let clean = clean_run(gpu, puzzle, case, shader, subgroups);
    if let Some(c) = clean.as_ref().filter(|c| {
        c.passed
            && !early.helped.contains_key(&case.number)
            && !crate::order::kept_passed(gpu, case, shader)
    }) {
        match early.helper.and_then(|h| {
            h.start(puzzle, case, shader.source(), c.lockstep.as_deref().map(Vec::as_slice))
        }) {
            Some(check) => {
                early.helped.insert(case.number, check);
            }
            None if while_compiling => {
                let _kept = crate::order::order_check_outcome(gpu, puzzle, case, shader, true);
            }
            None => {}
        }
    }
    gpu.note_phase(|p| p.cpu_checks_ms += since.elapsed().as_secs_f64() * 1000.0);
    clean
}
