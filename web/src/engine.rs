//! The judge's Web Worker: the WebGPU device, the runner (naga, the
//! instrumentation pass, the order checks) and the CPU interpreter (the
//! debugger and the judge without WebGPU). Built as its own wasm
//! (`src/bin/gpu-puzzles-worker.rs`), fetched after the editor is ready, so none of it
//! is in a first visit's download; and a panic here ends the worker, not
//! the page ([`crate::gpu`] starts a new one).
//!
//! It answers [`Request`]s one message at a time; a Run awaits the GPU, and
//! debugger actions that arrive meanwhile are answered in between.

use crate::protocol::{
    decode, encode, DebugAction, DebugStep, Envelope, Reply, Request, RunReply, Snapshot,
    WireResult,
};
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_interp::debug::{lines_of, Debugger};
use gpu_puzzles_interp::exec::Status;
use gpu_puzzles_runner::{
    add_yardsticks, judge_with_helper, measure_peaks, Gpu, RunOptions, RunnerError, YardstickCache,
};
use gpu_puzzles_verdict::run_report::Emulated;
use gpu_puzzles_verdict::timing::Peaks;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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

/// An open debugger session.
struct Session {
    debugger: Debugger,
    /// The case's number, for the header.
    case: usize,
    /// The invocation whose variables are shown.
    selected: u32,
}

thread_local! {
    static DEVICE: RefCell<Device> = RefCell::new(Device::default());
    /// The helper worker that makes the order checks ([`crate::helper`]).
    static HELPER: RefCell<Option<Rc<crate::helper::Helper>>> = const { RefCell::new(None) };
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Starts listening: installs the panic hook and the message handler, then
/// tells the page it is ready (messages posted before that are not lost:
/// the page holds them until [`Reply::Ready`]).
pub fn start() {
    // A panic aborts the wasm, and one inside an async handler surfaces as a
    // rejected promise, which the page (or, for the helper, the judge) never
    // hears of: say so first.
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        post(&Envelope { id: 0, body: Reply::Crashed(info.to_string()) });
    }));
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    if scope.name() == crate::helper::NAME {
        crate::helper::serve();
        return;
    }
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let envelope: Envelope<Request> = match decode(ev.data()) {
                Ok(e) => e,
                Err(e) => {
                    web_sys::console::error_1(
                        &format!("the judge's worker got a message it does not understand: {e}")
                            .into(),
                    );
                    return;
                }
            };
            crate::mark("judge-received");
            wasm_bindgen_futures::spawn_local(async move {
                let body = handle(envelope.body).await;
                crate::mark("judge-answered");
                post(&Envelope { id: envelope.id, body });
                crate::mark("judge-posted");
            });
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    post(&Envelope { id: 0, body: Reply::Ready });
}

/// Sends a reply to the page (from the helper, to the judge's worker),
/// transferring its bytes (not copying them).
pub(crate) fn post(reply: &Envelope<Reply>) {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let send = |bytes: &js_sys::Uint8Array| {
        scope.post_message_with_transfer(bytes, &js_sys::Array::of1(&bytes.buffer()))
    };
    match encode(reply) {
        Ok(bytes) => {
            if let Err(e) = send(&bytes) {
                web_sys::console::error_2(
                    &"the judge's worker could not post its reply".into(),
                    &e,
                );
            }
        }
        Err(e) => {
            // Still answer, so the page's request does not wait forever.
            let fallback = Envelope {
                id: reply.id,
                body: Reply::error_like(
                    &reply.body,
                    format!("the judge's reply could not be sent ({e}); please report this"),
                ),
            };
            if let Ok(bytes) = encode(&fallback) {
                let _ = send(&bytes);
            }
        }
    }
}

async fn handle(request: Request) -> Reply {
    match request {
        Request::Acquire { page_webgpu } => {
            let gpu = acquire(page_webgpu).await;
            // With a device, the helper worker starts (after the device, so
            // that it does not slow the adapter's arrival), where it is
            // known to work (helper::supported).
            if gpu.is_ok() && crate::helper::supported() && HELPER.with_borrow(Option::is_none) {
                HELPER.set(crate::helper::Helper::start());
            }
            Reply::Adapter(gpu.map(|g| describe(&g)))
        }
        Request::Run { slug, source, seed, page_webgpu, solutions, time_comparisons } => {
            Reply::Run(match crate::embedded::judged_puzzle(&slug) {
                Some(p) => run(p, &source, seed, page_webgpu, &solutions, time_comparisons)
                    .await
                    .map(Box::new),
                None => {
                    Err(format!("the judge does not know the puzzle `{slug}`; reload the page"))
                }
            })
        }
        Request::Model { version } => Reply::Model(crate::generation::model_info(&version).await),
        Request::Generate(request) => Reply::Generate(crate::generation::open(request).await),
        Request::GenerateMore { count } => Reply::Generate(crate::generation::more(count).await),
        Request::Frames { slug, case, source, page_webgpu } => {
            Reply::Frames(crate::playback::play(&slug, case, &source, page_webgpu).await)
        }
        Request::Compiled { slug, case, source, form } => {
            Reply::Compiled(crate::compiled::answer(&slug, case, &source, &form))
        }
        Request::Crash => panic!("asked to crash (Request::Crash)"),
        Request::Debug(action) => Reply::Debug(debug(action)),
        Request::Check { .. } => {
            Reply::Check(Err("the judge's worker leaves order checks to its helper".into()))
        }
    }
}

