//! A puzzle page: statement, editor, Run, results.

use crate::gpu::{self, GpuStatus};
use crate::help::{Hints, Solution};
use crate::route::{self, Route};
use crate::{editor, navigate, puzzle_index, sharing, storage};
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_verdict::judge::{CaseResult, Severity};
use gpu_puzzles_verdict::run_report::RunReport;
use gpu_puzzles_verdict::session::Session;
use leptos::prelude::*;
use std::sync::Arc;

/// Asks the puzzle page to time the comparison kernels on a software
/// adapter in this page's Runs from now on, and to start a Run, as the Run
/// button does: provided by the puzzle page to its performance cases'
/// "Time them here anyway" button.
#[derive(Clone, Copy)]
pub struct TimeComparisons(pub UnsyncCallback<()>);

/// What a finished Run leaves, behind `Arc`s: every view reads the state,
/// and a clone must not copy a large read-back.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    /// The results, in case order (performance cases without their
    /// read-backs, which nothing draws).
    pub results: Arc<Vec<CaseResult>>,
    /// The same results in words ([`gpu_puzzles_verdict::run_report`]).
    pub report: Arc<RunReport>,
    /// The source the results were computed from.
    pub source: String,
    /// The Run's random cases.
    pub random: RandomCases,
    /// This device's measured peaks, once a performance case has run (the
    /// rooflines are drawn against them).
    pub peaks: Option<gpu_puzzles_verdict::timing::Peaks>,
}

/// Where the current Run stands ([`gpu_puzzles_verdict::session`]).
pub type RunState = gpu_puzzles_verdict::session::RunState<Finished, String>;

/// The random cases of a Run, shared by the views (compared by identity:
/// each Run draws its own), and the failing ones, kept once per Run as
/// shown cases (the case views take `&'static` cases; a failing random case
/// is small, and rare).
#[derive(Debug, Clone, Default)]
pub struct RandomCases {
    /// Every random case of the Run.
    pub cases: std::sync::Arc<Vec<Case>>,
    /// The ones that failed, with their data shown.
    pub failing: std::sync::Arc<Vec<&'static Case>>,
}

impl RandomCases {
    /// The random cases of a Run and its results.
    pub fn new(cases: Vec<Case>, results: &[CaseResult]) -> Self {
        let failing = cases
            .iter()
            .filter(|c| results.iter().any(|r| r.case == c.number && !r.outcome.passed()))
            .map(|c| &*Box::leak(Box::new(Case { hidden: false, ..c.clone() })))
            .collect();
        RandomCases { cases: std::sync::Arc::new(cases), failing: std::sync::Arc::new(failing) }
    }
}

impl PartialEq for RandomCases {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.cases, &other.cases)
    }
}

/// Where the editor's text came from, for the banner above it.
#[derive(Debug, Clone, PartialEq)]
enum Origin {
    /// The student's own code (saved or starter): autosaved.
    Own,
    /// Code from a share link: not saved until the student chooses.
    Shared,
}

/// Saves after this many milliseconds without an edit.
const SAVE_DELAY_MS: u64 = 400;

/// How long a Run may take before the page says it is running, in
/// milliseconds. A response within about a tenth of a second reads as
/// immediate (the usual figure for direct manipulation, from Card, Moran
/// and Newell's perceptual processor cycle), so a quicker Run needs no
/// "Running…" at all.
const QUIET_MS: u64 = 100;

