//! The judge's helper: a second Web Worker, started by the judge's worker
//! from the same files, that makes the order checks of a Run's cases
//! ([`gpu_puzzles_runner::OrderCheckHelper`]) on another core while the
//! judge's worker checks each case in lockstep and runs it on the GPU.
//! In a Run after an edit these were the two largest shares of the CPU's
//! work, one after the other (docs/performance.md).
//!
//! The helper is the same wasm in a worker named [`NAME`]; it answers
//! [`Request::Check`] only. Until it says [`Reply::Ready`], or once it has
//! failed (crashed, or owed checks for [`SILENCE_MS`] without answering
//! one), the judge makes every check itself, as it did before: the helper
//! changes when a check is made, never what it finds.

use crate::protocol::{decode, encode, CheckedOutcome, Envelope, Reply, Request};
use futures_channel::oneshot;
use gpu_puzzles_core::{Case, Puzzle, Values};
use gpu_puzzles_runner::{HelperCheck, OrderCheckHelper};
use gpu_puzzles_verdict::judge::Outcome;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The helper worker's name (`new Worker(url, { name })`), by which the
/// shared start-up code tells it from the judge's worker.
pub(crate) const NAME: &str = "gpu-puzzles-helper";

type Answer = Result<Result<Option<Outcome>, String>, String>;

/// Whether to start the helper in this browser: Chromium's engine only.
/// In Firefox ESR 153, with the helper alive, about one page in forty
/// never finished its Run (emulated Runs too, which the helper takes no
/// part in), and none did without it (the browser suite, 2026-11-26);
/// Safari's WebGPU is not in the suite. Elsewhere the judge makes every
/// check itself, as before.
pub(crate) fn supported() -> bool {
    let agent = js_sys::Reflect::get(&js_sys::global(), &"navigator".into())
        .and_then(|n| js_sys::Reflect::get(&n, &"userAgent".into()))
        .ok()
        .and_then(|a| a.as_string())
        .unwrap_or_default();
    agent.contains("Chrome/") && !agent.contains("Firefox/")
}

/// How long the helper may owe checks without answering any before the
/// judge gives up on it (milliseconds): its slowest check, a case of a
/// large puzzle in three schedules, takes a second or two.
const SILENCE_MS: i32 = 10_000;

/// The judge's end: the helper worker and the checks it owes.
pub(crate) struct Helper {
    worker: web_sys::Worker,
    /// It said it is ready, and has not failed since.
    ready: Cell<bool>,
    next_id: Cell<u32>,
    waiting: RefCell<HashMap<u32, oneshot::Sender<Answer>>>,
    /// The timer that ends a helper silent for [`SILENCE_MS`] while it owes
    /// checks, and its callback.
    watchdog: Cell<Option<i32>>,
    on_silence: RefCell<Option<Closure<dyn FnMut()>>>,
}

impl Helper {
    /// Starts the helper from the judge worker's own script (the same URL,
    /// so the browser's cache serves its files). `None` when this browser
    /// cannot start a worker from a worker.
    pub(crate) fn start() -> Option<Rc<Helper>> {
        let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let url = scope.location().href();
        let options = web_sys::WorkerOptions::new();
        options.set_name(NAME);
        let worker = web_sys::Worker::new_with_options(&url, &options).ok()?;
        let helper = Rc::new(Helper {
            worker,
            ready: Cell::new(false),
            next_id: Cell::new(1),
            waiting: RefCell::default(),
            watchdog: Cell::new(None),
            on_silence: RefCell::new(None),
        });
        let weak = Rc::downgrade(&helper);
        *helper.on_silence.borrow_mut() = Some(Closure::new(move || {
            if let Some(h) = weak.upgrade() {
                h.watchdog.set(None);
                h.fail("the helper worker did not answer in time");
                h.worker.terminate();
            }
        }));
        let weak = Rc::downgrade(&helper);
        let on_message =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                if let Some(h) = weak.upgrade() {
                    h.receive(decode::<Envelope<Reply>>(ev.data()).map_err(|e| e.to_string()));
                }
            });
        helper.worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        let weak = Rc::downgrade(&helper);
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
            if let Some(h) = weak.upgrade() {
                h.fail("the helper worker stopped");
            }
        });
        helper.worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        on_error.forget();
        Some(helper)
    }

    fn receive(&self, envelope: Result<Envelope<Reply>, String>) {
        self.rearm();
        match envelope {
            Ok(Envelope { body: Reply::Ready, .. }) => self.ready.set(true),
            Ok(Envelope { id, body: Reply::Check(answer) }) => {
                if let Some(tx) = self.waiting.borrow_mut().remove(&id) {
                    let _ = tx
                        .send(answer.map(|checked| checked.map(|o| o.map(|CheckedOutcome(o)| o))));
                }
                self.rearm();
            }
            Ok(Envelope { body: Reply::Crashed(why), .. }) => self.fail(&why),
            Ok(_) => {}
            Err(e) => self.fail(&format!("the helper's reply could not be read ({e})")),
        }
    }

    /// Restarts the watchdog's count from now, while checks are owed.
    fn rearm(&self) {
        let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        if let Some(id) = self.watchdog.take() {
            scope.clear_timeout_with_handle(id);
        }
        if self.waiting.borrow().is_empty() {
            return;
        }
        if let Some(cb) = self.on_silence.borrow().as_ref() {
            self.watchdog.set(
                scope
                    .set_timeout_with_callback_and_timeout_and_arguments_0(
                        cb.as_ref().unchecked_ref(),
                        SILENCE_MS,
                    )
                    .ok(),
            );
        }
    }

    /// From now on the judge makes every check itself; the checks owed
    /// are answered with `why`, so the judge makes those too.
    fn fail(&self, why: &str) {
        self.ready.set(false);
        for (_, tx) in self.waiting.borrow_mut().drain() {
            let _ = tx.send(Err(why.to_string()));
        }
    }
}

