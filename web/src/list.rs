//! The puzzle list: number, title, solved mark.

use crate::{navigate, puzzle_set, route, storage};
use leptos::prelude::*;

/// Every puzzle in order, with a mark on those solved in this browser.
/// `unknown` is a slug from the URL that names no puzzle.
#[component]
pub fn PuzzleList(unknown: Option<String>) -> impl IntoView {
    let route = expect_context::<RwSignal<Option<String>>>();
    let set = puzzle_set();
    let solved = set.puzzles.iter().filter(|p| storage::is_solved(&p.slug)).count();
    view! {
        <section class="puzzle-list-page">
            {unknown.map(|s| view! { <p class="notice" role="status">"There is no puzzle called “" {s} "”. Pick one from the list."</p> })}
            <h1>"GPU Puzzles"</h1>
            <p class="intro">
                "Learn GPU programming by writing WGSL compute shaders that run on your own GPU, in the page. "
                "Each puzzle shows its test cases as grids; your shader passes when every case, shown and hidden, matches."
            </p>
            <p class="progress">{format!("{solved} of {} solved", set.puzzles.len())}</p>
            <ol class="puzzle-list" data-testid="puzzle-list">
                {set.puzzles.iter().map(|p| {
                    let slug = p.slug.clone();
                    let done = storage::is_solved(&p.slug);
                    view! {
                        <li class:solved=done>
                            <a href=route::href(Some(&p.slug)) on:click=move |ev| navigate(ev, route, Some(&slug))>
                                <span class="number">{p.number}</span>
                                <span class="title">{p.title.clone()}</span>
                                <span class="mark" aria-label=if done { "solved" } else { "not solved yet" }>{if done { "✓ solved" } else { "" }}</span>
                            </a>
                        </li>
                    }
                }).collect_view()}
            </ol>
        </section>
    }
}
