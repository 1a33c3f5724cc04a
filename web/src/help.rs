//! Hints, revealed one at a time, and our reference solution, shown only
//! after a confirmation (and absent from builds without solutions).

use crate::editor;
use gpu_puzzles_core::Puzzle;
use leptos::prelude::*;

/// The hints of `puzzle`, one more per click (`hint-button`, `hint-N`).
#[component]
pub fn Hints(puzzle: &'static Puzzle) -> impl IntoView {
    let shown = RwSignal::new(0usize);
    let total = puzzle.hints.len();
    view! {
        <section class="hints" aria-label="Hints">
            <ol>
                {move || puzzle.hints.iter().take(shown.get()).enumerate().map(|(i, h)| view! {
                    <li data-testid=format!("hint-{}", i + 1) inner_html=h.clone()></li>
                }).collect_view()}
            </ol>
            {move || (shown.get() < total).then(|| view! {
                <button data-testid="hint-button" on:click=move |_| shown.update(|n| *n += 1)>
                    {format!("Show hint {} of {total}", shown.get() + 1)}
                </button>
            })}
        </section>
    }
}

/// Our solution behind a confirmation. Builds without solutions show nothing.
#[component]
pub fn Solution(puzzle: &'static Puzzle) -> impl IntoView {
    let stage = RwSignal::new(0u8); // 0 hidden, 1 asking, 2 shown
    let Some(solution) = puzzle.solution.as_deref() else { return ().into_any() };
    view! {
        <section class="solution" aria-label="Reference solution">
            {move || match stage.get() {
                0 => view! { <button data-testid="solution-button" on:click=move |_| stage.set(1)>"Show our solution…"</button> }.into_any(),
                1 => view! {
                    <div class="confirm" role="alertdialog" aria-label="Show the solution?">
                        <p>"Seeing the solution ends the puzzle's challenge. Try the hints first? Your own code stays in the editor."</p>
                        <button data-testid="solution-confirm" on:click=move |_| stage.set(2)>"Show it"</button>
                        <button on:click=move |_| stage.set(0)>"Not yet"</button>
                    </div>
                }.into_any(),
                _ => view! {
                    <div>
                        <pre class="solution-code" data-testid="solution"><code>{solution}</code></pre>
                        <button on:click=move |_| editor::replace_text(solution) title="Replaces the editor's text (undo with Ctrl/Cmd+Z)">"Put it in the editor"</button>
                        <button on:click=move |_| stage.set(0)>"Hide"</button>
                    </div>
                }.into_any(),
            }}
        </section>
    }
    .into_any()
}
