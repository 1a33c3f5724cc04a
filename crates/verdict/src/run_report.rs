//! A Run in words: the one place where a Run's results become the headline,
//! each case's title, status, badge and sentences, and the performance
//! figures' lines. The page draws a [`RunReport`], the command-line tool
//! prints [`RunReport::text`] and serialises it into its JSON; neither words
//! an outcome itself.

use crate::judge::{
    fully_checked, lost_counts, verdict, CaseResult, Diagnostic, Outcome, Severity, Verdict,
};
use crate::timing::Peaks;
use gpu_puzzles_core::model::{Case, Puzzle};
use serde::Serialize;

mod figures;
mod findings;

pub use figures::{peaks_line, performance_report, share_of_peak, PerformanceReport};
use findings::{distinct_findings, say_repeated_findings_once};

/// What a front end knows of the device, beyond the results.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// A software adapter (lavapipe, SwiftShader): performance targets and
    /// lessons are not enforced there.
    pub software: bool,
    /// This device's measured peaks, when known.
    pub peaks: Option<&'a Peaks>,
    /// Whether, and why, the Run was judged by the CPU interpreter instead
    /// of a GPU: performance cases did not run.
    pub emulated: Emulated,
}

/// Whether a Run was judged by the CPU interpreter, and why.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Emulated {
    /// Judged on a GPU.
    #[default]
    No,
    /// This browser has no WebGPU.
    NoWebGpu,
    /// The shader uses subgroups and this device has no `subgroups`
    /// feature: every case was judged at every subgroup size instead.
    NoSubgroups,
}

/// A Run, worded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    /// Passed when no case failed and at least one passed.
    pub verdict: Verdict,
    /// Every case that could be instrumented was ([`fully_checked`]).
    pub fully_checked: bool,
    /// The puzzle counts as solved: passed, with every memory check run.
    pub solved: bool,
    /// One sentence for the verdict bar, e.g. `"5 of 7 cases pass."`.
    pub headline: String,
    /// Compiler messages over every case, distinct, errors first, then by
    /// line and column.
    pub diagnostics: Vec<Diagnostic>,
    /// One per result, in case order.
    pub cases: Vec<CaseReport>,
    /// The failing cases' distinct findings, most important first ("Case
    /// 3: lost update: …"): the first is the verdict bar's second line, the
    /// others are folded below it. A finding repeated in later cases is
    /// listed once, at the first case that shows it.
    pub findings: Vec<String>,
    /// This device's measured peaks as a sentence, when measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peaks: Option<String>,
}

/// How a case counts for the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CaseStatus {
    /// Passed.
    Passed,
    /// Failed, including a performance case not run because another failed.
    Failed,
    /// Not run on this adapter ([`Outcome::Omitted`]): counts neither way.
    Omitted,
}

impl CaseStatus {
    /// `passed`, `failed` or `omitted` (the page's `data-status`).
    pub fn as_str(self) -> &'static str {
        match self {
            CaseStatus::Passed => "passed",
            CaseStatus::Failed => "failed",
            CaseStatus::Omitted => "omitted",
        }
    }
}

/// One case of a Run, worded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseReport {
    /// The case's number, from 1.
    pub case: usize,
    /// `"Case 3 (hidden)"`, `"Case 4: performance: 1024 × 1024 × 1024"`.
    pub title: String,
    /// How it counts.
    pub status: CaseStatus,
    /// The outcome's stable name ([`Outcome::status`]).
    pub outcome: &'static str,
    /// A few words for the badge, e.g. `"wrong values (3)"`.
    pub badge: String,
    /// What happened and what to try; `None` for a pass.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Whether the case's data may be shown: not hidden, or a random case
    /// that failed (its seed draws it again).
    pub shown: bool,
    /// Compiler messages of a case that did not compile.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
    /// Further sentences, in order: the first differing elements (shown
    /// cases), lost counts, the random case's seed, compiler warnings, why
    /// the memory checks did not run, and findings besides the one the
    /// summary states. The page draws some of them its own way (grids, the
    /// diagnostics list, the findings list), so each says what it is.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
    /// The judged dispatch's wall time in milliseconds; `None` when nothing
    /// ran (a compile error, a case not run).
    pub time_ms: Option<f64>,
    /// True when `time_ms` is the instrumented run's.
    pub instrumented: bool,
    /// A performance case's figures, once it passed (or was below target).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub performance: Option<PerformanceReport>,
    /// The failing race in a few words ([`crate::report::gist`]), the same in every
    /// case where the same mistake fails it; the summary of each later case
    /// with it refers back to the first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finding: Option<String>,
}

