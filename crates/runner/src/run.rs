//! One test case: substitute, compile inside error scopes, check the
//! configuration, bind, dispatch, read back, judge; and, when asked, the
//! same dispatch instrumented, for heat maps and memory checks.

use crate::messages::{at_offset, diagnostic, unpositioned, without_position};
use crate::{Gpu, RunnerError};
use gpu_puzzles_core::judge::{budget_outcome, judge, memory_outcome, CaseResult, Diagnostic, Outcome, Severity, Timing};
use gpu_puzzles_core::trace::Findings;
use gpu_puzzles_core::wgsl::{declarations, Declared};
use gpu_puzzles_core::{template, Case, Puzzle, Role, Values};
use gpu_puzzles_instrument::{Options, PassError, Shader, Traced, TRACE_BINDING};
use web_time::Instant;
use wgpu::util::DeviceExt;

/// Offsets of buffers packed into one read-back buffer are multiples of this
/// (WebGPU's copy offset alignment is 4 and its map offset alignment 8;
/// 256 keeps every copy well aligned).
const READBACK_ALIGN: u64 = 256;

/// How to run a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunOptions {
    /// Run the shader instrumented (heat maps, memcheck, racecheck, loop
    /// guards) on every case but the performance ones; the instrumented
    /// run's outputs and findings give the verdict. Off only to time a
    /// kernel ([`time_kernel`]): without it nothing catches a race, an
    /// out-of-bounds access or a loop that never ends.
    pub instrument: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self { instrument: true }
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
/// [`Outcome::Skipped`]. Results come back in case order.
pub async fn judge_puzzle(gpu: &Gpu, puzzle: &Puzzle, source: &str, options: RunOptions) -> Result<Vec<CaseResult>, RunnerError> {
    judge_with(gpu, puzzle, &[], source, options).await
}

/// [`judge_puzzle`] with `extra` cases judged after the puzzle's ordinary
/// ones and before its performance cases: the random cases of a Run
/// ([`gpu_puzzles_core::load::random_cases`]), numbered after the puzzle's.
///
/// # Errors
/// As [`judge_puzzle`].
pub async fn judge_with(gpu: &Gpu, puzzle: &Puzzle, extra: &[Case], source: &str, options: RunOptions) -> Result<Vec<CaseResult>, RunnerError> {
    let mut results = Vec::with_capacity(puzzle.cases.len() + extra.len());
    for case in puzzle.cases.iter().filter(|c| !c.is_performance()).chain(extra) {
        results.push(run_case(gpu, puzzle, case, source, options).await?);
    }
    let all_passed = results.iter().all(|r| r.outcome.passed());
    for case in puzzle.cases.iter().filter(|c| c.is_performance()) {
        results.push(if all_passed { run_case(gpu, puzzle, case, source, options).await? } else { skipped(case) });
    }
    results.sort_by_key(|r| r.case);
    Ok(results)
}