/// A [`Helper`] lent to one Run, which knows the seed of the Run's random
/// cases.
pub(crate) struct ForRun<'a> {
    pub(crate) helper: &'a Helper,
    pub(crate) seed: u64,
}

impl OrderCheckHelper for ForRun<'_> {
    fn start(
        &self,
        puzzle: &Puzzle,
        case: &Case,
        source: &str,
        lockstep: Option<&[Values]>,
    ) -> Option<HelperCheck> {
        let h = self.helper;
        if !h.ready.get() {
            return None;
        }
        let id = h.next_id.get();
        h.next_id.set(id.wrapping_add(1));
        let body = Request::Check {
            slug: puzzle.slug.clone(),
            seed: self.seed,
            case: case.number,
            source: source.to_string(),
            lockstep: lockstep.map(<[Values]>::to_vec),
        };
        let request = Envelope { id, body };
        let bytes = encode(&request).ok()?;
        h.worker.post_message_with_transfer(&bytes, &js_sys::Array::of1(&bytes.buffer())).ok()?;
        let (tx, rx) = oneshot::channel();
        h.waiting.borrow_mut().insert(id, tx);
        if h.watchdog.get().is_none() {
            h.rearm();
        }
        Some(Box::pin(async move {
            rx.await.unwrap_or_else(|_| Err("the helper worker went away".into()))
        }))
    }
}

/// The helper's end: answers [`Request::Check`]s, one message at a time,
/// then says it is ready.
/// (Its panic hook is the judge's, [`crate::engine::start`]'s.)
pub(crate) fn serve() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let Ok(Envelope { id, body: Request::Check { slug, seed, case, source, lockstep } }) =
                decode::<Envelope<Request>>(ev.data())
            else {
                return;
            };
            crate::engine::post(&Envelope {
                id,
                body: Reply::Check(check(&slug, seed, case, &source, lockstep.as_deref())),
            });
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    crate::engine::post(&Envelope { id: 0, body: Reply::Ready });
}

std::thread_local! {
    /// Students' texts prepared in this worker, by case configuration.
    static PREPARED: std::cell::RefCell<gpu_puzzles_interp::PreparedShaders> =
        std::cell::RefCell::new(gpu_puzzles_interp::PreparedShaders::new(64));
}

/// The order check of one case, as the judge would make it after a passed
/// GPU run ([`gpu_puzzles_interp::emulate::checks_behind_the_gpu_prepared`]).
fn check(
    slug: &str,
    seed: u64,
    number: usize,
    source: &str,
    lockstep: Option<&[Values]>,
) -> Result<Result<Option<CheckedOutcome>, String>, String> {
    let puzzle = crate::embedded::judged_puzzle(slug)
        .ok_or_else(|| format!("the helper does not know the puzzle `{slug}`"))?;
    let drawn;
    let case = match puzzle.cases.iter().find(|c| c.number == number) {
        Some(c) => c,
        None => {
            drawn = gpu_puzzles_core::load::random_cases(puzzle, seed)
                .map_err(|e| format!("the random cases could not be drawn again ({e})"))?;
            drawn
                .iter()
                .find(|c| c.number == number)
                .ok_or_else(|| format!("puzzle `{slug}` has no case {number}"))?
        }
    };
    // The text prepared once per case configuration in this worker: it
    // cannot share the judge's parse (naga's IR stays in the judge's
    // worker), so it keeps its own for the Run's other cases and later Runs.
    let shader = PREPARED.with_borrow_mut(|kept| kept.get(puzzle, source, &case.config));
    let checked = gpu_puzzles_interp::emulate::checks_behind_the_gpu_prepared(
        puzzle, case, &shader, true, lockstep,
    );
    Ok(checked.map(|o| o.map(CheckedOutcome)).map_err(|u| u.message))
}
