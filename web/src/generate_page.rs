//! The capstone's page, "Generate" (`?generate`, issue 47): a small
//! language model writes text on the student's GPU with the kernels of the
//! chapter "Inside a language model": theirs where they solved the puzzle,
//! ours elsewhere. The page only asks: the judge's worker loads the model,
//! runs it ([`crate::generation`]) and answers a few characters at a time,
//! so the text appears as it comes, every token checked against the CPU.

use crate::gpu::PageGpu;
use crate::protocol::generation::{
    Fault, GenerateChunk, GenerateFailure, GenerateRequest, ModelInfo, SamplingSettings,
};
use crate::route::{self, Route};
use crate::{navigate, puzzle_index, storage};
use gpu_puzzles_runner::generate::KERNELS;
use leptos::prelude::*;

/// Characters asked of the worker per request: a few steps, so the text
/// moves often and a Stop waits for little.
const CHUNK: u32 = 4;

/// The model's context when the worker has not described it yet (the
/// worker checks again, with the model's own).
const CONTEXT: usize = 256;

/// Where a kernel of the model comes from.
#[derive(Debug, Clone, PartialEq)]
enum Source {
    /// The student solved the puzzle: the code that passed.
    Yours(String),
    /// Not solved yet: our reference.
    Ours,
    /// Not solved, and this build has no reference.
    Missing,
}

/// One of the model's kernels: its puzzle, and where it comes from.
#[derive(Debug, Clone)]
struct Kernel {
    slug: &'static str,
    source: Source,
}

/// The model's kernels as this browser has them.
fn kernels() -> Vec<Kernel> {
    let set = puzzle_index();
    let has_ours = crate::solutions::in_this_build().is_some();
    KERNELS
        .iter()
        .filter_map(|&slug| {
            // A kernel of a puzzle this set lacks (a workshop's own) is left out.
            set.get(slug)?;
            let source = match storage::solved_code(slug) {
                Some(code) => Source::Yours(code),
                None if has_ours => Source::Ours,
                None => Source::Missing,
            };
            Some(Kernel { slug, source })
        })
        .collect()
}

/// The query that versions the model's files, written into `index.html`
/// by the build (`<meta name="gpu-puzzles-model">`); empty without it.
fn model_version() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(r#"meta[name="gpu-puzzles-model"]"#).ok().flatten())
        .and_then(|m| m.get_attribute("content"))
        .unwrap_or_default()
}

/// What the page shows of the last generation.
#[derive(Debug, Clone, Default, PartialEq)]
struct Output {
    /// The prompt as fed.
    prompt: String,
    /// The characters generated after it.
    text: String,
    /// Characters asked for.
    asked: u32,
    /// The latest chunk's figures.
    chunk: GenerateChunk,
    /// Compiling the kernels and feeding the prompt.
    starting: bool,
    /// Asking for more.
    running: bool,
    /// Stopped by the student before the end.
    stopped: bool,
    /// What stopped it.
    error: Option<GenerateFailure>,
}

/// The settings as typed, or what is wrong with them.
fn settings(
    prompt: &str,
    count: &str,
    k: &str,
    temperature: &str,
    seed: &str,
    context: usize,
) -> Result<(u32, SamplingSettings), String> {
    let chars = prompt.chars().count();
    if chars == 0 {
        return Err("Type a prompt: the model continues it.".into());
    }
    let room = context.saturating_sub(chars);
    if room == 0 {
        return Err(format!("The prompt has {chars} characters and the model's context holds {context}: shorten it so new characters fit."));
    }
    let count = match count.trim().parse::<usize>() {
        Ok(n) if (1..=room).contains(&n) => n as u32,
        _ => return Err(format!("Characters: a whole number from 1 to {room} (the model's context of {context} holds the prompt's {chars} and the new ones).")),
    };
    let k = match k.trim().parse::<u32>() {
        Ok(k) if (1..=64).contains(&k) => k,
        _ => return Err("Top-k: a whole number from 1 to 64.".into()),
    };
    let temperature = match decimal(temperature.trim()) {
        Some(t) if t > 0.0 => t as f32,
        _ => return Err("Temperature: a number above 0, such as 0.8.".into()),
    };
    let seed = seed
        .trim()
        .parse::<u64>()
        .map_err(|_| "Seed: a whole number from 0; the same seed draws the same text.")?;
    Ok((count, SamplingSettings { k, temperature, seed }))
}