/// One further sentence about a case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Note {
    /// What the sentence is about.
    pub kind: NoteKind,
    /// The sentence.
    pub text: String,
}

/// What a [`Note`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoteKind {
    /// One element that differs: `out[3]: expected 13, got 3`.
    Mismatch,
    /// Increments lost to a race on counts ([`lost_counts`]).
    LostCounts,
    /// A failing random case's configuration and seed.
    Seed,
    /// A compiler warning.
    Warning,
    /// Why the memory checks did not run ([`crate::report::unchecked`]).
    Unchecked,
    /// A finding besides the one the summary states.
    Finding,
}

impl RunReport {
    /// Words the `results` of one Run of `puzzle`, whose random cases were
    /// `random` (numbered after the puzzle's own).
    pub fn new(
        puzzle: &Puzzle,
        random: &[Case],
        results: &[CaseResult],
        context: Context,
    ) -> RunReport {
        let verdict = verdict(results);
        let fully_checked = fully_checked(results);
        let passed = results.iter().filter(|r| r.outcome.passed()).count();
        let omitted =
            results.iter().filter(|r| matches!(r.outcome, Outcome::Omitted { .. })).count();
        let counted = results.len() - omitted;
        let why = match context.emulated {
            Emulated::No => None,
            Emulated::NoWebGpu => Some("this browser has no WebGPU"),
            Emulated::NoSubgroups => Some("this GPU offers no subgroups to the page, so each case ran at every subgroup size from 4 lanes up"),
        };
        let aside = match (omitted, why) {
            (0, None) => String::new(),
            (0, Some(why)) => format!(" Emulated on the CPU: {why}."),
            (1, None) => " (1 performance case runs only on a hardware GPU.)".into(),
            (n, None) => format!(" ({n} performance cases run only on a hardware GPU.)"),
            (n, Some(why)) => format!(
                " Emulated on the CPU: {why}; {n} performance case{} did not run.",
                if n == 1 { "" } else { "s" }
            ),
        };
        let headline = match verdict {
            Verdict::Passed if fully_checked => format!("Solved! All {counted} cases of “{}” pass.{aside}", puzzle.title),
            Verdict::Passed => format!(
                "All {counted} cases pass on their values, but the memory checks could not run on some of them (each case says why), so this is not marked solved: a race or an out-of-bounds access could be hiding.{aside}"
            ),
            Verdict::Failed => format!("{passed} of {counted} cases pass.{aside}"),
        };
        let mut cases: Vec<CaseReport> = results
            .iter()
            .filter_map(|r| {
                let case = puzzle
                    .cases
                    .get(r.case.wrapping_sub(1))
                    .or_else(|| random.iter().find(|c| c.number == r.case))?;
                Some(case_report(puzzle, case, r, context))
            })
            .collect();
        say_repeated_findings_once(&mut cases);
        let findings = distinct_findings(&cases);
        RunReport {
            verdict,
            fully_checked,
            solved: verdict == Verdict::Passed && fully_checked,
            headline,
            diagnostics: distinct_diagnostics(results),
            cases,
            findings,
            peaks: context.peaks.map(peaks_line),
        }
    }

