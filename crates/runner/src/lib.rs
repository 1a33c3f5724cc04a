//! The GPU runner: runs a student's WGSL compute shader for each test case of
//! a puzzle on a wgpu device, reads the outputs back and judges them.
//!
//! The same code builds natively (Vulkan, Metal or DX12; lavapipe on a
//! machine without a GPU) for the command-line tool and the tests, and for
//! wasm32, where wgpu's WebGPU backend hands the shader to the browser.
//!
//! Architecture invariant: this crate owns every wgpu call and knows nothing
//! of the DOM or Leptos. A student's broken shader is an
//! [`Outcome`](gpu_puzzles_verdict::Outcome); [`RunnerError`] is for our own
//! failures (no adapter, lost device).

mod case;
mod cpu_checks;
mod dispatch;
mod frames;
pub mod generate;
mod instrumented;
mod limits;
mod messages;
mod order;
mod peak;
mod pipeline;
mod readback;
mod repeats;
mod run;
mod timing;
mod yardstick;

pub use frames::{frame_limit, frame_points, frames, Frames, MAX_FRAMES, MAX_FRAME_BYTES};
pub use limits::check_config;
pub use order::{HelperCheck, OrderCheckHelper};
pub use peak::measure_peaks;
pub use run::{judge_puzzle, judge_with, judge_with_helper, run_case, RunOptions};
pub use yardstick::{add_yardsticks, time_kernel, YardstickCache};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Our own failures: the GPU could not be reached or stopped working.
#[derive(Debug, Clone, thiserror::Error)]
pub enum RunnerError {
    /// No adapter: no GPU, no driver, or WebGPU disabled.
    #[error("no GPU adapter was found ({detail}). {hint}")]
    NoAdapter {
        /// What wgpu reported.
        detail: String,
        /// What to do about it on this platform.
        hint: &'static str,
    },
    /// The adapter refused to create a device.
    #[error("the GPU adapter could not create a device: {0}")]
    RequestDevice(String),
    /// The device was lost (driver reset, GPU watchdog after a very long
    /// dispatch, browser tab backgrounded); create a new [`Gpu`].
    #[error("the GPU device was lost ({0}); a new one is needed")]
    DeviceLost(String),
    /// The dispatch did not finish within [`Gpu::dispatch_timeout_ms`]
    /// milliseconds.
    #[error(
        "the dispatch did not finish within {0} ms: the shader may contain a loop that never ends"
    )]
    Timeout(u64),
    /// Reading a buffer back failed, or gave fewer buffers than the puzzle
    /// compares.
    #[error("reading results back from the GPU failed: {0}")]
    Readback(String),
    /// The puzzle's CPU reference could not compute a case's expected values:
    /// a fault in the puzzle set, never the student's.
    #[error("the puzzle's reference could not compute case {case}: {error}. This is a fault in the puzzle set; please report it")]
    Reference {
        /// The case's number.
        case: usize,
        /// Why.
        error: gpu_puzzles_core::model::ExpectedError,
    },
    /// A case asked to be played ([`frames()`]) whose shader no longer
    /// compiles or binds as it did when the case ran.
    #[error("the case cannot be played: {0}")]
    Unplayable(String),
    /// Judging failed: no expected values for the case, or no read-back of
    /// a compared buffer.
    #[error("{0}. This is a fault in GPU Puzzles or the puzzle set; please report it")]
    Judge(#[from] gpu_puzzles_verdict::judge::JudgeError),
}

/// Longest a native dispatch on a hardware GPU may take before
/// [`RunnerError::Timeout`], in milliseconds ([`Gpu::dispatch_timeout_ms`]).
/// In the browser the GPU process's own watchdog applies and shows up as
/// [`RunnerError::DeviceLost`]. A loop that never ends is stopped sooner
/// by the instrumented shader's loop guard
/// ([`gpu_puzzles_verdict::trace::LOOP_BUDGET`]); this limit is the last resort.
pub const DISPATCH_TIMEOUT_MS: u64 = 10_000;

