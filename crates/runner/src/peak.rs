//! This GPU's own attainable peaks, measured with the same timing method as
//! the performance cases: memory bandwidth with a streaming copy, and FP32
//! arithmetic with a kernel of independent fused multiply-adds, kept as the
//! device's clock probe.

use crate::timing::{measure, timed_run};
use crate::{Gpu, RunnerError};
use gpu_puzzles_verdict::timing::Peaks;

/// `vec4<f32>` elements copied by the bandwidth kernel: 8 Mi of them, so
/// 128 MiB read and 128 MiB written (WebGPU's default limit on one storage
/// binding is 128 MiB), more than the last-level cache of any GPU today, so
/// the figure is device memory's and not a cache's.
const COPY_VEC4S: u32 = 8 * 1024 * 1024;

/// Invocations of the arithmetic kernel, and fused multiply-adds each one
/// runs per loop iteration (independent chains, so they pipeline).
const FMA_INVOCATIONS: u32 = 256 * 16384;
const FMA_CHAINS: u32 = 16;
const FMA_ITERATIONS: u32 = 256;
/// Loop iterations written out in the kernel's body, so that the loop's
/// own counter and branch are a small part of the instructions.
const FMA_UNROLL: u32 = 4;

const COPY_WGSL: &str = "
@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
    let i = g.y * n.x * 256u + g.x;
    if (i < arrayLength(&src)) {
        dst[i] = src[i];
    }
}
";

/// Independent chains of `x = x * a + b`; the sum is stored so the
/// compiler cannot drop the work.
fn fma_wgsl() -> String {
    let chains: String =
        (0..FMA_CHAINS).map(|c| format!("    var x{c} = f32(g.x) * 1e-7 + {c}.0;\n")).collect();
    let step: String = (0..FMA_UNROLL)
        .flat_map(|_| (0..FMA_CHAINS).map(|c| format!("        x{c} = fma(x{c}, a, b);\n")))
        .collect();
    let sum: Vec<String> = (0..FMA_CHAINS).map(|c| format!("x{c}")).collect();
    format!(
        "@group(0) @binding(0) var<storage, read> coef: array<f32>;
@group(0) @binding(1) var<storage, read_write> sink: array<f32>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {{
    let a = coef[0];
    let b = coef[1];
{chains}    for (var k = 0u; k < {FMA_ITERATIONS}u; k += {FMA_UNROLL}u) {{
{step}    }}
    sink[g.y * n.x * 256u + g.x] = {};
}}
",
        sum.join(" + ")
    )
}

/// Measures [`Peaks`] on `gpu`, once per device: later calls return the
/// same figures (the rate a performance case's clock probe is held to,
/// [`ClockProbe`]). About 256 MiB of buffers and, on a GPU, well under a
/// second; on a software adapter a sixteenth of that.
///
/// # Errors
/// Our own failures ([`RunnerError`]); a kernel that does not compile on
/// this device is [`RunnerError::Readback`] with the compiler's message,
/// since it is ours.
pub async fn measure_peaks(gpu: &Gpu) -> Result<Peaks, RunnerError> {
    if let Some(kept) = gpu.peaks.lock().ok().and_then(|k| k.as_ref().map(|k| k.peaks)) {
        return Ok(kept);
    }
    // A software adapter's peaks are a CPU's, shown for completeness: a
    // sixteenth of the work keeps them to a second or so.
    let scale = if gpu.adapter().software { 16 } else { 1 };
    let (vec4s, invocations) = (COPY_VEC4S / scale, FMA_INVOCATIONS / scale);
    let copy_bytes = u64::from(vec4s) * 16;
    let copy_kernel = kernel(gpu, COPY_WGSL, &[copy_bytes, copy_bytes], vec4s / 256).await?;
    let copy = measure(gpu, &copy_kernel.steps(), copy_kernel.grid, None).await;
    copy_kernel.destroy();
    let copy = copy?;
    let fma_kernel =
        kernel(gpu, &fma_wgsl(), &[8, u64::from(invocations) * 4], invocations / 256).await?;
    // The FMA kernel stays alive as the clock probe, unless timing it failed.
    let fma = measure(gpu, &fma_kernel.steps(), fma_kernel.grid, None).await;
    if fma.is_err() {
        fma_kernel.destroy();
    }
    let fma = fma?;
    let flops = f64::from(invocations) * f64::from(FMA_ITERATIONS) * f64::from(FMA_CHAINS) * 2.0;
    let peaks = Peaks {
        bandwidth_gbs: 2.0 * copy_bytes as f64 / (copy.median_ms * 1e6),
        gflops: flops / (fma.median_ms * 1e6),
        copy,
        fma,
    };
    let probe = ClockProbe { kernel: fma_kernel, dispatches: fma.dispatches_per_run };
    if let Ok(mut k) = gpu.peaks.lock() {
        *k = Some(Kept { peaks, probe, reference_ms: fma.median_ms });
    }
    Ok(peaks)
}

