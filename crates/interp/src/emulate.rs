//! Judging a puzzle on the CPU: each case checked as the GPU runner checks
//! it (limits, bindings, compile, barriers), run by the interpreter under
//! several schedules, and judged by the same core functions.
//!
//! The result is a [`CaseResult`] like the GPU runner's, with findings made
//! from the interpreter's own record of accesses (heat-map counts,
//! out-of-bounds accesses, a runaway loop), so the page and the CLI report
//! both the same way. Performance cases are not run (there is no GPU to
//! time).

use crate::dispatch::Schedule;
use crate::exec::Memory;
use crate::prepared::{PreparedShader, PreparedShaders};
use crate::{Program, Stop};
use gpu_puzzles_core::template::{position_of_offset, SourcePos, Substituted};
use gpu_puzzles_core::{Case, Puzzle, Values};
use gpu_puzzles_instrument::PassError;
use gpu_puzzles_verdict::judge::{
    budget_outcome, judge, memory_outcome, CaseResult, ConfigProblem, Diagnostic, Outcome,
};
use gpu_puzzles_verdict::limits::{check_config, Limits};
use gpu_puzzles_verdict::trace::{invocation, Findings, RunawayLoop};
use std::sync::Arc;

mod case;
mod findings;
mod frames;
mod memory;
mod order;
mod schedule;
mod subgroup_sizes;
use findings::{empty_findings, findings};
pub use frames::frames;
use memory::memory;
pub use memory::Step;
pub use order::{bits_differ, order_check};
use order::{order_check_prepared, order_dependent};
use schedule::run_all;
pub use subgroup_sizes::subgroup_check;
use subgroup_sizes::sweep_subgroup_sizes;

/// Out-of-bounds accesses recorded in detail per space and kind (all are
/// counted), as many as the instrumented run records.
const OOB_DETAILS: usize = gpu_puzzles_verdict::trace::OOB_RECORDS_PER_KIND as usize;

/// The schedules a case is run under: lock step first (its outputs are
/// judged), then, when they pass, two orders as different from it as
/// possible. A result that differs between them depends on the order
/// invocations run in. A case that fails in lock step is not run again:
/// the other orders could only add a second failure to the first.
pub const SCHEDULES: [Schedule; 3] =
    [Schedule::Lockstep, Schedule::Reverse, Schedule::Random(0x5EED)];

/// Why the interpreter could not judge a case: not the student's error and
/// not a verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unjudged {
    /// What it could not run, and where: "the debugger cannot run a
    /// texture (line 4:9)".
    pub message: String,
}

impl From<gpu_puzzles_verdict::judge::JudgeError> for Unjudged {
    fn from(e: gpu_puzzles_verdict::judge::JudgeError) -> Self {
        Unjudged { message: e.to_string() }
    }
}

/// Judges every ordinary case of `puzzle` and then `extra` (random cases)
/// with `source` on the CPU, in case order. Performance cases are
/// [`Outcome::Omitted`].
///
/// # Errors
/// [`Unjudged`] for the first case the interpreter could not run.
pub fn judge_puzzle(
    puzzle: &Puzzle,
    extra: &[Case],
    source: &str,
) -> Result<Vec<CaseResult>, Unjudged> {
    judge_puzzle_at(puzzle, extra, source, crate::subgroup::DEFAULT_SIZE)
}

/// [`judge_puzzle`] with subgroups of `subgroup_size` lanes for the runs
/// whose outputs are judged (a GPU's own size, to compare with it); the
/// subgroup check still tries every size.
///
/// # Errors
/// As [`judge_puzzle`].
pub fn judge_puzzle_at(
    puzzle: &Puzzle,
    extra: &[Case],
    source: &str,
    subgroup_size: u32,
) -> Result<Vec<CaseResult>, Unjudged> {
    // One preparation per distinct configuration, shared by its cases and
    // the lesson check.
    let mut shaders = PreparedShaders::new(usize::MAX);
    let first = puzzle.cases.first().map(|c| shaders.get(puzzle, source, &c.config));
    judge_cases(puzzle, extra, first.as_deref(), |case| {
        run_prepared(
            puzzle,
            case,
            &shaders.get(puzzle, source, &case.config),
            &SCHEDULES,
            subgroup_size,
        )
    })
}

