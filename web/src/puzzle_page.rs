//! A puzzle page: statement, editor, Run, results.

use crate::gpu::{self, GpuStatus};
use crate::results::{CaseList, Diagnostics, VerdictBar};
use crate::{editor, navigate, puzzle_set, route, storage};
use gpu_puzzles_core::judge::{verdict, CaseResult, Outcome, Severity, Verdict};
use gpu_puzzles_core::markdown::to_safe_html;
use gpu_puzzles_core::{Diagnostic, Puzzle};
use leptos::prelude::*;
use std::cell::RefCell;

/// Where the current run stands.
#[derive(Debug, Clone, PartialEq)]
pub enum RunState {
    /// Not run yet.
    Idle,
    /// Running; `queued` when another Run is waiting behind it.
    Running { queued: bool },
    /// Finished: the results and the source they were computed from.
    Done { results: Vec<CaseResult>, source: String },
    /// Our own failure (no WebGPU, lost device), with what to do.
    Error(String),
}

thread_local! {
    /// The source of a Run pressed while another was in flight; the newest
    /// replaces older ones, and results never interleave.
    static QUEUED: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The page of one puzzle.
#[component]
pub fn PuzzlePage(puzzle: &'static Puzzle) -> impl IntoView {
    let route = expect_context::<RwSignal<Option<String>>>();
    let status = expect_context::<RwSignal<GpuStatus>>();
    let initial = storage::load_code(&puzzle.slug).unwrap_or_else(|| puzzle.starter.clone());
    let code = RwSignal::new(initial.clone());
    let state = RwSignal::new(RunState::Idle);
    let notice = RwSignal::new(None::<String>);
    let save_error = RwSignal::new(None::<String>);

    let run = move || {
        let source = editor::text().unwrap_or_else(|| code.get_untracked());
        if matches!(state.get_untracked(), RunState::Running { .. }) {
            QUEUED.with(|q| *q.borrow_mut() = Some(source));
            state.set(RunState::Running { queued: true });
            return;
        }
        state.set(RunState::Running { queued: false });
        leptos::task::spawn_local(async move {
            let mut next = Some(source);
            while let Some(source) = next.take() {
                let out = gpu::run(puzzle, &source).await;
                next = QUEUED.with(|q| q.borrow_mut().take());
                if next.is_some() {
                    let _ = state.try_set(RunState::Running { queued: false });
                    continue; // a newer Run replaces this one's results
                }
                match out {
                    Ok(out) => {
                        if out.recreated {
                            let _ = notice.try_set(Some("The GPU device had been lost; the page created a new one for this run.".into()));
                        }
                        if verdict(&out.results) == Verdict::Passed {
                            storage::mark_solved(&puzzle.slug);
                        }
                        show_squiggles(&source, &out.results);
                        let _ = state.try_set(RunState::Done { results: out.results, source });
                    }
                    Err(e) => {
                        let _ = status.try_set(if gpu::has_webgpu() { status.get_untracked() } else { GpuStatus::Unavailable(e.clone()) });
                        let _ = state.try_set(RunState::Error(e));
                    }
                }
            }
        });
    };

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
    Effect::new(move |_| {
        if let Some(host) = editor_host.get() {
            let slug = puzzle.slug.clone();
            editor::mount(
                &host,
                &initial,
                move |text: String| {
                    let result = storage::save_code(&slug, &text);
                    code.set(text);
                    save_error.set(result.err());
                },
                run,
            );
        }
    });

    let set = puzzle_set();
    let prev = puzzle.number.checked_sub(2).and_then(|i| set.puzzles.get(i));
    let next = set.puzzles.get(puzzle.number);
    let statement = to_safe_html(&puzzle.statement);
    let reset = move |_| {
        editor::replace_text(&puzzle.starter);
    };

    view! {
        <article class="puzzle-page">
            <nav class="puzzle-nav" aria-label="Puzzles">
                <a href=route::href(None) on:click=move |ev| navigate(ev, route, None)>"All puzzles"</a>
                {prev.map(|p| { let s = p.slug.clone(); view! {
                    <a rel="prev" href=route::href(Some(&p.slug)) on:click=move |ev| navigate(ev, route, Some(&s))>{format!("← {}. {}", p.number, p.title)}</a>
                }})}
                {next.map(|p| { let s = p.slug.clone(); view! {
                    <a rel="next" href=route::href(Some(&p.slug)) on:click=move |ev| navigate(ev, route, Some(&s))>{format!("{}. {} →", p.number, p.title)}</a>
                }})}
            </nav>
            <div class="columns">
                <section class="statement">
                    <h1 data-testid="puzzle-title">{format!("{}. {}", puzzle.number, puzzle.title)}</h1>
                    <div class="markdown" inner_html=statement></div>
                    <details class="hints">
                        <summary>"Hints"</summary>
                        <ol>{puzzle.hints.iter().map(|h| view! { <li inner_html=to_safe_html(h)></li> }).collect_view()}</ol>
                    </details>
                </section>
                <section class="workspace">
                    <div class="editor" data-testid="editor" node_ref=editor_host></div>
                    <div class="toolbar">
                        <button class="run" data-testid="run-button" on:click=move |_| run()
                            title="Run every test case (Ctrl+Enter or Cmd+Enter)">
                            {move || match state.get() {
                                RunState::Running { queued: true } => "Running… (queued)",
                                RunState::Running { .. } => "Running…",
                                _ => "Run ▶",
                            }}
                        </button>
                        <span class="shortcut">"Ctrl/Cmd + Enter"</span>
                        <button class="reset" on:click=reset title="Put the starter code back (undo with Ctrl/Cmd+Z)">"Reset to starter"</button>
                    </div>
                    {move || save_error.get().map(|e| view! { <p class="notice warn" role="status">{e}</p> })}
                    {move || notice.get().map(|n| view! { <p class="notice" role="status">{n}</p> })}
                    <Diagnostics state=state/>
                    <VerdictBar state=state puzzle=puzzle/>
                    <CaseList state=state puzzle=puzzle/>
                </section>
            </div>
        </article>
    }
}

/// Every distinct diagnostic of a run, errors first, in line order.
pub fn distinct_diagnostics(results: &[CaseResult]) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    for r in results {
        let list = match &r.outcome {
            Outcome::CompileError { diagnostics } => diagnostics.iter().chain(&r.warnings).collect::<Vec<_>>(),
            _ => r.warnings.iter().collect(),
        };
        for d in list {
            if !out.contains(d) {
                out.push(d.clone());
            }
        }
    }
    out.sort_by_key(|d| (d.severity != Severity::Error, d.line, d.column));
    out
}

fn show_squiggles(source: &str, results: &[CaseResult]) {
    let diags = distinct_diagnostics(results);
    let squiggles: Vec<editor::Squiggle> = diags
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
    editor::show_diagnostics(source, &squiggles);
}
