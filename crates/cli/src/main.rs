//! `gpu-puzzles`: the command-line tool for workshop hosts and CI.
//!
//! - `gpu-puzzles list [--json]`: number, slug and title of every puzzle.
//! - `gpu-puzzles check [--jobs N]`: validates every puzzle folder and
//!   judges every starter (must fail) and reference solution (must pass)
//!   on a real GPU, N puzzles at a time (`check_all.rs`).
//! - `gpu-puzzles check --puzzle <slug> --solution <file.wgsl> [--json]`:
//!   judges one solution file; exit status 0 only when every case passed.
//!   With `--print`, also the lines its `print(…)` statements printed, case
//!   by case (`--json` carries them in each case's findings).
//! - `gpu-puzzles check --puzzle <slug> --solution <file.wgsl> --seeds 1..200`:
//!   judges it with the random cases of every seed of the range, and prints
//!   each seed whose verdict differs from the first seed's; exit status 0
//!   only when every seed passed.

mod check_all;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use gpu_puzzles_core::judge::{verdict, CaseResult, Verdict};
use gpu_puzzles_core::load::{load_puzzle_set, random_cases, read_dir, read_solutions};
use gpu_puzzles_core::report::run::{Context as RunContext, Emulated, RunReport};
use gpu_puzzles_core::timing::Peaks;
use gpu_puzzles_core::{Case, Puzzle, PuzzleSet};
use gpu_puzzles_runner::{
    add_yardsticks, judge_with, measure_peaks, Gpu, RunOptions, YardstickCache,
};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "gpu-puzzles",
    version,
    about = "List, check and judge GPU Puzzles on a real GPU adapter"
)]
struct Cli {
    /// Repository root holding `puzzles/` and `shaders/`.
    #[arg(long, global = true, default_value = ".")]
    root: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the number, slug and title of every puzzle.
    List {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Print every puzzle's cases as JSON (configuration, bindings, initial
    /// contents, expected lengths), e.g. for a hand-written WebGPU harness.
    Export,
    /// Validate the puzzle set, or judge one solution with --puzzle and --solution.
    Check {
        /// Slug of the puzzle to judge (with --solution).
        #[arg(long, requires = "solution")]
        puzzle: Option<String>,
        /// WGSL file to judge (with --puzzle).
        #[arg(long, requires = "puzzle")]
        solution: Option<PathBuf>,
        /// Machine-readable report.
        #[arg(long)]
        json: bool,
        /// Show what the solution's `print(…)` statements printed, case by
        /// case (with --puzzle and --solution).
        #[arg(long, requires = "solution", conflicts_with = "seeds")]
        print: bool,
        /// Seed of the random cases drawn besides the puzzle's own (a new
        /// one each run when absent; a failing random case prints its seed).
        #[arg(long, conflicts_with = "seeds")]
        seed: Option<u64>,
        /// Judge with the random cases of every seed in `FIRST..LAST`
        /// (both included; `FIRST..=LAST` too) and print each seed whose
        /// verdict differs from the first seed's (with --puzzle and
        /// --solution).
        #[arg(long, requires = "solution", value_parser = parse_seeds)]
        seeds: Option<std::ops::RangeInclusive<u64>>,
        /// Puzzles judged at a time when checking the whole set (default:
        /// the CPU's cores). Performance cases are timed one puzzle at a
        /// time on a hardware GPU whatever this is; on a software adapter
        /// `--jobs 1` times them alone too.
        #[arg(long, conflicts_with = "puzzle")]
        jobs: Option<usize>,
    },
}

/// `FIRST..LAST` or `FIRST..=LAST`, both included, `FIRST <= LAST`.
fn parse_seeds(text: &str) -> std::result::Result<std::ops::RangeInclusive<u64>, String> {
    let (a, b) = text
        .split_once("..")
        .ok_or_else(|| format!("`{text}`: write the seeds as FIRST..LAST, e.g. 1..200"))?;
    let b = b.strip_prefix('=').unwrap_or(b);
    let parse = |x: &str| {
        x.trim().parse::<u64>().map_err(|_| format!("`{x}` is not a seed (a whole number from 0)"))
    };
    let (a, b) = (parse(a)?, parse(b)?);
    if a > b {
        return Err(format!("`{text}`: the first seed is after the last"));
    }
    Ok(a..=b)
}

/// The seed of this run's random cases: the one asked for, or a new one.
fn run_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let now =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        (now.as_nanos() as u64 ^ ((std::process::id() as u64) << 32)) % 1_000_000_007
    })
}