/// [`judge_puzzle_at`] with each case's result made by `run_case` (one
/// call per ordinary case, then per case of `extra`): the lesson check and
/// the performance cases' [`Outcome::Omitted`] are added as there. For a
/// caller that keeps results of [`run_case_at`] and judges the same
/// kernel on the same cases more than once (the native tests share them
/// between the GPU comparison and the seed sweep).
///
/// # Errors
/// The first error `run_case` returns.
pub fn judge_puzzle_with(
    puzzle: &Puzzle,
    extra: &[Case],
    source: &str,
    run_case: impl FnMut(&Case) -> Result<CaseResult, Unjudged>,
) -> Result<Vec<CaseResult>, Unjudged> {
    let first = match (&puzzle.lesson, puzzle.cases.first()) {
        (Some(_), Some(c)) => Some(PreparedShader::new(puzzle, source, &c.config)),
        _ => None,
    };
    judge_cases(puzzle, extra, first.as_ref(), run_case)
}

/// [`judge_puzzle_with`], with `first` the text prepared for the puzzle's
/// first case (for the lesson check; `None` when the puzzle has none).
fn judge_cases(
    puzzle: &Puzzle,
    extra: &[Case],
    first: Option<&PreparedShader>,
    mut run_case: impl FnMut(&Case) -> Result<CaseResult, Unjudged>,
) -> Result<Vec<CaseResult>, Unjudged> {
    let mut results = Vec::new();
    for case in puzzle.cases.iter().filter(|c| !c.is_performance()).chain(extra) {
        results.push(run_case(case)?);
    }
    if puzzle.lesson.is_some() {
        let shader = first.and_then(|f| f.shader().ok());
        gpu_puzzles_instrument::lesson_checks(puzzle, shader, &mut results);
    }
    for case in puzzle.cases.iter().filter(|c| c.is_performance()) {
        results.push(CaseResult::new(
            case,
            Outcome::Omitted { message: "not run: performance cases are timed on a GPU, and this one was emulated on the CPU.".into() },
        ));
    }
    results.sort_by_key(|r| r.case);
    Ok(results)
}

/// Where `span` (in the substituted text `sub`) starts in the student's
/// `source`: line and column from 1.
pub fn place(sub: &Substituted, source: &str, span: naga::Span) -> Option<SourcePos> {
    span.to_range().map(|r| position_of_offset(source, sub.to_source_offset(r.start)))
}

/// A case made ready to run: the program, its entry points in dispatch
/// order, the memory holding the case's buffers, and the prepared shader
/// (spans are in its substituted text).
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The program.
    pub program: Arc<Program>,
    /// The puzzle's entry points (indices into the module's), in the order
    /// of [`Puzzle::entry_points`].
    pub entries: Vec<usize>,
    /// The case's dispatches in order ([`Case::dispatches`]).
    pub steps: Vec<Step>,
    /// The case's buffers, bound.
    pub memory: Memory,
    /// The student's shader, substituted for the case and parsed: shared
    /// with every other check of the Run.
    pub shader: Arc<PreparedShader>,
    /// The dispatch as the GPU runs it, which numbers invocations: the
    /// case's workgroups with the workgroup size the shader declares
    /// ([`gpu_puzzles_instrument::as_dispatched`]), as the GPU run's
    /// instrumentation numbers them.
    pub config: gpu_puzzles_core::model::CaseConfig,
    /// Lanes per subgroup for its runs ([`crate::subgroup::DEFAULT_SIZE`]
    /// unless a caller chooses).
    pub subgroup_size: u32,
    /// Iterations a loop may run in one invocation
    /// ([`crate::dispatch::Dispatch::set_loop_budget`]).
    pub loop_budget: u32,
}