    /// The report as the command-line tool prints it: a line per case
    /// (title, outcome, time, summary) with its notes and figures indented
    /// below, compiler messages as `file:line:column: message`, then the
    /// peaks, and the verdict last (`PASSED`, `PASSED on values only`, or
    /// `FAILED`).
    pub fn text(&self, file: &str) -> String {
        let mut out = String::new();
        let mut line = |s: String| {
            out.push_str(&s);
            out.push('\n');
        };
        for c in &self.cases {
            let time = match c.time_ms {
                Some(ms) => format!("{ms:>8.2} ms{}", if c.instrumented { "*" } else { " " }),
                None => format!("{:>8}    ", "—"),
            };
            line(format!(
                "  {:<36} {:<14} {time}  {}",
                c.title,
                c.outcome,
                c.summary.as_deref().unwrap_or("passed")
            ));
            for d in &c.diagnostics {
                match (d.line, d.column) {
                    (Some(l), Some(col)) => line(format!("      {file}:{l}:{col}: {}", d.message)),
                    _ => line(format!("      {file}: {}", d.message)),
                }
            }
            if let Some(p) = &c.performance {
                line(format!("      your kernel: {}", p.yours));
                if let Some(r) = &p.reference {
                    line(format!("      reference kernel: {r}"));
                }
                for (label, figures) in &p.comparisons {
                    line(format!("      compared with {label}: {figures}"));
                }
                if let Some(t) = &p.of_peak {
                    line(format!("      of this GPU's measured peak: {t}"));
                }
                if let Some(t) = &p.target {
                    line(format!("      target: {t}"));
                }
                if let Some(t) = &p.cpu {
                    line(format!("      the CPU: {t}"));
                }
                if let Some(t) = &p.first_call {
                    line(format!("      first call: {t}"));
                }
            }
            for n in &c.notes {
                line(format!("      {}", n.text));
            }
        }
        if let Some(p) = &self.peaks {
            line(format!("  {p}"));
        }
        if self.cases.iter().any(|c| c.instrumented) {
            line("  * instrumented run (memory checks): slower than the plain kernel; performance cases are timed plain".into());
        }
        line(match self.verdict {
            Verdict::Passed if !self.fully_checked => "PASSED on values only: the memory checks could not run on some cases (each says why above)".into(),
            Verdict::Passed => "PASSED".into(),
            Verdict::Failed => "FAILED".into(),
        });
        out
    }
}

/// The compiler's messages over every case of a Run, each once: errors
/// first, then by line and column.
pub fn distinct_diagnostics(results: &[CaseResult]) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    for r in results {
        let errors = match &r.outcome {
            Outcome::CompileError { diagnostics } => diagnostics.as_slice(),
            _ => &[],
        };
        for d in errors.iter().chain(&r.warnings) {
            if !out.contains(d) {
                out.push(d.clone());
            }
        }
    }
    out.sort_by_key(|d| (d.severity != Severity::Error, d.line, d.column));
    out
}

/// The case's title as the page and the CLI show it.
pub fn case_title(case: &Case) -> String {
    if case.hidden && case.random_seed.is_none() {
        format!("Case {} (hidden)", case.number)
    } else if case.name.starts_with("Case ") || case.random_seed.is_some() {
        case.name.clone()
    } else {
        format!("Case {}: {}", case.number, case.name)
    }
}

/// A few words for an outcome's badge.
pub fn badge(o: &Outcome) -> String {
    match o {
        Outcome::Passed => "passed".into(),
        Outcome::Mismatch { total, .. } => format!("wrong values ({total})"),
        Outcome::CompileError { .. } => "compile error".into(),
        Outcome::ConfigError { .. } => "configuration error".into(),
        Outcome::MemoryError { error: crate::report::MemoryError::OrderDependent(o), .. }
            if o.bits =>
        {
            "different bits each run".into()
        }
        Outcome::MemoryError { .. } => "memory error".into(),
        Outcome::RunawayLoop { .. } => "runaway loop".into(),
        Outcome::OverBudget { .. } => "over budget".into(),
        Outcome::WithoutTechnique { .. } => "right values, without the technique".into(),
        Outcome::BelowTarget { fraction, .. } => {
            format!("correct but slow ({:.0} % of the reference rate)", fraction * 100.0)
        }
        Outcome::Skipped { .. } => "not timed yet".into(),
        Outcome::Omitted { .. } => "hardware GPU only".into(),
    }
}

