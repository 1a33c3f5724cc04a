//! Heat maps and memory findings of one case, drawn as SVG from core's view
//! models (`gpu_puzzles_verdict::heatmap`). Counts use the viridis scale (from
//! `colorous`) and
//! writers the Okabe–Ito palette, both readable with the common forms of
//! colour blindness; idle cells are hatched, not only coloured.

use gpu_puzzles_core::markup::element;
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_verdict::heatmap::{self, Counter, HeatMap};
use gpu_puzzles_verdict::judge::CaseResult;
use gpu_puzzles_verdict::report::{self, Level};
use gpu_puzzles_verdict::trace::Findings;
use leptos::prelude::*;
use std::fmt::Write as _;

/// Okabe and Ito's colour-blind-safe palette (2008), for workgroup numbers.
const OKABE_ITO: [&str; 8] =
    ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999"];

/// Viridis (van der Walt and Smith, matplotlib 2015) at `t` in [0, 1], as
/// `#rrggbb`, from the `colorous` crate.
fn viridis(t: f64) -> String {
    format!("#{:x}", colorous::VIRIDIS.eval_continuous(t.clamp(0.0, 1.0)))
}

/// Whether the heat maps are shown, provided by the puzzle page (its
/// "Heat maps" setting). The findings are shown either way.
#[derive(Clone, Copy)]
pub struct ShowHeatmaps(pub ReadSignal<bool>);

/// A case's memory findings and, in a `<details>` (`.heatmap-details`),
/// its heat maps. The maps of one case a Run shows are built with the
/// results (`open`: [`open_heatmaps`] picks it); every other case's are
/// built when the student opens them. A Run of a puzzle with large cases
/// drew some 70,000 SVG elements when every case's maps were built at
/// once (Decode Attention: about 2 s of the page's main thread in headless
/// Chromium on 2 cores, the page frozen meanwhile).
pub fn case_heatmaps(
    puzzle: &'static Puzzle,
    case: &'static Case,
    result: &CaseResult,
    open: bool,
) -> impl IntoView {
    let n = case.number;
    let Some(f) = result.findings.clone() else {
        let why = result
            .instrumentation
            .as_ref()
            .map_or_else(|| "the shader did not run".to_string(), report::unchecked);
        return view! {
            <div class="findings" data-testid=format!("findings-{n}") data-status="unavailable">
                <p class="muted">"No heat maps or memory checks for this case: " {why} "."</p>
            </div>
        }
        .into_any();
    };
    let show =
        use_context::<ShowHeatmaps>().map_or_else(|| RwSignal::new(true).read_only(), |s| s.0);
    let findings = findings_list(case, &f);
    // Built once, the first time the details are open.
    let opened = RwSignal::new(open);
    let f = std::sync::Arc::new(f);
    let maps = move || opened.get().then(|| heatmap_rows(puzzle, case, &f));
    view! {
        <div class="heatmaps">
            {findings}
            <details class="heatmap-details" data-testid=format!("heatmaps-{n}") open=open hidden=move || !show.get() on:toggle=move |_| opened.set(true)>
                <summary>"Heat maps: how the invocations touched memory"</summary>
                {maps}
            </details>
        </div>
    }
    .into_any()
}

/// The case whose heat maps a Run shows open, by number: the first of
/// `results` (in the order shown) that failed and has findings, else the
/// first with findings.
pub fn open_heatmaps<'r>(
    results: impl IntoIterator<Item = &'r CaseResult> + Clone,
) -> Option<usize> {
    let with_findings = |r: &&CaseResult| r.findings.is_some();
    let first_failed =
        results.clone().into_iter().filter(with_findings).find(|r| r.outcome.failed());
    first_failed.or_else(|| results.into_iter().find(with_findings)).map(|r| r.case)
}

