//! The page's one WebGPU device: requested once at start-up, reused for
//! every run, recreated on the next run after it is lost. The device and
//! what is measured on it once (its peaks, the yardstick kernels' timings)
//! live in a [`PageGpu`], which the app provides as a Leptos context.

use gpu_puzzles_core::timing::Peaks;
use gpu_puzzles_core::{Case, CaseResult, Puzzle};
use gpu_puzzles_runner::{add_yardsticks, judge_with, measure_peaks, Gpu, RunOptions, RunnerError, YardstickCache};
use leptos::prelude::*;
use std::rc::Rc;

/// What the page knows about WebGPU, for the status line and the
/// no-WebGPU panel.
#[derive(Debug, Clone, PartialEq)]
pub enum GpuStatus {
    /// Asking for an adapter and a device.
    Pending,
    /// Ready: the adapter's name and backend.
    Ready(String),
    /// No WebGPU here: what is missing.
    Unavailable(String),
}

/// The device and what is measured on it once.
#[derive(Default)]
struct Device {
    /// The adapter and device, once requested; `None` again after a loss.
    gpu: Option<Rc<Gpu>>,
    /// This device's measured peaks, taken at the first performance case
    /// that runs.
    peaks: Option<Peaks>,
    /// The yardstick kernels' timings (the reference solution and the
    /// comparison kernels), measured once per device: they do not change
    /// between a student's runs.
    yardsticks: YardstickCache,
}

/// The page's device state, shared through a Leptos context
/// (`provide_context(PageGpu::new())` at the app's root; a copyable handle
/// to state kept on the page's thread).
#[derive(Clone, Copy)]
pub struct PageGpu(StoredValue<Device, LocalStorage>);

/// True when the browser exposes `navigator.gpu`.
pub fn has_webgpu() -> bool {
    web_sys::window().and_then(|w| js_sys::Reflect::get(&w.navigator(), &"gpu".into()).ok()).is_some_and(|g| !g.is_undefined() && !g.is_null())
}

impl PageGpu {
    /// No device yet.
    pub fn new() -> Self {
        PageGpu(StoredValue::new_local(Device::default()))
    }

    /// Requests the adapter and device, keeping them for later runs.
    ///
    /// # Errors
    /// A message for the no-WebGPU panel.
    pub async fn acquire(self) -> Result<Rc<Gpu>, String> {
        if let Some(g) = self.0.with_value(|d| d.gpu.clone()).filter(|g| !g.is_lost()) {
            return Ok(g);
        }
        if !has_webgpu() {
            return Err("This browser does not offer WebGPU (navigator.gpu is missing).".into());
        }
        let gpu = Rc::new(Gpu::new().await.map_err(|e| e.to_string())?);
        self.0.update_value(|d| d.gpu = Some(gpu.clone()));
        Ok(gpu)
    }

    /// Judges `source` on every case of `puzzle` on the page's device, every
    /// case but the performance ones instrumented (the memory checks are
    /// part of the verdict, so they are never switched off), recreating the
    /// device first if it was lost.
    ///
    /// # Errors
    /// Our own failures, as a message saying what happened and what to do.
    pub async fn run(self, puzzle: &Puzzle, source: &str) -> Result<RunOutput, String> {
        let was_lost = self.0.with_value(|d| d.gpu.as_ref().is_some_and(|g| g.is_lost()));
        // A fresh seed every Run, small enough to read out and type back; the
        // URL's `seed=` draws a given Run's cases again.
        let seed = crate::route::current_seed().unwrap_or_else(|| (js_sys::Math::random() * 1e9) as u64);
        let random = gpu_puzzles_core::load::random_cases(puzzle, seed)
            .map_err(|e| format!("the puzzle's random cases could not be drawn ({e}); judging needs them, so please report this puzzle"))?;
        let gpu = match self.acquire().await {
            Ok(gpu) => gpu,
            // No WebGPU here: the CPU interpreter judges the ordinary cases.
            Err(_) => return emulate(puzzle, source, random).await,
        };
        let mut out = judge_with(&gpu, puzzle, &random, source, RunOptions::default()).await;
        if let Ok(results) = &mut out {
            // The cache is taken out for the duration: nothing is borrowed
            // across an await.
            let mut cache = self.0.try_update_value(|d| std::mem::take(&mut d.yardsticks)).unwrap_or_default();
            let timed = add_yardsticks(&gpu, puzzle, source, results, &mut cache).await;
            self.0.update_value(|d| d.yardsticks.extend(cache));
            if let Err(e) = timed {
                out = Err(e);
            }
        }
        // The yardstick for "how close to the hardware": measured once per
        // device, when a performance case first has figures to place.
        let timed = out.as_ref().is_ok_and(|r| r.iter().any(|r| r.timing.measured.is_some()));
        if timed && self.0.with_value(|d| d.peaks.is_none()) {
            match measure_peaks(&gpu).await {
                Ok(p) => self.0.update_value(|d| d.peaks = Some(p)),
                Err(e) => leptos::logging::warn!("the GPU's peaks could not be measured: {e}"),
            }
        }
        match out {
            Ok(results) => {
                let peaks = self.0.with_value(|d| d.peaks);
                Ok(RunOutput { results, recreated: was_lost, random, peaks, software: gpu.adapter().software, emulated: false })
            }
            Err(e @ RunnerError::DeviceLost(_)) => {
                self.0.update_value(|d| *d = Device::default());
                Err(format!(
                    "{e}. Your code is kept; press Run again and the page will create a new device. If this keeps happening, look for a loop that never ends."
                ))
            }
            Err(e) => Err(e.to_string()),
        }
    }
}

/// A short description of the current adapter.
pub fn describe(gpu: &Gpu) -> String {
    let a = gpu.adapter();
    let name = if a.name.is_empty() { "WebGPU adapter".to_string() } else { a.name.clone() };
    format!("{name}{}{}", if a.timestamps { " · GPU timestamps" } else { "" }, if a.software { " · software adapter" } else { "" })
}

/// The result of one Run.
pub struct RunOutput {
    /// One result per case.
    pub results: Vec<CaseResult>,
    /// Set when the device had been lost and was recreated for this run.
    pub recreated: bool,
    /// The random cases drawn for this run (numbered after the puzzle's).
    pub random: Vec<Case>,
    /// This device's measured peaks, once a performance case has run.
    pub peaks: Option<Peaks>,
    /// The device is a software adapter (SwiftShader and the like), on
    /// which performance targets are not enforced.
    pub software: bool,
    /// Judged by the CPU interpreter, without WebGPU
    /// ([`gpu_puzzles_interp::emulate`]).
    pub emulated: bool,
}

/// Judges `source` with the CPU interpreter, for a browser without WebGPU:
/// every ordinary case and the random ones, under its schedules;
/// performance cases are left out. Lets the "Running…" state paint first
/// (the interpreter runs on the page's thread).
///
/// # Errors
/// What the interpreter cannot run, and where.
async fn emulate(puzzle: &Puzzle, source: &str, random: Vec<Case>) -> Result<RunOutput, String> {
    next_frame().await;
    let results = gpu_puzzles_interp::emulate::judge_puzzle(puzzle, &random, source)
        .map_err(|e| format!("Without WebGPU this Run was to be emulated on the CPU, but {}.", e.message))?;
    Ok(RunOutput { results, recreated: false, random, peaks: None, software: true, emulated: true })
}

/// Resolves after the browser's next animation frame (so what was set
/// before is painted).
pub async fn next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.request_animation_frame(&resolve);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
