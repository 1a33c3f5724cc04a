//! The capstone in the judge's worker ("Generate", issue 47): the model of
//! `models/generate/`, fetched by this worker the first time the capstone
//! asks for it and kept for the page's life, and one generation at a time
//! ([`gpu_puzzles_runner::generate::Generator`] and its
//! [`Stream`]), advanced a chunk per request so the page shows the text as
//! it comes. Only the worker's binary calls this module, so neither the
//! model's reader and forward pass nor the runner reach the page's wasm.
//!
//! The model's files are fetched by addresses relative to the site
//! (`./models/generate/…`, next to the worker's loader), with the query
//! the build wrote for them (`?v=` and a hash of their contents). With a
//! query, each response is also kept in the Cache Storage cache
//! `gpu-puzzles-model-<hash>` ([`model_cache`]), which the service worker
//! (`web/sw.js`) serves from offline and keeps across builds while the
//! model is unchanged; the service worker does not fetch the model at
//! install, so a first visit does not download it.

use crate::protocol::generation::{
    Fault, GenerateChunk, GenerateFailure, GenerateRequest, ModelInfo,
};
use crate::solutions::js_text;
use futures_channel::oneshot;
use gpu_puzzles_reference::lm::Model;
use gpu_puzzles_runner::generate::{
    GenerateError, Generator, Kernels, Sampling, Stream, Weights, KERNELS,
};
use gpu_puzzles_runner::Gpu;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The model's folder, relative to the site.
const MODEL_DIR: &str = "./models/generate/";

/// A request waiting for the model's load.
type Waiter = oneshot::Sender<Result<&'static Model, String>>;

/// An open generation.
struct Open {
    /// Which [`open`] made it; a chunk that finishes after a newer one
    /// opened is dropped rather than put back over it.
    serial: u32,
    /// The device it runs on.
    gpu: Rc<Gpu>,
    generator: Generator<'static>,
    stream: Stream,
    /// Characters already sent to the page.
    sent: usize,
}

thread_local! {
    /// The model, once loaded: kept (leaked) for the worker's life, which
    /// lets a generation borrow it across requests.
    static MODEL: Cell<Option<&'static Model>> = const { Cell::new(None) };
    /// The size of the model's `model.bin`, once loaded.
    static MODEL_BYTES: Cell<u64> = const { Cell::new(0) };
    /// While the model loads, the requests waiting for it.
    static WAITING: RefCell<Option<Vec<Waiter>>> = const { RefCell::new(None) };
    static OPEN: RefCell<Option<Open>> = const { RefCell::new(None) };
    static SERIAL: Cell<u32> = const { Cell::new(0) };
}

/// [`Request::Model`](crate::protocol::Request::Model): loads the model if
/// needed and describes it.
///
/// # Errors
/// Why it could not be fetched or read, and what to try.
pub(crate) async fn model_info(version: &str) -> Result<ModelInfo, String> {
    let model = model(version).await?;
    let c = &model.config;
    Ok(ModelInfo {
        context: c.context as u32,
        vocabulary: model.vocabulary.iter().collect(),
        layers: c.layers as u32,
        d_model: c.d_model as u32,
        bytes: MODEL_BYTES.get(),
    })
}

/// The model, fetched and read on first use; requests that arrive while it
/// loads wait for that load rather than start another.
async fn model(version: &str) -> Result<&'static Model, String> {
    if let Some(m) = MODEL.get() {
        return Ok(m);
    }
    let waiting = WAITING.with_borrow_mut(|w| match w {
        Some(list) => {
            let (send, receive) = oneshot::channel();
            list.push(send);
            Some(receive)
        }
        None => {
            *w = Some(Vec::new());
            None
        }
    });
    if let Some(receive) = waiting {
        return receive.await.unwrap_or_else(|_| Err("the model's load was dropped".into()));
    }
    let loaded = load(version).await.map(|m| &*Box::leak(Box::new(m)));
    if let Ok(m) = loaded {
        MODEL.set(Some(m));
    }
    for send in WAITING.take().unwrap_or_default() {
        let _ = send.send(loaded.clone());
    }
    loaded
}