/// The result of a performance case left out because another case failed.
fn skipped(case: &Case) -> CaseResult {
    CaseResult {
        case: case.number,
        hidden: case.hidden,
        outcome: Outcome::Skipped { message: "not timed: performance cases run once every other case passes. Fix the failing cases first.".into() },
        actual: vec![],
        warnings: vec![],
        timing: Timing::default(),
        instrumented_timing: None,
        findings: None,
        instrumentation: None,
        reference_timing: None,
        comparison_timings: vec![],
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
pub async fn time_kernel(gpu: &Gpu, puzzle: &Puzzle, case: &Case, source: &str) -> Result<Option<Timing>, RunnerError> {
    let r = run_case(gpu, puzzle, case, source, RunOptions { instrument: false }).await?;
    Ok(r.outcome.passed().then_some(r.timing))
}

/// Timings of yardstick kernels by puzzle slug, case number and kernel (0 the
/// reference solution, `k + 1` comparison kernel `k`); `None` for one that
/// did not pass or does not exist in this build.
pub type YardstickCache = std::collections::HashMap<(String, usize, usize), Option<Timing>>;

/// Fills in the reference solution's and every comparison kernel's timing on
/// each performance case of `results` that passed, measuring only what
/// `cache` does not hold yet (a front end keeps one cache per device, since
/// the yardsticks do not change between a student's runs).
///
/// # Errors
/// As [`run_case`].
pub async fn add_yardsticks(gpu: &Gpu, puzzle: &Puzzle, results: &mut [CaseResult], cache: &mut YardstickCache) -> Result<(), RunnerError> {
    for r in results.iter_mut().filter(|r| r.outcome.passed()) {
        let Some(case) = puzzle.cases.get(r.case - 1).filter(|c| c.is_performance()) else { continue };
        let kernels: Vec<Option<&str>> =
            std::iter::once(puzzle.solution.as_deref()).chain(puzzle.comparisons.iter().map(|c| Some(c.source.as_str()))).collect();
        let mut timings = Vec::with_capacity(kernels.len());
        for (k, source) in kernels.into_iter().enumerate() {
            let key = (puzzle.slug.clone(), case.number, k);
            let t = match cache.get(&key) {
                Some(t) => *t,
                None => {
                    let t = match source {
                        Some(s) => time_kernel(gpu, puzzle, case, s).await?,
                        None => None,
                    };
                    cache.insert(key, t);
                    t
                }
            };
            timings.push(t);
        }
        r.reference_timing = timings[0];
        r.comparison_timings = timings[1..].to_vec();
    }
    Ok(())
}

/// Runs and judges one case.
///
/// Steps: check the configuration against the device's limits and the
/// shader's workgroup memory against WebGPU's; substitute the template
/// placeholders; create the shader module in a validation error scope and
/// collect `get_compilation_info()` messages mapped to the student's lines
/// and columns; check the bindings against the student's declarations
/// (`read` or `read_write`, unused bindings allowed); natively, the
/// synccheck. Then, with [`RunOptions::instrument`] and for every case but
/// a performance one, one instrumented dispatch gives the outputs and the
/// findings; a performance case, or a shader the pass cannot instrument
/// (the result's `instrumentation` says why), gets one plain dispatch.
/// Inputs are uploaded, outputs start zeroed, and what comes back is
/// compared with the CPU reference.
///
/// # Errors
/// Only our own failures: a lost device, a timeout, a failed read-back, a
/// puzzle whose reference fails.
pub async fn run_case(gpu: &Gpu, puzzle: &Puzzle, case: &Case, source: &str, options: RunOptions) -> Result<CaseResult, RunnerError> {
    if gpu.is_lost() {
        return Err(gpu.lost_error());
    }
    let mut result = CaseResult {
        case: case.number,
        hidden: case.hidden,
        outcome: Outcome::Passed,
        actual: vec![],
        warnings: vec![],
        timing: Timing::default(),
        instrumented_timing: None,
        findings: None,
        instrumentation: None,
        reference_timing: None,
        comparison_timings: vec![],
    };
    let finish = |mut r: CaseResult, outcome| {
        r.outcome = outcome;
        Ok(r)
    };

    // 1. Configuration against the device's limits.
    if let Err(message) = crate::check_config(puzzle, case, &gpu.device.limits()) {
        return finish(result, Outcome::ConfigError { message });
    }

    // 2. One naga parse for everything below. Workgroup memory against
    // WebGPU's limit (some drivers allow more).
    let sub = template::substitute(source, &case.config);
    let parsed = Shader::parse(&sub.text);
    let limit = gpu.device.limits().max_compute_workgroup_storage_size as u64;
    if let Some(bytes) = parsed.as_ref().ok().map(Shader::workgroup_memory_bytes).filter(|&b| b > limit) {
        let message = format!(
            "the shader declares {bytes} bytes of workgroup memory (`var<workgroup>`), above the {limit} bytes WebGPU guarantees (maxComputeWorkgroupStorageSize); size the arrays with {{{{smemSize}}}} or keep less per workgroup"
        );
        return finish(result, Outcome::ConfigError { message });
    }

    // 3. Compile, with the bindings from the student's declarations; compile
    // errors come before binding errors. A case that will run instrumented
    // needs only the module here (for the compiler's messages in the
    // student's lines): its pipeline is the instrumented one. Natively the
    // device's compiler is naga itself, so a shader naga accepted needs no
    // plain module at all.
    let instrumented = options.instrument && !case.is_performance();
    let layout_entries = layout_entries(puzzle, source);
    let mut pipeline = None;
    if !(instrumented && NAGA_COMPILES && parsed.is_ok()) {
        let entries = if instrumented { None } else { layout_entries.as_deref().ok() };
        let built = build(gpu, puzzle, &puzzle.slug, plain_source(&sub.text, parsed.as_ref().ok()), entries, |m| diagnostic(m, &sub, source)).await;
        match built {
            Err(diagnostics) => return finish(result, Outcome::CompileError { diagnostics: explained(diagnostics, &sub, source) }),
            Ok(p) => pipeline = p,
        }
    }
    let layout_entries = match layout_entries {
        Ok(entries) => entries,
        Err(message) => return finish(result, Outcome::ConfigError { message }),
    };
    if gpu.is_lost() {
        return Err(gpu.lost_error());
    }

    // 3b. The synccheck, natively: naga accepts a barrier in non-uniform
    // control flow, which browsers' compilers reject (their uniformity
    // analysis is authoritative in the page). Same verdict everywhere.
    if NAGA_COMPILES {
        if let Some(e) = parsed.as_ref().ok().and_then(Shader::check_barriers) {
            let d = at_offset(e.message(), e.offset, e.length, &sub, source);
            return finish(result, Outcome::CompileError { diagnostics: vec![d] });
        }
    }

    // 4. The instrumented run gives the verdict and the findings (not for
    // performance cases: the trace would slow the kernel being measured).
    // Its outputs are the plain shader's: the rewrite only adds atomics on
    // the trace buffer, and every access still happens as written.
    if options.instrument && case.is_performance() {
        result.instrumentation = Some("heat maps and memory checks are not recorded for performance cases; the other cases have them".into());
    }
    if instrumented {
        let shader = match &parsed {
            Ok(shader) => Ok(shader),
            Err(PassError::Rejected { message, span }) => Err(Instrumentation::Rejected { message: message.clone(), span: span.clone() }),
            Err(PassError::Unsupported(why)) => Err(Instrumentation::Skipped(why.clone())),
        };
        let ran = match shader {
            Ok(shader) => run_instrumented(gpu, puzzle, case, shader, &layout_entries).await?,
            Err(not) => not,
        };
        match ran {
            Instrumentation::Ran { actual, findings, timing } => {
                result.instrumented_timing = Some(timing);
                let runaway = findings.runaway_loop.is_some();
                result.findings = Some(findings);
                let findings = result.findings.as_ref().expect("just set");
                if runaway {
                    // The guard broke the loop: the outputs mean nothing.
                    let outcome = memory_outcome(findings).expect("a runaway loop fails");
                    return finish(result, outcome);
                }
                let outcome = verdict(puzzle, case, &actual, Some(findings))?;
                result.actual = actual;
                return finish(result, outcome);
            }
            Instrumentation::Rejected { message, span } => {
                // This browser's compiler accepted what naga does not: the
                // checks cannot run, and a pass without them is not one.
                let span = span.unwrap_or(0..0);
                let message = format!(
                    "{message}. This browser accepts it, but the memory checker (naga) does not, so races and out-of-bounds accesses could not be looked for; rewrite this part in plain WGSL (for example, pass an index instead of a `ptr<workgroup>` or `ptr<storage>` parameter)"
                );
                let d = at_offset(message, span.start, span.len(), &sub, source);
                return finish(result, Outcome::CompileError { diagnostics: vec![d] });
            }
            Instrumentation::Skipped(note) => result.instrumentation = Some(note),
        }
    }

    // 5. The plain run, for performance cases and where the pass could not
    // instrument the shader.
    let pipeline = match pipeline.take() {
        Some(p) => p,
        None => match build(gpu, puzzle, &puzzle.slug, plain_source(&sub.text, parsed.as_ref().ok()), Some(&layout_entries), |m| diagnostic(m, &sub, source))
            .await
        {
            Ok(p) => p.expect("built with entries"),
            Err(diagnostics) => return finish(result, Outcome::CompileError { diagnostics }),
        },
    };
    let (actual, trace, timing) = dispatch(gpu, puzzle, case, &pipeline, None).await?;
    debug_assert!(trace.is_none());
    result.timing = timing;
    let outcome = verdict(puzzle, case, &actual, None)?;
    result.actual = actual;
    finish(result, outcome)
}

/// Whether the device's shader compiler is naga (every native backend of
/// wgpu), so that what naga accepts, the device accepts. In a browser the
/// browser's compiler decides.
const NAGA_COMPILES: bool = cfg!(not(target_arch = "wasm32"));

/// The student's shader for the device: natively the module naga already
/// parsed (no second parse), in a browser the text.
fn plain_source<'a>(text: &'a str, parsed: Option<&Shader>) -> wgpu::ShaderSource<'a> {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(shader) = parsed {
        return wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(shader.module().clone()));
    }
    let _ = parsed;
    wgpu::ShaderSource::Wgsl(text.into())
}