/// Case number `n` among the puzzle's cases and then the random ones.
fn case_of<'a>(puzzle: &'a Puzzle, random: &'a [Case], n: usize) -> &'a Case {
    puzzle.cases.get(n - 1).unwrap_or_else(|| &random[n - 1 - puzzle.cases.len()])
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<bool> {
    match cli.command {
        Command::List { json } => {
            let set = load(&cli.root)?;
            list(&set, json)?;
            Ok(true)
        }
        Command::Export => {
            let set = load(&cli.root)?;
            println!("{}", serde_json::to_string(&export(&set))?);
            Ok(true)
        }
        Command::Check {
            puzzle: Some(slug),
            solution: Some(file),
            json,
            seed,
            seeds,
            print,
            ..
        } => {
            let set = load(&cli.root)?;
            let Some(puzzle) = set.get(&slug) else {
                let slugs: Vec<_> = set.puzzles.iter().map(|p| p.slug.as_str()).collect();
                bail!("no puzzle `{slug}`; the puzzles are: {}", slugs.join(", "));
            };
            let source = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let gpu = gpu()?;
            if let Some(seeds) = seeds {
                return sweep_seeds(&gpu, puzzle, &source, seeds, json);
            }
            let seed = run_seed(seed);
            let random = random_cases(puzzle, seed).map_err(anyhow::Error::msg)?;
            let mut results = pollster::block_on(judge_with(
                &gpu,
                puzzle,
                &random,
                &source,
                RunOptions::default(),
            ))?;
            // Performance cases that passed get our reference kernel's and the
            // comparison kernels' times on the same device.
            pollster::block_on(add_yardsticks(
                &gpu,
                puzzle,
                &source,
                &mut results,
                &mut YardstickCache::new(),
            ))?;
            // This GPU's own peaks, to place the performance figures against.
            let peaks = if puzzle.cases.iter().any(|c| c.is_performance()) {
                Some(pollster::block_on(measure_peaks(&gpu))?)
            } else {
                None
            };
            report(puzzle, &random, seed, &file, &gpu, &results, peaks.as_ref(), json)?;
            if !json {
                print_logs(puzzle, &random, &source, &results, print);
            }
            Ok(verdict(&results) == Verdict::Passed)
        }
        Command::Check { json, seed, jobs, .. } => {
            let jobs =
                jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            check_all::check_all(&cli.root, json, run_seed(seed), jobs)
        }
    }
}

fn puzzles_dir(root: &Path) -> Result<PathBuf> {
    let dir = root.join("puzzles");
    if !dir.join("index.toml").is_file() {
        bail!(
            "no puzzles/index.toml under {}: run from the repository root or pass --root <dir>",
            root.display()
        );
    }
    Ok(dir)
}

fn load(root: &Path) -> Result<PuzzleSet> {
    let files = read_dir(&puzzles_dir(root)?).map_err(anyhow::Error::msg)?;
    let solutions = read_solutions(&root.join("shaders")).ok();
    load_puzzle_set(&files, solutions.as_ref()).map_err(|problems| {
        let lines: Vec<String> = problems.iter().map(|p| format!("  puzzles/{p}")).collect();
        anyhow::anyhow!("the puzzle set has {} problem(s):\n{}", problems.len(), lines.join("\n"))
    })
}

/// The puzzle set as plain JSON data.
fn export(set: &PuzzleSet) -> serde_json::Value {
    use serde_json::json;
    let puzzles: Vec<_> = set
        .puzzles
        .iter()
        .map(|p| {
            let cases: Vec<_> = p
                .cases
                .iter()
                .map(|c| {
                    let buffers: Vec<_> = p
                        .buffers
                        .iter()
                        .zip(&c.buffers)
                        .map(|(b, cb)| {
                            // Performance cases hold millions of elements: their
                            // data stays out of the export (`null`).
                            let data: Option<Vec<f64>> = (!c.is_performance()).then(|| (0..cb.initial.len()).map(|i| cb.initial.get(i)).collect());
                            json!({ "name": b.name, "binding": b.binding, "type": b.element.wgsl(), "role": format!("{:?}", b.role), "data": data })
                        })
                        .collect();
                    let uniforms: Vec<_> =
                        p.uniforms.iter().zip(&c.uniforms).map(|(u, bytes)| json!({ "name": u.name, "binding": u.binding, "bytes": bytes })).collect();
                    json!({
                        "case": c.number,
                        "workgroupSize": c.config.workgroup_size,
                        "workgroups": c.config.workgroups,
                        "smemSize": c.config.workgroup_memory_elements(),
                        "buffers": buffers,
                        "uniforms": uniforms,
                        "performance": c.performance.map(|p| json!({ "flops": p.flops, "bytes": p.bytes })),
                    })
                })
                .collect();
            json!({ "number": p.number, "slug": p.slug, "title": p.title, "entryPoints": p.entry_points, "solution": p.solution, "cases": cases })
        })
        .collect();
    json!({ "puzzles": puzzles })
}

fn gpu() -> Result<Gpu> {
    let gpu = pollster::block_on(Gpu::new()).context("cannot judge without a GPU adapter")?;
    Ok(gpu)
}

fn list(set: &PuzzleSet, json: bool) -> Result<()> {
    #[derive(Serialize)]
    struct Row<'a> {
        number: usize,
        slug: &'a str,
        title: &'a str,
        /// The chapter's title; absent for a set without chapters.
        #[serde(skip_serializing_if = "Option::is_none")]
        chapter: Option<&'a str>,
        cases: usize,
        hidden: usize,
    }
    let rows: Vec<Row> = set
        .puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| Row {
            number: p.number,
            slug: &p.slug,
            title: &p.title,
            chapter: set.chapter_of(i).map(|c| c.title.as_str()),
            cases: p.cases.len(),
            hidden: p.cases.iter().filter(|c| c.hidden).count(),
        })
        .collect();
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        // Written line by line; a reader that stops early (`| head`) ends the
        // listing quietly.
        let mut out = std::io::stdout().lock();
        let written = rows.iter().enumerate().try_for_each(|(i, r)| {
            if let Some(c) = set.chapters.iter().find(|c| c.first == i) {
                writeln!(out, "{}{} ({} puzzles)", if i == 0 { "" } else { "\n" }, c.title, c.len)?;
            }
            writeln!(out, "{:>3}  {:<22} {}", r.number, r.slug, r.title)
        });
        match written {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
            _ => {}
        }
    }
    Ok(())
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
    use gpu_puzzles_core::print::{sites, PrintLog, LOG_WORDS};
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

