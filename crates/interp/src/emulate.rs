//! Judging a puzzle on the CPU: each case checked as the GPU runner checks
//! it (limits, bindings, compile, barriers), run by the interpreter under
//! several schedules, and judged by the same core functions.
//!
//! The result is a [`CaseResult`] like the GPU runner's, with findings made
//! from the interpreter's own record of accesses (heat-map counts,
//! out-of-bounds accesses, a runaway loop), so the page and the CLI report
//! both the same way. Performance cases are not run (there is no GPU to
//! time).

use crate::dispatch::{Dispatch, Record, Schedule};
use crate::exec::Memory;
use crate::value::Space;
use crate::{Program, Stop};
use gpu_puzzles_core::judge::{budget_outcome, judge, memory_outcome, CaseResult, ConfigProblem, Diagnostic, Outcome};
use gpu_puzzles_core::limits::{bindings, check_config, Limits};
use gpu_puzzles_core::report::{memory_error_message, MemoryError, OrderDependent};
use gpu_puzzles_core::template::{position_of_offset, substitute, SourcePos, Substituted};
use gpu_puzzles_core::trace::{invocation, BufferTrace, Findings, Hazard, HazardAccess, MemoryKind, OutOfBounds, OutOfBoundsAccess, RunawayLoop, Site};
use gpu_puzzles_core::{Case, Puzzle, Values};
use gpu_puzzles_instrument::{PassError, Shader};
use std::sync::Arc;

/// Out-of-bounds accesses recorded in detail per space and kind (all are
/// counted), as many as the instrumented run records.
const OOB_DETAILS: usize = gpu_puzzles_core::trace::OOB_RECORDS_PER_KIND as usize;

/// The schedules a case is run under: lock step first (its outputs are
/// judged), then two orders as different from it as possible. A result
/// that differs between them depends on the order invocations run in.
pub const SCHEDULES: [Schedule; 3] = [Schedule::Lockstep, Schedule::Reverse, Schedule::Random(0x5EED)];

/// Why the interpreter could not judge a case: not the student's error and
/// not a verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unjudged {
    /// What it could not run, and where: "the debugger cannot run a
    /// texture (line 4:9)".
    pub message: String,
}