/// Natively wgpu reports a naga validation error by its first line only
/// ("Function [0] 'f' is invalid"); naga's chain of causes says why. In a
/// browser the compiler's own messages are kept.
fn explained(diagnostics: Vec<Diagnostic>, sub: &template::Substituted, source: &str) -> Vec<Diagnostic> {
    #[cfg(not(target_arch = "wasm32"))]
    if diagnostics.iter().any(|d| d.message.contains(" is invalid")) {
        if let Err(PassError::Rejected { message, span: Some(span) }) = Shader::parse(&sub.text) {
            return vec![at_offset(message, span.start, span.len(), sub, source)];
        }
    }
    let _ = (sub, source);
    diagnostics
}

/// The verdict on a case's read-back `actual` values and, when the run was
/// instrumented, its findings: a memory error replaces a pass or a
/// mismatch (it is the cause to fix first), and a pass over the case's
/// access budget becomes [`Outcome::OverBudget`]. Expected values and
/// read-backs that are missing are our failures, not the student's
/// (ARCHITECTURE.md).
fn verdict(puzzle: &Puzzle, case: &Case, actual: &[Values], findings: Option<&Findings>) -> Result<Outcome, RunnerError> {
    puzzle.expected(case).map_err(|message| RunnerError::Reference { case: case.number, message })?;
    if actual.len() != puzzle.compared_buffers().count() {
        return Err(RunnerError::Readback(format!("{} of {} compared buffers came back", actual.len(), puzzle.compared_buffers().count())));
    }
    let mut outcome = judge(puzzle, case, actual);
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

/// What became of a case's instrumented run.
enum Instrumentation {
    /// It ran: the compared buffers' contents, the findings and the
    /// dispatch's timing.
    Ran { actual: Vec<Values>, findings: Findings, timing: Timing },
    /// naga does not accept the shader (only possible where the device's
    /// compiler is not naga: in a browser); `span` is in the substituted text.
    Rejected { message: String, span: Option<std::ops::Range<usize>> },
    /// The pass or the device could not handle the instrumented shader, or
    /// its trace would not fit: why, for the page and the CLI. The case is
    /// then judged by a plain run.
    Skipped(String),
}

/// Runs the instrumented shader once and reads back its outputs and findings.
async fn run_instrumented(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    shader: &Shader<'_>,
    layout_entries: &[wgpu::BindGroupLayoutEntry],
) -> Result<Instrumentation, RunnerError> {
    let traced: Vec<Traced> = puzzle.buffers.iter().zip(&case.buffers).map(|(b, cb)| Traced { binding: b.binding, len: cb.initial.len() as u32 }).collect();
    // naga is not ours: a panic inside it (natively) loses the heat maps,
    // not the judgement.
    let entry_points: Vec<&str> = puzzle.entry_points.iter().map(String::as_str).collect();
    let max = gpu.device.limits().max_storage_buffer_binding_size.min(gpu.device.limits().max_buffer_size);
    let mut inst = None;
    // With the racecheck first; without it when its shadow memory would not
    // fit this device's limit (the findings then say the check was skipped).
    for racecheck in [true, false] {
        let pass = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| shader.instrument(&traced, &case.config, &entry_points, Options { racecheck })));
        let i = match pass {
            Ok(Ok(i)) => i,
            Ok(Err(PassError::Rejected { message, span })) => return Ok(Instrumentation::Rejected { message, span }),
            Ok(Err(PassError::Unsupported(why))) => return Ok(Instrumentation::Skipped(why)),
            Err(_) => return Ok(Instrumentation::Skipped("the instrumentation pass failed inside naga on this shader".into())),
        };
        let bytes = i.meta.layout.total_words * 4;
        if bytes <= max {
            inst = Some(i);
            break;
        }
        if !racecheck {
            return Ok(Instrumentation::Skipped(format!("the trace would need {bytes} bytes, more than this device's {max}-byte buffer limit")));
        }
    }
    let inst = inst.expect("the loop returns or sets it");
    let mut entries = layout_entries.to_vec();
    entries.push(layout_entry(TRACE_BINDING, wgpu::BufferBindingType::Storage { read_only: false }));
    // Natively the IR goes to the device as it is; a browser needs WGSL.
    #[cfg(not(target_arch = "wasm32"))]
    let module = wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(inst.module));
    #[cfg(target_arch = "wasm32")]
    let module = match inst.wgsl() {
        Ok(text) => wgpu::ShaderSource::Wgsl(text.into()),
        Err(why) => return Ok(Instrumentation::Skipped(why.to_string())),
    };
    let pipeline = match build(gpu, puzzle, "instrumented", module, Some(&entries), without_position).await {
        Ok(p) => p.expect("built with entries"),
        Err(d) => {
            let msg = d.first().map(|d| d.message.clone()).unwrap_or_default();
            return Ok(Instrumentation::Skipped(format!("the device's compiler rejected the instrumented shader ({msg})")));
        }
    };
    let layout = &inst.meta.layout;
    let (actual, trace, timing) = dispatch(gpu, puzzle, case, &pipeline, Some((layout.total_words * 4, layout.readback_words * 4))).await?;
    let words = trace.expect("a trace was bound");
    Ok(Instrumentation::Ran { actual, findings: inst.meta.findings(&words, &case.config), timing })
}