/// A case's heat maps: its workgroups and writers, its invocations, and
/// each buffer's reads and writes.
fn heatmap_rows(puzzle: &'static Puzzle, case: &'static Case, f: &Findings) -> impl IntoView {
    let n = case.number;
    let names: Vec<&str> = puzzle.buffers.iter().map(|b| b.name.as_str()).collect();
    // Numbered as the GPU ran the shader: its own `@workgroup_size`.
    let config = f.config(&case.config);
    let threads = heatmap::threads(f, &config, &names);
    let groups = heatmap::workgroups(f, &config);
    let outputs: Vec<usize> = puzzle.compared_buffers().collect();
    let writer_maps = outputs
        .iter()
        .map(|&b| {
            let m = heatmap::buffer(
                f,
                b,
                case.buffers[b].shape,
                &config,
                Counter::Writer,
                &puzzle.buffers[b].name,
            );
            svg_map(
                format!("heatmap-writer-{n}-{}", puzzle.buffers[b].name),
                format!("{}: workgroup that wrote each element", puzzle.buffers[b].name),
                &m,
                true,
                "elements",
            )
        })
        .collect_view();
    let buffer_maps = puzzle
        .buffers
        .iter()
        .enumerate()
        .map(|(b, buf)| {
            let reads = heatmap::buffer(f, b, case.buffers[b].shape, &config, Counter::Reads, &buf.name);
            let writes = heatmap::buffer(f, b, case.buffers[b].shape, &config, Counter::Writes, &buf.name);
            view! {
                <div class="heatmap-pair" data-testid=format!("heatmap-buffer-{n}-{}", buf.name)>
                    {svg_map(format!("heatmap-buffer-{n}-{}-reads", buf.name), format!("{}: reads per element", buf.name), &reads, false, "elements")}
                    {svg_map(format!("heatmap-buffer-{n}-{}-writes", buf.name), format!("{}: writes per element", buf.name), &writes, false, "elements")}
                </div>
            }
        })
        .collect_view();
    view! {
        <div class="heatmap-row">
            {svg_map(format!("heatmap-workgroups-{n}"), "Workgroups: global reads + writes".to_string(), &groups, false, "workgroups")}
            {writer_maps}
        </div>
        <div class="heatmap-row">
            {svg_map(format!("heatmap-threads-{n}"), "Invocations by workgroup and local id: global reads + writes (hatched: idle)".to_string(), &threads, false, "invocations")}
        </div>
        <div class="heatmap-row">{buffer_maps}</div>
    }
}

fn findings_list(case: &Case, f: &Findings) -> impl IntoView {
    let n = case.number;
    // Worded in one place for the page and the CLI (`core::report`).
    let items = report::finding_items(f);
    let status = if items.iter().any(|(k, _)| *k == Level::Error) {
        "error"
    } else if items.is_empty() {
        "clean"
    } else {
        "warning"
    };
    view! {
        <div class="findings" data-testid=format!("findings-{n}") data-status=status>
            {if items.is_empty() {
                view! { <p class="ok">"Memory checks: no out-of-bounds access, no race, no runaway loop."</p> }.into_any()
            } else {
                view! {
                    <ul>{items.into_iter().map(|(level, text)| {
                        let class = match level { Level::Error => "error", Level::Note => "warning" };
                        view! { <li class=class>{text}</li> }
                    }).collect_view()}</ul>
                }.into_any()
            }}
        </div>
    }
}

