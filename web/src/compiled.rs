//! The compiled-code view: the student's kernel for one of the shown cases
//! as a GPU's driver receives it — naga's translation to MSL (Metal), HLSL
//! (Direct3D 12), SPIR-V (Vulkan, disassembled) or GLSL (OpenGL ES), the
//! WGSL with the case's placeholders filled in, or the WGSL the judge
//! instruments — written in the judge's worker, which has naga
//! ([`answer`], `gpu_puzzles_instrument::translate::for_case`), so it works
//! without WebGPU. A kernel that does not translate shows naga's message.
//!
//! Test ids: `compiled` (the `<details>`), `compiled-form` and
//! `compiled-case` (the two menus), `compiled-show`, `compiled-text` (the
//! code, with `data-form`), `compiled-error`.

use crate::editor;
use crate::gpu::PageGpu;
use gpu_puzzles_core::Puzzle;
use gpu_puzzles_instrument::translate::{for_case, Form};
use leptos::prelude::*;

/// The worker's end ([`crate::protocol::Request::Compiled`]): written case
/// `case` (its number) of puzzle `slug` with `source` in the form named
/// `form`.
///
/// # Errors
/// An unknown puzzle, case or form, or naga's message.
pub fn answer(slug: &str, case: usize, source: &str, form: &str) -> Result<String, String> {
    let puzzle = crate::embedded::judged_puzzle(slug)
        .ok_or_else(|| format!("the judge does not know the puzzle `{slug}`; reload the page"))?;
    let case = case
        .checked_sub(1)
        .and_then(|k| puzzle.cases.get(k))
        .ok_or_else(|| format!("the puzzle has no case {case}"))?;
    let form = Form::from_name(form).ok_or_else(|| format!("no form `{form}`"))?;
    for_case(puzzle, case, source, form)
}

/// The panel: a form and a shown case to choose, Show, and the code.
#[component]
pub fn CompiledPanel(puzzle: &'static Puzzle, code: RwSignal<String>) -> impl IntoView {
    let judge = expect_context::<PageGpu>();
    let form = RwSignal::new(Form::ALL[0].name().to_string());
    let case = RwSignal::new(1usize);
    // The code shown and the form it is in, or naga's message.
    let shown = RwSignal::new(None::<Result<(String, String), String>>);
    let busy = RwSignal::new(false);
    let show = move |_| {
        let source = editor::text().unwrap_or_else(|| code.get_untracked());
        let (f, n) = (form.get_untracked(), case.get_untracked());
        busy.set(true);
        leptos::task::spawn_local(async move {
            let got = judge.compiled(puzzle, n, &source, &f).await.map_err(|e| e.to_string());
            let _ = shown.try_set(Some(got.map(|text| (f, text))));
            let _ = busy.try_set(false);
        });
    };
    let forms = Form::ALL.map(|f| view! { <option value=f.name()>{f.describe()}</option> });
    let cases: Vec<_> = puzzle
        .cases
        .iter()
        .filter(|c| !c.hidden)
        .map(|c| view! { <option value=c.number.to_string()>{format!("Case {}: {}", c.number, c.name)}</option> })
        .collect();
    view! {
        <details class="compiled" data-testid="compiled">
            <summary>"Compiled code: what the GPU's driver is handed"</summary>
            <p class="muted">
                "Your kernel as naga translates it: the compiler wgpu uses natively and in Firefox. Chrome (Tint) and Safari translate with compilers of their own, and every driver compiles the result again to its GPU's instructions, so this is a close relative of what runs, not the machine code. The judge's instrumented form adds its memory checks and counters."
            </p>
            <div class="toolbar">
                <label>"Language "
                    <select data-testid="compiled-form" on:change=move |ev| form.set(event_target_value(&ev))>{forms}</select>
                </label>
                <label>"For "
                    <select data-testid="compiled-case" on:change=move |ev| case.set(event_target_value(&ev).parse().unwrap_or(1))>{cases}</select>
                </label>
                <button data-testid="compiled-show" on:click=show disabled=move || busy.get()>
                    {move || if busy.get() { "Translating…" } else { "Show" }}
                </button>
            </div>
            {move || shown.get().map(|got| match got {
                Ok((form, text)) => view! {
                    <pre class="compiled-text" data-testid="compiled-text" data-form=form tabindex="0"><code>{text}</code></pre>
                }.into_any(),
                Err(e) => view! {
                    <p class="notice warn" role="alert" data-testid="compiled-error">{e}</p>
                }.into_any(),
            })}
        </details>
    }
}
