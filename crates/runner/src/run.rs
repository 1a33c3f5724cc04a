//! One test case: substitute, compile inside error scopes, check the
//! configuration, bind, dispatch, read back, judge.

use crate::messages::{diagnostic, unpositioned};
use crate::{Gpu, RunnerError};
use gpu_puzzles_core::judge::{judge, CaseResult, Outcome, Severity, Timing};
use gpu_puzzles_core::wgsl::{declarations, Declared};
use gpu_puzzles_core::{template, Case, Puzzle, Role, Values};
use web_time::Instant;
use wgpu::util::DeviceExt;

/// Offsets of buffers packed into one read-back buffer are multiples of this
/// (WebGPU's copy offset alignment is 4 and its map offset alignment 8;
/// 256 keeps every copy well aligned).
const READBACK_ALIGN: u64 = 256;

/// Judges every case of `puzzle` with the student's `source`, in order, on
/// one device. Stops at the first [`RunnerError`] (our failure), never at a
/// student's error.
///
/// # Errors
/// [`RunnerError::DeviceLost`], [`RunnerError::Timeout`] or
/// [`RunnerError::Readback`].
pub async fn judge_puzzle(gpu: &Gpu, puzzle: &Puzzle, source: &str) -> Result<Vec<CaseResult>, RunnerError> {
    let mut results = Vec::with_capacity(puzzle.cases.len());
    for case in &puzzle.cases {
        results.push(run_case(gpu, puzzle, case, source).await?);
    }
    Ok(results)
}