/// Creates the shader module and, when `entries` are given, the bind group
/// layout and one compute pipeline per entry point of the puzzle, all inside one
/// validation error scope: a shader that compiles costs one round trip to the
/// GPU process. The compiler's messages are fetched only when something
/// failed: `Err` carries its errors (mapped by `map`), or the pipeline's.
async fn build(
    gpu: &Gpu,
    puzzle: &Puzzle,
    label: &str,
    source: wgpu::ShaderSource<'_>,
    entries: Option<&[wgpu::BindGroupLayoutEntry]>,
    map: impl Fn(&wgpu::CompilationMessage) -> Diagnostic,
) -> Result<Option<Pipeline>, Vec<Diagnostic>> {
    let device = &gpu.device;
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor { label: Some(label), source });
    let built = entries.map(|entries| {
        let bind_group_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(label),
            bind_group_layouts: &[Some(&bind_group_layout)],
            immediate_size: 0,
        });
        let pipelines = puzzle
            .entry_points
            .iter()
            .map(|entry| {
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(entry),
                    layout: Some(&pipeline_layout),
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    cache: None,
                })
            })
            .collect();
        Pipeline { pipelines, bind_group_layout }
    });
    let Some(error) = scope.pop().await else { return Ok(built) };
    let info = module.get_compilation_info().await;
    let mut diagnostics: Vec<_> = info.messages.iter().map(map).filter(|d| d.severity == Severity::Error).collect();
    diagnostics.sort_by_key(|d| (d.line, d.column));
    if diagnostics.is_empty() {
        let mut d = unpositioned(&error.to_string());
        d.message = pipeline_hint(puzzle, &d.message);
        diagnostics.push(d);
    }
    Err(diagnostics)
}

