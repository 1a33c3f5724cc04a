//! One case on the GPU: checked against the device's limits, compiled
//! inside error scopes (or taken from the device's cache), checked on the
//! CPU interpreter when asked, dispatched plain or instrumented, read back
//! and judged. Every step reads the case's [`PreparedShader`]; none
//! substitutes or parses the student's text.

use crate::cpu_checks::Early;
use crate::dispatch::{finish, submit, DispatchOptions, Submitted};
use crate::instrumented::{run_instrumented, Instrumentation};
use crate::messages::{at_offset, diagnostic};
use crate::pipeline::{
    build, cache_key, layout_entries, plain_source, start_build, yield_to_gpu_process, Cached,
};
use crate::run::{ms, RunOptions};
use crate::{Gpu, RunnerError};
use gpu_puzzles_core::{template, Case, Puzzle, Values};
use gpu_puzzles_instrument::{PassError, Shader};
use gpu_puzzles_interp::PreparedShader;
use gpu_puzzles_verdict::judge::{
    budget_outcome, judge, memory_outcome, CaseResult, ConfigProblem, Diagnostic, Outcome,
    Unchecked,
};
use gpu_puzzles_verdict::trace::{Findings, TraceMeta};
use std::sync::Arc;
use web_time::Instant;

/// A case on its way: judged already (a configuration or compile error),
/// or dispatched with its read-back not yet awaited.
pub(crate) enum Started {
    /// Judged without a dispatch.
    Done(CaseResult),
    /// The instrumented dispatch is in flight; `meta` reads its trace.
    Instrumented { result: CaseResult, submitted: Submitted, meta: Arc<TraceMeta> },
    /// The plain dispatch is in flight, with the interpreter's findings
    /// when it checked the case ([`RunOptions::cpu_checks`]).
    Plain { result: CaseResult, submitted: Submitted, findings: Option<Arc<Findings>> },
}