/// The page of one puzzle.
#[component]
pub fn PuzzlePage(puzzle: &'static Puzzle) -> impl IntoView {
    let route = expect_context::<RwSignal<Route>>();
    let status = expect_context::<RwSignal<GpuStatus>>();
    let device = expect_context::<gpu::PageGpu>();
    let views = expect_context::<crate::deferred::ViewsModule>();
    let notice = RwSignal::new(None::<String>);
    let save_error = RwSignal::new(None::<String>);

    // What to show first: a share link's code, else the saved code, else the starter.
    let saved = match storage::load_code(&puzzle.slug) {
        storage::Saved::Code(c) => Some(c),
        storage::Saved::Nothing => None,
        storage::Saved::Unreadable => {
            notice.set(Some("A saved copy of this puzzle's code could not be read (it may come from another version of the site); it was left as it is and the starter is shown.".into()));
            None
        }
    };
    let own = saved.clone().unwrap_or_else(|| puzzle.starter.clone());
    let (initial, origin) = match sharing::from_url() {
        Some(Ok(code)) => (code, Origin::Shared),
        Some(Err(e)) => {
            notice.set(Some(format!(
                "This share link could not be opened: {e}. Your own code is shown instead."
            )));
            sharing::clear_fragment();
            (own.clone(), Origin::Own)
        }
        None => (own.clone(), Origin::Own),
    };
    let origin = RwSignal::new(origin);
    let code = RwSignal::new(initial.clone());
    // The Run state machine, and the state the views draw.
    let session = RwSignal::new(Session::<Finished, String>::new());
    let state = Memo::new(move |_| session.with(|s| s.state().clone()));
    // What the page shows. A Run's first [`QUIET_MS`] change nothing on it:
    // a quick Run goes straight from the last results to the new ones, with
    // no flash of "Running…", and the repaint that a change would cost
    // (every case, heat maps included, on a page the CPU draws) does not
    // take the cores the Run itself needs.
    let young = RwSignal::new(false);
    let finished_runs = RwSignal::new(0u32);
    let quiet_timer = StoredValue::new_local(None::<TimeoutHandle>);
    let shown = Memo::new(move |before: Option<&RunState>| {
        let now = state.get();
        match before {
            Some(before) if young.get() && matches!(now, RunState::Running { .. }) => {
                before.clone()
            }
            _ => now,
        }
    });
    let before_reset = RwSignal::new(None::<String>);
    let share_link = RwSignal::new(None::<String>);
    let vim = RwSignal::new(storage::vim());
    let heatmaps = RwSignal::new(storage::heatmaps());
    provide_context(crate::heatmaps::ShowHeatmaps(heatmaps.read_only()));
    provide_context(crate::debugger::DebugRequest(RwSignal::new(None)));
    // Whether this page's Runs time the comparison kernels on a software
    // adapter too: off until the student asks (a performance case's
    // "Time them here anyway" button, through [`TimeComparisons`], which
    // also starts a Run).
    let time_comparisons = RwSignal::new(false);
    provide_context(crate::debugger::DebugFocus(RwSignal::new(None)));

    // Edits not yet in localStorage. Only those are saved when the page
    // goes away, so a stale tab never overwrites what another tab saved.
    let dirty = StoredValue::new(false);
    // Safe to call once the page is gone (a timer that fired late): then it
    // does nothing, where reading a disposed signal would panic.
    let save_now = move || {
        let (Some(Origin::Own), Some(true), Some(text)) =
            (origin.try_get_untracked(), dirty.try_get_value(), code.try_get_untracked())
        else {
            return;
        };
        let result = storage::save_code(&puzzle.slug, &text);
        let _ = dirty.try_set_value(result.is_err());
        let _ = save_error.try_set(result.err().map(|e| e.to_string()));
    };
    let pending_save = StoredValue::new_local(None::<TimeoutHandle>);
    let schedule_save = move || {
        if let Some(h) = pending_save.get_value() {
            h.clear();
        }
        let h =
            set_timeout_with_handle(save_now, std::time::Duration::from_millis(SAVE_DELAY_MS)).ok();
        pending_save.set_value(h);
    };
    // Leaving the page (or the puzzle) saves at once, and stops the timers
    // that would otherwise fire into a page that is gone: a Run quicker
    // than the save's delay, then a click to the next puzzle, left the save
    // pending, and it read this page's disposed signals (a panic in the
    // page, found by the workshop soak, tests/e2e/bench-soak.mjs).
    let hide = window_event_listener(leptos::ev::pagehide, move |_| save_now());
    on_cleanup(move || {
        hide.remove();
        save_now();
        for timer in [pending_save.try_get_value().flatten(), quiet_timer.try_get_value().flatten()]
            .into_iter()
            .flatten()
        {
            timer.clear();
        }
    });

    let run = move || {
        let source = editor::text().unwrap_or_else(|| code.get_untracked());
        let Some(first) = session.try_update(|s| s.press_run(source)).flatten() else { return };
        crate::mark("run-start");
        young.set(true);
        if let Some(h) = quiet_timer.get_value() {
            h.clear();
        }
        quiet_timer.set_value(
            set_timeout_with_handle(
                move || {
                    let _ = young.try_set(false);
                },
                std::time::Duration::from_millis(QUIET_MS),
            )
            .ok(),
        );
        leptos::task::spawn_local(async move {
            let mut next = Some(first);
            while let Some(source) = next.take() {
                let out = device.run(puzzle, &source, time_comparisons.get_untracked()).await;
                crate::mark("run-judged");
                if let Ok(o) = &out {
                    crate::note_phases(o.phases);
                }
                let finished = match out {
                    Ok(out) => {
                        if matches!(status.get_untracked(), GpuStatus::JudgeDown(_)) {
                            // A new worker answered: show its adapter.
                            crate::refresh_status(status, device);
                        }
                        if out.recreated {
                            let _ = notice.try_set(Some("The GPU device had been lost; the page created a new one for this run.".into()));
                        }
                        // Worded by the views' module, which holds the report's
                        // code; if it cannot be fetched, the Run says so.
                        crate::deferred::finish(puzzle, out, source).await.map_err(|_| {
                            "the code that shows a Run's results could not be downloaded. Check the connection, then Run again".to_string()
                        })
                    }
                    Err(e) => {
                        let e = e.to_string();
                        let _ = status.try_set(if gpu::has_webgpu() {
                            status.get_untracked()
                        } else {
                            GpuStatus::Unavailable(e.clone())
                        });
                        Err(e)
                    }
                };
                // A newer Run replaces this one's results; otherwise they are shown.
                next = session.try_update(|s| s.finish(finished)).flatten();
                if next.is_none() {
                    finished_runs.try_update(|n| *n += 1);
                    if let Some(RunState::Done(done)) =
                        session.try_with_untracked(|s| s.state().clone())
                    {
                        if done.report.solved {
                            storage::mark_solved(&puzzle.slug);
                            storage::save_passed_code(&puzzle.slug, &done.source);
                        }
                        leptos::task::spawn_local(crate::deferred::mark_findings(done));
                    }
                }
            }
        });
    };

    provide_context(TimeComparisons(UnsyncCallback::new(move |()| {
        time_comparisons.set(true);
        run();
    })));

    // Ctrl/Cmd+Enter anywhere on the page; inside the editor CodeMirror handles
    // it first and marks the event handled.
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if (ev.ctrl_key() || ev.meta_key()) && ev.key() == "Enter" && !ev.default_prevented() {
            ev.prevent_default();
            run();
        }
    });
    on_cleanup(move || keys.remove());

    let editor_host = NodeRef::<leptos::html::Div>::new();
    // An owner's cleanups run before its stored values are dropped.
    let mounted = StoredValue::new(None::<editor::Mounted>);
    on_cleanup(move || {
        if let Some(m) = mounted.try_get_value().flatten() {
            editor::unmount(m);
        }
    });
    Effect::new(move |_| {
        if let Some(host) = editor_host.get() {
            let m = editor::mount(
                &host,
                &initial,
                move |text: String| {
                    code.set(text);
                    dirty.set_value(true);
                    schedule_save();
                },
                run,
                vim.get_untracked(),
            );
            mounted.set_value(Some(m));
            crate::mark("editor-ready");
            crate::connect_judge(status, device, views);
        }
    });

    let set = puzzle_index();
    let prev = puzzle.number.checked_sub(2).and_then(|i| set.puzzles.get(i));
    let next = set.puzzles.get(puzzle.number);
    // Sanitised HTML in the page's data ([`crate::puzzle_data`]).
    let statement = puzzle.statement.as_str();
    let reset = move |_| {
        before_reset.set(Some(editor::text().unwrap_or_else(|| code.get_untracked())));
        editor::replace_text(&puzzle.starter);
    };
    let undo_reset = move |_| {
        if let Some(old) = before_reset.get_untracked() {
            editor::replace_text(&old);
        }
        before_reset.set(None);
    };
    let keep_shared = move |_| {
        origin.set(Origin::Own);
        sharing::clear_fragment();
        dirty.set_value(true);
        save_now();
        notice.set(Some("The shared code is now your saved code for this puzzle.".into()));
    };
    let back_to_own = move |_| {
        origin.set(Origin::Own);
        sharing::clear_fragment();
        let mine = match storage::load_code(&puzzle.slug) {
            storage::Saved::Code(c) => c,
            _ => puzzle.starter.clone(),
        };
        editor::replace_text(&mine);
    };
    let make_link = move |_| {
        let (slug, text) =
            (puzzle.slug.clone(), editor::text().unwrap_or_else(|| code.get_untracked()));
        let link = wasm_bindgen_futures::future_to_promise(async move {
            sharing::link(&slug, &text).await.map(Into::into).map_err(|e| e.to_string().into())
        });
        // Handed over now, while the click is being handled (Safari's rule).
        sharing::copy_when_ready(&link);
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(link).await {
                Ok(l) => share_link.set(l.as_string()),
                Err(e) => notice.set(Some(format!(
                    "No share link was made: {}.",
                    e.as_string().unwrap_or_default()
                ))),
            }
        });
    };
    let toggle_heatmaps = move |_| {
        let on = !heatmaps.get_untracked();
        heatmaps.set(on);
        storage::set_heatmaps(on);
    };
    let vim_problem = RwSignal::new(None::<String>);
    let toggle_vim = move |_| {
        let on = !vim.get_untracked();
        vim.set(on);
        storage::set_vim(on);
        vim_problem.set(None);
        editor::vim(on, move |why| {
            vim.set(false);
            storage::set_vim(false);
            vim_problem.set(Some(format!(
                "Vim keys are off: {why}. Check the connection and switch them on again."
            )));
        });
    };

    view! {
        <article class="puzzle-page">
            <nav class="puzzle-nav" aria-label="Puzzles">
                <a href=route::href(&Route::List) on:click=move |ev| navigate(ev, route, Route::List)>"All puzzles"</a>
                {prev.map(|p| { let s = p.slug.clone(); view! {
                    <a rel="prev" data-testid="prev-puzzle" href=route::puzzle_href(&p.slug) on:click=move |ev| navigate(ev, route, Route::Puzzle(s.clone()))>{format!("← {}. {}", p.number, p.title)}</a>
                }})}
                {next.map(|p| { let s = p.slug.clone(); view! {
                    <a rel="next" data-testid="next-puzzle" href=route::puzzle_href(&p.slug) on:click=move |ev| navigate(ev, route, Route::Puzzle(s.clone()))>{format!("{}. {} →", p.number, p.title)}</a>
                }})}
            </nav>
            <div class="columns">
                <section class="statement" aria-label="Statement">
                    {set.chapter_of(puzzle.number - 1).map(|c| view! { <p class="chapter-label">{c.title.clone()}</p> })}
                    <h1 data-testid="puzzle-title">{format!("{}. {}", puzzle.number, puzzle.title)}</h1>
                    <div class="markdown" inner_html=statement></div>
                    <Hints puzzle=puzzle/>
                    <Solution puzzle=puzzle/>
                </section>
                <section class="workspace" aria-label="Editor and results">
                    {move || (origin.get() == Origin::Shared).then(|| view! {
                        <div class="notice shared" data-testid="shared-banner" role="status">
                            <p>"You are looking at code from a share link. It is not saved unless you keep it."</p>
                            <button data-testid="keep-shared" on:click=keep_shared>"Keep it (replaces my saved code)"</button>
                            <button data-testid="back-to-own" on:click=back_to_own>"Back to my code"</button>
                        </div>
                    })}
                    <div class="editor" data-testid="editor" node_ref=editor_host></div>
                    // How a keyboard leaves the editor, where Tab indents
                    // (CodeMirror's own: Escape, then Tab; or Ctrl+M, which
                    // turns Tab's moving on and off). The editor's text
                    // names this line as its description.
                    <p class="shortcut editor-hint" id="editor-keys" data-testid="editor-keys">
                        "In the editor Tab indents; press Esc then Tab to move on (with Vim keys, Esc twice; Ctrl+M, or Shift+Option+M on a Mac, makes Tab move focus until pressed again)."
                    </p>
                    <div class="toolbar">
                        <button class="run" data-testid="run-button" on:click=move |_| run()
                            title="Run every test case (Ctrl+Enter or Cmd+Enter)" aria-keyshortcuts="Control+Enter Meta+Enter">
                            {move || match shown.get() {
                                RunState::Running { queued: true } => "Running… (queued)",
                                RunState::Running { .. } => "Running…",
                                _ => "Run ▶",
                            }}
                        </button>
                        <span class="shortcut">"Ctrl/Cmd + Enter"</span>
                        <label class="vim"><input type="checkbox" data-testid="vim-toggle" prop:checked=move || vim.get() on:change=toggle_vim/>" Vim keys"</label>
                        {move || vim_problem.get().map(|why| view! { <span class="muted" role="alert" data-testid="vim-problem">{why}</span> })}
                        <label class="vim" title="Show under each case how its invocations touched memory (the memory checks run either way)"><input type="checkbox" data-testid="heatmaps-toggle" prop:checked=move || heatmaps.get() on:change=toggle_heatmaps/>" Heat maps"</label>
                        <button data-testid="share-button" on:click=make_link title="A link that carries your code">"Share link"</button>
                        <button class="reset" data-testid="reset-button" on:click=reset title="Put the starter code back">"Reset to starter"</button>
                        {move || before_reset.get().is_some().then(|| view! {
                            <button data-testid="undo-reset" on:click=undo_reset>"Undo reset"</button>
                        })}
                    </div>
                    <details class="print-help" data-testid="print-help">
                        <summary>"Print a value: " <code>"print(i, sum);"</code></summary>
                        <p>"Write " <code>"print(a, b, …);"</code> " as a statement anywhere in your shader, with numbers, bools or vectors of them. After a Run, each shown case lists what every invocation printed, each value beside its text, grouped by workgroup and invocation. Prints never change a verdict, performance cases run without them, and a case keeps the first 32,768 words of prints (about 8,000 lines of one number)."</p>
                    </details>
                    {move || share_link.get().map(|l| view! {
                        <p class="share">
                            <label>"Share link (copied if your browser allows): "
                                <input data-testid="share-link" readonly value=l.clone() on:focus=|ev| {
                                    if let Some(t) = ev.target() { if let Ok(i) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t) { i.select(); } }
                                }/>
                            </label>
                        </p>
                    })}
                    {crate::deferred::debugger(puzzle, code)}
                    {crate::deferred::compiled(puzzle, code)}
                    {move || save_error.get().map(|e| view! { <p class="notice warn" role="status">{e}</p> })}
                    {move || notice.get().map(|n| view! { <p class="notice" data-testid="notice" role="status">{n}</p> })}
                    {crate::deferred::results(shown, finished_runs.read_only(), puzzle)}
                </section>
            </div>
        </article>
    }
}

