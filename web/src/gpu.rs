//! The page's link to the judge: a Web Worker ([`crate::engine`], its own
//! wasm) that holds the WebGPU device, the runner and the CPU interpreter.
//! The page starts it once the editor is ready, sends it requests
//! ([`crate::protocol`]) and awaits the replies; a [`PageGpu`] is that link,
//! provided as a Leptos context. If the worker dies (a panic in naga, say),
//! every request waiting on it gets a message and the next request starts a
//! new one: the page, and the student's code, stay.

use crate::protocol::generation::{GenerateChunk, GenerateFailure, GenerateRequest, ModelInfo};
use crate::protocol::{
    decode, encode, DebugAction, Envelope, ProtocolError, Reply, Request, Snapshot,
};
use futures_channel::oneshot;
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_verdict::timing::Peaks;
use gpu_puzzles_verdict::CaseResult;
use leptos::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The worker's loader script (`web/worker-loader.js`), next to
/// `index.html`, relative to it so the site works under any sub-path. Used
/// when `index.html` names no versioned address ([`worker_url`]).
const WORKER_URL: &str = "./worker-loader.js";

/// The address of the worker's loader script: the one the build wrote into
/// `index.html` (`<meta name="gpu-puzzles-worker">`, by
/// `scripts/post-build.mjs`), which carries a hash of the worker's files as
/// `?v=…`, so that a cache never pairs this page with a worker from another
/// build (Trunk names the worker's files without a hash of their own); else
/// [`WORKER_URL`].
fn worker_url() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(r#"meta[name="gpu-puzzles-worker"]"#).ok().flatten())
        .and_then(|m| m.get_attribute("content"))
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| WORKER_URL.to_string())
}

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
    /// The judge's worker could not be started or stopped: what happened.
    /// The next Run starts a new one.
    JudgeDown(String),
}

/// A started worker and the requests waiting on it.
struct Link {
    worker: web_sys::Worker,
    /// Which start this is: events from an earlier, stopped worker are ignored.
    serial: u32,
    /// Replies awaited, by request number.
    pending: HashMap<u32, oneshot::Sender<Result<Reply, String>>>,
    /// Requests posted before the worker said it was ready.
    queued: Vec<js_sys::Uint8Array>,
    ready: bool,
}

#[derive(Default)]
struct State {
    link: Option<Link>,
    /// The worker's wasm memory passed its bound at its last Run: it is
    /// replaced before the next Run ([`JUDGE_MEMORY_BOUND`]).
    retire: bool,
    /// A debugger session is open in the worker (opened, not yet closed):
    /// the worker is not replaced under it.
    debugging: bool,

    next_id: u32,
    /// Workers started so far.
    started: u32,
    /// Told what happened when a worker stops.
    on_stop: Option<Rc<dyn Fn(String)>>,
}

/// The wasm memory, in bytes, past which the judge's worker is replaced
/// before the next Run: a wasm memory grows to the largest a Run has
/// needed and never shrinks, so one outsized Run would keep its peak for
/// the rest of a workshop. 1.5 GiB: the ten puzzles of the workshop soak
/// take the worker to 164 MiB on SwiftShader and to 644 MiB on an NVIDIA
/// H100 in Chrome, where their performance cases run at full size
/// (docs/performance.md, twenty-eighth session), so ordinary Runs stay
/// well under it and keep their worker (and its measured peaks).
/// `localStorage["gpu-puzzles:v1:judge-memory-bound-mb"]` lowers it, for
/// tests and for hosts of small machines.
const JUDGE_MEMORY_BOUND: u64 = 1536 << 20;

/// [`JUDGE_MEMORY_BOUND`], or the bound this browser sets.
fn judge_memory_bound() -> u64 {
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item("gpu-puzzles:v1:judge-memory-bound-mb").ok().flatten())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(JUDGE_MEMORY_BOUND, |mb| mb << 20)
}

/// The page's link to the judge's worker, shared through a Leptos context
/// (`provide_context(PageGpu::new())` at the app's root; a copyable handle
/// to state kept on the page's thread).
#[derive(Clone, Copy)]
pub struct PageGpu(StoredValue<Rc<RefCell<State>>, LocalStorage>);

/// True when this global (the page's window, or the judge's worker)
/// exposes `navigator.gpu`.
pub fn has_webgpu() -> bool {
    js_sys::Reflect::get(&js_sys::global(), &"navigator".into())
        .and_then(|n| js_sys::Reflect::get(&n, &"gpu".into()))
        .is_ok_and(|g| !g.is_undefined() && !g.is_null())
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
    /// Whether, and why, the CPU interpreter judged the Run
    /// ([`gpu_puzzles_interp::emulate`]).
    pub emulated: gpu_puzzles_verdict::run_report::Emulated,
    /// Where the worker's time went ([`crate::protocol::RunReply::phases`]).
    pub phases: Option<[f64; 10]>,
}

