//! A performance case's figures in words: the student's kernel, the
//! reference's and the comparison kernels' lines, the target, and shares of
//! this device's measured peaks.

use super::Context;
use crate::judge::{performance_line, CaseResult};
use crate::timing::Peaks;
use gpu_puzzles_core::model::{Performance, Puzzle};
use serde::Serialize;

/// A performance case's figures, as lines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PerformanceReport {
    /// The student's kernel ([`performance_line`]).
    pub yours: String,
    /// Our reference kernel's, when measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// `"1.25× the reference kernel's time"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratio: Option<String>,
    /// The puzzle's performance target and where the kernel stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Both kernels as percentages of this device's bounding peak.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub of_peak: Option<String>,
    /// Each comparison kernel: its label and its figures (or that it did
    /// not pass).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comparisons: Vec<(String, String)>,
    /// Why the puzzle's comparison kernels have no figures: a front end on
    /// a software adapter times them only when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparisons_untimed: Option<String>,
}

/// Whether a passed performance case's comparison kernels were left untimed:
/// the puzzle has some, the result holds no timing for any, and the device
/// is a software adapter (where a front end times them only on request,
/// since there one dispatch at a performance size takes seconds and its
/// figure says nothing about GPUs).
fn untimed_comparisons(puzzle: &Puzzle, r: &CaseResult, context: Context<'_>) -> bool {
    context.software && !puzzle.comparisons.is_empty() && r.comparison_timings.is_empty()
}

/// A passed performance case's figures as lines: the student's kernel, the
/// reference's, the comparison kernels', and where they stand against the
/// target and this device's peaks.
pub fn performance_report(
    puzzle: &Puzzle,
    r: &CaseResult,
    perf: &Performance,
    context: Context,
) -> PerformanceReport {
    let ms = r.timing.best().0;
    let reference_ms = r.reference_timing.map(|t| t.best().0).filter(|&m| m > 0.0);
    let of_peak = context.peaks.and_then(|p| {
        let (mine, what) = p.percent(ms, perf.flops, perf.bytes)?;
        let measured = if what == "bandwidth" { format!("{:.0} GB/s", p.bandwidth_gbs) } else { format!("{:.0} GFLOP/s", p.gflops) };
        Some(match reference_ms.and_then(|m| p.percent(m, perf.flops, perf.bytes)) {
            Some((theirs, _)) => format!("yours {mine:.1} %, the reference's {theirs:.1} % of its {what} ({measured}, measured on this device)"),
            None => format!("yours {mine:.1} % of its {what} ({measured}, measured on this device)"),
        })
    });
    let target = puzzle.performance_target.map(|t| match reference_ms.filter(|_| ms > 0.0) {
        _ if context.software => {
            format!("{:.0} % of the reference kernel's rate; not enforced on this software adapter, whose timings say nothing about GPUs", t * 100.0)
        }
        Some(_) if [Some(r.timing), r.reference_timing].iter().flatten().any(crate::judge::Timing::low_clocks) => {
            format!("{:.0} % of the reference kernel's rate; not checked: the GPU's clocks were low while these figures were measured", t * 100.0)
        }
        Some(m) => format!("{:.0} % of the reference kernel's rate; yours reaches {:.0} %", t * 100.0, m / ms * 100.0),
        None => format!("{:.0} % of the reference kernel's rate; not checked without a reference timing", t * 100.0),
    });
    PerformanceReport {
        yours: performance_line(&r.timing, perf),
        reference: r.reference_timing.map(|t| performance_line(&t, perf)),
        ratio: reference_ms.map(|m| format!("{:.2}× the reference kernel's time", ms / m)),
        target,
        of_peak,
        comparisons: puzzle
            .comparisons
            .iter()
            .zip(&r.comparison_timings)
            .map(|(c, t)| {
                (
                    c.label.clone(),
                    t.map(|t| performance_line(&t, perf)).unwrap_or_else(|| "did not pass".into()),
                )
            })
            .collect(),
        comparisons_untimed: untimed_comparisons(puzzle, r, context).then(|| {
            let labels: Vec<&str> =
                puzzle.comparisons.iter().map(|c| c.short_label()).collect();
            format!(
                "Not timed on this software adapter: {} would take seconds here, and {} would say nothing about how GPUs behave.",
                if labels.len() == 1 { format!("the comparison kernel ({})", labels[0]) } else { format!("the comparison kernels ({})", labels.join("; ")) },
                if labels.len() == 1 { "its figure" } else { "their figures" },
            )
        }),
    }
}

/// ` · 12 % of this GPU's measured bandwidth` for a kernel's timing `t` on
/// a performance case, or nothing without peaks or counts.
pub fn share_of_peak(
    peaks: Option<&Peaks>,
    t: &crate::judge::Timing,
    perf: &Performance,
) -> String {
    peaks
        .and_then(|p| p.percent(t.best().0, perf.flops, perf.bytes))
        .map(|(pc, what)| format!(" · {pc:.0} % of this GPU's measured {what}"))
        .unwrap_or_default()
}

/// This device's measured peaks, as a sentence.
pub fn peaks_line(p: &Peaks) -> String {
    format!(
        "this GPU, measured: {:.0} GB/s copy bandwidth ({}), {:.0} GFLOP/s FP32 fused multiply-add ({})",
        p.bandwidth_gbs,
        p.copy.describe(),
        p.gflops,
        p.fma.describe()
    )
}
