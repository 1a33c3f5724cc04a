//! The debugger panel: one case stepped with every invocation of a
//! workgroup advancing together ([`gpu_puzzles_interp::debug::Debugger`]),
//! the editor highlighting the lines they are on, a grid of the
//! invocations, the chosen one's variables, and workgroup memory and the
//! buffers with the last step's reads and writes. It runs on the CPU, in
//! the judge's worker ([`crate::engine`]), so it works without WebGPU.
//!
//! Test ids: `step-case-N` (in each case, [`StepButton`]), `debugger`,
//! `debugger-step`, `debugger-next-barrier`, `debugger-run`,
//! `debugger-restart`, `debugger-close`, `debugger-invocations` (cells with
//! `data-status` and `data-line`), `debugger-variables`,
//! `debugger-memory-NAME` (cells with `data-read`/`data-written`).

use crate::editor;
use crate::gpu::PageGpu;
use crate::protocol::{DebugAction, DebugStep, Snapshot};
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_interp::exec::Status;
use leptos::prelude::*;

/// Invocations a case may have for the debugger to open it: each is drawn
/// and stepped on the page's thread.
pub const MAX_INVOCATIONS: u64 = 4096;

/// Words drawn per memory region (the rest are counted).
const MAX_CELLS: usize = 1024;

/// The case the debugger should open (set by a Step button): one of the
/// puzzle's cases, or a failing random case of the last Run. Provided as a
/// context by the puzzle page.
#[derive(Clone, Copy)]
pub struct DebugRequest(pub RwSignal<Option<&'static Case>>);

/// Where "Show me" opens the debugger: the place of a finding (an entry
/// point, a workgroup and a line) and the invocations it names, by
/// `local_invocation_id`, to be highlighted there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Focus {
    /// The entry point the access ran in.
    pub entry_point: Option<String>,
    /// Its workgroup.
    pub workgroup: [u32; 3],
    /// The line of the first access, from 1.
    pub line: usize,
    /// The invocations the finding names, the first selected.
    pub invocations: Vec<[u32; 3]>,
}

/// The focus of the next case the debugger opens ("Show me"), if any;
/// provided as a context by the puzzle page next to [`DebugRequest`].
#[derive(Clone, Copy)]
pub struct DebugFocus(pub RwSignal<Option<Focus>>);

/// Where a failing result's finding happened, when the debugger can show
/// it: a race's first access (both invocations named) or an out-of-bounds
/// access, at a known line.
pub fn focus_of(result: &gpu_puzzles_verdict::CaseResult) -> Option<Focus> {
    use gpu_puzzles_verdict::report::MemoryError;
    match &result.outcome {
        gpu_puzzles_verdict::Outcome::MemoryError { error: MemoryError::Hazard(h), .. } => {
            Some(Focus {
                entry_point: Some(h.entry_point.clone()),
                workgroup: h.first.invocation.workgroup_id,
                line: h.first.site?.line,
                invocations: vec![
                    h.first.invocation.local_invocation_id,
                    h.second.invocation.local_invocation_id,
                ],
            })
        }
        gpu_puzzles_verdict::Outcome::MemoryError {
            error: MemoryError::OutOfBounds(o), ..
        } => {
            let a = o.first.first()?;
            Some(Focus {
                entry_point: None,
                workgroup: a.invocation.workgroup_id,
                line: a.site?.line,
                invocations: vec![a.invocation.local_invocation_id],
            })
        }
        _ => None,
    }
}

/// A failing case's "Show me" button (`show-me-N`): opens the debugger on
/// the case, runs it to the finding's first access and highlights the
/// invocations the finding names.
#[component]
pub fn ShowMeButton(case: &'static Case, focus: Focus) -> impl IntoView {
    let request = expect_context::<DebugRequest>();
    let debug_focus = expect_context::<DebugFocus>();
    view! {
        <button class="step show-me" data-testid=format!("show-me-{}", case.number) title="Open this case in the debugger at the access the finding names, with the invocations it names highlighted"
            on:click=move |_| {
                debug_focus.0.set(Some(focus.clone()));
                request.0.set(Some(case));
            }>"Show me ▸"</button>
    }
}

/// Whether `case` can be opened in the debugger: shown (its data is not
/// secret), not a performance case, and small enough.
pub fn steppable(case: &Case) -> bool {
    !case.hidden && !case.is_performance() && case.config.total_invocations() <= MAX_INVOCATIONS
}

