//! The roofline of a performance case (`data-testid="roofline-N"`): this
//! GPU's measured bandwidth slope and arithmetic peak, with the student's
//! kernel, the reference and the comparison kernels as labelled points.
//! Geometry in `gpu_puzzles_verdict::roofline`.

use gpu_puzzles_verdict::roofline::{layout, Point};
use gpu_puzzles_verdict::timing::Peaks;
use leptos::prelude::*;

const W: f64 = 320.0;
const H: f64 = 180.0;
/// Room for the axes' labels.
const LEFT: f64 = 52.0;
const BOTTOM: f64 = 30.0;

/// Point colours (Okabe–Ito, distinguishable with colour-blindness), and a
/// different marker shape per kind, so colour is never the only cue.
const COLOURS: [&str; 4] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7"];

/// The roofline, or nothing when the case lacks a count or the peaks are
/// unknown.
pub fn roofline_view(
    n: usize,
    peaks: &Peaks,
    flops: u64,
    bytes: u64,
    points: Vec<Point>,
) -> Option<impl IntoView> {
    let l = layout(peaks, flops, bytes, &points, W, H)?;
    let roof: String = l
        .roof
        .iter()
        .map(|(x, y)| format!("{:.1},{:.1}", x + LEFT, y))
        .collect::<Vec<_>>()
        .join(" ");
    let x_ticks = l
        .x_ticks
        .iter()
        .map(|(x, t)| view! { <text x=format!("{:.1}", x + LEFT) y=H + 14.0 text-anchor="middle" class="tick">{t.clone()}</text> })
        .collect_view();
    let y_ticks = l
        .y_ticks
        .iter()
        .map(|(y, t)| view! { <text x=LEFT - 4.0 y=format!("{:.1}", y + 4.0) text-anchor="end" class="tick">{t.clone()}</text> })
        .collect_view();
    let marks = l
        .points
        .iter()
        .enumerate()
        .map(|(k, (x, y, label, gflops))| {
            let colour = COLOURS[k % COLOURS.len()];
            let (cx, cy) = (x + LEFT, *y);
            // Labels stack down the right of the intensity line.
            let ly = 12.0 + 14.0 * k as f64;
            let shape = match k {
                0 => view! { <circle cx=format!("{cx:.1}") cy=format!("{cy:.1}") r="5" fill=colour></circle> }.into_any(),
                1 => view! { <rect x=format!("{:.1}", cx - 4.5) y=format!("{:.1}", cy - 4.5) width="9" height="9" fill=colour></rect> }.into_any(),
                _ => view! { <path d=format!("M{:.1},{:.1} l5,9 l-10,0 z", cx, cy - 5.0) fill=colour></path> }.into_any(),
            };
            view! {
                <g class="roofline-point" data-label=label.clone() data-gflops=format!("{gflops}")>
                    {shape}
                    <text x=format!("{:.1}", cx + 8.0) y=format!("{ly:.1}") class="point-label" fill=colour>{format!("{label}: {gflops:.0} GFLOP/s")}</text>
                    <title>{format!("{label}: {gflops:.1} GFLOP/s")}</title>
                </g>
            }
        })
        .collect_view();
    let caption = format!(
        "Roofline on this GPU (measured: {:.0} GB/s, {:.0} GFLOP/s FP32). Arithmetic intensity {:.3} FLOP per byte; a kernel can reach at most the line above it.",
        peaks.bandwidth_gbs,
        peaks.gflops,
        flops as f64 / bytes as f64
    );
    Some(view! {
        <figure class="roofline" data-testid=format!("roofline-{n}")>
            <svg viewBox=format!("0 0 {} {}", W + LEFT + 10.0, H + BOTTOM) role="img" aria-label=caption.clone()>
                <line x1=LEFT y1="0" x2=LEFT y2=H class="axis"></line>
                <line x1=LEFT y1=H x2=W + LEFT y2=H class="axis"></line>
                <line x1=format!("{:.1}", l.intensity_x + LEFT) y1="0" x2=format!("{:.1}", l.intensity_x + LEFT) y2=H class="intensity"></line>
                <polyline points=roof class="roof"></polyline>
                {x_ticks}
                {y_ticks}
                <text x=LEFT + W / 2.0 y=H + 27.0 text-anchor="middle" class="axis-label">"FLOP per byte"</text>
                {marks}
            </svg>
            <figcaption>{caption}</figcaption>
        </figure>
    })
}