/// [`DISPATCH_TIMEOUT_MS`] on a software adapter (lavapipe), in
/// milliseconds: it runs invocations on CPU cores, where an instrumented case
/// of Double-Buffered Matrix Multiply's reference took 7.1 to 9.7 s on a
/// 2-core AMD EPYC (2026-11-28), and a CI machine's other work can slow it
/// further; ten seconds failed good kernels there.
pub const SOFTWARE_DISPATCH_TIMEOUT_MS: u64 = 60_000;

#[cfg(target_arch = "wasm32")]
const NO_ADAPTER_HINT: &str = "Use a browser with WebGPU (Chrome or Edge 113+, Safari 26+, Firefox 141+ on Windows); on Linux, Chrome needs chrome://flags/#enable-unsafe-webgpu and #enable-vulkan.";
#[cfg(not(target_arch = "wasm32"))]
const NO_ADAPTER_HINT: &str =
    "Without a GPU, install the lavapipe Vulkan driver (Debian/Ubuntu: `apt install mesa-vulkan-drivers`) and run with WGPU_BACKEND=vulkan.";

/// Whether `info` describes a software adapter: wgpu's device type where the
/// backend reports it (`Cpu` natively), else the names of the software
/// rasterisers in use today, since a browser may not say.
fn is_software(info: &wgpu::AdapterInfo) -> bool {
    let text = format!("{} {} {}", info.name, info.driver, info.driver_info).to_lowercase();
    info.device_type == wgpu::DeviceType::Cpu
        || ["llvmpipe", "lavapipe", "swiftshader", "microsoft basic render"]
            .iter()
            .any(|s| text.contains(s))
}

/// A short description of the adapter, for reports and the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdapterSummary {
    /// Adapter name, e.g. `"llvmpipe (LLVM 15.0.6, 256 bits)"`.
    pub name: String,
    /// Backend, e.g. `"Vulkan"` or `"BrowserWebGpu"`.
    pub backend: String,
    /// Driver name and version where the backend reports them.
    pub driver: String,
    /// Whether GPU timestamp queries are available for timing.
    pub timestamps: bool,
    /// Whether this is a software adapter (lavapipe/llvmpipe, SwiftShader,
    /// WARP, whose name is "Microsoft Basic Render Driver"): it runs invocations on CPU cores, so its timings say nothing
    /// about GPUs and performance lessons are not checked on it.
    pub software: bool,
    /// The smallest and largest subgroup sizes the adapter reports, when
    /// the device runs subgroups (`subgroupMinSize`, `subgroupMaxSize`).
    pub subgroup_sizes: Option<(u32, u32)>,
}

/// A device and its queue, created once and reused for every run.
#[derive(Debug)]
pub struct Gpu {
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    pub(crate) timestamps: bool,
    /// Whether the device runs WGSL's `subgroups` extension.
    subgroups: bool,
    summary: AdapterSummary,
    lost: Arc<AtomicBool>,
    lost_reason: Arc<Mutex<String>>,
    /// Shaders compiled on this device ([`pipeline::PipelineCache`]).
    pub(crate) pipelines: Mutex<pipeline::PipelineCache>,
    /// Order checks made ([`order::OrderChecks`]): a Run of unchanged code
    /// interprets nothing again.
    pub(crate) order_checks: Mutex<order::OrderChecks>,
    /// The interpreter's findings of cases ([`cpu_checks::CpuFindings`]).
    pub(crate) cpu_findings: Mutex<cpu_checks::CpuFindings>,
    /// The peaks, once measured ([`measure_peaks`]), with the clock probe
    /// that performance cases are timed between.
    pub(crate) peaks: Mutex<Option<peak::Kept>>,
    /// Where the last [`judge_with`]'s time went ([`Gpu::last_phases`]).
    pub(crate) phases: Mutex<Option<RunPhases>>,
    /// Students' texts prepared for cases ([`Gpu::prepared`]).
    prepared: Mutex<gpu_puzzles_interp::PreparedShaders>,
}

/// Prepared shaders a device keeps for later Runs ([`Gpu::prepared`]): a
/// puzzle's distinct case configurations for the last few texts.
const MAX_PREPARED: usize = 64;