/// A decimal number such as `0.8` or `1.25` (digits and at most one
/// point), or `None`. Read here rather than with `str::parse`, whose exact
/// float reader (tens of kilobytes of tables) the page's wasm does not
/// otherwise carry. The digits, read as one integer below 2^53, and the
/// power of ten (to 10^22) are exact in `f64`, so the quotient is
/// correctly rounded.
fn decimal(text: &str) -> Option<f64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = || whole.bytes().chain(fraction.bytes());
    if digits().next().is_none() || !digits().all(|b| b.is_ascii_digit()) || fraction.len() > 22 {
        return None;
    }
    let n = digits().try_fold(0u64, |n, b| n.checked_mul(10)?.checked_add(u64::from(b - b'0')))?;
    (n < 1 << 53).then(|| n as f64 / 10f64.powi(fraction.len() as i32))
}

/// The capstone's page.
#[component]
pub fn GeneratePage() -> impl IntoView {
    let route = expect_context::<RwSignal<Route>>();
    let device = expect_context::<PageGpu>();
    let kernels = kernels();
    let missing: Vec<&'static str> =
        kernels.iter().filter(|k| k.source == Source::Missing).map(|k| k.slug).collect();
    let model = RwSignal::new(None::<Result<ModelInfo, String>>);
    let prompt = RwSignal::new("In the beginning".to_string());
    let count = RwSignal::new("200".to_string());
    let k = RwSignal::new("8".to_string());
    let temperature = RwSignal::new("0.8".to_string());
    let seed = RwSignal::new("7".to_string());
    let problem = RwSignal::new(None::<String>);
    let output = RwSignal::new(None::<Output>);
    // Which generation the loop below serves; a newer one, a Stop or
    // leaving the page ends an older loop.
    let serial = StoredValue::new(0u32);
    on_cleanup(move || serial.set_value(serial.get_value().wrapping_add(1)));

    // The model loads when the capstone opens, so that its download
    // overlaps the student's reading.
    leptos::task::spawn_local(async move {
        let info = device.model(model_version()).await.map_err(|e| e.to_string());
        let _ = model.try_set(Some(info));
    });
    let context = move || match model.get() {
        Some(Ok(m)) => m.context as usize,
        _ => CONTEXT,
    };

    let own: Vec<(String, String)> = kernels
        .iter()
        .filter_map(|k| match &k.source {
            Source::Yours(code) => Some((k.slug.to_string(), code.clone())),
            _ => None,
        })
        .collect();
    let start = move || {
        let typed = prompt.get_untracked();
        let parsed = settings(
            &typed,
            &count.get_untracked(),
            &k.get_untracked(),
            &temperature.get_untracked(),
            &seed.get_untracked(),
            context(),
        );
        let (asked, sampling) = match parsed {
            Ok(s) => s,
            Err(e) => return problem.set(Some(e)),
        };
        problem.set(None);
        let id = serial.get_value().wrapping_add(1);
        serial.set_value(id);
        output.set(Some(Output {
            prompt: typed.clone(),
            asked,
            starting: true,
            running: true,
            ..Output::default()
        }));
        let request = GenerateRequest {
            prompt: typed,
            count: asked,
            sampling,
            kernels: own.clone(),
            model_version: model_version(),
            solutions: crate::solutions::in_this_build().unwrap_or_default(),
        };
        leptos::task::spawn_local(async move {
            let mut reply = device.generate(request).await;
            loop {
                if serial.try_get_value() != Some(id) {
                    return;
                }
                let done = match reply {
                    Ok(chunk) => {
                        let done = chunk.done;
                        let _ = output.try_update(|o| {
                            if let Some(o) = o {
                                o.text.push_str(&chunk.text);
                                o.starting = false;
                                o.running = !done;
                                o.chunk = chunk;
                            }
                        });
                        done
                    }
                    Err(e) => {
                        let _ = output.try_update(|o| {
                            if let Some(o) = o {
                                o.starting = false;
                                o.running = false;
                                o.error = Some(e);
                            }
                        });
                        true
                    }
                };
                if done {
                    return;
                }
                reply = device.generate_more(CHUNK).await;
            }
        });
    };
    let stop = move |_| {
        serial.set_value(serial.get_value().wrapping_add(1));
        output.update(|o| {
            if let Some(o) = o {
                o.running = false;
                o.starting = false;
                o.stopped = true;
            }
        });
    };
    let running = move || output.with(|o| o.as_ref().is_some_and(|o| o.running));
    let blocked = !missing.is_empty();
    let link = move |slug: &str| {
        let to = Route::Puzzle(slug.to_string());
        let href = route::href(&to);
        view! { <a href=href on:click=move |ev| navigate(ev, route, to.clone())>{puzzle_name(slug)}</a> }
    };

    view! {
        <article class="generate-page" data-testid="generate-page">
            <nav class="puzzle-nav" aria-label="Puzzles">
                <a href=route::href(&Route::List) on:click=move |ev| navigate(ev, route, Route::List)>"All puzzles"</a>
            </nav>
            <h1>"Generate: your kernels write text"</h1>
            <p class="intro">
                "A small language model (a character-level transformer trained on the King James Bible) runs on your GPU, one character at a time, with the kernels of the chapter “Inside a language model”: yours where you solved the puzzle, ours where you have not yet. "
                "Every character is checked against the same model computed on the CPU in double precision, kernel by kernel, so a kernel that drifts is named."
            </p>
            <section class="generate-kernels" aria-label="Kernels">
                <h2>"The kernels"</h2>
                <ul class="kernel-list" data-testid="generate-kernels">
                    {kernels.iter().map(|kn| {
                        let (label, class, note) = match &kn.source {
                            Source::Yours(_) => ("yours", "yours", "the code that solved the puzzle".to_string()),
                            Source::Ours => ("ours", "ours", "not solved yet: solve it and your kernel takes the place of ours".to_string()),
                            Source::Missing => ("missing", "missing", "not solved yet, and this site has no reference for it: solve it first".to_string()),
                        };
                        view! {
                            <li data-testid=format!("kernel-{}", kn.slug) data-source=label>
                                <span class=format!("badge source-{class}")>{label}</span>
                                {link(kn.slug)}
                                <span class="muted">{format!(" · {note}")}</span>
                            </li>
                        }
                    }).collect_view()}
                    <li class="muted">"and the site's own SwiGLU kernel between the MLP's matrix–vector products"</li>
                </ul>
                {blocked.then(|| view! {
                    <p class="notice warn" role="status" data-testid="generate-blocked">
                        "This site was built without our reference kernels, so the model needs yours. Solve these first: "
                        {missing.iter().enumerate().map(|(i, s)| view! { {(i > 0).then_some(", ")} {link(s)} }).collect_view()}
                        "."
                    </p>
                })}
            </section>
            <section class="generate-form" aria-label="Prompt and settings">
                <label class="prompt-field">"Prompt"
                    <textarea data-testid="generate-prompt" rows="2" prop:value=move || prompt.get()
                        on:input=move |ev| prompt.set(event_target_value(&ev))></textarea>
                </label>
                <div class="settings">
                    {number_field("Characters", "generate-count", count, "1", "1", Signal::derive(move || context().saturating_sub(prompt.with(|p| p.chars().count())).to_string()))}
                    {number_field("Top-k", "generate-k", k, "1", "1", Signal::stored("64".to_string()))}
                    {number_field("Temperature", "generate-temperature", temperature, "0.05", "any", Signal::stored(String::new()))}
                    {number_field("Seed", "generate-seed", seed, "0", "1", Signal::stored(String::new()))}
                </div>
                <div class="toolbar">
                    <button class="run" data-testid="generate-button" disabled=move || blocked || running() on:click=move |_| start()>"Generate"</button>
                    {move || running().then(|| view! { <button data-testid="generate-stop" on:click=stop>"Stop"</button> })}
                    <span class="muted" data-testid="generate-model">{move || match model.get() {
                        None => "Loading the model…".to_string(),
                        Some(Ok(m)) => format!("Model: {} layers, width {}, {} characters, context {}, {:.0} KB", m.layers, m.d_model, m.vocabulary.chars().count(), m.context, m.bytes as f64 / 1e3),
                        Some(Err(e)) => format!("The model could not be loaded: {e}"),
                    }}</span>
                </div>
                {move || problem.get().map(|p| view! { <p class="notice warn" role="alert" data-testid="generate-problem">{p}</p> })}
            </section>
            {move || output.get().map(|o| view! { <Shown output=o/> })}
        </article>
    }
}

