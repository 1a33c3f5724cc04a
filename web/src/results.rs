//! Results: the verdict, the diagnostics list, and per test case its
//! configuration and input, expected and actual grids.

use crate::editor;
use crate::grids::grid_view;
use crate::puzzle_page::{Finished, RandomCases, RunState};
use gpu_puzzles_core::model::Values;
use gpu_puzzles_core::{Case, CompareSpec, Puzzle, Role};
use gpu_puzzles_verdict::grid::grid_as;
use gpu_puzzles_verdict::image;
use gpu_puzzles_verdict::judge::{group_digits, CaseResult, Severity, Verdict};
use gpu_puzzles_verdict::run_report::{CaseReport, NoteKind};
use gpu_puzzles_verdict::timing::Peaks;
use leptos::prelude::*;

/// The overall verdict (`data-testid="verdict"`, `data-status` = `passed`,
/// `failed`, `error` or `running`; `idle` before the first run), and
/// `data-run`, how many Runs have finished on this page: a script that
/// presses Run waits for it to grow, since a quick Run never shows
/// `running` and the status alone cannot tell its verdict from the last.
#[component]
pub fn VerdictBar(state: Memo<RunState>, finished_runs: ReadSignal<u32>) -> impl IntoView {
    move || {
        let run = finished_runs.get();
        let (status, text, findings) = match state.get() {
            RunState::Idle => (
                "idle",
                "Not run yet. Press Run to judge every case, shown and hidden.".to_string(),
                Vec::new(),
            ),
            RunState::Running { .. } => ("running", "Running on your GPU…".to_string(), Vec::new()),
            RunState::Error(e) => ("error", e, Vec::new()),
            RunState::Done(Finished { report, .. }) => (
                if report.verdict == Verdict::Passed { "passed" } else { "failed" },
                report.headline.clone(),
                report.findings.clone(),
            ),
        };
        // The most important finding in one sentence under the verdict; the
        // others folded below it.
        let mut findings = findings.into_iter();
        let lead = findings.next();
        let others: Vec<String> = findings.collect();
        let more = others.len();
        view! {
            <div class="verdict" data-testid="verdict" data-status=status data-run=run role="status" aria-live="polite">
                {text}
                {lead.map(|l| view! { <p class="verdict-lead" data-testid="verdict-lead">{l}</p> })}
                {(more > 0).then(|| view! {
                    <details class="verdict-more" data-testid="verdict-more">
                        <summary>{format!("{more} more finding{}", if more == 1 { "" } else { "s" })}</summary>
                        <ul>{others.into_iter().map(|o| view! { <li>{o}</li> }).collect_view()}</ul>
                    </details>
                })}
            </div>
        }
    }
}