impl PageGpu {
    /// No worker yet.
    pub fn new() -> Self {
        PageGpu(StoredValue::new_local(Rc::new(RefCell::new(State::default()))))
    }

    /// Asks the worker for the adapter and device (starting the worker if
    /// needed): ready with the adapter's description, unavailable with what
    /// is missing, or the worker's failure.
    pub async fn acquire(self) -> GpuStatus {
        match self.request(Request::Acquire { page_webgpu: has_webgpu() }).await {
            Ok(Reply::Adapter(Ok(description))) => GpuStatus::Ready(description),
            Ok(Reply::Adapter(Err(missing))) => GpuStatus::Unavailable(missing),
            Ok(other) => GpuStatus::JudgeDown(unexpected(&other).to_string()),
            Err(e) => GpuStatus::JudgeDown(e.to_string()),
        }
    }

    /// Judges `source` on every case of `puzzle` in the worker, with the
    /// random cases it draws from a fresh seed (or the URL's `seed=`). On a
    /// software adapter the comparison kernels are timed only with
    /// `time_comparisons`.
    ///
    /// # Errors
    /// What went wrong, in words for the student.
    pub async fn run(
        self,
        puzzle: &Puzzle,
        source: &str,
        time_comparisons: bool,
    ) -> Result<RunOutput, WorkerError> {
        // A fresh seed every Run, small enough to read out and type back; the
        // URL's `seed=` draws a given Run's cases again.
        let seed =
            crate::route::current_seed().unwrap_or_else(|| (js_sys::Math::random() * 1e9) as u64);
        self.retire_if_due();
        let reply = match self
            .request(Request::Run {
                slug: puzzle.slug.clone(),
                source: source.to_string(),
                seed,
                page_webgpu: has_webgpu(),
                solutions: crate::solutions::in_this_build().unwrap_or_default(),
                time_comparisons,
            })
            .await?
        {
            Reply::Run(r) => *r.map_err(WorkerError::Judge)?,
            other => return Err(unexpected(&other)),
        };
        if reply.wasm_bytes > judge_memory_bound() {
            self.0.get_value().borrow_mut().retire = true;
        }
        Ok(RunOutput {
            results: reply
                .results
                .into_iter()
                .map(crate::protocol::WireResult::into_result)
                .collect::<Result<_, _>>()?,
            recreated: reply.recreated,
            random: reply.random,
            peaks: reply.peaks,
            software: reply.software,
            emulated: reply.emulated,
            phases: reply.phases,
        })
    }

    /// The frames of written case `case` (its number) of `puzzle` with
    /// `source`, played in the worker ([`crate::playback`]).
    ///
    /// # Errors
    /// Why the case could not be played, or that the worker failed.
    pub async fn frames(
        self,
        puzzle: &Puzzle,
        case: usize,
        source: &str,
    ) -> Result<crate::protocol::playback::FramesReply, WorkerError> {
        let request = Request::Frames {
            slug: puzzle.slug.clone(),
            case,
            source: source.to_string(),
            page_webgpu: has_webgpu(),
        };
        match self.request(request).await? {
            Reply::Frames(f) => f.map_err(WorkerError::Judge),
            other => Err(unexpected(&other)),
        }
    }

    /// Written case `case` (its number) of `puzzle` with `source` in the
    /// form named `form`, written in the worker ([`crate::compiled`]).
    ///
    /// # Errors
    /// naga's message, or that the worker failed.
    pub async fn compiled(
        self,
        puzzle: &Puzzle,
        case: usize,
        source: &str,
        form: &str,
    ) -> Result<String, WorkerError> {
        let (slug, source, form) = (puzzle.slug.clone(), source.to_string(), form.to_string());
        match self.request(Request::Compiled { slug, case, source, form }).await? {
            Reply::Compiled(c) => c.map_err(WorkerError::Judge),
            other => Err(unexpected(&other)),
        }
    }

    /// A debugger action, carried out in the worker.
    ///
    /// # Errors
    /// Why the case cannot be opened, or that the worker failed.
    pub async fn debug(self, action: DebugAction) -> Result<Snapshot, WorkerError> {
        let opens = matches!(action, DebugAction::Open { .. });
        let closes = matches!(action, DebugAction::Close);
        if opens || closes {
            self.0.get_value().borrow_mut().debugging = opens;
        }
        match self.request(Request::Debug(action)).await? {
            Reply::Debug(snapshot) => snapshot.map_err(WorkerError::Judge),
            other => Err(unexpected(&other)),
        }
    }

