//! Playing a case's steps: a case of several dispatches (a simulation's
//! steps, Jacobi's sweeps) is run again in the judge's worker with its
//! compared buffers read back after each dispatch ([`crate::playback`]),
//! and its pictures are played as an animation: play and pause, a step
//! back or forward, a slider, and the student's kernel's rate on this GPU.
//!
//! Every frame of a buffer is drawn on the scale of its expected values, so
//! the frames compare with each other and with the expected picture. The
//! frames live as long as the case's view: a new Run (or Play) replaces
//! them, and leaving the page drops them with the timer.

use crate::protocol::playback::FramesReply;
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_verdict::image::{self, Palette};
use leptos::prelude::*;
use std::sync::Arc;

/// Frames a second the steps are played at.
const FPS: u64 = 30;

/// Whether `case` can be played: a written case that shows its data, of
/// several dispatches, with a compared buffer drawn as an image.
pub fn playable(puzzle: &Puzzle, case: &Case) -> bool {
    case.dispatches.len() > 1
        && !case.hidden
        && !case.is_performance()
        && case.random_seed.is_none()
        && puzzle.compared_buffers().any(|i| pictured(puzzle, case, i).is_some())
}

/// Buffer `i`'s shape and scale when it is drawn as an image: the scale
/// of its expected picture.
fn pictured(puzzle: &Puzzle, case: &Case, i: usize) -> Option<([u32; 2], Palette)> {
    let (b, cb) = (&puzzle.buffers[i], &case.buffers[i]);
    let expected = cb.expected.as_ref()?;
    let shape = cb.shape.filter(|_| image::shows_image(b.view, cb.shape, expected))?;
    Some((shape, image::image_of(expected, shape, b)?.palette))
}

#[derive(Clone)]
enum Play {
    /// Not asked for yet.
    Idle,
    /// The worker is running the steps.
    Loading,
    Ready(Arc<FramesReply>),
    Failed(String),
}

/// The Play button of case `case`, and once pressed, its player
/// (`player-N`, with `data-frames` and `data-frame`): `source` is the code
/// the Run judged.
#[component]
pub fn Player(puzzle: &'static Puzzle, case: &'static Case, source: String) -> impl IntoView {
    let judge = expect_context::<crate::gpu::PageGpu>();
    let n = case.number;
    let state = RwSignal::new(Play::Idle);
    let frame = RwSignal::new(0usize);
    let playing = RwSignal::new(false);
    let timer = StoredValue::new(None::<IntervalHandle>);
    let stop = move || {
        if let Some(t) = timer.try_update_value(Option::take).flatten() {
            t.clear();
        }
        playing.set(false);
    };
    on_cleanup(move || {
        if let Some(Some(t)) = timer.try_get_value() {
            t.clear();
        }
    });
    let count = move || match state.get() {
        Play::Ready(f) => f.frames.len(),
        _ => 0,
    };
    let start = move || {
        let len = count();
        if len == 0 {
            return;
        }
        if frame.get_untracked() + 1 >= len {
            frame.set(0);
        }
        // Each tick shows the next frame, and the last one stops the timer.
        let tick = move || {
            let next = frame.get_untracked() + 1;
            if next < count() {
                frame.set(next);
            }
            if next + 1 >= count() {
                stop();
            }
        };
        match set_interval_with_handle(tick, std::time::Duration::from_millis(1000 / FPS)) {
            Ok(h) => {
                timer.set_value(Some(h));
                playing.set(true);
            }
            Err(e) => leptos::logging::warn!("the steps could not be played: {e:?}"),
        }
    };
    let load = move |_| {
        stop();
        state.set(Play::Loading);
        let source = source.clone();
        leptos::task::spawn_local(async move {
            let got = judge.frames(puzzle, n, &source).await;
            state.set(match got {
                Ok(f) if !f.frames.is_empty() => Play::Ready(Arc::new(f)),
                Ok(_) => Play::Failed("the worker sent no frame".into()),
                Err(e) => Play::Failed(e.to_string()),
            });
            frame.set(0);
            start();
        });
    };
    let toggle = move |_| if playing.get_untracked() { stop() } else { start() };
    let step_by = move |d: isize| {
        stop();
        let last = count().saturating_sub(1) as isize;
        frame.update(|f| *f = (*f as isize + d).clamp(0, last) as usize);
    };
    let dispatches = case.dispatches.len();
    let label = format!("Play the {dispatches} steps ▸");
    let player = move || {
        match state.get() {
        Play::Idle => ().into_any(),
        Play::Loading => view! { <p class="player-note" role="status">{format!("Running the {dispatches} steps and reading every one back…")}</p> }.into_any(),
        Play::Failed(why) => view! { <p class="player-note bad" role="alert" data-testid=format!("player-error-{n}")>{format!("The steps could not be played: {why}")}</p> }.into_any(),
        Play::Ready(f) => frames_view(puzzle, case, f, frame, playing, toggle, step_by, stop).into_any(),
    }
    };
    view! {
        <div class="player" data-testid=format!("player-{n}")>
            <button class="play" data-testid=format!("play-case-{n}") on:click=load
                title="Run this case's steps again and play its pictures after every step">{label}</button>
            {player}
        </div>
    }
}