/// A case up to its dispatch's submission, on `shader`, the student's text
/// prepared for the case.
///
/// Steps: check the configuration against the device's limits and the
/// shader's workgroup memory against WebGPU's; create the shader module in
/// a validation error scope and collect `get_compilation_info()` messages
/// mapped to the student's lines and columns; check the bindings against
/// the student's declarations (`read` or `read_write`, unused bindings
/// allowed); natively, the synccheck. Then, with [`RunOptions::instrument`]
/// and for every case but a performance one, one instrumented dispatch
/// gives the outputs and the findings (or, with [`RunOptions::cpu_checks`],
/// a case the interpreter finds clean runs plain with its findings); a
/// performance case, or a shader the pass cannot instrument (the result's
/// `instrumentation` says why), gets one plain dispatch. Inputs are
/// uploaded and outputs start zeroed. `early` holds the order checks a
/// helper makes.
///
/// # Errors
/// Only our own failures: a lost device, a timeout, a failed read-back.
pub(crate) async fn start_case(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    shader: &Arc<PreparedShader>,
    options: RunOptions,
    early: &mut Early<'_>,
) -> Result<Started, RunnerError> {
    if gpu.is_lost() {
        return Err(gpu.lost_error());
    }
    let mut result = CaseResult::new(case, Outcome::Passed);
    let finish = |mut r: CaseResult, outcome| {
        r.outcome = outcome;
        Ok(Started::Done(r))
    };

    // 1. Configuration against the device's limits.
    if let Err(problem) = crate::check_config(puzzle, case, &gpu.device.limits()) {
        return finish(result, Outcome::config(problem));
    }

    // 2. The prepared shader's parse serves everything below. Workgroup
    // memory against WebGPU's limit (some drivers allow more).
    let (sub, source, parsed) = (shader.sub(), shader.source(), shader.shader());
    let limit = gpu.device.limits().max_compute_workgroup_storage_size as u64;
    if let Some(bytes) = parsed.ok().map(Shader::workgroup_memory_bytes).filter(|&b| b > limit) {
        return finish(
            result,
            Outcome::config(ConfigProblem::ShaderWorkgroupMemory { bytes, max: limit }),
        );
    }

    // 2b. The rules some compilers enforce and naga does not, on every
    // engine and before any compiler: a barrier or subgroup operation in
    // non-uniform control flow (the synccheck), aliased pointer arguments.
    // naga (the native compiler, and Firefox's) accepts such a shader; Tint
    // (Chromium) and WebKit's compiler reject it, each in words of its own.
    // The judge's own rules, applied here first, give the same verdict,
    // message and mark in the editor wherever the Run happens (issue 88).
    if let Some(e) = shader.broken_rule() {
        let d = at_offset(e.message, e.offset, e.length, sub, source);
        return finish(result, Outcome::CompileError { diagnostics: vec![d] });
    }

    // 3. Compile, with the bindings from the student's declarations; compile
    // errors come before binding errors. A case that will run instrumented
    // needs only the module here (for the compiler's messages in the
    // student's lines): its pipeline is the instrumented one. Natively the
    // device's compiler is naga itself, so a shader naga accepted needs no
    // plain module at all.
    let instrumented = options.instrument && !case.is_performance();
    // A case the interpreter may find clean is compiled plain here, which
    // gives the compiler's messages and the pipeline in one compile.
    // A shader that uses subgroups only where the GPU's subgroup size is
    // known (the interpreter runs at that size), and not one that might
    // wait for another workgroup in a loop (only the instrumented run's
    // loop guard would stop it).
    let subgroups = sub.uses_subgroups().then(|| gpu.fixed_subgroup_size());
    let plain_first = instrumented
        && options.cpu_checks
        && subgroups.is_none_or(|s| s.is_some())
        && parsed.is_ok_and(|s| !s.may_wait_across_workgroups());
    let layout_entries = layout_entries(shader);
    // A shader compiled before on this device (a Run on unchanged code)
    // compiled without errors: the cache holds its pipelines.
    let lens: Vec<u32> = case.buffers.iter().map(|cb| cb.initial.len() as u32).collect();
    let plain_key = layout_entries.as_deref().ok().map(|e| cache_key(shader, puzzle, e, None));
    let instrumented_keys: Vec<(u64, bool)> = match (&layout_entries, instrumented) {
        (Ok(e), true) => [true, false]
            .into_iter()
            .map(|rc| (cache_key(shader, puzzle, e, Some((&case.config, &lens, rc))), rc))
            .collect(),
        _ => Vec::new(),
    };
    let compiled_before = instrumented_keys.iter().any(|(k, _)| gpu.cached(*k).is_some());
    let mut pipeline = if instrumented && !plain_first {
        None
    } else {
        plain_key.and_then(|k| gpu.cached(k)).map(|c| c.pipeline)
    };
    // Natively naga is the device's compiler: a shader it parsed compiles.
    // Creating the plain pipeline, when this case does (a performance
    // case's first call shows it).
    let mut built_ms = None;
    let known_to_compile =
        compiled_before || pipeline.is_some() || (instrumented && NAGA_COMPILES && parsed.is_ok());
    if !known_to_compile {
        let entries =
            if instrumented && !plain_first { None } else { layout_entries.as_deref().ok() };
        let since = Instant::now();
        // While the GPU process compiles, the interpreter checks the case.
        let pending = start_build(gpu, puzzle, &puzzle.slug, plain_source(shader), entries);
        let mut overlapped_ms = 0.0;
        if plain_first && entries.is_some() {
            yield_to_gpu_process().await;
            let since = Instant::now();
            crate::cpu_checks::checked(gpu, puzzle, case, shader, subgroups.flatten(), early, true);
            overlapped_ms = ms(since);
        }
        let built = pending.finish(puzzle, |m| diagnostic(m, sub, source)).await;
        gpu.note_phase(|p| p.plain_compile_ms += ms(since) - overlapped_ms);
        if entries.is_some() {
            built_ms = Some(ms(since) - overlapped_ms);
        }
        match built {
            Err(diagnostics) => {
                return finish(
                    result,
                    Outcome::CompileError {
                        diagnostics: explained(diagnostics, parsed.err(), sub, source),
                    },
                )
            }
            Ok(p) => {
                if let (Some(p), Some(k)) = (&p, plain_key) {
                    gpu.cache(k, Cached { pipeline: p.clone(), meta: None });
                }
                pipeline = p;
            }
        }
    }
    let layout_entries = match layout_entries {
        Ok(entries) => entries,
        Err(problem) => return finish(result, Outcome::config(problem)),
    };
    if gpu.is_lost() {
        return Err(gpu.lost_error());
    }

    // 3a. Printed values the log cannot show (a pointer, an array): the
    // same message on every adapter, before anything runs.
    if let Some(e) = shader.bad_print() {
        let d = at_offset(e.message.clone(), e.span.start, e.span.len(), sub, source);
        return finish(result, Outcome::CompileError { diagnostics: vec![d] });
    }

    // 4. The instrumented run gives the verdict and the findings (not for
    // performance cases: the trace would slow the kernel being measured).
    // Its outputs are the plain shader's: the rewrite only adds atomics on
    // the trace buffer, and every access still happens as written.
    if options.instrument && case.is_performance() {
        result.instrumentation = Some(Unchecked::PerformanceCase);
    }
    let cpu_findings = if plain_first {
        crate::cpu_checks::checked(gpu, puzzle, case, shader, subgroups.flatten(), early, false)
            .map(|c| c.findings)
    } else {
        None
    };
    if instrumented && cpu_findings.is_none() {
        let parsed = match parsed {
            Ok(parsed) => Ok(parsed),
            Err(PassError::Rejected { message, span }) => {
                Err(Instrumentation::Rejected { message: message.clone(), span: span.clone() })
            }
            Err(PassError::Unsupported(why)) => {
                Err(Instrumentation::Skipped(Unchecked::Unsupported { why: why.clone() }))
            }
        };
        let ran = match parsed {
            Ok(parsed) => {
                run_instrumented(gpu, puzzle, case, parsed, &layout_entries, &instrumented_keys)
                    .await?
            }
            Err(not) => not,
        };
        match ran {
            Instrumentation::Submitted { submitted, meta } => {
                return Ok(Started::Instrumented { result, submitted, meta })
            }
            Instrumentation::Rejected { message, span } => {
                // This browser's compiler accepted what naga does not: the
                // checks cannot run, and a pass without them is not one.
                let span = span.unwrap_or(0..0);
                let message = format!(
                    "{message}. This browser accepts it, but the memory checker (naga) does not, so races and out-of-bounds accesses could not be looked for; rewrite this part in plain WGSL (for example, pass an index instead of a `ptr<workgroup>` or `ptr<storage>` parameter)"
                );
                let d = at_offset(message, span.start, span.len(), sub, source);
                return finish(result, Outcome::CompileError { diagnostics: vec![d] });
            }
            Instrumentation::Skipped(why) => result.instrumentation = Some(why),
        }
    }

    // 5. The plain run, for performance cases, for cases the interpreter
    // found clean, and where the pass could not instrument the shader.
    let pipeline = match pipeline.take() {
        Some(p) => p,
        None => {
            let since = Instant::now();
            let built = build(
                gpu,
                puzzle,
                &puzzle.slug,
                plain_source(shader),
                Some(&layout_entries),
                |m| diagnostic(m, sub, source),
            )
            .await;
            built_ms = Some(ms(since));
            match built {
                Ok(p) => {
                    let p = p.expect("built with entries");
                    gpu.cache(
                        cache_key(shader, puzzle, &layout_entries, None),
                        Cached { pipeline: p.clone(), meta: None },
                    );
                    p
                }
                Err(diagnostics) => return finish(result, Outcome::CompileError { diagnostics }),
            }
        }
    };
    let mut submitted = submit(
        gpu,
        puzzle,
        case,
        &pipeline,
        DispatchOptions { trace_bytes: None, measure: case.is_performance() },
        None,
    )
    .await?;
    submitted.note_pipeline_ms(built_ms);
    Ok(Started::Plain { result, submitted, findings: cpu_findings })
}