/// Why a case does not run: the student's error (a configuration or
/// compile error), or something the interpreter cannot run.
#[derive(Debug, Clone)]
pub enum NotRunnable {
    /// The case's outcome, as the GPU runner would give it.
    Outcome(Box<Outcome>),
    /// Not a verdict.
    Unjudged(Unjudged),
}

/// Checks a case as the GPU runner does before dispatching (WebGPU's
/// default limits, the bindings, the compile, the barriers' uniformity,
/// the entry points and their workgroup sizes) and prepares it, from
/// `prepared`: the student's text substituted for `case` and parsed
/// ([`PreparedShader::new`] with the case's configuration).
///
/// # Errors
/// [`NotRunnable`], with the outcome or why the interpreter cannot run it.
pub fn prepare(
    puzzle: &Puzzle,
    case: &Case,
    prepared: &Arc<PreparedShader>,
) -> Result<Prepared, NotRunnable> {
    let limits = Limits::WEBGPU_DEFAULT;
    if let Err(problem) = check_config(puzzle, case, &limits) {
        return Err(NotRunnable::Outcome(Box::new(Outcome::config(problem))));
    }
    let (sub, source) = (prepared.sub(), prepared.source());
    let shader = match prepared.shader() {
        Ok(s) => s,
        Err(PassError::Rejected { message, span }) => {
            let d = match span {
                Some(s) => Diagnostic::error_at(message.clone(), s.start, s.len(), sub, source),
                None => Diagnostic::unpositioned(message.clone()),
            };
            return Err(NotRunnable::Outcome(Box::new(Outcome::CompileError {
                diagnostics: vec![d],
            })));
        }
        Err(PassError::Unsupported(why)) => {
            return Err(NotRunnable::Unjudged(Unjudged { message: why.clone() }))
        }
    };
    let bytes = shader.workgroup_memory_bytes();
    if bytes > limits.max_compute_workgroup_storage_size as u64 {
        return Err(NotRunnable::Outcome(Box::new(Outcome::config(
            ConfigProblem::ShaderWorkgroupMemory {
                bytes,
                max: limits.max_compute_workgroup_storage_size as u64,
            },
        ))));
    }
    if let Err(problem) = prepared.bindings() {
        return Err(NotRunnable::Outcome(Box::new(Outcome::config(problem.clone()))));
    }
    if let Some(e) = prepared.bad_print() {
        let d = Diagnostic::error_at(e.message.clone(), e.span.start, e.span.len(), sub, source);
        return Err(NotRunnable::Outcome(Box::new(Outcome::CompileError { diagnostics: vec![d] })));
    }
    if let Some(e) = prepared.broken_rule() {
        let d = Diagnostic::error_at(e.message, e.offset, e.length, sub, source);
        return Err(NotRunnable::Outcome(Box::new(Outcome::CompileError { diagnostics: vec![d] })));
    }
    let program =
        prepared.program().map_err(|e| NotRunnable::Unjudged(unjudged(&e, sub, source)))?;
    let mut entries = Vec::new();
    for name in &puzzle.entry_points {
        match program.entry_point(name) {
            Some(e) => entries.push(e),
            None => {
                let d = Diagnostic::unpositioned(format!(
                    "the shader has no compute entry point named `{name}`. {}",
                    gpu_puzzles_verdict::limits::entry_point_hint(puzzle)
                ));
                return Err(NotRunnable::Outcome(Box::new(Outcome::CompileError {
                    diagnostics: vec![d],
                })));
            }
        }
    }
    for &e in &entries {
        let ep = &program.module.entry_points[e];
        let [x, y, z] = ep.workgroup_size;
        let max = limits.max_compute_workgroup_size;
        if x * y * z > limits.max_compute_invocations_per_workgroup
            || x > max[0]
            || y > max[1]
            || z > max[2]
        {
            let d = Diagnostic::unpositioned(format!(
                "`@workgroup_size({x}, {y}, {z})` of `{}` asks for {} invocations per workgroup, but WebGPU guarantees only {} (maxComputeInvocationsPerWorkgroup) and {} × {} × {} (maxComputeWorkgroupSize); write `@workgroup_size({{{{workgroupSize}}}})`, the size each case dispatches",
                ep.name,
                x * y * z,
                limits.max_compute_invocations_per_workgroup,
                max[0],
                max[1],
                max[2]
            ));
            return Err(NotRunnable::Outcome(Box::new(Outcome::CompileError {
                diagnostics: vec![d],
            })));
        }
    }
    let memory = memory(puzzle, case, &program);
    let config = gpu_puzzles_instrument::as_dispatched(
        &case.config,
        entries.iter().map(|&e| &program.module.entry_points[e]),
    );
    let words = |bytes: &[u8]| {
        bytes
            .chunks(4)
            .map(|c| c.iter().rev().fold(0u32, |w, b| (w << 8) | *b as u32))
            .collect::<Vec<u32>>()
    };
    let steps = case
        .dispatches
        .iter()
        .map(|d| Step {
            entry: entries[d.entry as usize],
            dispatch: d.entry,
            uniform: d.uniform.as_ref().map(|(u, b)| (*u as usize, words(b))),
        })
        .collect();
    Ok(Prepared {
        program,
        entries,
        steps,
        memory,
        shader: prepared.clone(),
        config,
        subgroup_size: crate::subgroup::DEFAULT_SIZE,
        loop_budget: gpu_puzzles_verdict::trace::LOOP_BUDGET,
    })
}