/// The compiled pipelines, one per entry point in dispatch order, and their
/// shared bind group layout.
struct Pipeline {
    pipelines: Vec<wgpu::ComputePipeline>,
    bind_group_layout: wgpu::BindGroupLayout,
}

/// The bind group layout entries for the puzzle's buffers, with each storage
/// buffer's access mode taken from the student's declaration.
///
/// # Errors
/// A configuration message for a binding outside group 0, one the puzzle does
/// not have, or a storage buffer declared `var<uniform>`.
fn layout_entries(puzzle: &Puzzle, source: &str) -> Result<Vec<wgpu::BindGroupLayoutEntry>, String> {
    let declared = declarations(source);
    for d in declared.values() {
        if d.group != 0 {
            return Err(format!("`@group({}) @binding({})`: this puzzle binds everything in `@group(0)`", d.group, d.binding));
        }
        let known = puzzle.buffers.iter().any(|b| b.binding == d.binding) || puzzle.uniforms.iter().any(|u| u.binding == d.binding);
        if !known {
            return Err(unknown_binding(puzzle, d.binding));
        }
    }
    let mut entries = Vec::new();
    for b in &puzzle.buffers {
        let read_only = match declared.get(&b.binding).map(|d| d.declared) {
            Some(Declared::StorageRead) => true,
            Some(Declared::StorageReadWrite) => false,
            Some(Declared::Uniform) => {
                return Err(format!(
                    "binding {} (`{}`) is a storage buffer: declare it `var<storage, read>` or `var<storage, read_write>`, not `var<uniform>`",
                    b.binding, b.name
                ))
            }
            None => b.role == Role::Input,
        };
        entries.push(layout_entry(b.binding, wgpu::BufferBindingType::Storage { read_only }));
    }
    for u in &puzzle.uniforms {
        entries.push(layout_entry(u.binding, wgpu::BufferBindingType::Uniform));
    }
    Ok(entries)
}