/// Marks a Run's compile messages and the places its first failing
/// finding names in the editor (called from [`crate::deferred`], whose
/// module holds it: nothing in a first visit needs it).
pub(crate) fn show_squiggles(source: &str, results: &[CaseResult]) {
    let diags = gpu_puzzles_verdict::run_report::distinct_diagnostics(results);
    let mut squiggles: Vec<editor::Squiggle> = diags
        .iter()
        .map(|d| editor::Squiggle {
            offset: d.offset.unwrap_or(0),
            length: if d.offset.is_some() { d.length } else { 1 },
            severity: match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "info",
            },
            message: &d.message,
        })
        .collect();
    // The places the first failing finding names (a race's two accesses, an
    // out-of-bounds access, a runaway loop), marked as compile errors are:
    // the first access as an error, the second as a warning.
    let marks = gpu_puzzles_verdict::report::finding_marks(results);
    for m in &marks {
        let Some((offset, length)) = site_span(source, m.site) else { continue };
        squiggles.push(editor::Squiggle {
            offset,
            length,
            severity: if m.first { "error" } else { "warning" },
            message: &m.message,
        });
    }
    editor::show_diagnostics(source, &squiggles);
}

/// The byte span from `site` (line and column from 1, in characters) to the
/// end of its line, trailing spaces left out; `None` past the text's end.
/// A Run's results in words ([`RunReport`]) and its random cases
/// (called from [`crate::deferred`], whose module holds the report's code).
/// The worker sent performance cases without their read-backs.
pub(crate) fn finish(puzzle: &'static Puzzle, out: gpu::RunOutput, source: String) -> Finished {
    let context = gpu_puzzles_verdict::run_report::Context {
        software: out.software,
        peaks: out.peaks.as_ref(),
        emulated: out.emulated,
    };
    let report = RunReport::new(puzzle, &out.random, &out.results, context);
    let random = RandomCases::new(out.random, &out.results);
    Finished {
        results: Arc::new(out.results),
        report: Arc::new(report),
        source,
        random,
        peaks: out.peaks,
    }
}

fn site_span(source: &str, site: gpu_puzzles_verdict::trace::Site) -> Option<(usize, usize)> {
    let line_start = gpu_puzzles_core::template::offset_of_line(source, site.line);
    let line = source.get(line_start..)?.split('\n').next()?;
    let column = line.char_indices().nth(site.column.saturating_sub(1)).map_or(0, |(i, _)| i);
    let rest = line[column..].trim_end();
    (site.line >= 1 && line_start < source.len())
        .then_some((line_start + column, rest.len().max(1)))
}
