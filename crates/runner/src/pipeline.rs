//! Compiling a shader into the pipelines of a puzzle's entry points, with
//! the bind group layout taken from the student's declarations.

use crate::messages::unpositioned;
use crate::Gpu;
use gpu_puzzles_core::Puzzle;
use gpu_puzzles_interp::PreparedShader;
use gpu_puzzles_verdict::judge::{ConfigProblem, Diagnostic, Severity};
use gpu_puzzles_verdict::limits::BindingKind;

/// Creates the shader module and, when `entries` are given, the bind group
/// layout and one compute pipeline per entry point of the puzzle, all inside one
/// validation error scope: a shader that compiles costs one round trip to the
/// GPU process. The compiler's messages are fetched only when something
/// failed: `Err` carries its errors (mapped by `map`), or the pipeline's.
pub(crate) async fn build(
    gpu: &Gpu,
    puzzle: &Puzzle,
    label: &str,
    source: wgpu::ShaderSource<'_>,
    entries: Option<&[wgpu::BindGroupLayoutEntry]>,
    map: impl Fn(&wgpu::CompilationMessage) -> Diagnostic,
) -> Result<Option<Pipeline>, Vec<Diagnostic>> {
    start_build(gpu, puzzle, label, source, entries).finish(puzzle, map).await
}

/// A [`build`] whose objects are created and whose error scope is popped,
/// with its outcome not yet awaited: in a browser the GPU process compiles
/// while the page's thread does other work (the interpreter's checks) once
/// the commands are flushed ([`yield_to_gpu_process`]).
pub(crate) struct PendingBuild {
    module: wgpu::ShaderModule,
    built: Option<Pipeline>,
    error: std::pin::Pin<Box<dyn std::future::Future<Output = Option<wgpu::Error>>>>,
}

/// The synchronous half of [`build`]: creates everything and pops the
/// error scope, awaiting nothing.
pub(crate) fn start_build(
    gpu: &Gpu,
    puzzle: &Puzzle,
    label: &str,
    source: wgpu::ShaderSource<'_>,
    entries: Option<&[wgpu::BindGroupLayoutEntry]>,
) -> PendingBuild {
    let device = &gpu.device;
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module =
        device.create_shader_module(wgpu::ShaderModuleDescriptor { label: Some(label), source });
    let built = entries.map(|entries| {
        let bind_group_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(label),
            entries,
        });
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
    PendingBuild { module, built, error: Box::pin(scope.pop()) }
}

impl PendingBuild {
    /// The asynchronous half of [`build`]: awaits the error scope and, when
    /// something failed, the compiler's messages.
    pub(crate) async fn finish(
        self,
        puzzle: &Puzzle,
        map: impl Fn(&wgpu::CompilationMessage) -> Diagnostic,
    ) -> Result<Option<Pipeline>, Vec<Diagnostic>> {
        let PendingBuild { module, built, error } = self;
        let Some(error) = error.await else { return Ok(built) };
        let info = module.get_compilation_info().await;
        let mut diagnostics: Vec<_> =
            info.messages.iter().map(map).filter(|d| d.severity == Severity::Error).collect();
        diagnostics.sort_by_key(|d| (d.line, d.column));
        if diagnostics.is_empty() {
            let mut d = unpositioned(&error.to_string());
            d.message = pipeline_hint(puzzle, &d.message);
            diagnostics.push(d);
        }
        Err(diagnostics)
    }
}

/// In a browser, lets the commands created so far reach the GPU process:
/// Chromium sends them from a microtask it queues when the first is
/// created, so a page thread that goes on computing without awaiting holds
/// them back (and the GPU process idles) until it is done. Natively a
/// no-op: wgpu creates pipelines on the calling thread.
pub(crate) async fn yield_to_gpu_process() {
    #[cfg(target_arch = "wasm32")]
    {
        let _ =
            wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&js_sys::Array::new()))
                .await;
    }
}

/// The student's shader for the device: natively the module naga already
/// parsed (no second parse), in a browser the text.
/// In a browser, the `enable` directives naga could not parse are put
/// back ([`gpu_puzzles_core::template::Substituted::compiler_text`]); natively naga's IR needs
/// none (the device's features allow what they enable).
pub(crate) fn plain_source(shader: &PreparedShader) -> wgpu::ShaderSource<'_> {
    #[cfg(not(target_arch = "wasm32"))]
    if let Ok(parsed) = shader.shader() {
        return wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(parsed.module().clone()));
    }
    wgpu::ShaderSource::Wgsl(shader.sub().compiler_text())
}

/// The compiled pipelines, one per entry point in dispatch order, and their
/// shared bind group layout (handles: cloning one shares the pipelines).
#[derive(Clone)]
pub(crate) struct Pipeline {
    pub(crate) pipelines: Vec<wgpu::ComputePipeline>,
    pub(crate) bind_group_layout: wgpu::BindGroupLayout,
}