/// The compiler's messages, each a button that moves the editor's cursor to
/// its line and column (`data-testid="diagnostics"`).
#[component]
pub fn Diagnostics(state: Memo<RunState>) -> impl IntoView {
    move || {
        let RunState::Done(Finished { report, source, .. }) = state.get() else {
            return ().into_any();
        };
        let diags = report.diagnostics.clone();
        if diags.is_empty() {
            return ().into_any();
        }
        view! {
            <ul class="diagnostics" data-testid="diagnostics" aria-label="Compiler messages">
                {diags.into_iter().map(|d| {
                    let source = source.clone();
                    let severity = match d.severity { Severity::Error => "error", Severity::Warning => "warning", Severity::Info => "info" };
                    let at = match (d.line, d.column) {
                        (Some(l), Some(c)) => format!("line {l}, column {c}"),
                        _ => "no position".to_string(),
                    };
                    let offset = d.offset;
                    view! {
                        <li class=severity data-line=d.line.unwrap_or(0) data-column=d.column.unwrap_or(0)>
                            <button on:click=move |_| if let Some(o) = offset { editor::go_to(&source, o) }>
                                <span class="severity">{severity}</span>
                                <span class="at">{at}</span>
                                <span class="message">{d.message.clone()}</span>
                            </button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        }
        .into_any()
    }
}

/// Every test case, with results once a run has finished. The cases are
/// built when a Run finishes (or the page resets), not when one starts:
/// while `state` says a Run is under way (the page says so only once the
/// Run has lasted a tenth of a second), the previous results stay, dimmed
/// (`.cases.running`, `aria-busy`), so a Run builds the cases' DOM once,
/// not twice (Block Sum's grids have thousands of cells).
#[component]
pub fn CaseList(state: Memo<RunState>, puzzle: &'static Puzzle) -> impl IntoView {
    let shown = Memo::new(move |before: Option<&RunState>| match (state.get(), before) {
        (RunState::Running { .. }, Some(before)) => before.clone(),
        (now, _) => now,
    });
    let running = move || matches!(state.get(), RunState::Running { .. });
    view! {
        <div class="cases" class:running=running aria-busy=move || running().to_string()>
            {move || {
                let (results, report, random, peaks, source) = match shown.get() {
                    RunState::Done(Finished { results, report, random, peaks, source }) => (results, Some(report), random, peaks, source),
                    _ => (Default::default(), None, Default::default(), None, String::new()),
                };
                let sites = std::sync::Arc::new(gpu_puzzles_core::print::sites(&source));
                let running = matches!(shown.get(), RunState::Running { .. });
                // One case's heat maps open: the first failing one of those
                // that show their data (a failing random case comes after
                // the written ones; hidden and performance cases show none).
                let shown_results = puzzle.cases.iter().chain(random.failing.iter().copied())
                    .filter(|c| !c.hidden && c.performance.is_none())
                    .filter_map(|c| results.iter().find(|r| r.case == c.number));
                let shown = Shown { source: &source, sites: &sites, open_heatmaps: crate::heatmaps::open_heatmaps(shown_results) };
                let fixed = puzzle.cases.iter().map(|case| {
                    let result = results.iter().find(|r| r.case == case.number).cloned();
                    let words = report.as_ref().and_then(|w| w.cases.iter().find(|c| c.case == case.number).cloned());
                    case_view(puzzle, case, result, words, peaks, running, shown)
                }).collect_view();
                view! { {fixed} {random_cases_view(puzzle, &random, &results, report.as_deref(), peaks, shown)} }
            }}
        </div>
    }
}

/// The Run's random cases (`data-testid="random-cases"`, `data-status`
/// `passed` or `failed`, `data-seed`): one line while they pass; a failing
/// one is shown in full, data included (it is no secret), with its seed.
fn random_cases_view(
    puzzle: &'static Puzzle,
    random: &RandomCases,
    results: &[CaseResult],
    report: Option<&gpu_puzzles_verdict::run_report::RunReport>,
    peaks: Option<Peaks>,
    shown: Shown<'_>,
) -> impl IntoView {
    let Some(first) = random.cases.first() else { return ().into_any() };
    let seed = first.random_seed.unwrap_or_default();
    let status = if random.failing.is_empty() { "passed" } else { "failed" };
    let text = if random.failing.is_empty() {
        format!(
            "{} random cases, drawn fresh for this Run (seed {seed}), pass too.",
            random.cases.len()
        )
    } else {
        format!(
            "{} of {} random cases drawn for this Run (seed {seed}) fail: sizes the written cases do not show. They are shown below; add `&seed={seed}` to the page's address (or `--seed {seed}` to `gpu-puzzles check`) to draw them again.",
            random.failing.len(),
            random.cases.len()
        )
    };
    let shown = random
        .failing
        .iter()
        .map(|&case| {
            let words =
                report.and_then(|w| w.cases.iter().find(|c| c.case == case.number).cloned());
            case_view(
                puzzle,
                case,
                results.iter().find(|r| r.case == case.number).cloned(),
                words,
                peaks,
                false,
                shown,
            )
        })
        .collect_view();
    view! {
        <div class="random-cases" data-testid="random-cases" data-status=status data-seed=seed.to_string()>
            <p>{text}</p>
        </div>
        {shown}
    }
    .into_any()
}

/// What every case of a Run's results shares: the Run's source and its
/// print sites (for print logs), and the case whose heat maps are open
/// ([`crate::heatmaps::open_heatmaps`]).
#[derive(Clone, Copy)]
struct Shown<'a> {
    source: &'a str,
    sites: &'a std::sync::Arc<Vec<gpu_puzzles_core::print::PrintSite>>,
    open_heatmaps: Option<usize>,
}

fn case_view(
    puzzle: &'static Puzzle,
    case: &'static Case,
    result: Option<CaseResult>,
    words: Option<CaseReport>,
    peaks: Option<Peaks>,
    running: bool,
    Shown { source, sites, open_heatmaps }: Shown<'_>,
) -> impl IntoView {
    let n = case.number;
    let (status, badge) = match (&words, running) {
        (_, true) => ("running", "running".to_string()),
        (None, _) => ("idle", "not run".to_string()),
        (Some(w), _) => (w.status.as_str(), w.badge.clone()),
    };
    let outcome = result.as_ref().map(|r| r.outcome.status()).unwrap_or("none");
    let title = gpu_puzzles_verdict::run_report::case_title(case);
    // A checked case ran instrumented: its time is the trace's as much as
    // the kernel's, so it is labelled (performance cases are timed plain).
    let timing = result.as_ref().and_then(|r| {
        let (t, label) = if r.timing.wall_ms > 0.0 {
            (r.timing, "")
        } else {
            (r.instrumented_timing?, ", instrumented")
        };
        Some(match t.gpu_ms {
            Some(g) => format!("{:.2} ms (GPU {:.3} ms{label})", t.wall_ms, g),
            None => format!(
                "{:.2} ms{}",
                t.wall_ms,
                if label.is_empty() { "" } else { " (instrumented)" }
            ),
        })
    });
    let c = case.config;
    let memory = match c.workgroup_memory {
        Some(m) => format!(
            "{} × {} × {} = {} elements ({} bytes)",
            m[0],
            m[1],
            m[2],
            c.workgroup_memory_elements(),
            c.workgroup_memory_elements() * 4
        ),
        None => "none".to_string(),
    };
    let detail = words.as_ref().and_then(|w| w.summary.clone());
    let lost = words.as_ref().and_then(|w| {
        w.notes.iter().find(|n| n.kind == NoteKind::LostCounts).map(|n| n.text.clone())
    });
    let figures_words = words.as_ref().and_then(|w| w.performance.clone());
    let body = if case.hidden {
        view! { <p class="hidden-note">"The data of hidden cases is not shown; they count for the verdict."</p> }.into_any()
    } else if let Some(perf) = case.performance {
        performance_view(puzzle, case, &perf, result.as_ref(), figures_words, peaks).into_any()
    } else {
        let inputs = puzzle
            .buffers
            .iter()
            .zip(&case.buffers)
            .filter(|(b, _)| b.role != Role::Output)
            .map(|(b, cb)| {
                let picture = (image::shows_image(b.view, cb.shape, &cb.initial))
                    .then(|| {
                        let shape = cb.shape?;
                        let img = crate::images::timed("image-model", cb.initial.len(), || {
                            image::image_of(&cb.initial, shape, b)
                        })?;
                        Some(crate::images::image_view(
                            format!("image-input-{n}-{}", b.name),
                            format!("Input {}", b.name),
                            img,
                            (*cb.initial).clone(),
                            shape,
                            None,
                        ))
                    })
                    .flatten();
                let numbers = image::shows_grid(b.view, cb.shape, &cb.initial).then(|| {
                    grid_view(
                        format!("grid-input-{n}-{}", b.name),
                        format!("Input {}", b.name),
                        grid_as(&cb.initial, cb.shape, None, case.compare, b.format),
                    )
                });
                view! { {picture}{numbers} }
            })
            .collect_view();
        let compared: Vec<usize> = puzzle.compared_buffers().collect();
        let outputs = compared.iter().enumerate().map(|(k, &i)| {
            let b = &puzzle.buffers[i];
            let cb = &case.buffers[i];
            let suffix = if k == 0 { String::new() } else { format!("-{}", b.name) };
            let expected = cb.expected.as_ref().expect("compared buffers have expected values");
            let actual_values = result.as_ref().and_then(|r| r.actual.get(k));
            let numbers = image::shows_grid(b.view, cb.shape, expected);
            let actual = actual_values.filter(|_| numbers).map(|a| {
                grid_view(format!("grid-actual-{n}{suffix}"), format!("Actual {}", b.name), grid_as(a, cb.shape, Some(expected), case.compare, b.format))
            });
            let pictures = cb.shape.filter(|_| image::shows_image(b.view, cb.shape, expected)).map(|shape| {
                let picture = |id: &str, label: &str, values: &Values, img: Option<gpu_puzzles_verdict::image::Image>, against: Option<crate::images::Against>| {
                    img.map(|img| crate::images::image_view(format!("image-{id}-{n}{suffix}"), format!("{label} {}", b.name), img, values.clone(), shape, against))
                };
                let against = crate::images::Against { expected: expected.clone(), compare: case.compare };
                let expected_image = crate::images::timed("image-model", expected.len(), || image::image_of(expected, shape, b));
                let scale = expected_image.as_ref().map(|i| i.palette);
                view! {
                    {picture("expected", "Expected", expected, expected_image, None)}
                    {actual_values.map(|a| picture("actual", "Actual", a, crate::images::timed("image-model", a.len(), || image::image_on(a, shape, b.view, scale)), Some(against.clone())))}
                    {actual_values.map(|a| picture("difference", "Wrong pixels of", a, crate::images::timed("image-model", a.len(), || image::difference(a, expected, shape, case.compare)), Some(against.clone())))}
                }
            });
            view! {
                {pictures}
                {numbers.then(|| grid_view(format!("grid-expected-{n}{suffix}"), format!("Expected {}", b.name), grid_as(expected, cb.shape, None, CompareSpec::default(), b.format)))}
                {actual}
            }
        }).collect_view();
        let maps = result
            .as_ref()
            .map(|r| crate::heatmaps::case_heatmaps(puzzle, case, r, open_heatmaps == Some(n)));
        let printed = result.as_ref().and_then(|r| r.findings.as_ref()).map(|f| f.prints.clone()).filter(|log| !log.is_empty()).map(|log| {
                view! { <crate::prints::PrintLogView puzzle=puzzle case=case log=log source=source.to_string() sites=sites.clone()/> }
            });
        // A case of several steps that ran cleanly can be played.
        let player = result
            .as_ref()
            .filter(|r| {
                matches!(r.outcome.status(), "passed" | "mismatch" | "over-budget" | "without-technique")
            })
            .filter(|_| crate::player::playable(puzzle, case))
            .map(|_| view! { <crate::player::Player puzzle=puzzle case=case source=source.to_string()/> });
        view! { <div class="grids">{inputs}{outputs}</div>{player}{printed}{maps} }.into_any()
    };
    view! {
        <section class="case" data-testid=format!("case-{n}") data-status=status data-outcome=outcome aria-label=title.clone()>
            <header>
                <h3>{title.clone()}</h3>
                <span class=format!("badge {status}")>{badge}</span>
                {crate::debugger::steppable(case).then(|| view! { <crate::debugger::StepButton case=case/> })}
                {result.as_ref().and_then(crate::debugger::focus_of).filter(|_| crate::debugger::steppable(case)).map(|focus| view! { <crate::debugger::ShowMeButton case=case focus=focus/> })}
                {timing.map(|t| view! { <span class="timing">{t}</span> })}
            </header>
            <p class="config">
                <span>"workgroup size " <code>{format!("({}, {}, {})", c.workgroup_size[0], c.workgroup_size[1], c.workgroup_size[2])}</code></span>
                <span>"workgroups " <code>{format!("({}, {}, {})", c.workgroups[0], c.workgroups[1], c.workgroups[2])}</code></span>
                <span>"workgroup memory " <code>{memory}</code></span>
            </p>
            {detail.map(|d| view! { <p class="detail">{d}</p> })}
            {lost.map(|l| view! { <p class="detail lost-counts" data-testid=format!("lost-counts-{n}")>{l}</p> })}
            {body}
        </section>
    }
}

/// A performance case: its size instead of grids and, once it has passed,
/// the student's and the reference kernel's figures
/// (`data-testid="performance-N"`, with `data-ms` and `data-reference-ms`).
fn performance_view(
    puzzle: &Puzzle,
    case: &Case,
    perf: &gpu_puzzles_core::model::Performance,
    result: Option<&CaseResult>,
    words: Option<gpu_puzzles_verdict::run_report::PerformanceReport>,
    peaks: Option<Peaks>,
) -> impl IntoView {
    let n = case.number;
    let sizes: Vec<String> = puzzle
        .buffers
        .iter()
        .zip(&case.buffers)
        .map(|(b, cb)| match cb.shape {
            Some([r, c]) => format!("{}: {r} × {c}", b.name),
            None => format!("{}: {} elements", b.name, group_digits(cb.initial.len() as u64)),
        })
        .collect();
    let mut counts = Vec::new();
    if let Some(f) = perf.flops {
        counts.push(format!("{} floating-point operations", group_digits(f)));
    }
    if let Some(b) = perf.bytes {
        counts.push(format!("at least {} bytes moved", group_digits(b)));
    }
    // The figures' words come from the report; the roofline needs the numbers.
    let figures = result.zip(words).map(|(r, w)| {
        let ms = r.timing.best().0;
        let reference_ms = r.reference_timing.map(|t| t.best().0);
        let roofline = match (peaks, perf.flops, perf.bytes) {
            (Some(p), Some(flops), Some(bytes)) => {
                let rate = |t: &gpu_puzzles_verdict::judge::Timing| flops as f64 / (t.best().0 * 1e6);
                let mut points = vec![gpu_puzzles_verdict::roofline::Point { label: "yours".into(), gflops: rate(&r.timing) }];
                if let Some(t) = &r.reference_timing {
                    points.push(gpu_puzzles_verdict::roofline::Point { label: "reference".into(), gflops: rate(t) });
                }
                for (c, t) in puzzle.comparisons.iter().zip(&r.comparison_timings) {
                    if let Some(t) = t {
                        points.push(gpu_puzzles_verdict::roofline::Point { label: c.short_label().to_string(), gflops: rate(t) });
                    }
                }
                crate::roofline::roofline_view(n, &p, flops, bytes, points)
            }
            _ => None,
        };
        let reference_attr = reference_ms.map(|m| m.to_string()).unwrap_or_default();
        view! {
            <dl class="performance-figures" data-ms=ms.to_string() data-reference-ms=reference_attr>
                <dt>"Your kernel"</dt>
                <dd data-testid=format!("performance-yours-{n}")>{w.yours}</dd>
                <dt>"Our reference kernel"</dt>
                <dd data-testid=format!("performance-reference-{n}")>{w.reference.unwrap_or_else(|| "not measured (this build has no reference solutions)".into())}</dd>
                {w.ratio.map(|r| view! { <dt>"Ratio"</dt><dd>{r}</dd> })}
                {w.target.map(|t| view! { <dt>"Target"</dt><dd data-testid=format!("performance-target-{n}")>{t}</dd> })}
                {w.of_peak.map(|t| view! { <dt>"Of this GPU's measured peak"</dt><dd data-testid=format!("performance-peak-{n}")>{t}</dd> })}
                {w.cpu.map(|t| view! { <dt>"The CPU"</dt><dd data-testid=format!("performance-cpu-{n}")>{t}</dd> })}
                {w.first_call.map(|t| view! { <dt>"First call"</dt><dd data-testid=format!("performance-first-{n}")>{t}</dd> })}
                {w.comparisons.into_iter().enumerate().map(|(k, (label, figures))| {
                    view! {
                        <dt>"Compared with: " {label}</dt>
                        <dd data-testid=format!("performance-compare-{n}-{}", k + 1)>{figures}</dd>
                    }
                }).collect_view()}
                {w.comparisons_untimed.map(|note| {
                    let ask = use_context::<crate::puzzle_page::TimeComparisons>();
                    view! {
                        <dt>"Comparison kernels"</dt>
                        <dd data-testid=format!("performance-untimed-{n}")>
                            {note} " "
                            {ask.map(|ask| view! {
                                <button data-testid=format!("time-comparisons-{n}") on:click=move |_| ask.0.run(())>"Time them here anyway"</button>
                            })}
                        </dd>
                    }
                })}
            </dl>
            {roofline}
        }
    });
    view! {
        <div class="performance" data-testid=format!("performance-{n}")>
            <p class="hidden-note">
                "Performance case (" {sizes.join("; ")} "): " {counts.join(", ")}
                ". Its data is too large to draw; it runs without heat maps, once every other case passes, and its time is the median of repeated runs on your GPU."
                {perf.sample.map(|k| format!(" Its output is checked at {} elements drawn at random (the smaller cases check every element).", group_digits(k as u64)))}
                {perf.hardware_only.then_some(" It runs only on a hardware GPU.")}
            </p>
            {figures}
        </div>
    }
}