/// A number input bound to `value`, under `label`: one function for the
/// four settings, so the page's wasm holds its code once.
fn number_field(
    label: &'static str,
    id: &'static str,
    value: RwSignal<String>,
    min: &'static str,
    step: &'static str,
    max: Signal<String>,
) -> impl IntoView {
    view! {
        <label>{label}
            <input type="number" data-testid=id min=min step=step max=move || max.get()
                prop:value=move || value.get() on:input=move |ev| value.set(event_target_value(&ev))/>
        </label>
    }
}

/// A puzzle's number and title, by slug.
fn puzzle_name(slug: &str) -> String {
    puzzle_index()
        .get(slug)
        .map_or_else(|| slug.to_string(), |p| format!("{}. {}", p.number, p.title))
}

/// The text so far, the speed, and the check against the CPU.
#[component]
fn Shown(output: Output) -> impl IntoView {
    let route = expect_context::<RwSignal<Route>>();
    let link = move |slug: &str| {
        let to = Route::Puzzle(slug.to_string());
        let href = route::href(&to);
        view! { <a href=href on:click=move |ev| navigate(ev, route, to.clone())>{format!("open {}", puzzle_name(slug))}</a> }
    };
    let c = &output.chunk;
    let status = if output.error.is_some() {
        "error"
    } else if output.starting {
        "starting"
    } else if output.running {
        "running"
    } else if output.stopped {
        "stopped"
    } else {
        "done"
    };
    let progress = match status {
        "starting" => "Compiling the kernels and feeding the prompt…".to_string(),
        "running" => format!("Generating: {} of {} characters", c.generated, output.asked),
        "stopped" => format!("Stopped after {} of {} characters.", c.generated, output.asked),
        "error" => format!("Stopped after {} of {} characters.", c.generated, output.asked),
        _ => format!("{} characters generated.", c.generated),
    };
    let speed = (c.generated > 0).then(|| {
        view! {
            <span class="muted" data-testid="generate-speed" data-tps=format!("{:.2}", c.tokens_per_second)>
                {format!("{:.1} tokens per second on the GPU", c.tokens_per_second)}
            </span>
        }
    });
    let check = (!output.running && output.error.is_none() && c.generated > 0 && c.faults.is_empty()).then(|| {
        let tie = (c.cpu_agreed < c.generated).then_some(" (no kernel differed: where two candidates nearly tie, f32 rounding can pick the other)");
        view! {
            <p class="generate-check" data-testid="generate-check" data-agreed=c.cpu_agreed.to_string() data-generated=c.generated.to_string()>
                {format!("✓ every token checked against the CPU: {} of {} sampled the same{}", c.cpu_agreed, c.generated, tie.unwrap_or(""))}
            </p>
        }
    });
    let faults = (!c.faults.is_empty()).then(|| {
        view! {
            <div class="generate-faults" role="alert" data-testid="generate-faults">
                <p>{format!("Checked against the CPU: {} of {} sampled the same, and these kernels differ:", c.cpu_agreed, c.generated)}</p>
                <ul>
                    {c.faults.iter().map(|f: &Fault| view! {
                        <li data-testid=format!("fault-{}", f.kernel)>
                            {f.text.clone()} " "
                            {(f.kernel != "swiglu").then(|| link(&f.kernel))}
                        </li>
                    }).collect_view()}
                </ul>
            </div>
        }
    });
    let error = output.error.clone().map(|e| {
        view! {
            <p class="notice warn" role="alert" data-testid="generate-error">
                {e.message} " " {e.kernel.as_deref().map(link)}
            </p>
        }
    });
    view! {
        <section class="generate-output" aria-label="Generated text" aria-live="polite">
            <pre class="generated" data-testid="generate-output" data-status=status><span class="prompt" data-testid="generate-shown-prompt">{output.prompt.clone()}</span><span class="new" data-testid="generate-text">{output.text.clone()}</span></pre>
            <p class="generate-progress">
                <span data-testid="generate-progress">{progress}</span> " " {speed}
            </p>
            {check}
            {faults}
            {error}
        </section>
    }
}