/// A case's Step button (`step-case-N`, N the case's number; a random
/// case's numbers follow the written ones).
#[component]
pub fn StepButton(case: &'static Case) -> impl IntoView {
    let request = expect_context::<DebugRequest>();
    let debug_focus = expect_context::<DebugFocus>();
    view! {
        <button class="step" data-testid=format!("step-case-{}", case.number) title="Open this case in the debugger: step every invocation of a workgroup together"
            on:click=move |_| {
                debug_focus.0.set(None);
                request.0.set(Some(case));
            }>"Step ▸"</button>
    }
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Running => "running",
        Status::Waiting => "waiting",
        Status::Done => "done",
    }
}

/// The invocations' local ids, and each memory region's name, kind and
/// length in words.
type Shape = (Vec<[u32; 3]>, Vec<(String, bool, usize)>);

/// What the grids are built from: the invocations' local ids and each
/// region's name, kind and length. Cells are rebuilt only when it changes;
/// a step only updates their text and classes.
fn shape(s: &Snapshot) -> Shape {
    (
        s.invocations.iter().map(|i| i.local_id).collect(),
        s.memories.iter().map(|m| (m.name.clone(), m.workgroup, m.values.len())).collect(),
    )
}

/// The panel, shown while a case is open.
#[component]
pub fn DebuggerPanel(puzzle: &'static Puzzle, code: RwSignal<String>) -> impl IntoView {
    let request = expect_context::<DebugRequest>();
    let debug_focus = expect_context::<DebugFocus>();
    let judge = expect_context::<PageGpu>();
    let snapshot = RwSignal::new(Snapshot::default());
    let shape = Memo::new(move |_| snapshot.with(shape));
    let error = RwSignal::new(None::<String>);
    let selected = RwSignal::new(0u32);
    let panel = NodeRef::<leptos::html::Section>::new();

    // Every action is carried out by the judge's worker; the panel draws the
    // snapshot it answers with. Replies come in the order of the actions; one
    // that comes after the panel closed, or after another case was opened,
    // is dropped.
    let generation = StoredValue::new(0u32);
    let opening = RwSignal::new(false);
    let send = move |action: DebugAction| {
        let sent_in = generation.get_value();
        leptos::task::spawn_local(async move {
            let reply = judge.debug(action).await;
            if generation.try_get_value() != Some(sent_in)
                || request.0.try_get_untracked().flatten().is_none()
            {
                return;
            }
            // Set only on a change: the panel's body is rebuilt whenever it is set.
            if opening.try_get_untracked() == Some(true) {
                opening.set(false);
            }
            match reply {
                Ok(snap) => {
                    editor::highlight_lines(&snap.lines);
                    let _ = snapshot.try_set(snap);
                }
                Err(e) => {
                    let _ = error.try_set(Some(e.to_string()));
                }
            }
        });
    };
    // Open the requested case with the editor's current text.
    Effect::new(move |_| {
        let Some(case) = request.0.get() else { return };
        let source = editor::text().unwrap_or_else(|| code.get_untracked());
        error.set(None);
        snapshot.set(Snapshot::default());
        selected.set(0);
        generation.update_value(|g| *g = g.wrapping_add(1));
        opening.set(true);
        send(DebugAction::Open {
            slug: puzzle.slug.clone(),
            case: case.number,
            seed: case.random_seed,
            source,
        });
        // "Show me": on to the finding's access, its first invocation chosen.
        if let Some(f) = debug_focus.0.get_untracked() {
            send(DebugAction::Act(DebugStep::RunTo {
                entry_point: f.entry_point.clone(),
                workgroup: f.workgroup,
                line: f.line,
            }));
            let [x, y, z] = f.invocations[0];
            let [sx, sy, _] = case.config.workgroup_size;
            let k = x + y * sx + z * sx * sy;
            selected.set(k);
            send(DebugAction::Select(k));
        }
        if let Some(p) = panel.get_untracked() {
            p.scroll_into_view();
        }
    });
    let act = move |step: DebugStep| send(DebugAction::Act(step));
    let close = move |_| {
        generation.update_value(|g| *g = g.wrapping_add(1));
        request.0.set(None);
        error.set(None);
        editor::highlight_lines(&[]);
        send(DebugAction::Close);
    };
    on_cleanup(move || {
        editor::highlight_lines(&[]);
        // The panel is gone with its page: its session no longer holds the
        // worker (which may then be replaced for its memory).
        judge.debugging_ended();
    });
    let keys = move |ev: leptos::ev::KeyboardEvent| {
        let action = match ev.key().as_str() {
            "n" | "ArrowRight" => Some(DebugStep::Step),
            "b" => Some(DebugStep::ToBarrier),
            "e" => Some(DebugStep::RunToEnd),
            "r" => Some(DebugStep::Restart),
            _ => None,
        };
        if let Some(step) = action {
            ev.prevent_default();
            act(step);
        }
    };
    let choose = move |k: u32| {
        selected.set(k);
        send(DebugAction::Select(k));
    };
    let finished = move || snapshot.with(|s| s.finished);

    move || {
        request.0.get()?;
        let body = if let Some(e) = error.get() {
            view! { <p class="notice warn" data-testid="debugger-error">{e}</p> }.into_any()
        } else if opening.get() {
            view! { <p class="debugger-state" data-testid="debugger-opening" role="status">"Opening the case…"</p> }.into_any()
        } else {
            let (locals, regions) = shape.get();
            view! {
                <div class="debugger-controls">
                    <button data-testid="debugger-step" disabled=finished on:click=move |_| act(DebugStep::Step) title="One statement for every running invocation (n)" aria-keyshortcuts="n">"Step"</button>
                    <button data-testid="debugger-next-barrier" disabled=finished on:click=move |_| act(DebugStep::ToBarrier) title="Until every invocation waits at a barrier or has returned (b)" aria-keyshortcuts="b">"To next barrier"</button>
                    <button data-testid="debugger-run" disabled=finished on:click=move |_| act(DebugStep::RunToEnd) title="Run every workgroup to the end (e)" aria-keyshortcuts="e">"Run to end"</button>
                    <button data-testid="debugger-restart" on:click=move |_| act(DebugStep::Restart) title="Back to the start (r)" aria-keyshortcuts="r">"Restart"</button>
                    {move || snapshot.with(|s| s.subgroup_size).map(|size| {
                        let change = move |ev: leptos::ev::Event| {
                            if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                                act(DebugStep::SubgroupSize(n));
                            }
                        };
                        view! {
                            <label class="subgroup-size" title="GPUs run subgroups of 4 to 128 lanes; your shader should give the same result at every size. Changing it restarts the case.">
                                "Subgroup size "
                                <select data-testid="debugger-subgroup-size" on:change=change>
                                    {gpu_puzzles_interp::subgroup::SIZES.iter().map(|&n| view! { <option value=n.to_string() selected=n == size>{format!("{n} lanes")}</option> }).collect_view()}
                                </select>
                            </label>
                        }
                    })}
                </div>
                <p class="debugger-state" data-testid="debugger-state" role="status">{move || snapshot.with(|s| s.message.clone())}</p>
                {invocation_grid(locals, snapshot, selected, choose, debug_focus)}
                <div class="debugger-detail">
                    <table class="variables" data-testid="debugger-variables">
                        <caption>{move || format!("Invocation {}", selected.get())}</caption>
                        {move || snapshot.with(|s| s.variables.iter().map(|(k, v)| view! { <tr><th scope="row">{k.clone()}</th><td><code>{v.clone()}</code></td></tr> }).collect_view())}
                    </table>
                    <div class="touched">
                        <p>"Read so far: " {move || snapshot.with(|s| if s.reads.is_empty() { "nothing".to_string() } else { s.reads.join(", ") })}</p>
                        <p>"Written so far: " {move || snapshot.with(|s| if s.writes.is_empty() { "nothing".to_string() } else { s.writes.join(", ") })}</p>
                    </div>
                </div>
                <div class="debugger-memory">{regions.into_iter().enumerate().map(|(r, (name, workgroup, len))| memory_grid(snapshot, r, name, workgroup, len)).collect_view()}</div>
            }
            .into_any()
        };
        Some(view! {
            <section class="debugger" data-testid="debugger" aria-label="Debugger" node_ref=panel tabindex="0" on:keydown=keys>
                <header>
                    <h2>"Debugger"</h2>
                    <span class="where">{move || snapshot.with(|s| s.header.clone())}</span>
                    <button class="close" data-testid="debugger-close" on:click=close title="Close the debugger">"Close ✕"</button>
                </header>
                <p class="hint">"Runs on the CPU, every invocation of a workgroup one statement at a time, so the highlighted lines are where they are. Keys: n step, b next barrier, e end, r restart."</p>
                {body}
            </section>
        })
    }
}

