//! `gpu-puzzles`: the command-line tool for workshop hosts and CI.
//!
//! One module per subcommand; this file parses the command line and loads
//! the puzzle set.
//!
//! - `gpu-puzzles list [--json]`: number, slug and title of every puzzle
//!   (`list.rs`, with `export`, every case as JSON).
//! - `gpu-puzzles check [--jobs N]`: validates every puzzle folder and
//!   judges every starter (must fail) and reference solution (must pass)
//!   on a real GPU, N puzzles at a time (`check_all.rs`).
//! - `gpu-puzzles check --puzzle <slug> --solution <file.wgsl> [--json]`:
//!   judges one solution file; exit status 0 only when every case passed.
//!   With `--print`, also the lines its `print(…)` statements printed, case
//!   by case (`--json` carries them in each case's findings) (`check_one.rs`).
//! - `gpu-puzzles check --puzzle <slug> --solution <file.wgsl> --seeds 1..200`:
//!   judges it with the random cases of every seed of the range, and prints
//!   each seed whose verdict differs from the first seed's; exit status 0
//!   only when every seed passed (`seeds.rs`).
//! - `gpu-puzzles generate --prompt <text> [--tokens N] [--kernel slug=file.wgsl]`:
//!   the capstone: the model of `models/generate/` writes text on the GPU
//!   with the chapter's kernels (the references, or the files given, each
//!   judged against its puzzle first and refused unless it passes, as the
//!   page does), every kernel checked against the CPU at every token; exit
//!   status 0 only when every kernel agreed (`generate.rs`).
//! - `gpu-puzzles show --puzzle <slug> --solution <file.wgsl> --target <t>`:
//!   the kernel as a driver receives it for one case: `wgsl` (placeholders
//!   filled in), `msl`, `hlsl`, `spirv` (disassembled), `glsl` (naga's
//!   translations) or `instrumented` (what the judge dispatches) (`show.rs`).

mod check_all;
mod check_one;
mod generate;
mod images;
mod list;
mod seeds;
mod show;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use gpu_puzzles_core::load::{load_puzzle_set, read_dir, read_solutions};
use gpu_puzzles_core::{Case, Puzzle, PuzzleSet};
use gpu_puzzles_runner::Gpu;
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
        /// Write each shown case's 2-D buffers as PNG files into this
        /// folder (created if missing): input, expected, actual, and the
        /// difference marking the wrong pixels (with --puzzle and
        /// --solution).
        #[arg(long, value_name = "DIR", requires = "solution", conflicts_with = "seeds")]
        images: Option<PathBuf>,
        /// Play each shown case of several dispatches (a simulation's
        /// steps) on the GPU and write its 2-D buffers after each step as
        /// PNG files into this folder (created if missing), at most 240
        /// frames a case, and the kernel's steps per second (with --puzzle
        /// and --solution).
        #[arg(long, value_name = "DIR", requires = "solution", conflicts_with = "seeds")]
        frames: Option<PathBuf>,
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
    /// Write text with the capstone's model, on the GPU, with the chapter's
    /// kernels (the references unless --kernel gives a file), checking every
    /// kernel against the CPU at every token.
    Generate {
        /// The text fed first (characters of the model's vocabulary).
        #[arg(long, default_value = "In the beginning")]
        prompt: String,
        /// Characters to generate after the prompt.
        #[arg(long, default_value_t = 200)]
        tokens: usize,
        /// Top-k sampling's k (1 to 64).
        #[arg(long, default_value_t = 8)]
        k: u32,
        /// Sampling's temperature (above 0).
        #[arg(long, default_value_t = 0.8)]
        temperature: f32,
        /// Seed of the uniform numbers the samples are drawn with.
        #[arg(long, default_value_t = 7)]
        seed: u64,
        /// A kernel of yours in place of the reference: SLUG=FILE.wgsl
        /// (rms-norm, gemv-q8, rope, decode-attention, top-k-sampling);
        /// repeat for several.
        #[arg(long = "kernel")]
        kernels: Vec<String>,
        /// Machine-readable report.
        #[arg(long)]
        json: bool,
        /// Multiply by the weights dequantised to f32 with the `gemv`
        /// puzzle's kernel instead of the int8 ones with `gemv-q8`'s: the
        /// straightforward implementation, for comparing speed.
        #[arg(long)]
        f32: bool,
    },
    /// Print a kernel as a GPU's driver receives it for one case: naga's
    /// translation to MSL (Metal), HLSL (Direct3D 12), SPIR-V (Vulkan,
    /// disassembled) or GLSL (OpenGL ES, the first entry point), the WGSL
    /// with the case's placeholders filled in, or the instrumented WGSL the
    /// judge dispatches. Browsers and drivers compile again: this is naga's
    /// translation, as wgpu makes it natively and in Firefox.
    Show {
        /// Slug of the puzzle.
        #[arg(long)]
        puzzle: String,
        /// WGSL file to show.
        #[arg(long)]
        solution: PathBuf,
        /// Number of the written case whose configuration fills the
        /// placeholders (`{{workgroupSize}}`, …).
        #[arg(long, default_value_t = 1)]
        case: usize,
        /// What to print: wgsl, instrumented, msl, hlsl, spirv or glsl.
        #[arg(long)]
        target: String,
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
            list::list(&set, json)?;
            Ok(true)
        }
        Command::Export => {
            let set = load(&cli.root)?;
            println!("{}", serde_json::to_string(&list::export(&set))?);
            Ok(true)
        }
        Command::Check {
            puzzle: Some(slug),
            solution: Some(file),
            json,
            seed,
            seeds,
            print,
            images,
            frames,
            ..
        } => check_one::check_one(
            &cli.root,
            &slug,
            &file,
            check_one::Show { json, print, images: images.as_deref(), frames: frames.as_deref() },
            seed,
            seeds,
        ),
        Command::Check { json, seed, jobs, .. } => {
            let jobs =
                jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            check_all::check_all(&cli.root, json, run_seed(seed), jobs)
        }
        Command::Show { puzzle, solution, case, target } => {
            show::show(&cli.root, &puzzle, &solution, case, &target)
        }
        Command::Generate { prompt, tokens, k, temperature, seed, kernels, json, f32 } => {
            let weights = if f32 {
                gpu_puzzles_runner::generate::Weights::F32
            } else {
                gpu_puzzles_runner::generate::Weights::Q8
            };
            let options =
                generate::Options { prompt, tokens, k, temperature, seed, kernels, json, weights };
            generate::generate(&cli.root, &options)
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

fn gpu() -> Result<Gpu> {
    let gpu = pollster::block_on(Gpu::new()).context("cannot judge without a GPU adapter")?;
    Ok(gpu)
}