/// Where a Run's time went, in milliseconds of wall time, in order: for the
/// benchmarks, which set it beside the page's own times.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RunPhases {
    /// Preparing the cases: the student's text substituted and parsed once
    /// per distinct case configuration (nothing for a Run of unchanged
    /// code, whose shaders the device keeps).
    pub prepare_ms: f64,
    /// Starting the ordinary cases: each one's checks, the instrumentation
    /// pass, compiling (or the cache) and submitting its dispatches.
    pub submit_ms: f64,
    /// Awaiting their read-backs and judging them against the expected
    /// values and the trace (natively each case is awaited as it starts,
    /// so this time is in `submit_ms` there).
    pub read_back_ms: f64,
    /// The order and subgroup checks on the CPU interpreter.
    pub checks_ms: f64,
    /// The performance cases, timed (0 when there are none or they were
    /// skipped).
    pub performance_ms: f64,
    /// Of `submit_ms`: compiling the plain shaders (creating the module,
    /// and the pipeline where the case runs as written, and awaiting the
    /// error scope), for the compiler's messages.
    pub plain_compile_ms: f64,
    /// Of `submit_ms`: the instrumentation pass (naga's parse is not in
    /// it) and, in a browser, writing its WGSL.
    pub instrument_ms: f64,
    /// Of `submit_ms`: compiling the instrumented shaders (module, layout
    /// and pipelines, awaiting their error scope).
    pub instrumented_compile_ms: f64,
    /// Of `submit_ms`: the interpreter's runs of the cases for their
    /// findings ([`RunOptions::cpu_checks`]), cached ones included.
    pub cpu_checks_ms: f64,
    /// Order checks an [`OrderCheckHelper`] made for this Run (a count).
    pub helper_checks: f64,
}