/// Fetches and reads the model's two files.
async fn load(version: &str) -> Result<Model, String> {
    let cache = model_cache(version).await;
    let manifest = fetch(&format!("{MODEL_DIR}model.toml{version}"), cache.as_ref()).await?;
    let bin = fetch(&format!("{MODEL_DIR}model.bin{version}"), cache.as_ref()).await?;
    MODEL_BYTES.set(bin.len() as u64);
    let manifest = String::from_utf8(manifest).map_err(|_| {
        "the model's model.toml is not UTF-8 text: the site's copy is damaged; rebuild or redeploy it".to_string()
    })?;
    Model::from_files(&manifest, &bin).map_err(|e| {
        format!("the model's files could not be read ({e}); reload the page, and if this repeats, rebuild or redeploy the site")
    })
}

/// The Cache Storage cache that keeps the model for offline use:
/// `gpu-puzzles-model-<hash>` for the query `?v=<hash>`; none without a
/// query (a build that did not version the files) or without Cache Storage
/// (the files are then fetched each time the worker starts).
async fn model_cache(version: &str) -> Option<web_sys::Cache> {
    let hash = version.strip_prefix("?v=").filter(|h| !h.is_empty())?;
    let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
    let storage = scope.caches().ok()?;
    let cache = JsFuture::from(storage.open(&format!("gpu-puzzles-model-{hash}"))).await.ok()?;
    cache.dyn_into().ok()
}