/// Judges one case on the CPU under `schedules` (the first one's outputs
/// are judged; the others, run only when those pass, are compared with
/// them).
///
/// # Errors
/// [`Unjudged`] when the shader uses something the interpreter cannot run.
pub fn run_case(
    puzzle: &Puzzle,
    case: &Case,
    source: &str,
    schedules: &[Schedule],
) -> Result<CaseResult, Unjudged> {
    run_case_at(puzzle, case, source, schedules, crate::subgroup::DEFAULT_SIZE)
}

/// [`run_case`] with subgroups of `subgroup_size` lanes.
///
/// # Errors
/// As [`run_case`].
pub fn run_case_at(
    puzzle: &Puzzle,
    case: &Case,
    source: &str,
    schedules: &[Schedule],
    subgroup_size: u32,
) -> Result<CaseResult, Unjudged> {
    run_prepared(
        puzzle,
        case,
        &Arc::new(PreparedShader::new(puzzle, source, &case.config)),
        schedules,
        subgroup_size,
    )
}

/// [`run_case_at`] on the student's text as a Run prepared it for `case`.
///
/// # Errors
/// As [`run_case`].
pub fn run_prepared(
    puzzle: &Puzzle,
    case: &Case,
    shader: &Arc<PreparedShader>,
    schedules: &[Schedule],
    subgroup_size: u32,
) -> Result<CaseResult, Unjudged> {
    case::run(
        puzzle,
        case,
        shader,
        schedules,
        subgroup_size,
        true,
        gpu_puzzles_verdict::trace::LOOP_BUDGET,
    )
}

