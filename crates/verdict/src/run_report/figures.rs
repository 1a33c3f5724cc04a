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
    /// The student's kernel's first call (pipeline creation and one cold
    /// dispatch) against its warm time a dispatch ([`first_call_line`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_call: Option<String>,
    /// One CPU thread's time on the same data against the kernel's
    /// ([`cpu_line`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu: Option<String>,
}

/// Milliseconds to three significant figures (`0.0123 ms`, `41.5 ms`,
/// `1,234 ms`).
fn ms_text(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{} ms", crate::judge::group_digits(ms.round() as u64))
    } else {
        let decimals = (2 - ms.abs().max(1e-9).log10().floor() as i32).clamp(0, 6) as usize;
        format!("{ms:.decimals$} ms")
    }
}

/// `how` times, to two significant figures under 10 and whole above
/// (`3.4×`, `6,900×`).
fn times_text(x: f64) -> String {
    if x < 10.0 {
        format!("{x:.1}×")
    } else {
        format!("{}×", crate::judge::group_digits(x.round() as u64))
    }
}

/// The first call of the kernel against its warm time, from `t`'s
/// measurement ([`crate::timing::Measurement::first_ms`] and
/// [`crate::timing::Measurement::pipeline_ms`]): why one timed call
/// misleads. `None` without a measurement or its first dispatch.
pub fn first_call_line(t: &crate::judge::Timing) -> Option<String> {
    let m = t.measured?;
    let first = m.first_ms?;
    let total = first + m.pipeline_ms.unwrap_or(0.0);
    let warm = m.median_ms;
    let made = match m.pipeline_ms {
        Some(p) => format!("creating the pipeline {}, then the first dispatch {} (cold, with submission and waiting)", ms_text(p), ms_text(first)),
        None => format!("the first dispatch {} (cold, with submission and waiting; the pipeline was created for an earlier case)", ms_text(first)),
    };
    let slower = if warm > 0.0 {
        format!(
            " against {} a dispatch once warm: {} as long",
            ms_text(warm),
            times_text(total / warm)
        )
    } else {
        String::new()
    };
    Some(format!("{} for one call: {made},{slower}. A kernel is timed warm, over many dispatches, never by its first call", ms_text(total)))
}

/// One CPU thread against the kernel: `cpu_ms` for the CPU reference on
/// the case's data ([`CaseResult::cpu_ms`]), the kernel's best figure
/// from `t`. On a software adapter the "GPU" runs on this same CPU (all
/// its cores, vectorised), which the line says.
pub fn cpu_line(cpu_ms: f64, t: &crate::judge::Timing, software: bool) -> String {
    let gpu = t.best().0;
    let engine = if cfg!(target_arch = "wasm32") {
        "compiled to WebAssembly in this page's judge"
    } else {
        "compiled natively"
    };
    let ratio = if gpu > 0.0 && cpu_ms >= gpu {
        format!(
            "; your kernel, {} a dispatch, is {} as fast",
            ms_text(gpu),
            times_text(cpu_ms / gpu)
        )
    } else if gpu > 0.0 {
        format!(
            "; your kernel takes {} a dispatch, {} as long",
            ms_text(gpu),
            times_text(gpu / cpu_ms.max(1e-9))
        )
    } else {
        String::new()
    };
    let note = if software {
        ". This software adapter runs the kernel on this computer's CPU too (every core, vectorised): the two figures compare two CPU programs"
    } else {
        ""
    };
    format!("{} on one CPU thread (our reference in plain Rust, {engine}, in f64 where the kernel works in f32){ratio}{note}", ms_text(cpu_ms))
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
        first_call: first_call_line(&r.timing),
        cpu: r.cpu_ms.map(|c| cpu_line(c, &r.timing, context.software)),
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
