//! The views a first visit does not need, in a wasm module of their own
//! that the page fetches once the editor is ready: every case's grids,
//! heat maps and print logs, the verdict and the compile messages
//! ([`crate::results`]), the wording of a Run's report and the marks it
//! leaves in the editor, the debugger
//! ([`crate::debugger::DebuggerPanel`]), the compiled-code view
//! ([`crate::compiled::CompiledPanel`]) and the capstone's page
//! ([`crate::generate_page::GeneratePage`]).
//!
//! Each function below is a split point (`wasm_split_helpers`, which Leptos
//! re-exports as `leptos::wasm_split`): the build (`scripts/split/`) cuts
//! the page's wasm at these functions, so that what only they reach (those
//! views, their Leptos view types, the report's wording and sorting) goes
//! into `views-*.wasm`, and what the rest of the page also reaches stays in
//! the page's. All six name the same module, `views`, so it is one file
//! and one fetch. Measured with the release build of 2026-12-01, the split
//! took the page's wasm from 363.6 to 185.4 KB gzip (docs/performance.md).
//!
//! The module is fetched once per page load ([`load`], called when the
//! judge starts), and until it is in, each view shows a line saying so;
//! when the fetch fails, the line says why and offers Try again. Once it
//! is in, the views are built synchronously ([`show`]): a split point's
//! call is then a future that is ready when first polled.

use crate::gpu::RunOutput;
use crate::puzzle_page::{Finished, RunState};
use gpu_puzzles_core::Puzzle;
use leptos::prelude::*;
#[cfg(feature = "split-views")]
use leptos::wasm_split::wasm_split;
use leptos::wasm_split::SplitLoaderError;
use std::future::Future;
use std::task::{Context, Poll, Waker};

/// Where the views' module is: the page's context, provided by the app.
#[derive(Clone, Copy)]
pub struct ViewsModule(RwSignal<Module>);

/// The state of the views' module.
#[derive(Clone, Debug, PartialEq)]
enum Module {
    /// Not asked for yet.
    NotAsked,
    /// Being fetched.
    Fetching,
    /// Fetched and instantiated: the split points call straight through.
    Ready,
    /// The fetch or the instantiation failed (the browser's console has the
    /// details); [`load`] tries again.
    Failed,
}

impl ViewsModule {
    /// A module not yet asked for.
    pub fn new() -> Self {
        ViewsModule(RwSignal::new(Module::NotAsked))
    }
}

/// Fetches the views' module unless it is in or on its way; a failed
/// fetch is tried again.
pub fn load(module: ViewsModule) {
    if matches!(module.0.get_untracked(), Module::Ready | Module::Fetching) {
        return;
    }
    module.0.set(Module::Fetching);
    leptos::task::spawn_local(async move {
        // Each split point has a loader of its own; the module is fetched
        // once (the split's JavaScript keeps the fetch), and every loader
        // is told, so each split point's first call is ready at once.
        #[cfg(feature = "split-views")]
        let got = async {
            __wasm_split_preload_results_view().await?;
            __wasm_split_preload_squiggles().await?;
            __wasm_split_preload_finished().await?;
            __wasm_split_preload_debugger_panel().await?;
            __wasm_split_preload_compiled_panel().await?;
            __wasm_split_preload_generate_page().await
        }
        .await;
        #[cfg(not(feature = "split-views"))]
        let got = Ok::<(), SplitLoaderError>(());
        if got.is_ok() {
            crate::mark("views-ready");
        }
        let _ = module.0.try_set(if got.is_ok() { Module::Ready } else { Module::Failed });
    });
}

/// `make`'s view once the views' module is in; until then a line
/// (`data-testid="views-loading"`) naming `what`, and when the fetch
/// failed, why, with Try again (`data-testid="views-retry"`). With `what`
/// `None`, nothing until then: a view the page shows only on request (the
/// debugger, opened from a case, which says so itself).
fn show<F, Fut>(what: Option<&'static str>, make: F) -> impl IntoView
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, SplitLoaderError>> + 'static,
{
    let module = expect_context::<ViewsModule>();
    // Bumped when a call that was not ready at once has finished (a split
    // point whose loader [`load`] did not tell), so the view is made again.
    let settled = RwSignal::new(0u32);
    move || {
        settled.track();
        match module.0.get() {
            Module::Ready => match now(make()) {
                Some(Ok(view)) => view,
                Some(Err(_)) => failed(what, module),
                None => {
                    let pending = make();
                    leptos::task::spawn_local(async move {
                        let _ = pending.await;
                        let _ = settled.try_update(|n| *n += 1);
                    });
                    ().into_any()
                }
            },
            Module::NotAsked | Module::Fetching => match what {
                Some(what) => view! {
                    <p class="muted" role="status" data-testid="views-loading">{format!("Loading {what}…")}</p>
                }
                .into_any(),
                None => ().into_any(),
            },
            Module::Failed => failed(what, module),
        }
    }
}

/// What [`show`] says when the views' module could not be fetched.
fn failed(what: Option<&'static str>, module: ViewsModule) -> AnyView {
    let Some(what) = what else { return ().into_any() };
    view! {
        <p class="notice warn" role="alert" data-testid="views-failed">
            {format!("The code that shows {what} could not be downloaded. Check the connection, then ")}
            <button data-testid="views-retry" on:click=move |_| load(module)>"Try again"</button>
        </p>
    }
    .into_any()
}

/// A future's value if it is ready when first polled.
fn now<T>(fut: impl Future<Output = T>) -> Option<T> {
    let mut fut = std::pin::pin!(fut);
    match fut.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(v) => Some(v),
        Poll::Pending => None,
    }
}