    /// The debugger's panel is gone (its page left): its session, if one is
    /// open, no longer keeps the worker from being replaced.
    pub fn debugging_ended(self) {
        if let Some(state) = self.0.try_get_value() {
            state.borrow_mut().debugging = false;
        }
    }

    /// Replaces the worker before a Run when its last Run left its wasm
    /// memory past [`judge_memory_bound`], unless a debugger session is
    /// open in it or it is answering something: the next request starts a
    /// new one. Nothing the student sees is kept in the worker between
    /// Runs (the results are the page's), so nothing is lost; the new
    /// worker asks for the device again, and measures the GPU's peaks
    /// again at its first performance case.
    fn retire_if_due(self) {
        let state = self.0.get_value();
        let mut s = state.borrow_mut();
        let idle = s.link.as_ref().is_some_and(|l| l.pending.is_empty());
        if !(s.retire && idle && !s.debugging) {
            return;
        }
        s.retire = false;
        if let Some(link) = s.link.take() {
            link.worker.terminate();
        }
        leptos::logging::log!(
            "the judge's worker was replaced: its wasm memory had passed its bound"
        );
    }

    /// Loads the capstone's model in the worker (fetched there on first
    /// use, then kept) and describes it; `version` is the query that
    /// versions its files.
    ///
    /// # Errors
    /// Why the model could not be loaded, or that the worker failed.
    pub async fn model(self, version: String) -> Result<ModelInfo, WorkerError> {
        match self.request(Request::Model { version }).await? {
            Reply::Model(info) => info.map_err(WorkerError::Judge),
            other => Err(unexpected(&other)),
        }
    }

    /// Opens a generation in the worker (the prompt fed, no characters
    /// yet), replacing any open one.
    ///
    /// # Errors
    /// What stopped it, with the kernel to blame where there is one.
    pub async fn generate(
        self,
        request: GenerateRequest,
    ) -> Result<GenerateChunk, GenerateFailure> {
        generation(self.request(Request::Generate(request)).await)
    }

    /// The open generation's next `count` characters at most.
    ///
    /// # Errors
    /// As [`PageGpu::generate`].
    pub async fn generate_more(self, count: u32) -> Result<GenerateChunk, GenerateFailure> {
        generation(self.request(Request::GenerateMore { count }).await)
    }

    /// Calls `f` with what happened whenever the worker stops (the status
    /// line says so; the next request starts a new one).
    pub fn on_stop(self, f: impl Fn(String) + 'static) {
        self.0.get_value().borrow_mut().on_stop = Some(Rc::new(f));
    }

    /// Starts the worker now, if it is not running, so that its download
    /// and the device request overlap the student's reading.
    pub fn start(self) {
        let state = self.0.get_value();
        let mut s = state.borrow_mut();
        if s.link.is_none() {
            match spawn(&state, &mut s) {
                Ok(link) => s.link = Some(link),
                Err(e) => leptos::logging::warn!("{e}"),
            }
        }
    }

    /// Posts `request` and awaits its reply.
    async fn request(self, request: Request) -> Result<Reply, WorkerError> {
        let state = self.0.get_value();
        let receiver = {
            let mut s = state.borrow_mut();
            if s.link.is_none() {
                let link = spawn(&state, &mut s)?;
                s.link = Some(link);
            }
            s.next_id = s.next_id.wrapping_add(1).max(1);
            let id = s.next_id;
            let message = encode(&Envelope { id, body: request })?;
            let (send, receive) = oneshot::channel();
            let link = s.link.as_mut().expect("started above");
            link.pending.insert(id, send);
            if link.ready {
                link.worker
                    .post_message(&message)
                    .map_err(|e| WorkerError::Unreachable(format!("{e:?}")))?;
            } else {
                link.queued.push(message);
            }
            receive
        };
        receiver.await.map_err(|_| WorkerError::Stopped)?.map_err(WorkerError::Judge)
    }
}

/// Why a request to the judge's worker got no answer, or got a refusal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorkerError {
    /// The worker's own words: what stopped the Run or the debugger (no
    /// WebGPU and no emulation, a lost device, a case that cannot open),
    /// and what to do.
    #[error("{0}")]
    Judge(String),
    /// A message that could not be written or read.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// The browser refused to start the worker: its reason.
    #[error("the judge's worker could not be started ({0}); reload the page")]
    NotStarted(String),
    /// `postMessage` failed: the browser's reason.
    #[error("the page could not reach the judge ({0}); reload the page")]
    Unreachable(String),
    /// The worker stopped before it answered.
    #[error("the judge stopped before answering; press Run again")]
    Stopped,
    /// An answer of another kind than the request's.
    #[error("the judge answered with the wrong kind of reply ({0}); please report this")]
    WrongReply(String),
}