/// Uploads the case's buffers (and binds a zeroed trace buffer of
/// `trace.0` bytes, when given), dispatches once and reads back every
/// compared buffer and the first `trace.1` bytes of the trace. Returns the compared buffers' contents in binding order,
/// the trace words and the timing.
async fn dispatch(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    p: &Pipeline,
    trace_bytes: Option<(u64, u64)>,
) -> Result<(Vec<Values>, Option<Vec<u32>>, Timing), RunnerError> {
    let device = &gpu.device;
    let storage_usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let storage: Vec<wgpu::Buffer> = puzzle
        .buffers
        .iter()
        .zip(&case.buffers)
        .map(|(b, cb)| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(&b.name), contents: &cb.initial.to_bytes(), usage: storage_usage })
        })
        .collect();
    let uniforms: Vec<wgpu::Buffer> = puzzle
        .uniforms
        .iter()
        .zip(&case.uniforms)
        .map(|(u, bytes)| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(&u.name),
                contents: bytes,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            })
        })
        .collect();
    // WebGPU zero-initialises new buffers, which is the trace's initial state.
    let trace_buffer = trace_bytes
        .map(|(size, _)| device.create_buffer(&wgpu::BufferDescriptor { label: Some("trace"), size, usage: storage_usage, mapped_at_creation: false }));
    let mut entries: Vec<wgpu::BindGroupEntry> =
        puzzle.buffers.iter().zip(&storage).map(|(b, buf)| wgpu::BindGroupEntry { binding: b.binding, resource: buf.as_entire_binding() }).collect();
    entries.extend(puzzle.uniforms.iter().zip(&uniforms).map(|(u, buf)| wgpu::BindGroupEntry { binding: u.binding, resource: buf.as_entire_binding() }));
    if let Some(t) = &trace_buffer {
        entries.push(wgpu::BindGroupEntry { binding: TRACE_BINDING, resource: t.as_entire_binding() });
    }
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some("puzzle bindings"), layout: &p.bind_group_layout, entries: &entries });

    // Read-back layout: every compared buffer, the trace, then two timestamps.
    let mut sources: Vec<&wgpu::Buffer> = puzzle.compared_buffers().map(|i| &storage[i]).collect();
    let compared = sources.len();
    sources.extend(trace_buffer.as_ref());
    // Bytes copied from each: whole compared buffers, the trace's read part.
    let copied: Vec<u64> =
        sources.iter().enumerate().map(|(k, b)| if k == compared { trace_bytes.map_or(b.size(), |(_, read)| read) } else { b.size() }).collect();
    let mut offsets = Vec::with_capacity(sources.len());
    let mut size = 0u64;
    for &bytes in &copied {
        offsets.push(size);
        size += bytes.div_ceil(READBACK_ALIGN) * READBACK_ALIGN;
    }
    let timestamps = gpu.timestamps.then(|| {
        let set = device.create_query_set(&wgpu::QuerySetDescriptor { label: Some("pass time"), ty: wgpu::QueryType::Timestamp, count: 2 });
        let resolve = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timestamps"),
            size: 16,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        (set, resolve)
    });
    let timestamp_offset = size;
    if timestamps.is_some() {
        size += READBACK_ALIGN;
    }
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read-back"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(&puzzle.slug) });
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(&puzzle.slug),
            timestamp_writes: timestamps.as_ref().map(|(set, _)| wgpu::ComputePassTimestampWrites {
                query_set: set,
                beginning_of_pass_write_index: Some(0),
                end_of_pass_write_index: Some(1),
            }),
        });
        pass.set_bind_group(0, &bind_group, &[]);
        let [x, y, z] = case.config.workgroups;
        // One dispatch per entry point; WebGPU makes each dispatch's storage
        // writes visible to the next.
        for pipeline in &p.pipelines {
            pass.set_pipeline(pipeline);
            pass.dispatch_workgroups(x, y, z);
        }
    }
    for ((b, &off), &bytes) in sources.iter().zip(&offsets).zip(&copied) {
        encoder.copy_buffer_to_buffer(b, 0, &readback, off, bytes);
    }
    if let Some((set, resolve)) = &timestamps {
        encoder.resolve_query_set(set, 0..2, resolve, 0);
        encoder.copy_buffer_to_buffer(resolve, 0, &readback, timestamp_offset, 16);
    }
    let started = Instant::now();
    gpu.queue.submit([encoder.finish()]);
    let bytes = read_back(gpu, &readback).await?;
    let wall_ms = started.elapsed().as_secs_f64() * 1000.0;

    let slice = |k: usize| &bytes[offsets[k] as usize..(offsets[k] + copied[k]) as usize];
    let actual: Vec<Values> = puzzle.compared_buffers().enumerate().map(|(k, i)| Values::from_bytes(puzzle.buffers[i].element, slice(k))).collect();
    let trace_words = trace_buffer.as_ref().map(|_| slice(compared).chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect());
    let gpu_ms = timestamps.as_ref().and_then(|_| {
        let t = &bytes[timestamp_offset as usize..timestamp_offset as usize + 16];
        let begin = u64::from_le_bytes(t[0..8].try_into().ok()?);
        let end = u64::from_le_bytes(t[8..16].try_into().ok()?);
        (end > begin).then(|| (end - begin) as f64 * gpu.queue.get_timestamp_period() as f64 / 1e6)
    });
    // Free GPU memory now: on the web, dropping a buffer leaves it to the
    // garbage collector, and a page may run hundreds of times.
    for b in storage.iter().chain(&uniforms).chain(trace_buffer.iter()).chain(std::iter::once(&readback)) {
        b.destroy();
    }
    if let Some((_, resolve)) = &timestamps {
        resolve.destroy();
    }
    Ok((actual, trace_words, Timing { wall_ms, gpu_ms }))
}