fn case_report(puzzle: &Puzzle, case: &Case, r: &CaseResult, context: Context) -> CaseReport {
    let o = &r.outcome;
    let status = if o.passed() {
        CaseStatus::Passed
    } else if o.failed() {
        CaseStatus::Failed
    } else {
        CaseStatus::Omitted
    };
    // A random case that fails is shown: its data is no secret, and its
    // seed draws it again.
    let shown = !case.hidden || (case.random_seed.is_some() && !o.passed());
    let summary = match o {
        Outcome::Passed => None,
        Outcome::Mismatch { .. } if !shown => Some("Wrong values in a hidden case: check sizes and indexing that the shown cases do not exercise.".to_string()),
        o => Some(o.summary()),
    };
    let finding = match (o, &r.findings) {
        (Outcome::MemoryError { error, .. }, Some(f)) => {
            crate::report::failing_group(f, error).map(|g| crate::report::gist(&g))
        }
        _ => None,
    };
    let mut notes = Vec::new();
    let mut note = |kind, text| notes.push(Note { kind, text });
    if let Outcome::Mismatch { mismatches, total, .. } = o {
        if shown {
            for m in mismatches.iter().take(8) {
                let at = match m.position {
                    Some([row, col]) => format!("[{row}][{col}]"),
                    None => format!("[{}]", m.index),
                };
                note(
                    NoteKind::Mismatch,
                    format!("{}{at}: expected {}, got {}", m.buffer, m.expected, m.actual),
                );
            }
            if *total > mismatches.len().min(8) {
                note(NoteKind::Mismatch, format!("… and {} more", total - mismatches.len().min(8)));
            }
        }
    }
    if shown && !r.actual.is_empty() && !case.is_performance() {
        if let Some(lost) = lost_counts(puzzle, case, &r.actual, r.findings.as_ref()) {
            note(NoteKind::LostCounts, lost);
        }
    }
    if let Some(seed) = case.random_seed.filter(|_| !o.passed()) {
        let c = &case.config;
        note(
            NoteKind::Seed,
            format!(
                "workgroup_size {:?}, workgroups {:?}; draw it again with seed {seed}",
                c.workgroup_size, c.workgroups
            ),
        );
    }
    for w in &r.warnings {
        let at = w.line.map(|l| format!(" at line {l}")).unwrap_or_default();
        note(NoteKind::Warning, format!("warning{at}: {}", w.message));
    }
    if let Some(why) = &r.instrumentation {
        note(
            NoteKind::Unchecked,
            format!(
                "not checked (no heat maps or memory checks): {}",
                crate::report::unchecked(why)
            ),
        );
    }
    if let Some(f) = &r.findings {
        let said = o.summary();
        for (level, text) in crate::report::finding_items(f) {
            if text != said {
                let label = match level {
                    crate::report::Level::Error => "also",
                    crate::report::Level::Note => "note",
                };
                note(NoteKind::Finding, format!("{label}: {text}"));
            }
        }
    }
    let performance = case
        .performance
        .filter(|_| o.passed() || matches!(o, Outcome::BelowTarget { .. }))
        .map(|perf| performance_report(puzzle, r, &perf, context));
    let instrumented = r.instrumented_timing.is_some() && r.timing.wall_ms == 0.0;
    CaseReport {
        case: case.number,
        title: case_title(case),
        status,
        outcome: o.status(),
        badge: badge(o),
        summary,
        shown,
        diagnostics: match o {
            Outcome::CompileError { diagnostics } => diagnostics.clone(),
            _ => Vec::new(),
        },
        notes,
        time_ms: if instrumented {
            r.instrumented_timing.map(|t| t.wall_ms)
        } else {
            Some(r.timing.wall_ms).filter(|&ms| ms > 0.0)
        },
        instrumented,
        performance,
        finding,
    }
}

#[cfg(test)]
mod tests;