/// A generation's reply, or the worker's failure in its words.
fn generation(reply: Result<Reply, WorkerError>) -> Result<GenerateChunk, GenerateFailure> {
    match reply {
        Ok(Reply::Generate(chunk)) => chunk,
        Ok(other) => Err(GenerateFailure::plain(unexpected(&other).to_string())),
        Err(e) => Err(GenerateFailure::plain(e.to_string())),
    }
}

fn unexpected(reply: &Reply) -> WorkerError {
    WorkerError::WrongReply(format!("{reply:?}"))
}

/// Starts the worker and wires its replies to `state`'s waiting requests;
/// `s` is `state`, borrowed by the caller.
///
/// # Errors
/// The browser refused to start it.
fn spawn(state: &Rc<RefCell<State>>, s: &mut State) -> Result<Link, WorkerError> {
    let worker = web_sys::Worker::new(&worker_url())
        .map_err(|e| WorkerError::NotStarted(format!("{e:?}")))?;
    s.started += 1;
    let serial = s.started;
    let weak = Rc::downgrade(state);
    let on_message = Closure::<dyn FnMut(JsValue)>::new(move |ev: JsValue| {
        let Some(state) = weak.upgrade() else { return };
        crate::mark("judge-replied");
        let data = ev.unchecked_into::<web_sys::MessageEvent>().data();
        // A reply the page cannot read comes from a worker of another build
        // (or a bug): its answers cannot be trusted, and a Run waiting on it
        // would wait forever, so it is stopped like a crashed one.
        let envelope: Envelope<Reply> = match decode(data) {
            Ok(e) => e,
            Err(e) => {
                leptos::logging::error!("the judge sent a reply the page does not understand: {e}");
                return stop(&state, serial, STALE);
            }
        };
        crate::mark("judge-decoded");
        if let Reply::Crashed(why) = &envelope.body {
            return stop(&state, serial, why);
        }
        let mut s = state.borrow_mut();
        let Some(link) = s.link.as_mut().filter(|l| l.serial == serial) else { return };
        if matches!(envelope.body, Reply::Ready) {
            link.ready = true;
            for message in std::mem::take(&mut link.queued) {
                if let Err(e) = link.worker.post_message(&message) {
                    leptos::logging::error!("the page could not reach the judge: {e:?}");
                }
            }
        } else if let Some(send) = link.pending.remove(&envelope.id) {
            let _ = send.send(Ok(envelope.body));
        }
    });
    let weak = Rc::downgrade(state);
    let on_error = Closure::<dyn FnMut(JsValue)>::new(move |ev: JsValue| {
        let Some(state) = weak.upgrade() else { return };
        let what = ev
            .dyn_ref::<web_sys::ErrorEvent>()
            .map(|e| e.message())
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| "it could not be loaded".to_string());
        stop(&state, serial, &what);
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    // The handlers live as long as the page: the error handler drops the
    // link from inside itself, and a worker is started again only after one
    // died or was replaced for its memory (rare: `JUDGE_MEMORY_BOUND`), so
    // this keeps a few hundred bytes per worker.
    on_message.forget();
    on_error.forget();
    Ok(Link { worker, serial, pending: HashMap::new(), queued: Vec::new(), ready: false })
}

/// What the student is told when the worker's replies cannot be read.
const STALE: &str = "the judge's files do not match this page's, perhaps an older copy kept by a cache; reload the page";

/// Ends worker `serial` after it failed (`what` happened), unless it has
/// already been replaced: every waiting request gets the message, and the
/// next request starts a new worker.
fn stop(state: &Rc<RefCell<State>>, serial: u32, what: &str) {
    let (link, on_stop) = {
        let mut s = state.borrow_mut();
        if s.link.as_ref().is_none_or(|l| l.serial != serial) {
            return;
        }
        (s.link.take(), s.on_stop.clone())
    };
    leptos::logging::error!("the judge's worker stopped: {what}");
    if let Some(link) = link {
        link.worker.terminate();
        for (_, send) in link.pending {
            let _ = send.send(Err(format!("the judge stopped ({what}). Your code is kept: press Run again, and reload the page if this repeats")));
        }
    }
    if let Some(f) = on_stop {
        f(what.to_string());
    }
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