/// The pictures of frame `frame`, the controls and the rate.
#[allow(clippy::too_many_arguments)]
fn frames_view(
    puzzle: &'static Puzzle,
    case: &'static Case,
    f: Arc<FramesReply>,
    frame: RwSignal<usize>,
    playing: RwSignal<bool>,
    toggle: impl Fn(web_sys::MouseEvent) + Copy + 'static,
    step_by: impl Fn(isize) + Copy + 'static,
    stop: impl Fn() + Copy + 'static,
) -> impl IntoView {
    let n = case.number;
    let len = f.frames.len();
    let total = case.dispatches.len();
    let pictures = f
        .buffers
        .iter()
        .enumerate()
        .filter_map(|(k, &i)| {
            let (shape, scale) = pictured(puzzle, case, i)?;
            let b = &puzzle.buffers[i];
            let canvas = NodeRef::<leptos::html::Canvas>::new();
            let f = f.clone();
            Effect::new(move |_| {
                let at = frame.get().min(len - 1);
                let (Some(c), Some(values)) = (canvas.get(), f.frames[at].get(k)) else { return };
                crate::images::timed("frame", values.len(), || {
                    if let Some(img) = image::image_on(values, shape, b.view, Some(scale)) {
                        if let Err(e) = crate::images::draw(&c, &img) {
                            leptos::logging::warn!("a frame could not be drawn: {e:?}");
                        }
                    }
                });
            });
            let width = crate::images::drawn_width(shape[1] as usize);
            let described = format!("{} after each step, {} × {}, drawn as an image ({})", b.name, shape[0], shape[1], scale.legend());
            Some(view! {
                <figure class="image">
                    <figcaption>{b.name.clone()}</figcaption>
                    <div class="image-frame" style=format!("width:{width}px")>
                        <canvas node_ref=canvas role="img" aria-label=described data-testid=format!("player-image-{n}-{}", b.name)></canvas>
                    </div>
                    <p class="image-legend">{scale.legend()}</p>
                </figure>
            })
        })
        .collect_view();
    let after = f.after.clone();
    let step_text = move || {
        let at = frame.get().min(len - 1);
        format!("step {} of {total}", after[at])
    };
    let rate = match (f.steps_per_second(), &f.adapter) {
        (Some(r), Some(a)) if f.software => format!("Your kernel: {r:.0} steps a second on {a}, a software adapter: the figure says little about GPUs."),
        (Some(r), Some(a)) => format!("Your kernel: {r:.0} steps a second on {a} ({:.3} ms for all {total}), without reading any back.", f.list_ms.unwrap_or_default()),
        (_, None) => "Emulated on the CPU (no WebGPU here): the frames are exact, but there is no GPU to time.".to_string(),
        (None, Some(a)) => format!("The timer on {a} read zero for all {total} steps."),
    };
    let kept = if len < total {
        format!(" ({len} of the {total} steps kept, evenly spaced)")
    } else {
        String::new()
    };
    view! {
        <div class="player-frames" data-testid=format!("player-frames-{n}") data-frames=len data-frame=move || frame.get().to_string()>
            <div class="grids">{pictures}</div>
            <div class="player-controls" role="group" aria-label="Play the steps">
                <button data-testid=format!("player-back-{n}") on:click=move |_| step_by(-1) aria-label="One step back">"◂"</button>
                <button data-testid=format!("player-toggle-{n}") on:click=toggle aria-pressed=move || playing.get().to_string()>
                    {move || if playing.get() { "Pause" } else { "Play" }}
                </button>
                <button data-testid=format!("player-forward-{n}") on:click=move |_| step_by(1) aria-label="One step forward">"▸"</button>
                <input type="range" min="0" max=(len - 1).to_string() data-testid=format!("player-slider-{n}") aria-label="Step"
                    prop:value=move || frame.get().to_string()
                    on:input=move |ev| {
                        let to = event_target_value(&ev).parse::<usize>().unwrap_or(0);
                        stop();
                        frame.set(to.min(len - 1));
                    }/>
                <span data-testid=format!("player-step-{n}") aria-live=move || if playing.get() { "off" } else { "polite" }>{step_text}</span>
            </div>
            <p class="player-note" data-testid=format!("player-rate-{n}")>{rate}{kept}</p>
        </div>
    }
}