fn layout_entry(binding: u32, ty: wgpu::BufferBindingType) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None },
        count: None,
    }
}

fn unknown_binding(puzzle: &Puzzle, binding: u32) -> String {
    let known: Vec<String> = puzzle
        .buffers
        .iter()
        .map(|b| format!("`{}` = {}", b.name, b.binding))
        .chain(puzzle.uniforms.iter().map(|u| format!("`{}` = {}", u.name, u.binding)))
        .collect();
    format!("`@binding({binding})` is not one of this puzzle's bindings ({}); check the numbers in your declarations", known.join(", "))
}

/// Adds what to try to the pipeline errors students meet most.
fn pipeline_hint(puzzle: &Puzzle, message: &str) -> String {
    if message.contains("entry point") || message.contains("Entry point") {
        let names: Vec<String> = puzzle.entry_points.iter().map(|e| format!("`{e}`")).collect();
        if names.len() == 1 {
            format!("{message}. The entry point must be `@compute @workgroup_size({{{{workgroupSize}}}}) fn {}(…)`.", puzzle.entry_points[0])
        } else {
            format!(
                "{message}. This puzzle dispatches the entry points {} in that order; each needs `@compute @workgroup_size({{{{workgroupSize}}}})`.",
                names.join(" then ")
            )
        }
    } else if message.contains("binding") || message.contains("Binding") || message.contains("address space") {
        format!("{message}. Check each `@group(0) @binding(n)` declaration against the puzzle's buffers and their types.")
    } else {
        message.to_string()
    }
}

