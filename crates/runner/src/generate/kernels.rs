//! Compiling the kernels for the model's shapes, binding the model's
//! buffers to them, and the bytes of their uniforms.

use super::{GenerateError, Sampling, SPLIT};
use crate::messages::{diagnostic, unpositioned};
use crate::pipeline::{build, layout_entries, plain_source};
use crate::Gpu;
use gpu_puzzles_core::format::ElementType;
use gpu_puzzles_core::{CaseConfig, Puzzle};
use gpu_puzzles_interp::PreparedShader;
use std::collections::HashMap;

/// One kernel compiled for one configuration: a pipeline per entry point,
/// and the bindings the student's text declares.
pub(crate) struct Compiled {
    pub(crate) pipelines: Vec<wgpu::ComputePipeline>,
    pub(crate) layout: wgpu::BindGroupLayout,
    pub(crate) bindings: Vec<u32>,
}

/// The sampling kernel's `params` (`vocab`, `k`, `temperature`), padded.
pub(crate) fn topk_bytes(vocab: usize, sampling: &Sampling) -> Vec<u8> {
    let mut bytes = (vocab as u32).to_le_bytes().to_vec();
    bytes.extend_from_slice(&sampling.k.to_le_bytes());
    bytes.extend_from_slice(&sampling.temperature.to_le_bytes());
    pad16(bytes)
}

/// Decode attention's `params` for `t` cached positions.
pub(crate) fn attention_values(
    c: &gpu_puzzles_reference::lm::Config,
    t: u32,
) -> Vec<(&'static str, f64)> {
    vec![
        ("heads", c.heads as f64),
        ("kv_heads", c.kv_heads as f64),
        ("d", c.head_dim as f64),
        ("t", f64::from(t)),
        ("capacity", c.context as f64),
        ("split", f64::from(SPLIT)),
    ]
}

/// A uniform's bytes: the puzzle's first uniform's fields in declaration
/// order, 4 bytes each (little-endian), padded to a multiple of 16 bytes
/// (WGSL's uniform struct alignment). A field `values` lacks is 0.
pub(crate) fn uniform_bytes(puzzle: &Puzzle, values: &[(&str, f64)]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for (name, ty) in puzzle.uniforms.first().map(|u| u.fields.as_slice()).unwrap_or_default() {
        let v = values.iter().find(|(n, _)| n == name).map_or(0.0, |(_, v)| *v);
        bytes.extend_from_slice(&match ty {
            ElementType::F32 => (v as f32).to_le_bytes(),
            ElementType::I32 => (v as i32).to_le_bytes(),
            ElementType::U32 => (v as u32).to_le_bytes(),
        });
    }
    pad16(bytes)
}

/// `bytes` zero-padded to a multiple of 16 (and at least 16).
pub(crate) fn pad16(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes.resize(bytes.len().div_ceil(16).max(1) * 16, 0);
    bytes
}

/// A bind group for `kernel` with `buffers[i]` at binding `i`, for each
/// binding the kernel's text declares.
pub(crate) fn bind(
    device: &wgpu::Device,
    kernel: &Compiled,
    buffers: &[&wgpu::Buffer],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry<'_>> = kernel
        .bindings
        .iter()
        .filter_map(|&b| {
            buffers.get(b as usize).map(|buffer| wgpu::BindGroupEntry {
                binding: b,
                resource: buffer.as_entire_binding(),
            })
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("generate"),
        layout: &kernel.layout,
        entries: &entries,
    })
}

/// Compiles `source` for `puzzle` substituted for `config`, or finds it
/// among those compiled already with the same substituted text; returns
/// its index in `compiled`.
pub(crate) async fn compile(
    gpu: &Gpu,
    puzzle: &Puzzle,
    source: &str,
    config: &CaseConfig,
    compiled: &mut Vec<Compiled>,
    by_text: &mut HashMap<String, usize>,
) -> Result<usize, GenerateError> {
    let prepared = PreparedShader::new(puzzle, source, config);
    let text = format!("{}\u{0}{}", puzzle.slug, prepared.sub().text);
    if let Some(&i) = by_text.get(&text) {
        return Ok(i);
    }
    let failed = |diagnostics| GenerateError::Compile { slug: puzzle.slug.clone(), diagnostics };
    let entries = layout_entries(&prepared).map_err(|p| {
        failed(vec![unpositioned(&gpu_puzzles_verdict::report::config_problem(&p))])
    })?;
    let built = build(gpu, puzzle, &puzzle.slug, plain_source(&prepared), Some(&entries), |m| {
        diagnostic(m, prepared.sub(), source)
    })
    .await
    .map_err(failed)?
    .ok_or_else(|| failed(vec![unpositioned("no pipeline was made")]))?;
    compiled.push(Compiled {
        pipelines: built.pipelines,
        layout: built.bind_group_layout,
        bindings: entries.iter().map(|e| e.binding).collect(),
    });
    by_text.insert(text, compiled.len() - 1);
    Ok(compiled.len() - 1)
}

/// The site's SwiGLU kernel (`swiglu.wgsl`), compiled with its own layout.
pub(crate) fn swiglu(gpu: &Gpu) -> Compiled {
    let device = &gpu.device;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("swiglu"),
        source: wgpu::ShaderSource::Wgsl(include_str!("swiglu.wgsl").into()),
    });
    let storage = |read_only| wgpu::BufferBindingType::Storage { read_only };
    let entries = [
        crate::pipeline::layout_entry(0, storage(true)),
        crate::pipeline::layout_entry(1, storage(true)),
        crate::pipeline::layout_entry(2, storage(false)),
        crate::pipeline::layout_entry(3, wgpu::BufferBindingType::Uniform),
    ];
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("swiglu"),
        entries: &entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("swiglu"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("swiglu"),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    Compiled { pipelines: vec![pipeline], layout, bindings: vec![0, 1, 2, 3] }
}
