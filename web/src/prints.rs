//! A case's print log (`print(…)` in the student's shader,
//! [`gpu_puzzles_core::print`]): the lines, filterable by workgroup and
//! invocation, each one a link to its `print` in the editor and, where the
//! case can be stepped, a way into the debugger at that invocation.

use crate::debugger::{DebugFocus, DebugRequest, Focus};
use crate::editor;
use gpu_puzzles_core::print::{PrintSite, LOG_WORDS};
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_verdict::print::PrintLog;
use leptos::prelude::*;
use std::sync::Arc;

/// Lines drawn at once; a filter shows the others.
const SHOWN_LINES: usize = 400;

fn triple(v: [u32; 3]) -> String {
    format!("({}, {}, {})", v[0], v[1], v[2])
}

/// The print log of case `case` (`data-testid="prints-N"`): a workgroup
/// filter, an invocation filter, and the lines (`data-testid="print-line"`,
/// with `data-workgroup`, `data-invocation` and `data-line`).
#[component]
pub fn PrintLogView(
    puzzle: &'static Puzzle,
    case: &'static Case,
    log: PrintLog,
    source: String,
    sites: Arc<Vec<PrintSite>>,
) -> impl IntoView {
    let n = case.number;
    let mut workgroups: Vec<[u32; 3]> =
        log.lines.iter().map(|l| l.invocation.workgroup_id).collect();
    workgroups.dedup();
    workgroups.sort_by_key(|w| [w[2], w[1], w[0]]);
    workgroups.dedup();
    let workgroup = RwSignal::new(None::<[u32; 3]>);
    let invocation = RwSignal::new(None::<[u32; 3]>);
    let log = Arc::new(log);
    let invocations = {
        let log = log.clone();
        move || {
            let mut v: Vec<[u32; 3]> = log
                .lines
                .iter()
                .filter(|l| workgroup.get().is_none_or(|w| l.invocation.workgroup_id == w))
                .map(|l| l.invocation.local_invocation_id)
                .collect();
            v.sort_by_key(|i| [i[2], i[1], i[0]]);
            v.dedup();
            v
        }
    };
    let steppable = crate::debugger::steppable(case);
    let request = expect_context::<DebugRequest>();
    let debug_focus = expect_context::<DebugFocus>();
    let dropped = log.dropped;
    let total = log.lines.len();
    let lines = {
        let log = log.clone();
        move || {
            let (w, i) = (workgroup.get(), invocation.get());
            let kept: Vec<_> = log
                .lines
                .iter()
                .filter(|l| {
                    w.is_none_or(|w| l.invocation.workgroup_id == w)
                        && i.is_none_or(|i| l.invocation.local_invocation_id == i)
                })
                .collect();
            let more = kept.len().saturating_sub(SHOWN_LINES);
            let items = kept
                .into_iter()
                .take(SHOWN_LINES)
                .map(|l| {
                    let site = sites.iter().find(|s| s.id == l.site).cloned();
                    let text = PrintLog::describe(l, &sites);
                    let (line, offset) = site.as_ref().map_or((0, None), |s| (s.line, Some(s.offset)));
                    let source = source.clone();
                    let inv = l.invocation;
                    let entry_point = puzzle.entry_points.get(l.entry_point as usize).cloned();
                    let debug = steppable.then(|| {
                        let focus = Focus { entry_point, workgroup: inv.workgroup_id, line, invocations: vec![inv.local_invocation_id] };
                        view! {
                            <button class="step" data-testid="print-debug" title="Open this case in the debugger at this invocation, with the print's line marked"
                                on:click=move |_| {
                                    debug_focus.0.set(Some(focus.clone()));
                                    request.0.set(Some(case));
                                }>"Debug ▸"</button>
                        }
                    });
                    view! {
                        <li data-testid="print-line" data-workgroup=triple(inv.workgroup_id) data-invocation=triple(inv.local_invocation_id) data-line=line>
                            <button class="print-text" title="Show this print in the editor" on:click=move |_| if let Some(o) = offset { editor::go_to(&source, o) }>{text}</button>
                            {debug}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <ol class="print-lines">{items}</ol>
                {(more > 0).then(|| view! { <p class="print-more">{format!("{more} more lines match: choose a workgroup or an invocation to see them.")}</p> })}
            }
        }
    };
    let parse = |v: String| -> Option<[u32; 3]> {
        let n: Vec<u32> = v.split(',').filter_map(|p| p.trim().parse().ok()).collect();
        (n.len() == 3).then(|| [n[0], n[1], n[2]])
    };
    view! {
        <details class="print-log" data-testid=format!("prints-{n}") open=true>
            <summary>{format!("Printed: {total} lines")}{(dropped > 0).then(|| format!(", {dropped} more not kept"))}</summary>
            <p class="print-order">"Grouped by workgroup and invocation; each invocation's lines are in the order it printed them. WGSL gives no order between invocations, so none is shown."</p>
            <div class="print-filters">
                <label>"Workgroup "
                    <select data-testid=format!("prints-workgroup-{n}") on:change=move |ev| { workgroup.set(parse(event_target_value(&ev))); invocation.set(None); }>
                        <option value="">"all"</option>
                        {workgroups.iter().map(|w| view! { <option value=format!("{},{},{}", w[0], w[1], w[2])>{triple(*w)}</option> }).collect_view()}
                    </select>
                </label>
                <label>"Invocation "
                    <select data-testid=format!("prints-invocation-{n}") prop:value=move || invocation.get().map_or(String::new(), |i| format!("{},{},{}", i[0], i[1], i[2]))
                        on:change=move |ev| invocation.set(parse(event_target_value(&ev)))>
                        <option value="">"all"</option>
                        {move || invocations().into_iter().map(|i| view! { <option value=format!("{},{},{}", i[0], i[1], i[2])>{triple(i)}</option> }).collect_view()}
                    </select>
                </label>
            </div>
            {lines}
            {(dropped > 0).then(|| view! { <p class="print-dropped" data-testid=format!("prints-dropped-{n}")>{format!("{dropped} more lines were not kept: a case keeps {LOG_WORDS} words of prints (about {} lines of one number). Print less often, for example only where `i == 0u`.", LOG_WORDS / 4)}</p> })}
        </details>
    }
}
