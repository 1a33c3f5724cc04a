//! The GPU Puzzles site: a Leptos (client-side rendered) app. Students pick
//! a puzzle, edit WGSL in CodeMirror, run it on the page's WebGPU device
//! through the shared runner, and read input, expected and actual grids.
//!
//! Architecture invariant: this is the only crate that touches the DOM,
//! localStorage or Leptos. Judging happens in `gpu-puzzles-runner` and
//! `gpu-puzzles-core`, exactly as the command-line tool does it, inside a
//! Web Worker ([`engine`], built from the same crate as a second binary) so
//! that naga, the runner and the interpreter are not in the page's wasm.

mod compiled;
mod debugger;
mod deferred;
mod editor;
mod embedded;
pub mod engine;
mod generate_page;
mod generation;
mod gpu;
mod grids;
mod heatmaps;
mod help;
mod helper;
mod images;
mod list;
mod offline;
mod playback;
mod player;
mod prints;
mod progress;
pub mod protocol;
mod puzzle_data;
mod puzzle_page;
mod results;
mod roofline;
mod route;
mod sharing;
mod solutions;
mod storage;
mod theme;
mod wire;

pub use embedded::puzzle_index;

use gpu::GpuStatus;
use leptos::prelude::*;
use route::Route;

/// Installs the panic hook and mounts the app on `<body>`.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_crash(&info.to_string());
    }));
    leptos::mount::mount_to_body(App);
}

/// Starts the judge's Web Worker ([`engine::start`]); the entry point of
/// the worker's binary.
pub fn start_worker() {
    engine::start();
}

/// Starts the judge's worker and asks it for the GPU, once per page load,
/// and fetches the views' module ([`deferred::load`]): called when the
/// editor is ready (or at once on the list, which has none), so neither
/// download delays the editor's.
pub(crate) fn connect_judge(
    status: RwSignal<GpuStatus>,
    device: gpu::PageGpu,
    views: deferred::ViewsModule,
) {
    thread_local!(static STARTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });
    if STARTED.replace(true) {
        return;
    }
    deferred::load(views);
    device.start();
    refresh_status(status, device);
    offline::register();
}

/// Asks the judge's worker for the GPU again and shows what it says.
pub(crate) fn refresh_status(status: RwSignal<GpuStatus>, device: gpu::PageGpu) {
    leptos::task::spawn_local(async move {
        let now = device.acquire().await;
        if matches!(now, GpuStatus::Ready(_)) {
            mark("adapter-ready");
        }
        let _ = status.try_set(now);
    });
}

/// Records a `performance.mark` (for the benchmarks: `editor-ready`,
/// `adapter-ready`, `views-ready` (the views' module is in, [`deferred`]),
/// `run-done`).
/// Works on the page and in the judge's worker (`judge-received`,
/// `judge-answered`, `judge-posted`): each has its own timeline.
pub(crate) fn mark(name: &str) {
    use wasm_bindgen::JsCast;
    if let Ok(p) = js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .and_then(|p| p.dyn_into::<web_sys::Performance>())
    {
        let _ = p.mark(name);
    }
}

/// Keeps where the worker spent the last Run's time, for the benchmarks
/// (`bench.mjs` reads it): the root element's `data-judge-phases`, eight
/// milliseconds, the helper worker's order checks and the preparing's
/// milliseconds, separated by commas ([`protocol::RunReply::phases`]), or
/// removed after an emulated Run.
pub(crate) fn note_phases(phases: Option<[f64; 10]>) {
    let Some(root) =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element())
    else {
        return;
    };
    let _ = match phases {
        Some(p) => {
            root.set_attribute("data-judge-phases", &p.map(|ms| format!("{ms:.1}")).join(","))
        }
        None => root.remove_attribute("data-judge-phases"),
    };
}

/// Shows a visible notice when the app panics, so the page never goes blank
/// without a word; the student's code is in localStorage and comes back on
/// reload.
fn show_crash(message: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Some(el) = doc.get_element_by_id("crash") {
        el.set_text_content(Some(&format!(
            "Something went wrong inside the page ({message}). Your code is saved in this browser: reload the page to continue."
        )));
        let _ = el.set_attribute("style", "display:block");
    }
}

