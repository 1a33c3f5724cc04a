//! `gpu-puzzles check --puzzle <slug> --solution <file.wgsl>`: one
//! solution judged on this machine's GPU adapter, its report in words or as
//! JSON, and what its `print(…)` statements printed.

use crate::{case_of, gpu, load, run_seed};
use anyhow::{bail, Context, Result};
use gpu_puzzles_core::load::random_cases;
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_runner::{
    add_yardsticks, judge_with, measure_peaks, Gpu, RunOptions, YardstickCache,
};
use gpu_puzzles_verdict::judge::{verdict, CaseResult, Verdict};
use gpu_puzzles_verdict::run_report::{Context as RunContext, Emulated, RunReport};
use gpu_puzzles_verdict::timing::Peaks;
use serde::Serialize;
use std::path::Path;

/// What `check --puzzle … --solution …` shows besides the verdict.
pub(crate) struct Show<'a> {
    /// The report as JSON instead of words.
    pub json: bool,
    /// The lines the shader printed, case by case.
    pub print: bool,
    /// A folder to write the cases' pictures into ([`crate::images`]).
    pub images: Option<&'a Path>,
    /// A folder to write the frames of the cases' steps into
    /// ([`crate::images::write_frames`]).
    pub frames: Option<&'a Path>,
}

/// Judges `file` against puzzle `slug` of the set under `root` with the
/// random cases of `seed` (a new seed when `None`), or with those of every
/// seed in `seeds` ([`crate::seeds::sweep_seeds`]), and prints the report
/// (and what `show` asks for). `Ok(true)` when every case passed.
///
/// # Errors
/// An unknown puzzle, an unreadable file, no GPU adapter, or our own
/// failure while judging.
pub(crate) fn check_one(
    root: &Path,
    slug: &str,
    file: &Path,
    show: Show<'_>,
    seed: Option<u64>,
    seeds: Option<std::ops::RangeInclusive<u64>>,
) -> Result<bool> {
    let Show { json, print, images, frames } = show;
    let set = load(root)?;
    let Some(puzzle) = set.get(slug) else {
        let slugs: Vec<_> = set.puzzles.iter().map(|p| p.slug.as_str()).collect();
        bail!("no puzzle `{slug}`; the puzzles are: {}", slugs.join(", "));
    };
    let source =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let gpu = gpu()?;
    if let Some(seeds) = seeds {
        return crate::seeds::sweep_seeds(&gpu, puzzle, &source, seeds, json);
    }
    let seed = run_seed(seed);
    let random = random_cases(puzzle, seed).map_err(anyhow::Error::msg)?;
    let mut results =
        pollster::block_on(judge_with(&gpu, puzzle, &random, &source, RunOptions::default()))?;
    // Performance cases that passed get our reference kernel's and the
    // comparison kernels' times on the same device.
    pollster::block_on(add_yardsticks(
        &gpu,
        puzzle,
        &source,
        &mut results,
        &mut YardstickCache::new(),
        true,
    ))?;
    // This GPU's own peaks, to place the performance figures against.
    let peaks = if puzzle.cases.iter().any(|c| c.is_performance()) {
        Some(pollster::block_on(measure_peaks(&gpu))?)
    } else {
        None
    };
    report(puzzle, &random, seed, file, &gpu, &results, peaks.as_ref(), json)?;
    if let Some(dir) = images {
        let written = crate::images::write_images(dir, puzzle, &random, &results)?;
        // On stderr with --json, so that stdout stays one JSON document.
        let line = format!("images: {} PNG files written to {}", written.len(), dir.display());
        if json {
            eprintln!("{line}");
        } else {
            println!("\n{line}");
        }
    }
    if let Some(dir) = frames {
        let lines = crate::images::write_frames(dir, &gpu, puzzle, &source)?;
        for line in lines {
            if json {
                eprintln!("{line}");
            } else {
                println!("{line}");
            }
        }
    }
    if !json {
        print_logs(puzzle, &random, &source, &results, print);
    }
    Ok(verdict(&results) == Verdict::Passed)
}

#[derive(Serialize)]
struct Report<'a> {
    puzzle: &'a str,
    solution: String,
    status: Verdict,
    adapter: String,
    /// Seed of the random cases (`--seed` draws them again).
    seed: u64,
    /// This device's measured bandwidth and FP32 rate, when the puzzle has
    /// performance cases.
    #[serde(skip_serializing_if = "Option::is_none")]
    peaks: Option<&'a Peaks>,
    /// The results as data.
    cases: Vec<CaseData<'a>>,
    /// The same Run in words, as the page shows it.
    report: &'a RunReport,
}

#[derive(Serialize)]
struct CaseData<'a> {
    #[serde(flatten)]
    result: &'a CaseResult,
    name: &'a str,
    summary: String,
}

#[allow(clippy::too_many_arguments)]
fn report(
    puzzle: &Puzzle,
    random: &[Case],
    seed: u64,
    file: &Path,
    gpu: &Gpu,
    results: &[CaseResult],
    peaks: Option<&Peaks>,
    json: bool,
) -> Result<()> {
    let words = RunReport::new(
        puzzle,
        random,
        results,
        RunContext { software: gpu.adapter().software, peaks, emulated: Emulated::No },
    );
    if json {
        let report = Report {
            puzzle: &puzzle.slug,
            solution: file.display().to_string(),
            status: words.verdict,
            adapter: format!("{} ({})", gpu.adapter().name, gpu.adapter().backend),
            seed,
            peaks,
            cases: results
                .iter()
                .map(|r| CaseData {
                    result: r,
                    name: &case_of(puzzle, random, r.case).name,
                    summary: r.outcome.summary(),
                })
                .collect(),
            report: &words,
        };
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!("{} — {} on {}", puzzle.title, file.display(), gpu.adapter().name);
    if !random.is_empty() {
        println!(
            "  {} random cases drawn with seed {seed} (--seed {seed} draws them again)",
            random.len()
        );
    }
    print!("{}", words.text(&file.display().to_string()));
    Ok(())
}

/// The lines each case printed (`--print`); without it, how many there
/// are and how to see them.
fn print_logs(puzzle: &Puzzle, random: &[Case], source: &str, results: &[CaseResult], show: bool) {
    use gpu_puzzles_core::print::{sites, LOG_WORDS};
    use gpu_puzzles_verdict::print::PrintLog;
    let logs: Vec<(&CaseResult, &PrintLog)> = results
        .iter()
        .filter_map(|r| r.findings.as_ref().map(|f| (r, &f.prints)))
        .filter(|(_, log)| !log.is_empty())
        .collect();
    if logs.is_empty() {
        return;
    }
    if !show {
        let lines: usize = logs.iter().map(|(_, log)| log.lines.len()).sum();
        println!("  {lines} lines printed in {} cases: add --print to show them", logs.len());
        return;
    }
    let sites = sites(source);
    for (r, log) in logs {
        println!("Printed in case {} ({}):", r.case, case_of(puzzle, random, r.case).name);
        for line in &log.lines {
            println!("  {}", PrintLog::describe(line, &sites));
        }
        if log.dropped > 0 {
            println!(
                "  … {} more lines were not kept (a case keeps {LOG_WORDS} words of prints)",
                log.dropped
            );
        }
    }
}