/// One heat map: the SVG, its legend, its summary in words (also the
/// figure's description), and its numbers as a table, built only when the
/// reader opens them. `unit` names a cell's item in the plural.
fn svg_map(
    testid: String,
    caption: String,
    m: &HeatMap,
    categorical: bool,
    unit: &str,
) -> impl IntoView {
    let cell = (640 / m.cols.max(1)).clamp(4, 24);
    let (w, h) = (m.cols * cell, m.rows * cell);
    let show_labels = cell >= 18;
    let max = m.max.max(1) as f64;
    // The cells, workgroup borders and hatch pattern as one piece of markup
    // (see `gpu_puzzles_core::markup`): thousands of cells on Block Sum.
    let mut body = String::with_capacity(m.cells.len() * 160 + 512);
    body.push_str(
        r#"<defs><pattern id="idle-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="idle-bg"></rect><line x1="0" y1="0" x2="0" y2="6" class="idle-line"></line></pattern></defs>"#,
    );
    for (i, c) in m.cells.iter().enumerate().filter_map(|(i, c)| c.as_ref().map(|c| (i, c))) {
        let (x, y) = ((i % m.cols) * cell, (i / m.cols) * cell);
        let fill = if categorical {
            if c.value == 0 {
                "none".to_string()
            } else {
                OKABE_ITO[(c.value as usize - 1) % OKABE_ITO.len()].to_string()
            }
        } else if c.idle {
            "url(#idle-hatch)".to_string()
        } else {
            viridis(c.value as f64 / max)
        };
        let light_text = !categorical && (c.value as f64 / max) < 0.6;
        let _ = write!(body, r#"<g data-value="{}" data-idle="{}" class="cell">"#, c.value, c.idle);
        let (xs, ys, size) = (x.to_string(), y.to_string(), cell.to_string());
        element(
            &mut body,
            "rect",
            &[("x", &xs), ("y", &ys), ("width", &size), ("height", &size), ("fill", &fill)],
            None,
        );
        if show_labels && !c.label.is_empty() {
            let (tx, ty) = ((x + cell / 2).to_string(), (y + cell / 2 + 4).to_string());
            let class = if light_text { "light" } else { "dark" };
            element(
                &mut body,
                "text",
                &[("x", &tx), ("y", &ty), ("text-anchor", "middle"), ("class", class)],
                Some(&c.label),
            );
        }
        element(&mut body, "title", &[], Some(&c.title));
        body.push_str("</g>");
    }
    if m.group[0] > 0 && m.group[1] > 0 {
        let (gx, gy) = (m.group[0] * cell, m.group[1] * cell);
        for k in 1..m.cols.div_ceil(m.group[0]) {
            let _ = write!(
                body,
                r#"<line x1="{0}" y1="0" x2="{0}" y2="{h}" class="wg-border"></line>"#,
                k * gx
            );
        }
        for k in 1..m.rows.div_ceil(m.group[1]) {
            let _ = write!(
                body,
                r#"<line x1="0" y1="{0}" x2="{w}" y2="{0}" class="wg-border"></line>"#,
                k * gy
            );
        }
    }
    let legend = if categorical {
        "colour and number: the workgroup (numbered row-major) that wrote the element; blank: never written".to_string()
    } else {
        format!(
            "dark to bright: 0 to {}{}",
            m.max,
            if m.per_cell > 1 {
                format!(" · each cell sums {} items", m.per_cell)
            } else {
                String::new()
            }
        )
    };
    let gradient = (!categorical).then(|| view! {
        <span class="legend-bar" aria-hidden="true" style=format!("background: linear-gradient(to right, {}, {}, {}, {}, {})", viridis(0.0), viridis(0.25), viridis(0.5), viridis(0.75), viridis(1.0))></span>
    });
    let summary = m.summary(categorical, unit);
    let described = format!("{caption}. {summary}");
    // The numbers, row by row, when asked for (a large map is thousands of cells).
    let rows: Vec<Vec<Option<u32>>> = m
        .cells
        .chunks(m.cols.max(1))
        .map(|r| r.iter().map(|c| c.as_ref().map(|c| c.value)).collect())
        .collect();
    let open = RwSignal::new(false);
    let numbers_id = format!("{testid}-numbers");
    let table = move || {
        open.get().then(|| {
            let rows = rows.clone();
            view! {
                <div class="grid-scroll" tabindex="0" role="region" aria-label="The heat map's numbers">
                    <table class="grid heatmap-numbers">
                        <tbody>{rows.into_iter().enumerate().map(|(r, row)| view! {
                            <tr><th scope="row">{r}</th>{row.into_iter().map(|v| view! { <td>{v.map(|v| v.to_string()).unwrap_or_default()}</td> }).collect_view()}</tr>
                        }).collect_view()}</tbody>
                    </table>
                </div>
            }
        })
    };
    view! {
        <figure class="heatmap" data-testid=testid.clone() data-cells=m.cells.iter().flatten().count()>
            <figcaption>{caption}</figcaption>
            <svg width=w height=h viewBox=format!("0 0 {w} {h}") role="img" aria-label=described inner_html=body></svg>
            <p class="legend">{gradient}{legend}</p>
            <p class="heatmap-summary" data-testid=format!("{testid}-summary")>{summary}</p>
            <details data-testid=numbers_id on:toggle=move |ev| {
                // `open` of the <details>, read without web-sys's HtmlDetailsElement.
                let now = ev.target().and_then(|t| js_sys::Reflect::get(&t, &"open".into()).ok()).and_then(|v| v.as_bool());
                open.set(now.unwrap_or(false));
            }>
                <summary>"The numbers"</summary>
                {table}
            </details>
        </figure>
    }
}
