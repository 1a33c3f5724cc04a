//! Test-only crate; see `puzzles.rs`. What its test binaries share: the
//! repository's root, the shipped puzzle set, a device per test thread,
//! and the judgements, each made once whichever device made it.

use gpu_puzzles_core::load::{load_puzzle_set, random_cases, read_dir, read_solutions};
use gpu_puzzles_core::{Case, Puzzle, PuzzleSet};
use gpu_puzzles_interp::emulate;
use gpu_puzzles_runner::{judge_with, Gpu, RunOptions};
use gpu_puzzles_verdict::judge::CaseResult;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `puzzles/` with the reference solutions of `shaders/`.
///
/// # Panics
/// When the set does not load: every test needs it.
pub fn shipped_set() -> PuzzleSet {
    let files = read_dir(&root().join("puzzles")).expect("puzzles/ is readable");
    let solutions = read_solutions(&root().join("shaders")).expect("shaders/ is readable");
    match load_puzzle_set(&files, Some(&solutions)) {
        Ok(s) => s,
        Err(problems) => panic!("the puzzle set has problems: {problems:#?}"),
    }
}

/// A device for the calling thread, created on its first use and kept for
/// the rest of the binary: one per test thread (libtest-mimic's workers are
/// fixed threads that each run many trials; under libtest, which gives each
/// test a thread of its own, one per test).
///
/// One device per thread, not one per binary: a device compiles its shaders
/// one at a time (seen on lavapipe), so with one device the test threads took turns
/// and a machine with Mesa's shader cache cold compiled on one core while
/// the other idled (docs/performance.md, 2026-11-28, eleventh session).
///
/// # Errors
/// No adapter: the message says so, and every test that needs one fails.
pub fn gpu() -> Result<&'static Gpu, String> {
    thread_local! {
        static GPU: std::cell::OnceCell<Result<&'static Gpu, String>> =
            const { std::cell::OnceCell::new() };
    }
    GPU.with(|cell| {
        cell.get_or_init(|| {
            // Leaked on purpose: a device lives as long as its thread,
            // which lives as long as the binary.
            pollster::block_on(Gpu::new())
                .map(|g| &*Box::leak(Box::new(g)))
                .map_err(|e| e.to_string())
        })
        .clone()
    })
    .map_err(|e| format!("no GPU adapter, so nothing can be judged: {e}"))
}

/// One judgement on [`gpu`], shared by every test that asks for it.
type Judgement = Arc<OnceLock<Result<Arc<Vec<CaseResult>>, String>>>;

/// What a judgement is of: the puzzle's slug, the source, the random
/// cases' seed, and whether the CPU checked the cases first
/// ([`RunOptions::cpu_checks`], as in a browser).
type JudgementKey = (String, String, Option<u64>, bool);

/// The GPU's judgement of `source` on `puzzle`'s cases and, with a seed,
/// the random cases of that seed ([`random_cases`], numbered after the
/// puzzle's), made once per test binary: the expectation tests and the
/// interpreter's comparison judge the same kernels, and a judgement on
/// lavapipe is the slow part of both. Tests that run at the same time and
/// ask for the same judgement wait for the one that makes it.
///
/// With a seed, or with [`RunOptions::cpu_checks`], the puzzle's
/// performance cases are left out (no result for them): a seed's judgement
/// is for its random cases, and the CPU checks change how ordinary cases
/// run, not performance cases; the same kernel's performance cases are
/// timed in its plain judgement (no seed, instrumented), which every
/// kernel's trials make too. Timing them again on lavapipe (a 1024³
/// product per kernel) cost more than the rest of those judgements.
///
/// # Errors
/// No adapter, a generator that draws no case, or the runner's error, as
/// text.
pub fn judged(
    puzzle: &Puzzle,
    source: &str,
    seed: Option<u64>,
) -> Result<Arc<Vec<CaseResult>>, String> {
    judged_with(puzzle, source, seed, RunOptions::default())
}

/// [`judged`] with `options`: natively every case runs instrumented
/// ([`RunOptions::default`]); a browser's worker also sets
/// [`RunOptions::cpu_checks`].
///
/// # Errors
/// As [`judged`].
pub fn judged_with(
    puzzle: &Puzzle,
    source: &str,
    seed: Option<u64>,
    options: RunOptions,
) -> Result<Arc<Vec<CaseResult>>, String> {
    static MADE: OnceLock<Mutex<HashMap<JudgementKey, Judgement>>> = OnceLock::new();
    let key = (puzzle.slug.clone(), source.to_string(), seed, options.cpu_checks);
    let slot = MADE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_default()
        .clone();
    slot.get_or_init(|| {
        let extra = match seed {
            Some(seed) => {
                let random = random_cases(puzzle, seed).map_err(|e| e.to_string())?;
                if puzzle.generator.is_some() && random.is_empty() {
                    return Err(format!("seed {seed}: the generator drew no case"));
                }
                random
            }
            None => Vec::new(),
        };
        let without_performance;
        let judged_puzzle = if (seed.is_some() || options.cpu_checks)
            && puzzle.cases.iter().any(Case::is_performance)
        {
            let mut p = puzzle.clone();
            p.cases.retain(|c| !c.is_performance());
            // Performance cases come last, so the rest keep their numbers.
            if p.cases.iter().enumerate().any(|(i, c)| c.number != i + 1) {
                return Err(format!("{}: a performance case before an ordinary one", puzzle.slug));
            }
            without_performance = p;
            &without_performance
        } else {
            puzzle
        };
        let results =
            pollster::block_on(judge_with(gpu()?, judged_puzzle, &extra, source, options))
                .map_err(|e| e.to_string())?;
        Ok(Arc::new(results))
    })
    .clone()
}