/// The adapter and device, requested once and kept for later runs;
/// `page_webgpu` as in [`Request::Acquire`].
///
/// # Errors
/// A message for the no-WebGPU panel.
pub(crate) async fn acquire(page_webgpu: bool) -> Result<Rc<Gpu>, String> {
    if let Some(g) = DEVICE.with_borrow(|d| d.gpu.clone()).filter(|g| !g.is_lost()) {
        return Ok(g);
    }
    if !page_webgpu {
        return Err("This browser does not offer WebGPU (navigator.gpu is missing).".into());
    }
    if !crate::gpu::has_webgpu() {
        return Err("This browser offers WebGPU to pages but not to their workers, where this site runs shaders (navigator.gpu is missing there).".into());
    }
    let gpu = Rc::new(Gpu::new().await.map_err(|e| e.to_string())?);
    DEVICE.with_borrow_mut(|d| d.gpu = Some(gpu.clone()));
    Ok(gpu)
}

/// A short description of the current adapter.
fn describe(gpu: &Gpu) -> String {
    let a = gpu.adapter();
    let name = if a.name.is_empty() { "WebGPU adapter".to_string() } else { a.name.clone() };
    format!(
        "{name}{}{}",
        if a.timestamps { " · GPU timestamps" } else { "" },
        if a.software { " · software adapter" } else { "" }
    )
}

