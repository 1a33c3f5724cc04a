//! A case's instrumented run: the pass over the student's shader (trace
//! accesses, shadow memory for the racecheck, loop guards), its compile
//! (cached per device), and the dispatch whose trace gives the findings.

use crate::dispatch::{submit, DispatchOptions, Submitted};
use crate::messages::without_position;
use crate::pipeline::{build, layout_entry, Cached, Pipeline};
use crate::run::ms;
use crate::{Gpu, RunnerError};
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_instrument::{Options, PassError, Shader, Traced, TRACE_BINDING};
use gpu_puzzles_verdict::judge::Unchecked;
use gpu_puzzles_verdict::trace::TraceMeta;
use web_time::Instant;

/// What became of a case's instrumented run.
pub(crate) enum Instrumentation {
    /// It ran: the compared buffers' contents, the findings and the
    /// dispatch's timing.
    Submitted { submitted: Submitted, meta: std::sync::Arc<TraceMeta> },
    /// naga does not accept the shader (only possible where the device's
    /// compiler is not naga: in a browser); `span` is in the substituted text.
    Rejected { message: String, span: Option<std::ops::Range<usize>> },
    /// The pass or the device could not handle the instrumented shader, or
    /// its trace would not fit: why, for the page and the CLI. The case is
    /// then judged by a plain run.
    Skipped(Unchecked),
}

/// Runs the instrumented shader once and reads back its outputs and findings.
pub(crate) async fn run_instrumented(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    shader: &Shader,
    layout_entries: &[wgpu::BindGroupLayoutEntry],
    keys: &[(u64, bool)],
) -> Result<Instrumentation, RunnerError> {
    let compiled = match keys.iter().find_map(|(k, _)| gpu.cached(*k)) {
        Some(Cached { pipeline, meta: Some(meta) }) => (pipeline, meta),
        _ => match instrument_and_build(gpu, puzzle, case, shader, layout_entries, keys).await {
            Ok(compiled) => compiled,
            Err(not) => return Ok(not),
        },
    };
    let (pipeline, meta) = compiled;
    let layout = &meta.layout;
    let trace_bytes = Some((layout.total_words * 4, layout.readback_words * 4));
    let submitted = submit(
        gpu,
        puzzle,
        case,
        &pipeline,
        DispatchOptions { trace_bytes, measure: false },
        Some(layout),
    )
    .await?;
    Ok(Instrumentation::Submitted { submitted, meta })
}

/// Instruments `shader` for `case` (with the racecheck, or without it when
/// its shadow memory would not fit this device's limit) and compiles it,
/// keeping the result under its key from `keys` (one per racecheck setting).
/// `Err` says why the case runs without its checks, or that naga rejected
/// the shader.
async fn instrument_and_build(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    shader: &Shader,
    layout_entries: &[wgpu::BindGroupLayoutEntry],
    keys: &[(u64, bool)],
) -> Result<(Pipeline, std::sync::Arc<TraceMeta>), Instrumentation> {
    let traced: Vec<Traced> = puzzle
        .buffers
        .iter()
        .zip(&case.buffers)
        .map(|(b, cb)| Traced { binding: b.binding, len: cb.initial.len() as u32 })
        .collect();
    let entry_points: Vec<&str> = puzzle.entry_points.iter().map(String::as_str).collect();
    let max = gpu
        .device
        .limits()
        .max_storage_buffer_binding_size
        .min(gpu.device.limits().max_buffer_size);
    let mut inst = None;
    let since = Instant::now();
    // With the racecheck first; without it when its shadow memory would not
    // fit this device's limit (the findings then say the check was skipped).
    for racecheck in [true, false] {
        // naga is not ours: a panic inside it (natively) loses the checks,
        // not the page.
        let pass = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            shader.instrument(&traced, &case.config, &entry_points, Options { racecheck })
        }));
        let i = match pass {
            Ok(Ok(i)) => i,
            Ok(Err(PassError::Rejected { message, span })) => {
                return Err(Instrumentation::Rejected { message, span })
            }
            Ok(Err(PassError::Unsupported(why))) => {
                return Err(Instrumentation::Skipped(Unchecked::Unsupported { why }))
            }
            Err(_) => {
                return Err(Instrumentation::Skipped(Unchecked::Unsupported {
                    why: "the pass failed inside naga".into(),
                }))
            }
        };
        let bytes = i.meta.layout.total_words * 4;
        if bytes <= max {
            inst = Some((i, racecheck));
            break;
        }
        if !racecheck {
            return Err(Instrumentation::Skipped(Unchecked::TraceTooLarge { bytes, limit: max }));
        }
    }
    let (inst, racecheck) = inst.expect("the loop returns or sets it");
    let mut entries = layout_entries.to_vec();
    entries
        .push(layout_entry(TRACE_BINDING, wgpu::BufferBindingType::Storage { read_only: false }));
    // Natively the IR goes to the device as it is; a browser needs WGSL.
    #[cfg(not(target_arch = "wasm32"))]
    let module = wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(inst.module));
    #[cfg(target_arch = "wasm32")]
    let module = match inst.wgsl() {
        // naga's WGSL writer does not emit `enable subgroups;` (gfx-rs/wgpu#8180).
        Ok(text) if text.contains("subgroup") && !text.contains("enable subgroups") => {
            wgpu::ShaderSource::Wgsl(format!("enable subgroups;\n{text}").into())
        }
        Ok(text) => wgpu::ShaderSource::Wgsl(text.into()),
        Err(why) => {
            return Err(Instrumentation::Skipped(Unchecked::Unsupported { why: why.to_string() }))
        }
    };
    gpu.note_phase(|p| p.instrument_ms += ms(since));
    let since = Instant::now();
    let built = build(gpu, puzzle, "instrumented", module, Some(&entries), without_position).await;
    gpu.note_phase(|p| p.instrumented_compile_ms += ms(since));
    let pipeline = match built {
        Ok(p) => p.expect("built with entries"),
        Err(d) => {
            let message = d.first().map(|d| d.message.clone()).unwrap_or_default();
            return Err(Instrumentation::Skipped(Unchecked::DeviceRejected { message }));
        }
    };
    let meta = std::sync::Arc::new(inst.meta);
    if let Some((key, _)) = keys.iter().find(|(_, rc)| *rc == racecheck) {
        gpu.cache(*key, Cached { pipeline: pipeline.clone(), meta: Some(meta.clone()) });
    }
    Ok((pipeline, meta))
}