/// The app: header, then the list or a puzzle page depending on the URL.
#[component]
pub fn App() -> impl IntoView {
    theme::apply(storage::theme());
    let route = RwSignal::new(route::current());
    let status = RwSignal::new(GpuStatus::Pending);
    let device = gpu::PageGpu::new();
    device.on_stop(move |why| {
        let _ = status.try_set(GpuStatus::JudgeDown(why));
    });
    provide_context(route);
    provide_context(status);
    provide_context(device);
    let views = deferred::ViewsModule::new();
    provide_context(views);
    let _ = window_event_listener(leptos::ev::popstate, move |_| {
        let now = route::current();
        if route.get_untracked() != now {
            route.set(now);
        }
    });
    // A share link pasted over the current page changes only the fragment,
    // which browsers do not reload for: reload, so the link's code is read.
    let _ = window_event_listener(leptos::ev::hashchange, move |_| {
        if let Some(w) = web_sys::window() {
            if w.location()
                .hash()
                .is_ok_and(|h| gpu_puzzles_core::share::payload_from_fragment(&h).is_some())
            {
                let _ = w.location().reload();
            }
        }
    });
    // The list has no editor to wait for: the judge starts after its first frame.
    leptos::task::spawn_local(async move {
        gpu::next_frame().await;
        if route.get_untracked().slug().and_then(|s| puzzle_index().get(s)).is_none() {
            connect_judge(status, device, views);
        }
    });
    view! {
        <header class="site-header">
            <a class="brand" href=route::href(&Route::List) on:click=move |ev| navigate(ev, route, Route::List)>"GPU Puzzles"</a>
            // The title says why, where the line alone does not.
            <span class="gpu-status" data-testid="gpu-status" title=move || match status.get() {
                GpuStatus::Unavailable(why) | GpuStatus::JudgeDown(why) => why,
                _ => String::new(),
            }>
                {move || match status.get() {
                    GpuStatus::Pending => "Asking for a GPU…".to_string(),
                    GpuStatus::Ready(name) => format!("GPU: {name}"),
                    GpuStatus::Unavailable(_) => "No WebGPU · runs are emulated on the CPU".to_string(),
                    GpuStatus::JudgeDown(_) => "The judge is not running · Run starts it again".to_string(),
                }}
            </span>
            <theme::ThemeChoice/>
        </header>
        <NoWebGpu/>
        <main>
            {move || {
                let now = route.get();
                match (&now, now.slug().and_then(|s| puzzle_index().get(s))) {
                    (_, Some(p)) => view! { <OpenPuzzle slug=p.slug.clone()/> }.into_any(),
                    (Route::Generate, _) => deferred::generate().into_any(),
                    _ => view! { <list::PuzzleList unknown=now.slug().map(str::to_string)/> }.into_any(),
                }
            }}
        </main>
    }
}

/// A puzzle's page, once its page data is here ([`puzzle_data::fetch`]):
/// a line saying it is being opened meanwhile, and what went wrong, with
/// Try again, when it cannot be fetched. A puzzle opened before in this
/// page load shows at once.
#[component]
fn OpenPuzzle(slug: String) -> impl IntoView {
    let state = RwSignal::new(puzzle_data::kept(&slug).map(Ok::<_, String>));
    let load = move |slug: String| {
        leptos::task::spawn_local(async move {
            let got = puzzle_data::fetch(&slug).await;
            let _ = state.try_set(Some(got));
        });
    };
    if state.get_untracked().is_none() {
        load(slug.clone());
    }
    let status = expect_context::<RwSignal<GpuStatus>>();
    let device = expect_context::<gpu::PageGpu>();
    let views = expect_context::<deferred::ViewsModule>();
    move || match state.get() {
        None => view! {
            <p class="muted" role="status" data-testid="puzzle-loading">"Opening the puzzle…"</p>
        }
        .into_any(),
        Some(Ok(p)) => view! { <puzzle_page::PuzzlePage puzzle=p/> }.into_any(),
        Some(Err(why)) => {
            // No editor will start the judge: start it here, so the
            // header still says whether this browser has a GPU.
            connect_judge(status, device, views);
            let slug = slug.clone();
            view! {
                <section class="notice warn" role="alert" data-testid="puzzle-load-error">
                    <p>{format!("This puzzle could not be opened: {why}.")}</p>
                    <button data-testid="puzzle-load-retry" on:click=move |_| {
                        state.set(None);
                        load(slug.clone());
                    }>"Try again"</button>
                </section>
            }
            .into_any()
        }
    }
}

/// Client-side navigation for a link click: history entry plus route signal.
pub(crate) fn navigate(ev: leptos::ev::MouseEvent, route: RwSignal<Route>, to: Route) {
    if ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0 {
        return; // let the browser open a new tab or window
    }
    ev.prevent_default();
    route::push(&to);
    route.set(to);
    if let Some(w) = web_sys::window() {
        w.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// The panel shown when the page cannot get WebGPU; the statement and the
/// editor stay usable.
#[component]
fn NoWebGpu() -> impl IntoView {
    let status = expect_context::<RwSignal<GpuStatus>>();
    move || {
        match status.get() {
        GpuStatus::Unavailable(reason) => view! {
            <section class="no-webgpu" data-testid="no-webgpu" role="alert">
                <h2>"This page cannot reach a GPU through WebGPU"</h2>
                <p>{reason}</p>
                <p>"You can still solve the puzzles here: Run emulates your shader on the CPU, with the same cases and memory checks (performance cases need a GPU), and Step opens any case in the debugger. To run on your GPU:"</p>
                <ul>
                    <li>"Chrome or Edge 113 or later on Windows, macOS and ChromeOS; Chrome 121 or later on Android."</li>
                    <li>"Safari 26 or later on macOS, iOS and iPadOS."</li>
                    <li>"Firefox 141 or later on Windows, 145 or later on macOS with Apple silicon; other platforms behind " <code>"dom.webgpu.enabled"</code> " in about:config."</li>
                    <li>"Chrome on Linux: on by default from 144 with an Intel GPU and from 147 with an NVIDIA GPU; otherwise enable " <code>"chrome://flags/#enable-unsafe-webgpu"</code> " and " <code>"chrome://flags/#enable-vulkan"</code> ", then restart the browser."</li>
                    <li>"Check that hardware acceleration is on in the browser's settings, and that the page is served over https or from localhost."</li>
                </ul>
            </section>
        }
        .into_any(),
        _ => ().into_any(),
    }
    }
}