/// What [`measure_peaks`] measured on a device, kept on its [`Gpu`].
#[derive(Debug)]
pub(crate) struct Kept {
    peaks: Peaks,
    probe: ClockProbe,
    /// The clock probe's reference time per dispatch, in milliseconds: the
    /// FP32 peak's median, or a faster probe since (so a peak measured
    /// while the clocks were low does not hide later low clocks).
    reference_ms: f64,
}

/// The FP32 kernel of the peaks, kept on the device to check its clocks
/// around a performance case's timed runs (`dispatch::measure`): one probe
/// is one timed run of as many dispatches as the peak's timed runs had
/// (a span of at least [`gpu_puzzles_verdict::timing::MIN_SPAN_MS`] at the
/// peak's rate), and its time per dispatch against the reference says how
/// fast the GPU runs now ([`gpu_puzzles_verdict::timing::clock_fraction`]).
#[derive(Debug, Clone)]
pub(crate) struct ClockProbe {
    kernel: Kernel,
    /// Dispatches per probe.
    dispatches: u32,
}

impl ClockProbe {
    /// The device's probe, measuring the peaks first where they have not
    /// been ([`measure_peaks`]).
    ///
    /// # Errors
    /// As [`measure_peaks`].
    pub(crate) async fn of(gpu: &Gpu) -> Result<ClockProbe, RunnerError> {
        let kept = || gpu.peaks.lock().ok().and_then(|k| k.as_ref().map(|k| k.probe.clone()));
        if let Some(probe) = kept() {
            return Ok(probe);
        }
        measure_peaks(gpu).await?;
        kept().ok_or_else(|| RunnerError::Readback("the clock probe was not kept".into()))
    }

    /// Runs the probe once: its time per dispatch in milliseconds, and the
    /// reference time after it (lowered to this probe's where it ran faster).
    ///
    /// # Errors
    /// As [`measure`].
    pub(crate) async fn time(&self, gpu: &Gpu) -> Result<(f64, f64), RunnerError> {
        let k = &self.kernel;
        let span = timed_run(gpu, &k.steps(), k.grid, self.dispatches, &mut Vec::new()).await?;
        let ms = span / f64::from(self.dispatches);
        let mut kept = gpu.peaks.lock().map_err(|_| {
            RunnerError::Readback("the clock probe's reference was poisoned".into())
        })?;
        let kept = kept
            .as_mut()
            .ok_or_else(|| RunnerError::Readback("the clock probe was not kept".into()))?;
        if ms > 0.0 && ms < kept.reference_ms {
            kept.reference_ms = ms;
        }
        Ok((ms, kept.reference_ms))
    }
}

/// A compiled peak kernel with its buffers.
#[derive(Debug, Clone)]
struct Kernel {
    pipelines: [wgpu::ComputePipeline; 1],
    bind_group: wgpu::BindGroup,
    buffers: Vec<wgpu::Buffer>,
    grid: [u32; 3],
}

impl Kernel {
    /// Its one dispatch, as [`measure`] and [`timed_run`] take it.
    fn steps(&self) -> [(&wgpu::ComputePipeline, &wgpu::BindGroup); 1] {
        [(&self.pipelines[0], &self.bind_group)]
    }

    fn destroy(&self) {
        for b in &self.buffers {
            b.destroy();
        }
    }
}

/// Compiles `wgsl` (bindings 0: read-only storage, 1: read-write storage,
/// of the given sizes in bytes) to run `workgroups` workgroups of it,
/// spread over a 2-D grid within WebGPU's 65,535 per dimension.
async fn kernel(
    gpu: &Gpu,
    wgsl: &str,
    sizes: &[u64; 2],
    workgroups: u32,
) -> Result<Kernel, RunnerError> {
    let device = &gpu.device;
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("peak"),
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("peak"),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
    let buffers: Vec<wgpu::Buffer> = sizes
        .iter()
        .map(|&size| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("peak"),
                size,
                usage,
                mapped_at_creation: false,
            })
        })
        .collect();
    // The arithmetic kernel's coefficients (a harmless write for the copy).
    let coefficients: Vec<u8> = [0.9999f32, 0.0001].iter().flat_map(|c| c.to_le_bytes()).collect();
    gpu.queue.write_buffer(&buffers[0], 0, &coefficients);
    let entries: Vec<wgpu::BindGroupEntry> = buffers
        .iter()
        .enumerate()
        .map(|(i, b)| wgpu::BindGroupEntry { binding: i as u32, resource: b.as_entire_binding() })
        .collect();
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("peak"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    });
    if let Some(e) = scope.pop().await {
        return Err(RunnerError::Readback(format!(
            "the peak-measuring kernel did not compile on this device: {e}"
        )));
    }
    let x = workgroups.min(4096);
    Ok(Kernel { pipelines: [pipeline], bind_group, buffers, grid: [x, workgroups.div_ceil(x), 1] })
}