impl Gpu {
    /// Requests an adapter (high performance preferred) and a device with
    /// WebGPU's default limits, so that every student gets the same limits
    /// whatever their GPU (16 KiB of workgroup memory, 256 invocations per
    /// workgroup; <https://www.w3.org/TR/webgpu/#limits>). Timestamp queries
    /// are enabled when the adapter offers them.
    ///
    /// # Errors
    /// [`RunnerError::NoAdapter`] with a hint for this platform, or
    /// [`RunnerError::RequestDevice`].
    pub async fn new() -> Result<Gpu, RunnerError> {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            })
            .await
            .map_err(|e| RunnerError::NoAdapter { detail: e.to_string(), hint: NO_ADAPTER_HINT })?;
        let timestamps = adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY);
        let mut required_features =
            if timestamps { wgpu::Features::TIMESTAMP_QUERY } else { wgpu::Features::empty() };
        // Natively wgpu maps `SUBGROUP`; its WebGPU backend does not map the
        // browser's `subgroups` feature yet (gfx-rs/wgpu#10146, fixed by
        // #10220), so in a page web/worker-loader.js requests it around
        // `GPUAdapter.requestDevice` and says whether the device got it.
        let native_subgroups = adapter.features().contains(wgpu::Features::SUBGROUP);
        if native_subgroups {
            required_features |= wgpu::Features::SUBGROUP;
        }
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("gpu-puzzles"),
                required_features,
                required_limits: wgpu::Limits::default(),
                ..Default::default()
            })
            .await
            .map_err(|e| RunnerError::RequestDevice(e.to_string()))?;
        #[cfg(target_arch = "wasm32")]
        let subgroups = native_subgroups
            || js_sys::Reflect::get(&js_sys::global(), &"gpuPuzzlesSubgroups".into())
                .is_ok_and(|v| v.is_truthy());
        #[cfg(not(target_arch = "wasm32"))]
        let subgroups = native_subgroups;
        let info = adapter.get_info();
        let software = is_software(&info);
        let lost = Arc::new(AtomicBool::new(false));
        let lost_reason = Arc::new(Mutex::new(String::new()));
        {
            let (lost, lost_reason) = (lost.clone(), lost_reason.clone());
            device.set_device_lost_callback(move |reason, message| {
                if let Ok(mut r) = lost_reason.lock() {
                    *r = format!("{reason:?}: {message}");
                }
                lost.store(true, Ordering::SeqCst);
            });
        }
        Ok(Gpu {
            device,
            queue,
            timestamps,
            subgroups,
            summary: AdapterSummary {
                name: info.name,
                backend: format!("{:?}", info.backend),
                driver: format!("{} {}", info.driver, info.driver_info).trim().to_string(),
                timestamps,
                software,
                subgroup_sizes: subgroups
                    .then_some((info.subgroup_min_size, info.subgroup_max_size)),
            },
            lost,
            lost_reason,
            pipelines: Mutex::default(),
            order_checks: Mutex::default(),
            cpu_findings: Mutex::default(),
            peaks: Mutex::default(),
            phases: Mutex::default(),
            prepared: Mutex::new(gpu_puzzles_interp::PreparedShaders::new(MAX_PREPARED)),
        })
    }

    /// The adapter's subgroup size when it has only one
    /// (`subgroupMinSize` = `subgroupMaxSize`) and the device runs
    /// subgroups: every subgroup then has that many lanes (the last one of
    /// a workgroup may be partly filled).
    pub(crate) fn fixed_subgroup_size(&self) -> Option<u32> {
        self.summary.subgroup_sizes.filter(|(min, max)| min == max).map(|(size, _)| size)
    }

    /// Whether the device runs shaders that use WGSL's `subgroups`
    /// extension (`subgroupAdd`, `subgroup_size`, …). Where it does not, the
    /// page judges such a shader with the CPU interpreter.
    pub fn subgroups(&self) -> bool {
        self.subgroups
    }

    /// Longest a native dispatch may take, in milliseconds:
    /// [`SOFTWARE_DISPATCH_TIMEOUT_MS`] on a software adapter,
    /// [`DISPATCH_TIMEOUT_MS`] on a hardware GPU.
    pub fn dispatch_timeout_ms(&self) -> u64 {
        if self.summary.software {
            SOFTWARE_DISPATCH_TIMEOUT_MS
        } else {
            DISPATCH_TIMEOUT_MS
        }
    }

    /// The adapter this device came from.
    pub fn adapter(&self) -> &AdapterSummary {
        &self.summary
    }

    /// The device's limits (WebGPU's defaults).
    pub fn limits(&self) -> wgpu::Limits {
        self.device.limits()
    }

    /// How many compiled shaders this device keeps for later Runs (plain and
    /// instrumented; a Run on unchanged code compiles none).
    pub fn compiled_shaders(&self) -> usize {
        self.pipelines.lock().map_or(0, |c| c.len())
    }

    /// `source` prepared for `puzzle` and a case of configuration `config`
    /// ([`gpu_puzzles_interp::PreparedShader::new`]): kept for later Runs,
    /// so a Run of unchanged code, a yardstick timed after a Run, or the
    /// debugger opened on a case the Run judged substitutes and parses
    /// nothing.
    pub fn prepared(
        &self,
        puzzle: &gpu_puzzles_core::Puzzle,
        source: &str,
        config: &gpu_puzzles_core::CaseConfig,
    ) -> Arc<gpu_puzzles_interp::PreparedShader> {
        match self.prepared.lock() {
            Ok(mut kept) => kept.get(puzzle, source, config),
            Err(_) => Arc::new(gpu_puzzles_interp::PreparedShader::new(puzzle, source, config)),
        }
    }

    /// Where the last Run on this device spent its time, once one has run.
    pub fn last_phases(&self) -> Option<RunPhases> {
        self.phases.lock().ok().and_then(|p| *p)
    }

    /// Adds to the Run's phases as it goes.
    pub(crate) fn note_phase(&self, add: impl FnOnce(&mut RunPhases)) {
        if let Ok(mut p) = self.phases.lock() {
            add(p.get_or_insert_with(RunPhases::default));
        }
    }

    /// True once the device has been lost; create a new [`Gpu`] then.
    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }

    pub(crate) fn lost_error(&self) -> RunnerError {
        let reason = self.lost_reason.lock().map(|r| r.clone()).unwrap_or_default();
        RunnerError::DeviceLost(if reason.is_empty() { "no reason given".into() } else { reason })
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn mark_lost(&self, reason: &str) {
        if let Ok(mut r) = self.lost_reason.lock() {
            *r = reason.to_string();
        }
        self.lost.store(true, Ordering::SeqCst);
    }
}
