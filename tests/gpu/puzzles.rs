//! Native GPU tests on a real adapter (lavapipe where there is no GPU), one
//! named test each, so `cargo test -p gpu-puzzles-tests map` runs the Map
//! puzzle's tests:
//!
//! - `<slug>::reference` — the reference solution passes every case;
//! - `<slug>::starter` — the starter, as shipped, runs and fails with a
//!   mismatch (it compiles, and its unused bindings are accepted);
//! - `<slug>::<label>` — each file `solutions/<slug>--<label>.wgsl` meets the
//!   expectation on its first line: `// expect: passed`, `failed`,
//!   `config-error`, `compile-error`, or `compile-error at LINE:COL`.
//!
//! A machine with no adapter fails every test with a message saying how to
//! get one; nothing passes silently.

use gpu_puzzles_core::judge::{verdict, CaseResult, Outcome, Verdict};
use gpu_puzzles_core::load::{load_puzzle_set, read_dir, read_solutions};
use gpu_puzzles_core::{Puzzle, PuzzleSet};
use gpu_puzzles_runner::{judge_puzzle, Gpu};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One device for the whole run, created on first use.
fn gpu() -> Result<&'static Gpu, Failed> {
    static GPU: OnceLock<Result<Gpu, String>> = OnceLock::new();
    GPU.get_or_init(|| pollster::block_on(Gpu::new()).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| Failed::from(format!("no GPU adapter, so nothing can be judged: {e}")))
}

fn judge(puzzle: &Puzzle, source: &str) -> Result<Vec<CaseResult>, Failed> {
    pollster::block_on(judge_puzzle(gpu()?, puzzle, source)).map_err(|e| Failed::from(e.to_string()))
}

fn describe(results: &[CaseResult]) -> String {
    results.iter().map(|r| format!("case {}: {}", r.case, r.outcome.summary())).collect::<Vec<_>>().join("\n")
}

fn check_expectation(puzzle: &Puzzle, source: &str) -> Result<(), Failed> {
    let expect = source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// expect:"))
        .map(str::trim)
        .ok_or("the file's first line must be `// expect: …`")?;
    let results = judge(puzzle, source)?;
    let all = |f: &dyn Fn(&Outcome) -> bool| results.iter().all(|r| f(&r.outcome));
    let ok = match expect {
        "passed" => verdict(&results) == Verdict::Passed,
        "failed" => verdict(&results) == Verdict::Failed && all(&|o| !matches!(o, Outcome::CompileError { .. } | Outcome::ConfigError { .. })),
        "config-error" => all(&|o| matches!(o, Outcome::ConfigError { .. })),
        "compile-error" => all(&|o| matches!(o, Outcome::CompileError { .. })),
        other => match other.strip_prefix("compile-error at ") {
            Some(pos) => {
                let (line, col) = pos.split_once(':').ok_or("expected `LINE:COL`")?;
                let (line, col): (usize, usize) = (line.parse().map_err(|_| "bad line")?, col.parse().map_err(|_| "bad column")?);
                all(&|o| match o {
                    Outcome::CompileError { diagnostics } => diagnostics.first().is_some_and(|d| d.line == Some(line) && d.column == Some(col)),
                    _ => false,
                })
            }
            None => return Err(format!("unknown expectation `{other}`").into()),
        },
    };
    if ok {
        Ok(())
    } else {
        Err(format!("expected {expect}, got:\n{}", describe(&results)).into())
    }
}

fn main() {
    let args = Arguments::from_args();
    let files = read_dir(&root().join("puzzles")).expect("puzzles/ is readable");
    let solutions = read_solutions(&root().join("shaders")).expect("shaders/ is readable");
    let set: Arc<PuzzleSet> = match load_puzzle_set(&files, Some(&solutions)) {
        Ok(s) => Arc::new(s),
        Err(problems) => panic!("the puzzle set has problems: {problems:#?}"),
    };
    assert!(!set.puzzles.is_empty(), "no puzzles found");
    let mut trials = Vec::new();
    for (i, p) in set.puzzles.iter().enumerate() {
        let slug = p.slug.clone();
        let s = set.clone();
        trials.push(Trial::test(format!("{slug}::reference"), move || {
            let p = &s.puzzles[i];
            let source = p.solution.as_deref().ok_or("no reference solution in shaders/")?;
            let results = judge(p, source)?;
            if verdict(&results) == Verdict::Passed {
                Ok(())
            } else {
                Err(format!("the reference solution fails:\n{}", describe(&results)).into())
            }
        }));
        let s = set.clone();
        trials.push(Trial::test(format!("{slug}::starter"), move || {
            let p = &s.puzzles[i];
            let results = judge(p, &p.starter)?;
            if results.iter().all(|r| matches!(r.outcome, Outcome::Mismatch { .. })) {
                Ok(())
            } else {
                Err(format!("the starter must compile, run and give wrong outputs on every case:\n{}", describe(&results)).into())
            }
        }));
    }
    let dir = root().join("tests/gpu/solutions");
    let mut entries: Vec<_> = std::fs::read_dir(&dir).expect("tests/gpu/solutions is readable").map(|e| e.unwrap().path()).collect();
    entries.sort();
    assert!(!entries.is_empty(), "no files in tests/gpu/solutions");
    for path in entries {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let (slug, label) = name.split_once("--").unwrap_or_else(|| panic!("{name}: name files <slug>--<label>.wgsl"));
        let i = set.position(slug).unwrap_or_else(|| panic!("{name}: no puzzle `{slug}`"));
        let source = std::fs::read_to_string(&path).unwrap();
        let s = set.clone();
        trials.push(Trial::test(format!("{slug}::{label}"), move || check_expectation(&s.puzzles[i], &source)));
    }
    libtest_mimic::run(&args, trials).exit();
}