/// Judges `source` on every case of `puzzle` and the random cases `seed`
/// draws, on the worker's device, recreating the device first if it was
/// lost. The memory checks are part of the verdict, so they are never
/// switched off: each ordinary case is checked by the CPU interpreter
/// first, and runs on the GPU as written when it is clean, instrumented
/// otherwise ([`RunOptions::cpu_checks`]). With the CPU interpreter alone
/// when there is no WebGPU. A passed performance case is timed against our
/// reference and, on a hardware GPU or with `time_comparisons`, against the
/// puzzle's comparison kernels.
///
/// # Errors
/// Our own failures, as a message saying what happened and what to do.
async fn run(
    puzzle: &Puzzle,
    source: &str,
    seed: u64,
    page_webgpu: bool,
    solutions: &str,
    time_comparisons: bool,
) -> Result<RunReply, String> {
    let was_lost = DEVICE.with_borrow(|d| d.gpu.as_ref().is_some_and(|g| g.is_lost()));
    let random = gpu_puzzles_core::load::random_cases(puzzle, seed)
        .map_err(|e| format!("the puzzle's random cases could not be drawn ({e}); judging needs them, so please report this puzzle"))?;
    let gpu = match acquire(page_webgpu).await {
        Ok(gpu) => gpu,
        // No WebGPU here: the CPU interpreter judges the ordinary cases.
        Err(_) => {
            let results = gpu_puzzles_interp::emulate::judge_puzzle(puzzle, &random, source)
                .map_err(|e| {
                    format!(
                        "Without WebGPU this Run was to be emulated on the CPU, but {}.",
                        e.message
                    )
                })?;
            return Ok(RunReply {
                results: wire(puzzle, results),
                random,
                recreated: false,
                peaks: None,
                software: true,
                emulated: Emulated::NoWebGpu,
                phases: None,
                wasm_bytes: wasm_bytes(),
            });
        }
    };
    // A subgroup shader on a device without `subgroups` (Safari, Firefox,
    // older Chrome): the interpreter judges it, at every subgroup size.
    if !gpu.subgroups() && gpu_puzzles_core::wgsl::uses_subgroups(source) {
        let results = gpu_puzzles_interp::emulate::judge_puzzle(puzzle, &random, source)
            .map_err(|e| format!("This GPU offers no subgroups to the page, so this Run was to be emulated on the CPU, but {}.", e.message))?;
        return Ok(RunReply {
            results: wire(puzzle, results),
            random,
            recreated: was_lost,
            peaks: None,
            software: gpu.adapter().software,
            emulated: Emulated::NoSubgroups,
            phases: None,
            wasm_bytes: wasm_bytes(),
        });
    }
    // The interpreter checks each case first: a case it finds clean runs as
    // written, the others instrumented (RunOptions::cpu_checks).
    // Its helper worker makes the order checks meanwhile, on another core.
    let helper = HELPER.with_borrow(|h| h.clone());
    let for_run = helper.as_deref().map(|helper| crate::helper::ForRun { helper, seed });
    let helper: Option<&dyn gpu_puzzles_runner::OrderCheckHelper> =
        for_run.as_ref().map(|h| h as _);
    let mut out = judge_with_helper(
        &gpu,
        puzzle,
        &random,
        source,
        RunOptions { cpu_checks: true, ..RunOptions::default() },
        helper,
    )
    .await;
    if let Ok(results) = &mut out {
        // Timed against our solution where the build has it: fetched now,
        // as the judged set holds none (crate::solutions). Without it (a
        // failed fetch too) the figures stand alone and no target applies.
        let timed = results.iter().any(|r| r.timing.measured.is_some());
        let ours = if timed && !solutions.is_empty() {
            match crate::solutions::fetch(&puzzle.slug, solutions).await {
                Ok(text) => Some(Puzzle { solution: Some(text.to_string()), ..puzzle.clone() }),
                Err(e) => {
                    web_sys::console::warn_1(
                        &format!("no yardstick from our solution: {e}").into(),
                    );
                    None
                }
            }
        } else {
            None
        };
        // On a software adapter the comparison kernels wait for the
        // student's request: there one dispatch at a performance size takes
        // seconds (Transpose's two, 5 s on SwiftShader), and the figures say
        // nothing about GPUs. The report then says so, with a button.
        let yardsticks = ours.as_ref().unwrap_or(puzzle);
        let comparisons = time_comparisons || !gpu.adapter().software;
        // The cache is taken out for the duration: nothing is borrowed
        // across an await.
        let mut cache = DEVICE.with_borrow_mut(|d| std::mem::take(&mut d.yardsticks));
        let added =
            add_yardsticks(&gpu, yardsticks, source, results, &mut cache, comparisons).await;
        DEVICE.with_borrow_mut(|d| d.yardsticks.extend(cache));
        if let Err(e) = added {
            out = Err(e);
        }
    }
    // The yardstick for "how close to the hardware": measured once per
    // device, when a performance case first has figures to place (on a
    // hardware GPU the runner has already measured them, before the first
    // timing, for its clock probe, and this returns those).
    let timed = out.as_ref().is_ok_and(|r| r.iter().any(|r| r.timing.measured.is_some()));
    if timed && DEVICE.with_borrow(|d| d.peaks.is_none()) {
        match measure_peaks(&gpu).await {
            Ok(p) => DEVICE.with_borrow_mut(|d| d.peaks = Some(p)),
            Err(e) => web_sys::console::warn_1(
                &format!("the GPU's peaks could not be measured: {e}").into(),
            ),
        }
    }
    match out {
        Ok(results) => {
            let peaks = DEVICE.with_borrow(|d| d.peaks);
            let phases = gpu.last_phases().map(|p| {
                [
                    p.submit_ms,
                    p.read_back_ms,
                    p.checks_ms,
                    p.performance_ms,
                    p.plain_compile_ms,
                    p.instrument_ms,
                    p.instrumented_compile_ms,
                    p.cpu_checks_ms,
                    p.helper_checks,
                    p.prepare_ms,
                ]
            });
            Ok(RunReply {
                results: wire(puzzle, results),
                random,
                recreated: was_lost,
                peaks,
                software: gpu.adapter().software,
                emulated: Emulated::No,
                phases,
                wasm_bytes: wasm_bytes(),
            })
        }
        Err(e @ RunnerError::DeviceLost(_)) => {
            DEVICE.with_borrow_mut(|d| *d = Device::default());
            Err(format!(
                "{e}. Your code is kept; press Run again and the page will create a new device. If this keeps happening, look for a loop that never ends."
            ))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// The results as sent, without performance cases' read-backs (nothing
/// draws them, and a matrix of a million values is slow to copy).
fn wire(puzzle: &Puzzle, results: Vec<gpu_puzzles_verdict::CaseResult>) -> Vec<WireResult> {
    results
        .into_iter()
        .map(|mut r| {
            if puzzle.cases.get(r.case.wrapping_sub(1)).is_some_and(Case::is_performance) {
                r.actual = Vec::new();
            }
            WireResult::new(r)
        })
        .collect()
}

/// Carries out a debugger action and describes the session after it.
///
/// # Errors
/// Why the case cannot be opened, or that no case is open.
fn debug(action: DebugAction) -> Result<Snapshot, String> {
    match action {
        DebugAction::Open { slug, case, seed, source } => {
            let puzzle = crate::embedded::judged_puzzle(&slug).ok_or_else(|| {
                format!("the debugger does not know the puzzle `{slug}`; reload the page")
            })?;
            let drawn;
            let case_ref: &Case = match seed {
                None => puzzle.cases.iter().find(|c| c.number == case),
                Some(seed) => {
                    drawn = gpu_puzzles_core::load::random_cases(puzzle, seed)
                        .map_err(|e| format!("the random case could not be drawn again ({e})"))?;
                    drawn.iter().find(|c| c.number == case)
                }
            }
            .ok_or_else(|| format!("the puzzle has no case {case}"))?;
            // The text as the last Run on this device prepared it, when it
            // ran this case's configuration (no parse then); else prepared now.
            let debugger = match DEVICE.with_borrow(|d| d.gpu.clone()) {
                Some(gpu) => Debugger::open(
                    puzzle,
                    case_ref,
                    &gpu.prepared(puzzle, &source, &case_ref.config),
                ),
                None => Debugger::new(puzzle, case_ref, &source),
            };
            SESSION.with_borrow_mut(|s| *s = None);
            let debugger = debugger.map_err(|e| e.to_string())?;
            SESSION.with_borrow_mut(|s| *s = Some(Session { debugger, case, selected: 0 }));
        }
        DebugAction::Act(step) => SESSION.with_borrow_mut(|s| {
            if let Some(s) = s.as_mut() {
                match step {
                    DebugStep::Step => s.debugger.step(),
                    DebugStep::ToBarrier => s.debugger.to_barrier(),
                    DebugStep::RunToEnd => s.debugger.run_to_end(),
                    DebugStep::Restart => s.debugger.restart(),
                    DebugStep::SubgroupSize(n) => s.debugger.set_subgroup_size(n),
                    DebugStep::RunTo { entry_point, workgroup, line } => {
                        s.debugger.run_to(entry_point.as_deref(), workgroup, line)
                    }
                }
            }
        }),
        DebugAction::Select(k) => SESSION.with_borrow_mut(|s| {
            if let Some(s) = s.as_mut() {
                s.selected = k;
            }
        }),
        DebugAction::Close => {
            SESSION.with_borrow_mut(|s| *s = None);
            return Ok(Snapshot::default());
        }
    }
    SESSION
        .with_borrow(|s| s.as_ref().map(snapshot))
        .ok_or_else(|| "No case is open in the debugger: press a case's Step button.".to_string())
}

/// What the panel draws of `s`.
fn snapshot(s: &Session) -> Snapshot {
    let d = &s.debugger;
    let w = d.workgroup_id();
    let invocations = d.invocations();
    let lines = lines_of(&invocations);
    let message = match (d.stopped(), d.finished()) {
        (Some(why), _) => why.to_string(),
        (None, true) => {
            "Finished: every workgroup ran to the end. Restart to step again.".to_string()
        }
        (None, false) => {
            let waiting = invocations.iter().filter(|i| i.status == Status::Waiting).count();
            if waiting == invocations.len() && waiting > 0 {
                format!("All {waiting} invocations wait at the barrier on line {}; the next step releases them.", lines.first().copied().unwrap_or(0))
            } else if lines.len() > 1 {
                format!(
                    "The invocations have diverged: they are on lines {}.",
                    lines.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
                )
            } else {
                String::new()
            }
        }
    };
    let (reads, writes) = d.touched(s.selected);
    // Several dispatches: which one, and its per-dispatch uniform's values.
    let (number, dispatches) = d.dispatch_number();
    let mut entry = d.entry_point().to_string();
    if dispatches > 1 {
        entry = format!("{entry} (dispatch {number} of {dispatches}");
        for (field, value) in d.dispatch_values() {
            entry = format!("{entry}, {field} = {value}");
        }
        entry.push(')');
    }
    Snapshot {
        header: format!(
            "Case {} · entry point {} · workgroup ({}, {}, {}){} · step {}",
            s.case,
            entry,
            w[0],
            w[1],
            w[2],
            d.subgroup_size().map(|n| format!(" · subgroups of {n} lanes")).unwrap_or_default(),
            d.steps()
        ),
        subgroup_size: d.subgroup_size(),
        message,
        finished: d.finished(),
        invocations,
        lines,
        memories: d.memories(),
        variables: d.variables(s.selected),
        reads,
        writes,
    }
}

/// This worker's wasm memory, in bytes ([`RunReply::wasm_bytes`]).
fn wasm_bytes() -> u64 {
    use wasm_bindgen::JsCast;
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .map(|m| m.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length() as u64)
        .unwrap_or(0)
}