/// The bytes at `url` (relative to the worker, so to the site): from
/// `cache` when it holds them, else from the network, then kept there.
async fn fetch(url: &str, cache: Option<&web_sys::Cache>) -> Result<Vec<u8>, String> {
    let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
    let kept = match cache {
        Some(c) => JsFuture::from(c.match_with_str(url))
            .await
            .ok()
            .and_then(|r| r.dyn_into::<web_sys::Response>().ok()),
        None => None,
    };
    let response = match kept {
        Some(r) => r,
        None => {
            let r = JsFuture::from(scope.fetch_with_str(url))
                .await
                .map_err(|e| format!("the model could not be fetched from {url} ({}); check the connection and press Generate again", js_text(&e)))?
                .dyn_into::<web_sys::Response>()
                .map_err(|_| format!("fetching {url} gave no response"))?;
            if !r.ok() {
                return Err(format!(
                    "the site answered {} {} for {url}: its build may lack the model (scripts/build-site.sh copies models/generate/ into it)",
                    r.status(),
                    r.status_text()
                ));
            }
            if let (Some(c), Ok(copy)) = (cache, r.clone()) {
                // Best effort: without the kept copy the capstone needs the network.
                let _ = JsFuture::from(c.put_with_str(url, &copy)).await;
            }
            r
        }
    };
    let buffer = response.array_buffer().map_err(|e| js_text(&e))?;
    let buffer = JsFuture::from(buffer)
        .await
        .map_err(|e| format!("the model's file {url} could not be read ({})", js_text(&e)))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// [`Request::Generate`](crate::protocol::Request::Generate): compiles the
/// kernels for the model, feeds the prompt and keeps the generation open,
/// replacing any other.
///
/// # Errors
/// A prompt the model cannot read, settings out of range, a missing or
/// failing kernel, no WebGPU, or the device's error.
pub(crate) async fn open(request: GenerateRequest) -> Result<GenerateChunk, GenerateFailure> {
    let serial = SERIAL.get().wrapping_add(1);
    SERIAL.set(serial);
    OPEN.set(None);
    let model = model(&request.model_version).await.map_err(GenerateFailure::plain)?;
    let s = request.sampling;
    let top = 64.min(model.config.vocab) as u32;
    if !(1..=top).contains(&s.k) {
        return Err(GenerateFailure::plain(format!(
            "top-k must be a whole number from 1 to {top}; it is {}",
            s.k
        )));
    }
    if !(s.temperature.is_finite() && s.temperature > 0.0) {
        return Err(GenerateFailure::plain(format!(
            "the temperature must be above 0 (0.8 is a good start); it is {}",
            s.temperature
        )));
    }
    let prompt = model.encode(&request.prompt).map_err(|e| {
        GenerateFailure::plain(format!(
            "The prompt cannot be fed to the model: {e} (counting from 0). The model knows only these characters: {}",
            model.vocabulary.iter().filter(|c| **c != '\n').collect::<String>()
        ))
    })?;
    let kernels = kernels(request.kernels, &request.solutions).await?;
    let gpu = crate::engine::acquire(true).await.map_err(|e| {
        GenerateFailure::plain(format!(
            "The capstone runs the model on the GPU, through WebGPU: {e}"
        ))
    })?;
    let set = crate::embedded::capstone_set();
    let sampling = Sampling { k: s.k, temperature: s.temperature, seed: s.seed };
    let mut generator =
        Generator::new(&gpu, model, &set, &kernels, Weights::Q8).await.map_err(failure)?;
    let stream = Stream::start(&gpu, &mut generator, &prompt, request.count as usize, &sampling)
        .await
        .map_err(failure)?;
    let open = Open { serial, gpu, generator, stream, sent: 0 };
    let chunk = chunk(&open, model);
    if SERIAL.get() == serial {
        OPEN.set(Some(open));
    }
    Ok(chunk)
}

/// [`Request::GenerateMore`](crate::protocol::Request::GenerateMore): the
/// next `count` characters of the open generation.
///
/// # Errors
/// No generation is open (or another request is advancing it), or the
/// device's error.
pub(crate) async fn more(count: u32) -> Result<GenerateChunk, GenerateFailure> {
    let (Some(mut open), Some(model)) = (OPEN.take(), MODEL.get()) else {
        return Err(GenerateFailure::plain(
            "no generation is open (it was replaced, or the judge restarted): press Generate again",
        ));
    };
    let advanced = open.stream.advance(&open.gpu, &mut open.generator, count as usize).await;
    if let Err(e) = advanced {
        return Err(failure(e));
    }
    let chunk = chunk(&open, model);
    open.sent = open.stream.generation().tokens.len();
    if SERIAL.get() == open.serial && !open.stream.done() {
        OPEN.set(Some(open));
    }
    Ok(chunk)
}

/// What the page has not seen yet of `open`'s generation.
fn chunk(open: &Open, model: &Model) -> GenerateChunk {
    let g = open.stream.generation();
    GenerateChunk {
        text: model.decode(&g.tokens[open.sent..]).unwrap_or_default(),
        generated: g.tokens.len() as u32,
        cpu_agreed: g.cpu_agreed as u32,
        done: open.stream.done(),
        tokens_per_second: g.tokens_per_second,
        faults: g
            .faults
            .iter()
            .map(|f| Fault { kernel: f.kernel.to_string(), text: f.to_string() })
            .collect(),
    }
}

/// The student's kernels where given, ours elsewhere (fetched with the
/// `solutions` query, [`crate::solutions`]; empty in a build without them).
///
/// # Errors
/// A kernel the model does not use, one neither given nor in this build, or
/// one of ours that could not be fetched.
async fn kernels(own: Vec<(String, String)>, solutions: &str) -> Result<Kernels, GenerateFailure> {
    if let Some((slug, _)) = own.iter().find(|(s, _)| !KERNELS.contains(&s.as_str())) {
        return Err(GenerateFailure::plain(format!(
            "`{slug}` is not one of the model's kernels ({}); reload the page",
            KERNELS.join(", ")
        )));
    }
    let mut kernels = Kernels::new();
    let mut missing = Vec::new();
    for slug in KERNELS {
        if let Some((_, source)) = own.iter().find(|(s, _)| s == slug) {
            kernels.insert(slug.to_string(), source.clone());
        } else if solutions.is_empty() {
            missing.push(slug);
        } else {
            let ours = crate::solutions::fetch(slug, solutions).await.map_err(|e| {
                GenerateFailure {
                    message: format!("Our `{slug}` kernel is needed for the kernels you have not solved, and {e}."),
                    kernel: Some(slug.to_string()),
                }
            })?;
            kernels.insert(slug.to_string(), ours.to_string());
        }
    }
    match missing.first() {
        None => Ok(kernels),
        Some(first) => Err(GenerateFailure {
            message: format!(
                "This site was built without our kernels, so the model needs yours: solve {} first.",
                missing.join(", ")
            ),
            kernel: Some(first.to_string()),
        }),
    }
}

/// A runner's error, in words for the page, with the kernel to blame.
fn failure(e: GenerateError) -> GenerateFailure {
    match &e {
        GenerateError::NoKernel(slug) => GenerateFailure {
            message: format!("{e}."),
            kernel: Some(slug.to_string()),
        },
        GenerateError::Compile { slug, .. } => GenerateFailure {
            message: format!(
                "{e}. It passed its puzzle, but the model runs it at other sizes: open the puzzle, Run it, and fix what the compiler says."
            ),
            kernel: Some(slug.clone()),
        },
        GenerateError::Input(_) => GenerateFailure::plain(format!("{e}.")),
        GenerateError::Runner(_) => GenerateFailure::plain(format!(
            "{e}. Press Generate again; if the GPU device was lost, the page makes a new one."
        )),
    }
}