/// A Run's results: its compile messages and findings
/// ([`crate::results::Diagnostics`]), its verdict
/// ([`crate::results::VerdictBar`]) and every test case
/// ([`crate::results::CaseList`]).
pub fn results(
    state: Memo<RunState>,
    finished_runs: ReadSignal<u32>,
    puzzle: &'static Puzzle,
) -> impl IntoView {
    show(Some("the test cases"), move || results_view(state, finished_runs, puzzle))
}

/// A finished Run's results in words and its random cases
/// ([`crate::puzzle_page::finish`]): the report's code (findings, hazards,
/// their sorting and wording) is the views' module's.
///
/// # Errors
/// [`SplitLoaderError`] when the views' module cannot be fetched.
pub async fn finish(
    puzzle: &'static Puzzle,
    out: RunOutput,
    source: String,
) -> Result<Finished, SplitLoaderError> {
    finished(puzzle, out, source).await
}

/// Marks a finished Run's compile messages and findings in the editor
/// ([`crate::puzzle_page::show_squiggles`]), once the views' module is in;
/// nothing when it cannot be fetched (the results say so).
pub async fn mark_findings(done: Finished) {
    let _ = squiggles(done).await;
}

/// The debugger's panel ([`crate::debugger::DebuggerPanel`]).
pub fn debugger(puzzle: &'static Puzzle, code: RwSignal<String>) -> impl IntoView {
    show(None, move || debugger_panel(puzzle, code))
}

/// The compiled-code view ([`crate::compiled::CompiledPanel`]); nothing
/// until the views' module is in (the results' line says when it cannot be
/// fetched, once for the page).
pub fn compiled(puzzle: &'static Puzzle, code: RwSignal<String>) -> impl IntoView {
    show(None, move || compiled_panel(puzzle, code))
}

/// The capstone's page ([`crate::generate_page::GeneratePage`]).
pub fn generate() -> impl IntoView {
    show(Some("the capstone"), generate_page)
}

/// A split point of the views' module. With the feature `split-views`
/// (the page's binary: web/index.html asks Trunk for it) a `wasm_split`
/// function, which is exported (`no_mangle`) and so must not be compiled
/// into the judge's worker, a second binary of this crate; without it (the
/// worker, native builds and tests) an `async fn` that runs at once.
macro_rules! split_point {
    (fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        #[cfg(feature = "split-views")]
        #[wasm_split(views, wasm_split_path = ::leptos::wasm_split, fallible)]
        fn $name($($arg: $ty),*) -> $ret $body

        #[cfg(not(feature = "split-views"))]
        async fn $name($($arg: $ty),*) -> $ret $body
    };
}

split_point! {
    fn results_view(
        state: Memo<RunState>,
        finished_runs: ReadSignal<u32>,
        puzzle: &'static Puzzle,
    ) -> Result<AnyView, SplitLoaderError> {
        use crate::results::{CaseList, Diagnostics, VerdictBar};
        Ok(view! {
            <Diagnostics state=state/>
            <VerdictBar state=state finished_runs=finished_runs/>
            <CaseList state=state puzzle=puzzle/>
        }
        .into_any())
    }
}

split_point! {
    fn finished(
        puzzle: &'static Puzzle,
        out: RunOutput,
        source: String,
    ) -> Result<Finished, SplitLoaderError> {
        Ok(crate::puzzle_page::finish(puzzle, out, source))
    }
}

split_point! {
    fn squiggles(done: Finished) -> Result<(), SplitLoaderError> {
        crate::puzzle_page::show_squiggles(&done.source, &done.results);
        Ok(())
    }
}

split_point! {
    fn debugger_panel(
        puzzle: &'static Puzzle,
        code: RwSignal<String>,
    ) -> Result<AnyView, SplitLoaderError> {
        Ok(view! { <crate::debugger::DebuggerPanel puzzle=puzzle code=code/> }.into_any())
    }
}

split_point! {
    fn compiled_panel(
        puzzle: &'static Puzzle,
        code: RwSignal<String>,
    ) -> Result<AnyView, SplitLoaderError> {
        Ok(view! { <crate::compiled::CompiledPanel puzzle=puzzle code=code/> }.into_any())
    }
}

split_point! {
    fn generate_page() -> Result<AnyView, SplitLoaderError> {
        Ok(view! { <crate::generate_page::GeneratePage/> }.into_any())
    }
}
