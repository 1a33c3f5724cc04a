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
/// progress, with a mark on those solved in this browser, and the student's
/// progress to export or import. `unknown` is a slug from the URL that
/// names no puzzle.
#[component]
pub fn PuzzleList(unknown: Option<String>) -> impl IntoView {
    let route = expect_context::<RwSignal<Route>>();
    let set = puzzle_index();
    // Bumped by an import, so that the marks are read again.
    let version = RwSignal::new(0u32);
    let status = RwSignal::new(None::<(bool, String)>);
    // Each chapter with its puzzles; a set without chapters is one untitled run.
    let chapters = move || -> Vec<(Option<String>, &'static [IndexEntry])> {
        if set.chapters.is_empty() {
            vec![(None, &set.puzzles[..])]
        } else {
            set.chapters.iter().map(|c| (Some(c.title.clone()), set.chapter(c))).collect()
        }
    };
    view! {
        <section class="puzzle-list-page">
            {unknown.map(|s| view! { <p class="notice" role="status">"There is no puzzle called “" {s} "”. Pick one from the list."</p> })}
            <h1>"GPU Puzzles"</h1>
            <p class="intro">
                "Learn GPU programming by writing WGSL compute shaders that run on your own GPU, in the page. "
                "Each puzzle shows its test cases as grids; your shader passes when every case, shown and hidden, matches."
            </p>
            {move || {
                version.track();
                let solved = set.puzzles.iter().filter(|p| storage::is_solved(&p.slug)).count();
                view! {
                    <p class="progress" data-testid="solved-count">{format!("{solved} of {} solved", set.puzzles.len())}</p>
                    <div class="chapters" data-testid="puzzle-list">
                        {chapters().into_iter().map(|(title, puzzles)| {
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
                }
            }}
            <ProgressTools version status/>
        </section>
    }
}

/// The student's progress, moved between machines: an export of everything
/// this browser keeps as one JSON file, and an import that merges one in
/// ([`crate::progress`]), saying what it did or why it changed nothing.
#[component]
fn ProgressTools(
    version: RwSignal<u32>,
    status: RwSignal<Option<(bool, String)>>,
) -> impl IntoView {
    let input = NodeRef::<leptos::html::Input>::new();
    let on_export = move |_| {
        status.set(Some(match export_progress() {
            Ok(n) => (true, format!("Exported your progress on {n} puzzles as a file: import it on the site elsewhere.")),
            Err(e) => (false, format!("Nothing was exported: {e}.")),
        }));
    };
    let on_import = move |_| {
        if let Some(el) = input.get() {
            el.click();
        }
    };
    let on_file = move |ev: leptos::ev::Event| {
        let el: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = el.files().and_then(|f| f.get(0)) else { return };
        el.set_value("");
        leptos::task::spawn_local(async move {
            let outcome = import_progress(file).await;
            status.set(Some(match outcome {
                Ok(words) => (true, words),
                Err(e) => {
                    (false, format!("Nothing was imported: {e}. Your progress here is unchanged."))
                }
            }));
            version.update(|v| *v += 1);
        });
    };
    view! {
        <section class="progress-tools" aria-labelledby="progress-tools-title">
            <h2 id="progress-tools-title">"Your progress"</h2>
            <p class="muted">
                "Your code and solved marks are kept in this browser. To move them to another machine, "
                "export them as a file here and import the file there: nothing is overwritten without asking."
            </p>
            <p class="progress-buttons">
                <button type="button" data-testid="export-progress" on:click=on_export>"Export progress"</button>
                <button type="button" data-testid="import-progress" on:click=on_import>"Import progress…"</button>
                <input type="file" accept=".json,application/json" hidden node_ref=input
                    data-testid="import-progress-file" aria-label="A progress file to import" on:change=on_file/>
            </p>
            <p role="status" data-testid="progress-status" class:notice=move || status.get().is_some()
                class:warn=move || status.get().is_some_and(|(ok, _)| !ok)>
                {move || status.get().map(|(_, words)| words)}
            </p>
        </section>
    }
}

/// Saves everything this browser keeps as `gpu-puzzles-progress-DATE.json`;
/// the number of puzzles in it.
fn export_progress() -> Result<usize, String> {
    use wasm_bindgen::JsCast;
    let p = storage::progress();
    let json = crate::progress::to_json(&p);
    let fail = |_| "the browser refused to make the file".to_string();
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(&json));
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = web_sys::window().and_then(|w| w.document()).ok_or("there is no page")?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| "no link".to_string())?;
    let day = js_sys::Date::new_0().to_iso_string().as_string().unwrap_or_default();
    a.set_href(&url);
    a.set_download(&format!("gpu-puzzles-progress-{}.json", day.get(..10).unwrap_or("today")));
    a.click();
    // The download has its own reference to the file by now.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(10),
    );
    Ok(p.puzzles.len())
}

/// Largest progress file read, in bytes: thousands of puzzles' code.
const MAX_IMPORT_BYTES: f64 = 16.0 * 1024.0 * 1024.0;

/// Reads `file`, merges it into this browser's progress (asking before code
/// of unknown age replaces the code here) and says what changed.
async fn import_progress(file: web_sys::File) -> Result<String, String> {
    use crate::progress::{from_json, merge};
    if file.size() > MAX_IMPORT_BYTES {
        return Err(format!(
            "“{}” is larger than any progress file ({} MB)",
            file.name(),
            (file.size() / 1e6).ceil() as u64
        ));
    }
    let text = wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| format!("“{}” could not be read", file.name()))?;
    let theirs = from_json(&text).map_err(|e| format!("“{}”: {e}", file.name()))?;
    let ours = storage::progress();
    let (_, first) = merge(&ours, &theirs, false);
    let replace = !first.conflicts.is_empty()
        && web_sys::window().is_some_and(|w| {
            w.confirm_with_message(&format!(
                "The file has other code for {}, and it cannot tell whose is newer. Replace the code in this browser with the file's? (Cancel keeps the code here.)",
                titles(&first.conflicts)
            ))
            .unwrap_or(false)
        });
    let (merged, report) = merge(&ours, &theirs, replace);
    storage::write_progress(&ours, &merged).map_err(|e| e.to_string())?;
    let mut said = Vec::new();
    if !report.code_taken.is_empty() {
        said.push(format!("code for {}", titles(&report.code_taken)));
    }
    if !report.newly_solved.is_empty() {
        said.push(format!("solved marks for {}", titles(&report.newly_solved)));
    }
    let mut words = if said.is_empty() {
        "Imported: nothing new, this browser already had everything in the file.".to_string()
    } else {
        format!("Imported {}.", said.join(", and "))
    };
    if !report.kept_newer.is_empty() {
        words.push_str(&format!(" Kept the newer code here for {}.", titles(&report.kept_newer)));
    }
    let kept: Vec<String> =
        report.conflicts.iter().filter(|s| !report.code_taken.contains(s)).cloned().collect();
    if !kept.is_empty() {
        words.push_str(&format!(" Kept your code for {}, as you chose.", titles(&kept)));
    }
    Ok(words)
}

/// Puzzles by title, as a list in words (`Map, Zip and Guards`); a slug
/// this site's set does not list stands as itself.
fn titles(slugs: &[String]) -> String {
    let set = puzzle_index();
    let names: Vec<String> = slugs
        .iter()
        .map(|s| {
            set.puzzles.iter().find(|p| &p.slug == s).map_or_else(|| s.clone(), |p| p.title.clone())
        })
        .collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