/// Awaits a started case's read-back and judges it: the outputs against
/// the CPU reference and, for an instrumented run, the findings.
///
/// # Errors
/// As [`start_case`], and a puzzle whose reference fails.
pub(crate) async fn complete(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    started: Started,
) -> Result<CaseResult, RunnerError> {
    match started {
        Started::Done(r) => Ok(r),
        Started::Instrumented { mut result, submitted, meta } => {
            let (actual, trace, timing) = finish(gpu, puzzle, submitted).await?;
            let words =
                trace.ok_or_else(|| RunnerError::Readback("the trace did not come back".into()))?;
            result.instrumented_timing = Some(timing);
            let findings = meta.findings(&words);
            if findings.runaway_loop.is_some() {
                // The guard broke the loop: the outputs mean nothing.
                result.outcome = memory_outcome(&findings).expect("a runaway loop fails");
                result.findings = Some(findings);
                return Ok(result);
            }
            result.outcome = verdict(puzzle, case, &actual, Some(&findings))?;
            result.findings = Some(findings);
            result.actual = actual;
            Ok(result)
        }
        Started::Plain { mut result, submitted, findings } => {
            let (actual, _, timing) = finish(gpu, puzzle, submitted).await?;
            result.timing = timing;
            result.outcome = verdict(puzzle, case, &actual, findings.as_deref())?;
            // The CPU reference's time on the case's data, beside the GPU's.
            result.cpu_ms = puzzle.reference_ms(case);
            result.findings = findings.map(|f| (*f).clone());
            result.actual = actual;
            Ok(result)
        }
    }
}