/// Maps `buffer` for reading and returns a copy of its bytes.
async fn read_back(gpu: &Gpu, buffer: &wgpu::Buffer) -> Result<Vec<u8>, RunnerError> {
    let (tx, rx) = futures_channel::oneshot::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = tx.send(r);
    });
    #[cfg(not(target_arch = "wasm32"))]
    {
        let timeout = std::time::Duration::from_millis(crate::DISPATCH_TIMEOUT_MS);
        match gpu.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: Some(timeout) }) {
            Ok(_) => {}
            Err(wgpu::PollError::Timeout) => {
                gpu.mark_lost("a dispatch ran past the time limit");
                return Err(RunnerError::Timeout(crate::DISPATCH_TIMEOUT_MS));
            }
            Err(e) => {
                gpu.mark_lost(&e.to_string());
                return Err(gpu.lost_error());
            }
        }
    }
    match rx.await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            return Err(if gpu.is_lost() { gpu.lost_error() } else { RunnerError::Readback(e.to_string()) });
        }
        Err(_) => return Err(if gpu.is_lost() { gpu.lost_error() } else { RunnerError::Readback("the map callback never ran".into()) }),
    }
    let bytes = buffer.get_mapped_range(..).map_err(|e| RunnerError::Readback(e.to_string()))?.to_vec();
    buffer.unmap();
    Ok(bytes)
}