/// Judges every ordinary case of `puzzle` and then `extra` (random cases)
/// with `source` on the CPU, in case order. Performance cases are
/// [`Outcome::Omitted`].
///
/// # Errors
/// [`Unjudged`] for the first case the interpreter could not run.
pub fn judge_puzzle(puzzle: &Puzzle, extra: &[Case], source: &str) -> Result<Vec<CaseResult>, Unjudged> {
    let mut results = Vec::new();
    for case in puzzle.cases.iter().filter(|c| !c.is_performance()).chain(extra) {
        results.push(run_case(puzzle, case, source, &SCHEDULES)?);
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

/// What one schedule's run gave: the compared buffers' contents and the
/// record of its accesses.
struct Ran {
    actual: Vec<Values>,
    record: Record,
}

/// Where `span` (in the substituted text `sub`) starts in the student's
/// `source`: line and column from 1.
pub fn place(sub: &Substituted, source: &str, span: naga::Span) -> Option<SourcePos> {
    span.to_range().map(|r| position_of_offset(source, sub.to_source_offset(r.start)))
}

/// A case made ready to run: the program, its entry points in dispatch
/// order, the memory holding the case's buffers, and the substituted text
/// (spans are in it).
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The program.
    pub program: Arc<Program>,
    /// Entry points, in the puzzle's dispatch order.
    pub entries: Vec<usize>,
    /// The case's buffers, bound.
    pub memory: Memory,
    /// The shader with the case's configuration substituted.
    pub sub: Substituted,
    /// The dispatch as the GPU runs it, which numbers invocations: the
    /// case's workgroups with the workgroup size the shader declares
    /// ([`gpu_puzzles_instrument::as_dispatched`]), as the GPU run's
    /// instrumentation numbers them.
    pub config: gpu_puzzles_core::model::CaseConfig,
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
/// the entry points and their workgroup sizes) and prepares it.
///
/// # Errors
/// [`NotRunnable`], with the outcome or why the interpreter cannot run it.
pub fn prepare(puzzle: &Puzzle, case: &Case, source: &str) -> Result<Prepared, NotRunnable> {
    let limits = Limits::WEBGPU_DEFAULT;
    if let Err(problem) = check_config(puzzle, case, &limits) {
        return Err(NotRunnable::Outcome(Box::new(Outcome::config(problem))));
    }
    let sub = substitute(source, &case.config);
    let shader = match Shader::parse(&sub.text) {
        Ok(s) => s,
        Err(PassError::Rejected { message, span }) => {
            let d = match span {
                Some(s) => Diagnostic::error_at(message, s.start, s.len(), &sub, source),
                None => Diagnostic::unpositioned(message),
            };
            return Err(NotRunnable::Outcome(Box::new(Outcome::CompileError { diagnostics: vec![d] })));
        }
        Err(PassError::Unsupported(why)) => return Err(NotRunnable::Unjudged(Unjudged { message: why })),
    };
    let bytes = shader.workgroup_memory_bytes();
    if bytes > limits.max_compute_workgroup_storage_size as u64 {
        return Err(NotRunnable::Outcome(Box::new(Outcome::config(ConfigProblem::ShaderWorkgroupMemory {
            bytes,
            max: limits.max_compute_workgroup_storage_size as u64,
        }))));
    }
    if let Err(problem) = bindings(puzzle, source) {
        return Err(NotRunnable::Outcome(Box::new(Outcome::config(problem))));
    }
    if let Some(e) = shader.check_barriers() {
        let d = Diagnostic::error_at(e.message(), e.offset, e.length, &sub, source);
        return Err(NotRunnable::Outcome(Box::new(Outcome::CompileError { diagnostics: vec![d] })));
    }
    let (module, info) = shader.into_parts();
    let program = Arc::new(Program::validated(module, info).map_err(|e| NotRunnable::Unjudged(unjudged(&e, &sub, source)))?);
    let mut entries = Vec::new();
    for name in &puzzle.entry_points {
        match program.entry_point(name) {
            Some(e) => entries.push(e),
            None => {
                let d = Diagnostic::unpositioned(format!(
                    "the shader has no compute entry point named `{name}`. {}",
                    gpu_puzzles_core::limits::entry_point_hint(puzzle)
                ));
                return Err(NotRunnable::Outcome(Box::new(Outcome::CompileError { diagnostics: vec![d] })));
            }
        }
    }
    for &e in &entries {
        let ep = &program.module.entry_points[e];
        let [x, y, z] = ep.workgroup_size;
        let max = limits.max_compute_workgroup_size;
        if x * y * z > limits.max_compute_invocations_per_workgroup || x > max[0] || y > max[1] || z > max[2] {
            let d = Diagnostic::unpositioned(format!(
                "`@workgroup_size({x}, {y}, {z})` of `{}` asks for {} invocations per workgroup, but WebGPU guarantees only {} (maxComputeInvocationsPerWorkgroup) and {} × {} × {} (maxComputeWorkgroupSize); write `@workgroup_size({{{{workgroupSize}}}})`, the size each case dispatches",
                ep.name,
                x * y * z,
                limits.max_compute_invocations_per_workgroup,
                max[0],
                max[1],
                max[2]
            ));
            return Err(NotRunnable::Outcome(Box::new(Outcome::CompileError { diagnostics: vec![d] })));
        }
    }
    let memory = memory(puzzle, case, &program);
    let config = gpu_puzzles_instrument::as_dispatched(&case.config, entries.iter().map(|&e| &program.module.entry_points[e]));
    Ok(Prepared { program, entries, memory, sub, config })
}

/// Judges one case on the CPU under `schedules` (the first one's outputs
/// are judged; the others only compared with it).
///
/// # Errors
/// [`Unjudged`] when the shader uses something the interpreter cannot run.
pub fn run_case(puzzle: &Puzzle, case: &Case, source: &str, schedules: &[Schedule]) -> Result<CaseResult, Unjudged> {
    let mut result = CaseResult::new(case, Outcome::Passed);
    let finish = |mut r: CaseResult, outcome| {
        r.outcome = outcome;
        Ok(r)
    };
    let prepared = match prepare(puzzle, case, source) {
        Ok(p) => p,
        Err(NotRunnable::Outcome(o)) => return finish(result, *o),
        Err(NotRunnable::Unjudged(u)) => return Err(u),
    };
    let Prepared { sub, config, .. } = &prepared;

    let mut runs: Vec<Ran> = Vec::new();
    for ran in run_all(&prepared, schedules, puzzle, true) {
        match ran {
            Ok(ran) => runs.push(ran),
            Err(Stop::RunawayLoop { span, invocation: id }) => {
                let line = place(sub, source, span).map(|p| p.line);
                let runaway = RunawayLoop { line, invocation: invocation(id, config) };
                let findings = Findings { runaway_loop: Some(runaway), workgroup_size: config.workgroup_size, ..empty_findings() };
                let outcome = memory_outcome(&findings).expect("a runaway loop fails");
                result.findings = Some(findings);
                return finish(result, outcome);
            }
            Err(Stop::BarrierNotReached { span, workgroup, waiting, invocations }) => {
                let r = span.to_range().unwrap_or(0..0);
                let message = format!(
                    "{waiting} of the {invocations} invocations of workgroup {workgroup} wait at this barrier, and the others never reach it (they returned, or wait at another barrier). Every invocation of a workgroup must reach the same barriers: move the barrier out of the `if` or loop that only some invocations enter"
                );
                let d = Diagnostic::error_at(message, r.start, r.len(), sub, source);
                return finish(result, Outcome::CompileError { diagnostics: vec![d] });
            }
            Err(e) => return Err(unjudged(&e, sub, source)),
        }
    }
    let first = runs.remove(0);
    let findings = findings(&first.record, &prepared, puzzle, source);
    let mut outcome = judge(puzzle, case, &first.actual).map_err(|message| Unjudged { message })?;
    if let Some(memory) = memory_outcome(&findings) {
        if outcome.passed() || matches!(outcome, Outcome::Mismatch { .. }) {
            outcome = memory;
        }
    }
    if outcome.passed() {
        if let Some(over) = budget_outcome(puzzle, case, &findings) {
            outcome = over;
        }
    }
    if outcome.passed() {
        for (other, &schedule) in runs.iter().zip(&schedules[1..]) {
            let judged = judge(puzzle, case, &other.actual).map_err(|message| Unjudged { message })?;
            if let Some(o) = order_dependent(puzzle, (&first.actual, schedules[0].describe()), (&other.actual, schedule.describe()), &judged) {
                outcome = o;
                break;
            }
        }
    }
    result.actual = first.actual;
    result.findings = Some(findings);
    finish(result, outcome)
}

/// The memory error for a result that passes in one order of running the
/// invocations (`passing`: the outputs and the order in words) and fails
/// in another (`failing`, judged `judged`): a race the values show,
/// whatever order a GPU happens to use. `None` when `judged` passed.
fn order_dependent(puzzle: &Puzzle, passing: (&[Values], String), failing: (&[Values], String), judged: &Outcome) -> Option<Outcome> {
    let Outcome::Mismatch { mismatches, .. } = judged else { return None };
    let m = mismatches.first()?;
    let compared: Vec<usize> = puzzle.compared_buffers().collect();
    let k = compared.iter().position(|&b| puzzle.buffers[b].name == m.buffer)?;
    let value = |v: &[Values]| v.get(k).filter(|b| m.index < b.len()).map_or_else(|| "missing".into(), |b| b.format(m.index));
    let error = MemoryError::OrderDependent(OrderDependent {
        buffer: m.buffer.clone(),
        index: m.index,
        first: (passing.1, value(passing.0)),
        second: (failing.1, value(failing.0)),
    });
    Some(Outcome::MemoryError { message: memory_error_message(&error), error })
}

/// The second line of defence behind the GPU run's racecheck: a case whose
/// outputs passed on the GPU (`gpu`, in one order of running the
/// invocations) is run by the interpreter under [`SCHEDULES`] and judged
/// under each. When one order passes and another fails, the result depends
/// on the order the invocations run in (a race the racecheck may not have
/// seen, such as one between workgroups that only shows in the values),
/// and the case fails with [`MemoryError::OrderDependent`]. When every
/// schedule agrees with the GPU, or the interpreter cannot tell (it stops,
/// or every schedule fails alike: then it is the interpreter that
/// disagrees with the GPU, and a student is never failed on that), `None`.
///
/// # Errors
/// [`Unjudged`] when the interpreter cannot run the shader; the case keeps
/// its verdict and says the order check did not run.
pub fn order_check(puzzle: &Puzzle, case: &Case, source: &str) -> Result<Option<Outcome>, Unjudged> {
    let prepared = match prepare(puzzle, case, source) {
        Ok(p) => p,
        Err(NotRunnable::Outcome(_)) => return Ok(None),
        Err(NotRunnable::Unjudged(u)) => return Err(u),
    };
    let sub = &prepared.sub;
    let mut passing = None;
    let mut failing = None;
    for (ran, &schedule) in run_all(&prepared, &SCHEDULES, puzzle, false).into_iter().zip(&SCHEDULES) {
        let ran = match ran {
            Ok(ran) => ran,
            Err(e @ (Stop::Unsupported { .. } | Stop::Internal { .. })) => return Err(unjudged(&e, sub, source)),
            Err(_) => return Ok(None),
        };
        let judged = judge(puzzle, case, &ran.actual).map_err(|message| Unjudged { message })?;
        if judged.passed() {
            passing.get_or_insert((ran.actual, schedule));
        } else {
            failing.get_or_insert((ran.actual, schedule, judged));
        }
    }
    Ok(match (passing, failing) {
        (Some((pass, p)), Some((fail, f, judged))) => order_dependent(puzzle, (&pass, p.describe()), (&fail, f.describe()), &judged),
        _ => None,
    })
}

/// The case's buffers as the interpreter's memory, bound to the shader's
/// variables by binding number.
fn memory(puzzle: &Puzzle, case: &Case, program: &Program) -> Memory {
    let words = |bytes: &[u8]| bytes.chunks(4).map(|c| c.iter().rev().fold(0u32, |w, b| (w << 8) | *b as u32)).collect::<Vec<u32>>();
    let mut m = Memory {
        storage: case.buffers.iter().map(|cb| words(&cb.initial.to_bytes())).collect(),
        uniforms: case.uniforms.iter().map(|u| words(u)).collect(),
        workgroup: Vec::new(),
        bindings: vec![None; program.module.global_variables.len()],
    };
    for (h, g) in program.module.global_variables.iter() {
        let Some(rb) = &g.binding else { continue };
        let space = match g.space {
            naga::AddressSpace::Storage { .. } => puzzle.buffers.iter().position(|b| b.binding == rb.binding).map(|k| Space::Storage(k as u32)),
            naga::AddressSpace::Uniform => puzzle.uniforms.iter().position(|u| u.binding == rb.binding).map(|k| Space::Uniform(k as u32)),
            _ => None,
        };
        m.bindings[h.index()] = space;
    }
    m
}

/// [`run`] under each of `schedules`, in that order, the race detector on
/// for the first when `detect_races`: natively on a thread each (they share
/// nothing but the program and the case), in a browser one after another.
fn run_all(p: &Prepared, schedules: &[Schedule], puzzle: &Puzzle, detect_races: bool) -> Vec<Result<Ran, Stop>> {
    #[cfg(not(target_arch = "wasm32"))]
    if schedules.len() > 1 {
        return std::thread::scope(|scope| {
            let handles: Vec<_> = schedules.iter().enumerate().map(|(k, &s)| scope.spawn(move || run(p, s, puzzle, detect_races && k == 0))).collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
        });
    }
    schedules.iter().enumerate().map(|(k, &s)| run(p, s, puzzle, detect_races && k == 0)).collect()
}

/// Runs every entry point in turn over the case's memory under `schedule`.
fn run(p: &Prepared, schedule: Schedule, puzzle: &Puzzle, detect_races: bool) -> Result<Ran, Stop> {
    let mut memory = p.memory.clone();
    let mut total: Option<Record> = None;
    for &entry in &p.entries {
        let mut d = Dispatch::new(p.program.clone(), entry, p.config, memory, schedule)?;
        if detect_races {
            d.detect_races();
        }
        d.run()?;
        if let Some(races) = d.races.take() {
            d.record.race_total += races.total;
            d.record.races.extend(races.sorted().into_iter().map(|r| (r, entry)));
        }
        memory = d.memory;
        total = Some(match total {
            None => d.record,
            Some(mut t) => {
                merge(&mut t, d.record);
                t
            }
        });
    }
    let actual = puzzle
        .compared_buffers()
        .map(|k| {
            let bytes: Vec<u8> = memory.storage[k].iter().flat_map(|w| w.to_le_bytes()).collect();
            Values::from_bytes(puzzle.buffers[k].element, &bytes)
        })
        .collect();
    Ok(Ran { actual, record: total.unwrap_or_default() })
}

fn merge(t: &mut Record, r: Record) {
    for (a, b) in t.reads.iter_mut().zip(r.reads).chain(t.writes.iter_mut().zip(r.writes)) {
        for (x, y) in a.iter_mut().zip(b) {
            *x += y;
        }
    }
    for (a, b) in t.writer.iter_mut().zip(r.writer) {
        for (x, y) in a.iter_mut().zip(b) {
            *x = (*x).max(y);
        }
    }
    for (a, b) in t.invocations.iter_mut().zip(r.invocations) {
        for k in 0..4 {
            a[k] += b[k];
        }
    }
    t.out_of_bounds.extend(r.out_of_bounds);
    t.races.extend(r.races);
    t.race_total += r.race_total;
}

fn empty_findings() -> Findings {
    Findings {
        buffers: Vec::new(),
        invocations: Vec::new(),
        out_of_bounds: Vec::new(),
        hazards: Vec::new(),
        hazard_total: 0,
        runaway_loop: None,
        unchecked: Vec::new(),
        workgroup_size: [0; 3],
    }
}

/// The record as the findings an instrumented GPU run gives.
fn findings(record: &Record, p: &Prepared, puzzle: &Puzzle, source: &str) -> Findings {
    let Prepared { program, sub, config, .. } = p;
    let site = |span: naga::Span| place(sub, source, span).map(|p| Site { line: p.line, column: p.column });
    // Storage buffers and workgroup variables by the names of the GPU run's
    // spaces; hazards happen only there.
    // The global variable declaring puzzle buffer `k`, if the shader declares it.
    let storage_global = |k: u32| {
        let binding = puzzle.buffers[k as usize].binding;
        program.module.global_variables.iter().find(|(_, g)| g.binding.as_ref().is_some_and(|b| b.group == 0 && b.binding == binding)).map(|(_, g)| g)
    };
    let name_of = |space: Space| -> (String, MemoryKind) {
        let global = |k: u32| program.module.global_variables.iter().nth(k as usize).and_then(|(_, g)| g.name.clone()).unwrap_or_default();
        match space {
            Space::Storage(k) => {
                let name = storage_global(k).and_then(|g| g.name.clone()).unwrap_or_else(|| puzzle.buffers[k as usize].name.clone());
                // A struct-wrapped buffer is named by its array member, as
                // the GPU run's checks name it (`out.v`).
                let member = storage_global(k).and_then(|g| gpu_puzzles_instrument::array_of(&program.module, g.ty)).and_then(|a| a.member);
                (member.map_or(name.clone(), |m| format!("{name}.{m}")), MemoryKind::Storage)
            }
            Space::Workgroup(g) => {
                // Named by the struct member holding its array, as buffers are.
                let member = program
                    .module
                    .global_variables
                    .iter()
                    .nth(g as usize)
                    .and_then(|(_, v)| gpu_puzzles_instrument::array_of(&program.module, v.ty))
                    .and_then(|a| a.member);
                (member.map_or(global(g), |m| format!("{}.{m}", global(g))), MemoryKind::Workgroup)
            }
            Space::Uniform(k) => (puzzle.uniforms[k as usize].name.clone(), MemoryKind::Uniform),
            Space::Private(g) => (global(g), MemoryKind::Private),
            Space::Function { .. } => ("a local variable".into(), MemoryKind::Function),
            Space::Value => (String::new(), MemoryKind::Value),
        }
    };
    let mut out_of_bounds: Vec<OutOfBounds> = Vec::new();
    for (id, a) in &record.out_of_bounds {
        let oob = a.out_of_bounds.expect("recorded as out of bounds");
        // Elsewhere, by what the access indexes, as the GPU run's bounds
        // checks name it.
        let (name, memory) = match a.space {
            Space::Storage(_) | Space::Workgroup(_) => name_of(a.space),
            _ => gpu_puzzles_instrument::indexed_name(&program.module, program.function(oob.func), program.function_info(oob.func), oob.base),
        };
        let access = OutOfBoundsAccess { index: oob.index, invocation: invocation(*id, config), site: site(a.span) };
        match out_of_bounds.iter_mut().find(|o| o.space == name && o.memory == memory && o.kind == a.kind && o.elements == oob.length) {
            Some(o) => {
                o.total += 1;
                if o.first.len() < OOB_DETAILS {
                    o.first.push(access);
                }
            }
            None => out_of_bounds.push(OutOfBounds { space: name, memory, kind: a.kind, total: 1, elements: oob.length, first: vec![access] }),
        }
    }
    let buffers = (0..record.reads.len())
        .map(|k| BufferTrace { reads: record.reads[k].clone(), writes: record.writes[k].clone(), writer: record.writer[k].clone() })
        .collect();
    let hazards = record
        .races
        .iter()
        .map(|(r, entry)| {
            let (space, memory) = name_of(r.space);
            let workgroup_memory = memory == MemoryKind::Workgroup;
            let side = |m: &crate::race::Mark| HazardAccess { invocation: invocation(m.id, config), kind: m.kind, site: site(m.span) };
            Hazard {
                kind: r.kind,
                space,
                workgroup_memory,
                element: match r.space {
                    Space::Workgroup(g) => element_of(&program.module, program.module.global_variables.iter().nth(g as usize).map(|(_, v)| v), r.word),
                    Space::Storage(k) => element_of(&program.module, storage_global(k), r.word),
                    _ => Some(r.word),
                },
                entry_point: program.module.entry_points[*entry].name.clone(),
                across_workgroups: r.first.workgroup != r.second.workgroup,
                first: side(&r.first),
                second: side(&r.second),
            }
        })
        .collect();
    Findings {
        buffers,
        invocations: record.invocations.clone(),
        out_of_bounds,
        hazards,
        hazard_total: record.race_total,
        workgroup_size: config.workgroup_size,
        ..empty_findings()
    }
}

/// The element of word `word` of `global`'s outermost array, numbered as
/// the GPU run's findings number it ([`gpu_puzzles_instrument::array_of`]);
/// `None` for a global whose type holds no array (a scalar or a structure
/// of scalars). A buffer the shader does not declare is counted in words.
fn element_of(module: &naga::Module, global: Option<&naga::GlobalVariable>, word: u32) -> Option<u32> {
    match global {
        Some(g) => gpu_puzzles_instrument::array_of(module, g.ty).and_then(|a| a.element(word)),
        None => Some(word),
    }
}

/// A stop that is not a verdict, in words with its place.
fn unjudged(stop: &Stop, sub: &Substituted, source: &str) -> Unjudged {
    let at = stop.span().and_then(|s| place(sub, source, s)).map(|p| format!(" (line {}:{})", p.line, p.column)).unwrap_or_default();
    Unjudged {
        message: match stop {
            Stop::Unsupported { what, .. } => format!("the debugger cannot run {what}{at}; judge this shader on a GPU, or write it without {what}"),
            Stop::Internal { message, .. } => format!("the interpreter failed{at}: {message}. This is a bug in GPU Puzzles, not in your shader"),
            other => format!("{other:?}"),
        },
    }
}