/// Runs and judges one case.
///
/// Steps: substitute the template placeholders; create the shader module in
/// a validation error scope and collect `get_compilation_info()` messages
/// mapped to the student's lines and columns; check the configuration
/// against the device's limits; build an explicit bind group layout from the
/// student's declarations (`read` or `read_write`, unused bindings allowed);
/// create the pipeline (entry point `main`) in an error scope; upload inputs
/// (outputs start zeroed); dispatch; read back; compare.
///
/// # Errors
/// Only our own failures: a lost device, a timeout, a failed read-back.
pub async fn run_case(gpu: &Gpu, puzzle: &Puzzle, case: &Case, source: &str) -> Result<CaseResult, RunnerError> {
    if gpu.is_lost() {
        return Err(gpu.lost_error());
    }
    let result = |outcome: Outcome, warnings, actual, timing| CaseResult {
        case: case.number,
        hidden: case.hidden,
        outcome,
        actual,
        warnings,
        timing,
    };
    let device = &gpu.device;

    // 1. Configuration against the device's limits.
    if let Err(message) = crate::check_config(puzzle, case, &device.limits()) {
        return Ok(result(Outcome::ConfigError { message }, vec![], vec![], Timing::default()));
    }

    // 2. Compile.
    let sub = template::substitute(source, &case.config);
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(&puzzle.slug),
        source: wgpu::ShaderSource::Wgsl(sub.text.as_str().into()),
    });
    let scope_error = scope.pop().await;
    let info = module.get_compilation_info().await;
    let mut diagnostics: Vec<_> = info.messages.iter().map(|m| diagnostic(m, &sub, source)).collect();
    diagnostics.sort_by_key(|d| (d.severity != Severity::Error, d.line, d.column));
    let has_error = diagnostics.iter().any(|d| d.severity == Severity::Error);
    if has_error || scope_error.is_some() {
        if !has_error {
            diagnostics.insert(0, unpositioned(&scope_error.map(|e| e.to_string()).unwrap_or_default()));
        }
        return Ok(result(Outcome::CompileError { diagnostics }, vec![], vec![], Timing::default()));
    }
    let warnings = diagnostics;
    if gpu.is_lost() {
        return Err(gpu.lost_error());
    }

    // 3. Bindings from the student's declarations.
    let declared = declarations(source);
    let mut layout_entries = Vec::new();
    for d in declared.values() {
        if d.group != 0 {
            let message = format!("`@group({}) @binding({})`: this puzzle binds everything in `@group(0)`", d.group, d.binding);
            return Ok(result(Outcome::ConfigError { message }, warnings, vec![], Timing::default()));
        }
        let known = puzzle.buffers.iter().any(|b| b.binding == d.binding) || puzzle.uniforms.iter().any(|u| u.binding == d.binding);
        if !known {
            return Ok(result(Outcome::ConfigError { message: unknown_binding(puzzle, d.binding) }, warnings, vec![], Timing::default()));
        }
    }
    for b in &puzzle.buffers {
        let read_only = match declared.get(&b.binding).map(|d| d.declared) {
            Some(Declared::StorageRead) => true,
            Some(Declared::StorageReadWrite) => false,
            Some(Declared::Uniform) => {
                let message = format!("binding {} (`{}`) is a storage buffer: declare it `var<storage, read>` or `var<storage, read_write>`, not `var<uniform>`", b.binding, b.name);
                return Ok(result(Outcome::ConfigError { message }, warnings, vec![], Timing::default()));
            }
            None => b.role == Role::Input,
        };
        layout_entries.push(layout_entry(b.binding, wgpu::BufferBindingType::Storage { read_only }));
    }
    for u in &puzzle.uniforms {
        layout_entries.push(layout_entry(u.binding, wgpu::BufferBindingType::Uniform));
    }
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let bind_group_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("puzzle bindings"),
        entries: &layout_entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("puzzle"),
        bind_group_layouts: &[Some(&bind_group_layout)],
        immediate_size: 0,
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(&puzzle.slug),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    if let Some(e) = scope.pop().await {
        let mut d = unpositioned(&e.to_string());
        d.message = pipeline_hint(&d.message);
        return Ok(result(Outcome::CompileError { diagnostics: vec![d] }, warnings, vec![], Timing::default()));
    }

    // 4. Buffers: inputs uploaded, outputs zeroed, uniforms filled.
    let storage: Vec<wgpu::Buffer> = puzzle
        .buffers
        .iter()
        .zip(&case.buffers)
        .map(|(b, cb)| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(&b.name),
                contents: &cb.initial.to_bytes(),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            })
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
    let mut entries: Vec<wgpu::BindGroupEntry> = puzzle
        .buffers
        .iter()
        .zip(&storage)
        .map(|(b, buf)| wgpu::BindGroupEntry { binding: b.binding, resource: buf.as_entire_binding() })
        .collect();
    entries.extend(
        puzzle.uniforms.iter().zip(&uniforms).map(|(u, buf)| wgpu::BindGroupEntry { binding: u.binding, resource: buf.as_entire_binding() }),
    );
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("puzzle bindings"),
        layout: &bind_group_layout,
        entries: &entries,
    });

    // 5. Read-back layout: every compared buffer, then two timestamps.
    let compared: Vec<usize> = puzzle.compared_buffers().collect();
    let mut offsets = Vec::with_capacity(compared.len());
    let mut size = 0u64;
    for &i in &compared {
        offsets.push(size);
        size += (storage[i].size()).div_ceil(READBACK_ALIGN) * READBACK_ALIGN;
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

    // 6. Dispatch and copy.
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
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        let [x, y, z] = case.config.workgroups;
        pass.dispatch_workgroups(x, y, z);
    }
    for (k, &i) in compared.iter().enumerate() {
        encoder.copy_buffer_to_buffer(&storage[i], 0, &readback, offsets[k], storage[i].size());
    }
    if let Some((set, resolve)) = &timestamps {
        encoder.resolve_query_set(set, 0..2, resolve, 0);
        encoder.copy_buffer_to_buffer(resolve, 0, &readback, timestamp_offset, 16);
    }
    let started = Instant::now();
    gpu.queue.submit([encoder.finish()]);
    let bytes = read_back(gpu, &readback).await?;
    let wall_ms = started.elapsed().as_secs_f64() * 1000.0;

    let actual: Vec<Values> = compared
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let start = offsets[k] as usize;
            let len = storage[i].size() as usize;
            Values::from_bytes(puzzle.buffers[i].element, &bytes[start..start + len])
        })
        .collect();
    let gpu_ms = timestamps.as_ref().and_then(|_| {
        let t = &bytes[timestamp_offset as usize..timestamp_offset as usize + 16];
        let begin = u64::from_le_bytes(t[0..8].try_into().ok()?);
        let end = u64::from_le_bytes(t[8..16].try_into().ok()?);
        (end > begin).then(|| (end - begin) as f64 * gpu.queue.get_timestamp_period() as f64 / 1e6)
    });
    let outcome = judge(puzzle, case, &actual);
    Ok(result(outcome, warnings, actual, Timing { wall_ms, gpu_ms }))
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
fn pipeline_hint(message: &str) -> String {
    if message.contains("entry point") {
        format!("{message}. The entry point must be `@compute @workgroup_size({{{{workgroupSize}}}}) fn main(…)`.")
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
