//! Hints, revealed one at a time, and our reference solution, fetched and
//! shown only after a confirmation (and absent from builds without
//! solutions).

use crate::{editor, solutions};
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

/// Our solution behind a confirmation, fetched from the site when the
/// student confirms ([`crate::solutions`]). Builds without solutions show
/// nothing.
#[component]
pub fn Solution(puzzle: &'static Puzzle) -> impl IntoView {
    let Some(version) = solutions::in_this_build() else { return ().into_any() };
    let stage = RwSignal::new(0u8); // 0 hidden, 1 asking, 2 shown
                                    // None while it is being fetched.
    let code = RwSignal::new(None::<Result<String, String>>);
    let show = move || {
        stage.set(2);
        if !matches!(code.get_untracked(), Some(Ok(_))) {
            code.set(None);
            let version = version.clone();
            leptos::task::spawn_local(async move {
                code.set(Some(
                    solutions::fetch(&puzzle.slug, &version).await.map(|s| s.to_string()),
                ));
            });
        }
    };
    let show = StoredValue::new_local(show);
    view! {
        <section class="solution" aria-label="Reference solution">
            {move || match stage.get() {
                0 => view! { <button data-testid="solution-button" on:click=move |_| stage.set(1)>"Show our solution…"</button> }.into_any(),
                1 => view! {
                    <div class="confirm" role="alertdialog" aria-label="Show the solution?">
                        <p>"Seeing the solution ends the puzzle's challenge. Try the hints first? Your own code stays in the editor."</p>
                        <button data-testid="solution-confirm" on:click=move |_| show.with_value(|f| f())>"Show it"</button>
                        <button on:click=move |_| stage.set(0)>"Not yet"</button>
                    </div>
                }.into_any(),
                _ => match code.get() {
                    None => view! { <p data-testid="solution-loading">"Loading our solution…"</p> }.into_any(),
                    Some(Err(why)) => view! {
                        <div role="alert" class="solution-error" data-testid="solution-error">
                            <p>{format!("It did not load: {why}.")}</p>
                            <button on:click=move |_| show.with_value(|f| f())>"Try again"</button>
                            <button on:click=move |_| stage.set(0)>"Hide"</button>
                        </div>
                    }.into_any(),
                    Some(Ok(solution)) => {
                        let text = solution.clone();
                        view! {
                            <div>
                                <pre class="solution-code" data-testid="solution"><code>{solution}</code></pre>
                                <button on:click=move |_| editor::replace_text(&text) title="Replaces the editor's text (undo with Ctrl/Cmd+Z)">"Put it in the editor"</button>
                                <button on:click=move |_| stage.set(0)>"Hide"</button>
                            </div>
                        }.into_any()
                    }
                },
            }}
        </section>
    }
    .into_any()
}