/// One case's judgement by the interpreter, shared like a [`Judgement`].
type Emulation = Arc<OnceLock<Result<CaseResult, String>>>;

/// What an emulated case is of: the puzzle's slug, the source, the case's
/// number and random seed, and the subgroup size.
type EmulationKey = (String, String, usize, Option<u64>, u32);

/// The interpreter's judgement of `source` on `puzzle`'s ordinary cases
/// and then `extra`, under every schedule
/// ([`emulate::judge_puzzle_at`]), with each case's result made once per
/// test binary: the comparison with the GPU (`emulate::`) and the seed
/// sweep (`seeds::`) judge the same kernels on the same written cases, and
/// on the larger puzzles that is most of either trial's time. A shader
/// that uses no subgroups runs the same whatever `subgroup_size` is, so its
/// results are kept under [`gpu_puzzles_interp::subgroup::DEFAULT_SIZE`]
/// and shared between sizes.
///
/// # Errors
/// The interpreter's [`emulate::Unjudged`] message.
pub fn emulated(
    puzzle: &Puzzle,
    extra: &[Case],
    source: &str,
    subgroup_size: u32,
) -> Result<Vec<CaseResult>, String> {
    static MADE: OnceLock<Mutex<HashMap<EmulationKey, Emulation>>> = OnceLock::new();
    let size = if gpu_puzzles_core::wgsl::uses_subgroups(source) {
        subgroup_size
    } else {
        gpu_puzzles_interp::subgroup::DEFAULT_SIZE
    };
    let run = |case: &Case| {
        let key = (puzzle.slug.clone(), source.to_string(), case.number, case.random_seed, size);
        let slot = MADE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(key)
            .or_default()
            .clone();
        slot.get_or_init(|| {
            emulate::run_case_at(puzzle, case, source, &emulate::SCHEDULES, size)
                .map_err(|e| e.message)
        })
        .clone()
        .map_err(|message| emulate::Unjudged { message })
    };
    emulate::judge_puzzle_with(puzzle, extra, source, run).map_err(|e| e.message)
}

/// A file of `tests/gpu/solutions/`: `<slug>--<label>.wgsl`, whose first
/// line is `// expect: …` (see `puzzles.rs`).
#[derive(Debug, Clone)]
pub struct Held {
    /// The puzzle's slug.
    pub slug: String,
    /// What the file shows, e.g. `assumes-power-of-two`.
    pub label: String,
    /// The WGSL source.
    pub source: String,
    /// The expectation after `// expect:`, e.g. `failed`.
    pub expect: String,
}

/// Every held solution, in file-name order.
///
/// # Panics
/// A file not named `<slug>--<label>.wgsl` or without its `// expect:`
/// line, or an empty folder: the tests need them all.
pub fn held_solutions() -> Vec<Held> {
    let dir = root().join("tests/gpu/solutions");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/gpu/solutions is readable")
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no files in tests/gpu/solutions");
    paths
        .iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let (slug, label) = name
                .split_once("--")
                .unwrap_or_else(|| panic!("{name}: name files <slug>--<label>.wgsl"));
            let source = std::fs::read_to_string(path).unwrap();
            let expect = source
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("// expect:"))
                .map(|e| e.trim().to_string());
            let expect =
                expect.unwrap_or_else(|| panic!("{name}: the first line must be `// expect: …`"));
            Held { slug: slug.to_string(), label: label.to_string(), source, expect }
        })
        .collect()
}

/// Wall time of every trial that ran in this binary, in the order they
/// ended, for [`print_slowest`].
static TRIAL_TIMES: Mutex<Vec<(String, std::time::Duration)>> = Mutex::new(Vec::new());

/// A libtest-mimic trial named `name` whose wall time is recorded for
/// [`print_slowest`]. Trials share the binary's cached judgements, so the
/// first trial to need one is charged for making it.
pub fn trial(
    name: impl Into<String>,
    run: impl FnOnce() -> Result<(), libtest_mimic::Failed> + Send + 'static,
) -> libtest_mimic::Trial {
    let name = name.into();
    let key = name.clone();
    libtest_mimic::Trial::test(name, move || {
        let start = std::time::Instant::now();
        let result = run();
        TRIAL_TIMES.lock().unwrap_or_else(|e| e.into_inner()).push((key, start.elapsed()));
        result
    })
}

/// Prints the `n` slowest trials that ran and the sum of every trial's wall
/// time (seconds), so CI's log shows where the binary's time goes.
pub fn print_slowest(n: usize) {
    let mut times = TRIAL_TIMES.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if times.is_empty() {
        return;
    }
    times.sort_by_key(|t| std::cmp::Reverse(t.1));
    let total: f64 = times.iter().map(|t| t.1.as_secs_f64()).sum();
    println!("\n{} trials ran, {total:.1} s of trial time in all; by kind:", times.len());
    let mut kinds: std::collections::BTreeMap<&str, (usize, f64)> = Default::default();
    for (name, took) in &times {
        const KINDS: [&str; 5] = ["seeds", "emulate", "cpu-checks", "helper", "prints"];
        let first = name.split("::").next().unwrap_or_default();
        let kind = KINDS.into_iter().find(|k| *k == first).unwrap_or("judged on the GPU");
        let entry = kinds.entry(kind).or_default();
        entry.0 += 1;
        entry.1 += took.as_secs_f64();
    }
    for (kind, (n, secs)) in &kinds {
        println!("{secs:8.1} s  {n:5} trials  {kind}");
    }
    println!("the slowest:");
    for (name, took) in times.iter().take(n) {
        println!("{:8.2} s  {name}", took.as_secs_f64());
    }
}