/// Whether the device's shader compiler is naga (every native backend of
/// wgpu), so that what naga accepts, the device accepts. In a browser the
/// browser's compiler decides.
const NAGA_COMPILES: bool = cfg!(not(target_arch = "wasm32"));

/// wgpu reports a naga validation error by its first line only ("Function
/// [0] 'f' is invalid"), natively and in Firefox, whose WebGPU compiles
/// with naga too; naga's chain of causes, from the case's own parse
/// (`rejected`), says why, so it replaces that line wherever it appears.
/// Other compilers' messages (Tint's, WebKit's) are kept.
fn explained(
    diagnostics: Vec<Diagnostic>,
    rejected: Option<&PassError>,
    sub: &template::Substituted,
    source: &str,
) -> Vec<Diagnostic> {
    if let Some(PassError::Rejected { message, span: Some(span) }) = rejected {
        if diagnostics.iter().any(|d| d.message.contains(" is invalid")) {
            return vec![at_offset(message.clone(), span.start, span.len(), sub, source)];
        }
    }
    diagnostics
}

/// The verdict on a case's read-back `actual` values and, when the run was
/// instrumented, its findings: a memory error replaces a pass or a
/// mismatch (it is the cause to fix first), and a pass over the case's
/// access budget becomes [`Outcome::OverBudget`]. Expected values and
/// read-backs that are missing are our failures, not the student's
/// (ARCHITECTURE.md).
fn verdict(
    puzzle: &Puzzle,
    case: &Case,
    actual: &[Values],
    findings: Option<&Findings>,
) -> Result<Outcome, RunnerError> {
    puzzle.expected(case).map_err(|error| RunnerError::Reference { case: case.number, error })?;
    if actual.len() != puzzle.compared_buffers().count() {
        return Err(RunnerError::Readback(format!(
            "{} of {} compared buffers came back",
            actual.len(),
            puzzle.compared_buffers().count()
        )));
    }
    let mut outcome = judge(puzzle, case, actual)?;
    if let Some(memory) = findings.and_then(memory_outcome) {
        if outcome.passed() || matches!(outcome, Outcome::Mismatch { .. }) {
            outcome = memory;
        }
    }
    if outcome.passed() {
        if let Some(over) = findings.and_then(|f| budget_outcome(puzzle, case, f)) {
            outcome = over;
        }
    }
    Ok(outcome)
}
