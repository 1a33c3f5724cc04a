//! The puzzle list, by chapter: number, title, solved mark.

use crate::route::{self, Route};
use crate::{navigate, puzzle_index, storage};
use gpu_puzzles_core::IndexEntry;
use leptos::prelude::*;

/// One puzzle's entry: its number, title and solved mark, linking to it.
fn puzzle_item(p: &IndexEntry, route: RwSignal<Route>) -> impl IntoView {
    let slug = p.slug.clone();
    let done = storage::is_solved(&p.slug);
    view! {
        <li class:solved=done>
            <a href=route::puzzle_href(&p.slug) on:click=move |ev| navigate(ev, route, Route::Puzzle(slug.clone()))>
                <span class="number">{p.number}</span>
                <span class="title">{p.title.clone()}</span>
                <span class="mark" aria-label=if done { "solved" } else { "not solved yet" }>{if done { "✓ solved" } else { "" }}</span>
            </a>
        </li>
    }
}

/// The puzzle after whose chapter the capstone's card stands: the last of
/// the model's kernels.
const CAPSTONE_AFTER: &str = gpu_puzzles_runner::generate::KERNELS[4];

/// The capstone's card: what it does, and how many of its kernels are the
/// student's.
fn capstone_card(route: RwSignal<Route>) -> impl IntoView {
    let kernels = gpu_puzzles_runner::generate::KERNELS;
    let yours = kernels.iter().filter(|s| storage::is_solved(s)).count();
    view! {
        <a class="capstone-card" data-testid="capstone-card" href=route::href(&Route::Generate)
            on:click=move |ev| navigate(ev, route, Route::Generate)>
            <span class="title">"Generate: your kernels write text"</span>
            <span class="muted">{format!(
                "A small language model runs on your GPU with this chapter's kernels, checked against the CPU at every character: {yours} of {} kernels yours.",
                kernels.len()
            )}</span>
        </a>
    }
}

/// Every puzzle in order, under its chapter's heading with the chapter's
/// progress, with a mark on those solved in this browser.
/// `unknown` is a slug from the URL that names no puzzle.
#[component]
pub fn PuzzleList(unknown: Option<String>) -> impl IntoView {
    let route = expect_context::<RwSignal<Route>>();
    let set = puzzle_index();
    let solved = set.puzzles.iter().filter(|p| storage::is_solved(&p.slug)).count();
    // Each chapter with its puzzles; a set without chapters is one untitled run.
    let chapters: Vec<(Option<String>, &[IndexEntry])> = if set.chapters.is_empty() {
        vec![(None, &set.puzzles[..])]
    } else {
        set.chapters.iter().map(|c| (Some(c.title.clone()), set.chapter(c))).collect()
    };
    view! {
        <section class="puzzle-list-page">
            {unknown.map(|s| view! { <p class="notice" role="status">"There is no puzzle called “" {s} "”. Pick one from the list."</p> })}
            <h1>"GPU Puzzles"</h1>
            <p class="intro">
                "Learn GPU programming by writing WGSL compute shaders that run on your own GPU, in the page. "
                "Each puzzle shows its test cases as grids; your shader passes when every case, shown and hidden, matches."
            </p>
            <p class="progress">{format!("{solved} of {} solved", set.puzzles.len())}</p>
            <div class="chapters" data-testid="puzzle-list">
                {chapters.into_iter().map(|(title, puzzles)| {
                    let done = puzzles.iter().filter(|p| storage::is_solved(&p.slug)).count();
                    let heading = title.map(|t| view! {
                        <h2 class="chapter-title">
                            {t}
                            <span class="chapter-progress">{format!("{done} of {} solved", puzzles.len())}</span>
                        </h2>
                    });
                    // The capstone's card closes the chapter that holds its last kernel.
                    let capstone = puzzles.iter().any(|p| p.slug == CAPSTONE_AFTER).then(|| capstone_card(route));
                    view! {
                        <section class="chapter">
                            {heading}
                            <ol class="puzzle-list" start=puzzles.first().map_or(1, |p| p.number)>
                                {puzzles.iter().map(|p| puzzle_item(p, route)).collect_view()}
                            </ol>
                            {capstone}
                        </section>
                    }
                }).collect_view()}
            </div>
        </section>
    }
}