/// The workgroup's invocations by local id: built once per shape, each
/// cell's status and line updated after every step.
fn invocation_grid(
    locals: Vec<[u32; 3]>,
    snapshot: RwSignal<Snapshot>,
    selected: RwSignal<u32>,
    choose: impl Fn(u32) + Copy + 'static,
    focus: DebugFocus,
) -> impl IntoView {
    let columns = locals.iter().map(|l| l[0]).max().unwrap_or(0) + 1;
    let cells = locals
        .into_iter()
        .enumerate()
        .map(|(k, local)| {
            let index = k as u32;
            // A memo per cell: the DOM is touched only where a step changed something.
            let memo = Memo::new(move |_| snapshot.with(|s| s.invocations.get(k).map(|i| (i.status, i.line)).unwrap_or((Status::Done, None))));
            let view_of = move || memo.get();
            let subgroup = Memo::new(move |_| snapshot.with(|s| s.invocations.get(k).and_then(|i| i.subgroup)));
            let label = move || match view_of() {
                (Status::Done, _) => "✓".to_string(),
                (_, Some(l)) => l.to_string(),
                (_, None) => "·".to_string(),
            };
            let title = move || {
                let (status, line) = view_of();
                let lane = subgroup.get().map(|[s, l]| format!(", subgroup {s} lane {l}")).unwrap_or_default();
                format!("local_invocation_id ({}, {}, {}){lane}: {}{}", local[0], local[1], local[2], status_name(status), line.map(|l| format!(" at line {l}")).unwrap_or_default())
            };
            let is_selected = Memo::new(move |_| selected.get() == index);
            // The invocations a finding names ("Show me").
            let focused = Memo::new(move |_| focus.0.with(|f| f.as_ref().is_some_and(|f| f.invocations.contains(&local))));
            // Alternate shades mark where one subgroup ends and the next begins.
            let class = move || {
                let shade = match subgroup.get() {
                    Some([s, _]) if s % 2 == 1 => " subgroup-odd",
                    Some(_) => " subgroup-even",
                    None => "",
                };
                format!("inv {}{shade}{}{}", status_name(view_of().0), if is_selected.get() { " selected" } else { "" }, if focused.get() { " focus" } else { "" })
            };
            view! {
                <button class=class data-focus=move || focused.get().to_string() data-status=move || status_name(view_of().0) data-subgroup=move || subgroup.get().map(|[s, _]| s.to_string()).unwrap_or_default() data-line=move || view_of().1.map(|l| l.to_string()).unwrap_or_default() title=title
                    on:click=move |_| choose(index)>{label}</button>
            }
        })
        .collect_view();
    view! {
        <div class="invocations" data-testid="debugger-invocations" style=format!("grid-template-columns: repeat({}, 2.2em)", columns.min(32))>{cells}</div>
    }
}