/// One run of the case in lockstep with subgroups of `subgroup_size`
/// lanes, judged, with its findings: [`run_case_at`] without the subgroup
/// sweep, for a runner that makes the checks behind the GPU
/// ([`checks_behind_the_gpu_after`]) itself. Loops stop after
/// `loop_budget` iterations ([`Program::loop_budget`]): with fewer than
/// [`gpu_puzzles_verdict::trace::LOOP_BUDGET`], a loop stopped early is
/// reported as runaway at its line though the GPU might have finished it,
/// so such a result only says the case is not quick to check.
///
/// # Errors
/// As [`run_case`].
pub fn lockstep_at(
    puzzle: &Puzzle,
    case: &Case,
    source: &str,
    subgroup_size: u32,
    loop_budget: u32,
) -> Result<CaseResult, Unjudged> {
    lockstep_prepared(
        puzzle,
        case,
        &Arc::new(PreparedShader::new(puzzle, source, &case.config)),
        subgroup_size,
        loop_budget,
    )
}

/// [`lockstep_at`] on the student's text as a Run prepared it for `case`.
///
/// # Errors
/// As [`run_case`].
pub fn lockstep_prepared(
    puzzle: &Puzzle,
    case: &Case,
    shader: &Arc<PreparedShader>,
    subgroup_size: u32,
    loop_budget: u32,
) -> Result<CaseResult, Unjudged> {
    case::run(puzzle, case, shader, &SCHEDULES[..1], subgroup_size, false, loop_budget)
}

/// The checks behind a GPU judgement, on one preparation of the case: the
/// order check ([`order_check`]) when the GPU's outputs `passed`, then,
/// when it found nothing, the subgroup check ([`subgroup_check`]).
///
/// # Errors
/// As [`order_check`].
pub fn checks_behind_the_gpu(
    puzzle: &Puzzle,
    case: &Case,
    source: &str,
    passed: bool,
) -> Result<Option<Outcome>, Unjudged> {
    checks_behind_the_gpu_after(puzzle, case, source, passed, None)
}

/// [`checks_behind_the_gpu`]; with `lockstep`, the outputs of the case's
/// run in the first schedule ([`run_case`] with `&SCHEDULES[..1]`), which
/// the order check then does not repeat. Errors as [`order_check`].
pub fn checks_behind_the_gpu_after(
    puzzle: &Puzzle,
    case: &Case,
    source: &str,
    passed: bool,
    lockstep: Option<&[Values]>,
) -> Result<Option<Outcome>, Unjudged> {
    checks_behind_the_gpu_prepared(
        puzzle,
        case,
        &Arc::new(PreparedShader::new(puzzle, source, &case.config)),
        passed,
        lockstep,
    )
}

/// [`checks_behind_the_gpu_after`] on the student's text as a Run prepared
/// it for `case`. Errors as [`order_check`].
pub fn checks_behind_the_gpu_prepared(
    puzzle: &Puzzle,
    case: &Case,
    shader: &Arc<PreparedShader>,
    passed: bool,
    lockstep: Option<&[Values]>,
) -> Result<Option<Outcome>, Unjudged> {
    let prepared = match prepare(puzzle, case, shader) {
        Ok(p) => p,
        Err(NotRunnable::Outcome(_)) => return Ok(None),
        Err(NotRunnable::Unjudged(u)) => return Err(u),
    };
    if passed {
        if let Some(o) = order_check_prepared(&prepared, puzzle, case, lockstep)? {
            return Ok(Some(o));
        }
    }
    if !prepared.program.uses_subgroups() {
        return Ok(None);
    }
    sweep_subgroup_sizes(&prepared, puzzle, case)
}

/// A stop that is not a verdict, in words with its place.
fn unjudged(stop: &Stop, sub: &Substituted, source: &str) -> Unjudged {
    let at = stop
        .span()
        .and_then(|s| place(sub, source, s))
        .map(|p| format!(" (line {}:{})", p.line, p.column))
        .unwrap_or_default();
    Unjudged {
        message: match stop {
            Stop::Unsupported { what, .. } => format!("the debugger cannot run {what}{at}; judge this shader on a GPU, or write it without {what}"),
            Stop::Internal { message, .. } => format!("the interpreter failed{at}: {message}. This is a bug in GPU Puzzles, not in your shader"),
            other => format!("{other:?}"),
        },
    }
}