/// One seed's verdict in a sweep, and the first random case that failed.
#[derive(Serialize)]
struct SeedVerdict {
    seed: u64,
    status: Verdict,
    /// The first failing random case: its name and summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    failed: Option<String>,
}

/// `--seeds`: the written cases are judged once; each seed's random cases
/// are judged on their own and added to them. Prints each seed whose
/// verdict differs from the first seed's, then the count and the time.
/// `Ok(true)` when every seed passed.
fn sweep_seeds(
    gpu: &Gpu,
    puzzle: &Puzzle,
    source: &str,
    seeds: std::ops::RangeInclusive<u64>,
    json: bool,
) -> Result<bool> {
    let started = std::time::Instant::now();
    let written = pollster::block_on(judge_with(gpu, puzzle, &[], source, RunOptions::default()))?;
    if let Some(r) = written.iter().find(|r| r.outcome.failed()) {
        let case = &puzzle.cases[r.case - 1];
        if json {
            println!(
                "{}",
                serde_json::json!({ "puzzle": puzzle.slug, "status": Verdict::Failed, "written_case_failed": format!("case {}: {}", r.case, r.outcome.summary()), "seeds": [] })
            );
        } else {
            println!(
                "{}: written case {} ({}) fails: {}",
                puzzle.title,
                r.case,
                case.name,
                r.outcome.summary()
            );
            println!("  so the verdict is failed on every seed; no random case was drawn");
        }
        return Ok(false);
    }
    // Only the random cases, numbered after the written ones as in a Run.
    let mut only_random = puzzle.clone();
    only_random.cases.clear();
    let mut verdicts = Vec::new();
    for seed in seeds.clone() {
        let random = random_cases(puzzle, seed).map_err(anyhow::Error::msg)?;
        let results = pollster::block_on(judge_with(
            gpu,
            &only_random,
            &random,
            source,
            RunOptions::default(),
        ))?;
        let status = verdict(&written.iter().chain(&results).cloned().collect::<Vec<_>>());
        let failed = results.iter().find(|r| r.outcome.failed()).map(|r| {
            let name = random
                .iter()
                .find(|c| c.number == r.case)
                .map_or("a random case", |c| c.name.as_str());
            format!("{name}: {}", r.outcome.summary())
        });
        verdicts.push(SeedVerdict { seed, status, failed });
    }
    let first = verdicts.first().map(|v| v.status).unwrap_or(Verdict::Passed);
    let differing: Vec<&SeedVerdict> = verdicts.iter().filter(|v| v.status != first).collect();
    let secs = started.elapsed().as_secs_f64();
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({ "puzzle": puzzle.slug, "seeds": verdicts, "seconds": secs })
            )?
        );
    } else {
        println!(
            "{}: seeds {}..={} on {}",
            puzzle.title,
            seeds.start(),
            seeds.end(),
            gpu.adapter().name
        );
        let word = |v: Verdict| if v == Verdict::Passed { "passed" } else { "failed" };
        let show = |v: &SeedVerdict| {
            println!(
                "  seed {}: {}{}",
                v.seed,
                word(v.status),
                v.failed.as_ref().map(|f| format!(" ({f})")).unwrap_or_default()
            )
        };
        if let Some(v) = verdicts.first() {
            show(v);
        }
        for v in &differing {
            show(v);
        }
        if differing.is_empty() {
            println!(
                "  the same verdict, {}, on all {} seeds ({secs:.1} s)",
                word(first),
                verdicts.len()
            );
        } else {
            println!(
                "  {} of {} seeds give a verdict other than seed {}'s ({secs:.1} s)",
                differing.len(),
                verdicts.len(),
                seeds.start()
            );
        }
    }
    Ok(verdicts.iter().all(|v| v.status == Verdict::Passed))
}