/// Region `r`'s words as a row of cells, built once per shape; values and
/// the last step's reads and writes updated after every step.
fn memory_grid(
    snapshot: RwSignal<Snapshot>,
    r: usize,
    name: String,
    workgroup: bool,
    len: usize,
) -> impl IntoView {
    let more = len.saturating_sub(MAX_CELLS);
    let cells = (0..len.min(MAX_CELLS))
        .map(|k| {
            let memo = Memo::new(move |_| snapshot.with(|s| s.memories.get(r).map(|m| (m.values[k].clone(), m.read[k], m.written[k])).unwrap_or_default()));
            let cell = move || memo.get();
            let class = move || {
                let (_, rd, wr) = cell();
                format!("cell{}{}", if rd { " read" } else { "" }, if wr { " written" } else { "" })
            };
            view! {
                <span class=class data-read=move || cell().1.to_string() data-written=move || cell().2.to_string() title=format!("{name}[{k}]")>{move || cell().0}</span>
            }
        })
        .collect_view();
    let kind = if workgroup { "workgroup memory" } else { "buffer" };
    view! {
        <figure class="memory" data-testid=format!("debugger-memory-{name}")>
            <figcaption>{format!("{name} ({kind})")}</figcaption>
            <div class="cells">{cells}</div>
            {(more > 0).then(|| view! { <p class="more">{format!("… and {more} more words, not drawn")}</p> })}
        </figure>
    }
}