/// The bind group layout entries for the puzzle's buffers, with each storage
/// buffer's access mode taken from the student's declaration.
///
/// # Errors
/// A configuration message for a binding outside group 0, one the puzzle does
/// not have, or a storage buffer declared `var<uniform>`.
pub(crate) fn layout_entries(
    shader: &PreparedShader,
) -> Result<Vec<wgpu::BindGroupLayoutEntry>, ConfigProblem> {
    Ok(shader
        .bindings()
        .map_err(Clone::clone)?
        .iter()
        .map(|&(binding, kind)| {
            layout_entry(
                binding,
                match kind {
                    BindingKind::Storage { read_only } => {
                        wgpu::BufferBindingType::Storage { read_only }
                    }
                    BindingKind::Uniform => wgpu::BufferBindingType::Uniform,
                },
            )
        })
        .collect())
}

pub(crate) fn layout_entry(
    binding: u32,
    ty: wgpu::BufferBindingType,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None },
        count: None,
    }
}

/// Adds what to try to the pipeline errors students meet most.
fn pipeline_hint(puzzle: &Puzzle, message: &str) -> String {
    if message.contains("entry point") || message.contains("Entry point") {
        format!("{message}. {}", gpu_puzzles_verdict::limits::entry_point_hint(puzzle))
    } else if message.contains("binding")
        || message.contains("Binding")
        || message.contains("address space")
    {
        format!("{message}. Check each `@group(0) @binding(n)` declaration against the puzzle's buffers and their types.")
    } else {
        message.to_string()
    }
}

/// Most compiled shaders a device keeps: a Run's written cases and its
/// random ones, a few Runs deep. Past it the cache starts over.
const CACHED_SHADERS: usize = 96;

/// Compiled shaders by what they were compiled from, on one device: a Run
/// on unchanged code instruments and compiles nothing. A key is a hash of
/// everything a compilation depends on ([`cache_key`]); instrumented
/// entries keep the trace's metadata with the pipelines.
#[derive(Default)]
pub(crate) struct PipelineCache {
    entries: std::collections::HashMap<u64, Cached>,
}

/// One compiled shader.
#[derive(Clone)]
pub(crate) struct Cached {
    pub(crate) pipeline: Pipeline,
    /// The trace's layout and sites, for an instrumented shader.
    pub(crate) meta: Option<std::sync::Arc<gpu_puzzles_verdict::trace::TraceMeta>>,
}

impl crate::Gpu {
    /// The cached compilation under `key`, if any.
    pub(crate) fn cached(&self, key: u64) -> Option<Cached> {
        self.pipelines.lock().ok()?.get(key)
    }

    /// Keeps a compilation under `key`.
    pub(crate) fn cache(&self, key: u64, cached: Cached) {
        if let Ok(mut c) = self.pipelines.lock() {
            c.insert(key, cached);
        }
    }
}

impl std::fmt::Debug for PipelineCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PipelineCache").field("shaders", &self.entries.len()).finish()
    }
}

impl PipelineCache {
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn get(&self, key: u64) -> Option<Cached> {
        self.entries.get(&key).cloned()
    }

    pub(crate) fn insert(&mut self, key: u64, cached: Cached) {
        if self.entries.len() >= CACHED_SHADERS {
            self.entries.clear();
        }
        self.entries.insert(key, cached);
    }
}

/// The cache key of a compilation: the prepared shader's key (the puzzle,
/// the text and its substitution, [`PreparedShader::key_of`]), the puzzle's
/// entry points, the bind group layout (binding and access of every entry), and,
/// for an instrumented shader, what the pass depends on besides the text
/// (the case's configuration and the traced buffers' lengths) and whether
/// the racecheck is in.
pub(crate) fn cache_key(
    shader: &PreparedShader,
    puzzle: &Puzzle,
    entries: &[wgpu::BindGroupLayoutEntry],
    instrumented: Option<(&gpu_puzzles_core::CaseConfig, &[u32], bool)>,
) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    shader.key().hash(&mut h);
    puzzle.entry_points.hash(&mut h);
    for e in entries {
        e.binding.hash(&mut h);
        if let wgpu::BindingType::Buffer { ty, .. } = e.ty {
            match ty {
                wgpu::BufferBindingType::Uniform => 0u8.hash(&mut h),
                wgpu::BufferBindingType::Storage { read_only } => (1u8, read_only).hash(&mut h),
            }
        }
    }
    if let Some((config, lens, racecheck)) = instrumented {
        (config.workgroup_size, config.workgroups, config.workgroup_memory, lens, racecheck)
            .hash(&mut h);
    }
    h.finish()
}
