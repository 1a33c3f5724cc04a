//! The page's one WebGPU device: requested once at start-up, reused for
//! every run, recreated on the next run after it is lost.

use gpu_puzzles_core::timing::Peaks;
use gpu_puzzles_core::{Case, CaseResult, Puzzle};
use gpu_puzzles_runner::{add_yardsticks, judge_with, measure_peaks, Gpu, RunOptions, RunnerError, YardstickCache};
use std::cell::RefCell;
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

thread_local! {
    static GPU: RefCell<Option<Rc<Gpu>>> = const { RefCell::new(None) };
}

/// True when the browser exposes `navigator.gpu`.
pub fn has_webgpu() -> bool {
    web_sys::window().and_then(|w| js_sys::Reflect::get(&w.navigator(), &"gpu".into()).ok()).is_some_and(|g| !g.is_undefined() && !g.is_null())
}

/// Requests the adapter and device, keeping them for later runs.
///
/// # Errors
/// A message for the no-WebGPU panel.
pub async fn acquire() -> Result<Rc<Gpu>, String> {
    if let Some(g) = GPU.with(|g| g.borrow().clone()).filter(|g| !g.is_lost()) {
        return Ok(g);
    }
    if !has_webgpu() {
        return Err("This browser does not offer WebGPU (navigator.gpu is missing).".into());
    }
    let gpu = Rc::new(Gpu::new().await.map_err(|e| e.to_string())?);
    GPU.with(|g| *g.borrow_mut() = Some(gpu.clone()));
    Ok(gpu)
}

/// A short description of the current adapter.
pub fn describe(gpu: &Gpu) -> String {
    let a = gpu.adapter();
    let name = if a.name.is_empty() { "WebGPU adapter".to_string() } else { a.name.clone() };
    format!("{name}{}{}", if a.timestamps { " · GPU timestamps" } else { "" }, if a.software { " · software adapter" } else { "" })
}

thread_local! {
    /// This device's measured peaks, taken once, at the first performance
    /// case that runs.
    static PEAKS: RefCell<Option<Peaks>> = const { RefCell::new(None) };
}

/// The page's device's measured peaks, once a performance case has run.
pub fn peaks() -> Option<Peaks> {
    PEAKS.with(|p| *p.borrow())
}

/// Whether the page's device is a software adapter (SwiftShader and the
/// like), on which performance targets are not enforced.
pub fn software() -> bool {
    GPU.with(|g| g.borrow().as_ref().is_some_and(|g| g.adapter().software))
}

thread_local! {
    /// The yardstick kernels' timings (the reference solution and the
    /// comparison kernels), measured once per page: they do not change
    /// between a student's runs.
    static YARDSTICKS: RefCell<YardstickCache> = RefCell::new(YardstickCache::new());
}

/// Times the yardsticks of every performance case that passed, or takes them
/// from this page's cache.
async fn add_reference_timings(gpu: &Gpu, puzzle: &Puzzle, source: &str, results: &mut [CaseResult]) -> Result<(), RunnerError> {
    // Taken out for the duration: no borrow is held across an await.
    let mut cache = YARDSTICKS.with(|c| std::mem::take(&mut *c.borrow_mut()));
    let out = add_yardsticks(gpu, puzzle, source, results, &mut cache).await;
    YARDSTICKS.with(|c| c.borrow_mut().extend(cache));
    out
}

/// The result of one Run.
pub struct RunOutput {
    /// One result per case.
    pub results: Vec<CaseResult>,
    /// Set when the device had been lost and was recreated for this run.
    pub recreated: bool,
    /// The random cases drawn for this run (numbered after the puzzle's).
    pub random: Vec<Case>,
}

/// Judges `source` on every case of `puzzle` on the page's device, every
/// case but the performance ones instrumented (the memory checks are part
/// of the verdict, so they are never switched off), recreating the device
/// first if it was lost.
///
/// # Errors
/// Our own failures, as a message saying what happened and what to do.
pub async fn run(puzzle: &Puzzle, source: &str) -> Result<RunOutput, String> {
    let was_lost = GPU.with(|g| g.borrow().as_ref().is_some_and(|g| g.is_lost()));
    let gpu = acquire().await?;
    // A fresh seed every Run, small enough to read out and type back; the
    // URL's `seed=` draws a given Run's cases again.
    let seed = crate::route::current_seed().unwrap_or_else(|| (js_sys::Math::random() * 1e9) as u64);
    let random = gpu_puzzles_core::load::random_cases(puzzle, seed)
        .map_err(|e| format!("the puzzle's random cases could not be drawn ({e}); judging needs them, so please report this puzzle"))?;
    let mut out = judge_with(&gpu, puzzle, &random, source, RunOptions::default()).await;
    if let Ok(results) = &mut out {
        if let Err(e) = add_reference_timings(&gpu, puzzle, source, results).await {
            out = Err(e);
        }
    }
    // The yardstick for "how close to the hardware": measured once per
    // device, when a performance case first has figures to place.
    let timed = out.as_ref().is_ok_and(|r| r.iter().any(|r| r.timing.measured.is_some()));
    if timed && peaks().is_none() {
        match measure_peaks(&gpu).await {
            Ok(p) => PEAKS.with(|slot| *slot.borrow_mut() = Some(p)),
            Err(e) => leptos::logging::warn!("the GPU's peaks could not be measured: {e}"),
        }
    }
    match out {
        Ok(results) => Ok(RunOutput { results, recreated: was_lost, random }),
        Err(e @ RunnerError::DeviceLost(_)) => {
            GPU.with(|g| *g.borrow_mut() = None);
            PEAKS.with(|p| *p.borrow_mut() = None);
            Err(format!(
                "{e}. Your code is kept; press Run again and the page will create a new device. If this keeps happening, look for a loop that never ends."
            ))
        }
        Err(e) => Err(e.to_string()),
    }
}
