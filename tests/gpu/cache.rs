//! The device's cache of compiled shaders on a real adapter (lavapipe where
//! there is no GPU): a second Run of the same code compiles nothing and
//! judges exactly as the first, findings included (for a racing shader,
//! whose findings depend on the order the invocations ran in, the same
//! outcome); changed code compiles again.

use gpu_puzzles_core::load::{load_puzzle_set, read_dir, read_solutions};
use gpu_puzzles_core::PuzzleSet;
use gpu_puzzles_runner::{judge_puzzle, Gpu, RunOptions};
use std::path::Path;

fn set() -> PuzzleSet {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = read_dir(&root.join("puzzles")).expect("puzzles/");
    let solutions = read_solutions(&root.join("shaders")).expect("shaders/");
    load_puzzle_set(&files, Some(&solutions)).expect("a valid puzzle set")
}

#[test]
fn a_second_run_of_unchanged_code_compiles_nothing_and_judges_the_same() {
    let set = set();
    let gpu = pollster::block_on(Gpu::new())
        .expect("a GPU adapter (lavapipe: apt install mesa-vulkan-drivers)");
    for slug in ["shared", "histogram", "tree-reduction"] {
        let puzzle = set.get(slug).unwrap();
        for (source, deterministic) in
            [(puzzle.solution.clone().unwrap(), true), (puzzle.starter.clone(), false)]
        {
            let judge = || {
                pollster::block_on(judge_puzzle(&gpu, puzzle, &source, RunOptions::default()))
                    .unwrap()
            };
            let first = judge();
            let compiled = gpu.compiled_shaders();
            assert!(compiled > 0, "{slug}: the first Run compiled its shaders");
            let second = judge();
            assert_eq!(gpu.compiled_shaders(), compiled, "{slug}: the second Run compiled again");
            assert_eq!(first.len(), second.len());
            for (a, b) in first.iter().zip(&second) {
                assert_eq!(a.outcome.status(), b.outcome.status(), "{slug}, case {}", a.case);
                if deterministic {
                    assert_eq!(a.outcome, b.outcome, "{slug}, case {}", a.case);
                    assert_eq!(a.findings, b.findings, "{slug}, case {}", a.case);
                    assert_eq!(a.actual, b.actual, "{slug}, case {}", a.case);
                }
            }
        }
    }
    // Changed code is compiled afresh.
    let puzzle = set.get("map").unwrap();
    let before = gpu.compiled_shaders();
    let source = puzzle.solution.clone().unwrap() + "\n// changed\n";
    let results =
        pollster::block_on(judge_puzzle(&gpu, puzzle, &source, RunOptions::default())).unwrap();
    assert!(results.iter().all(|r| r.outcome.passed()));
    assert!(gpu.compiled_shaders() > before, "changed code compiled again");
}

/// A Run substitutes and parses the student's text once per distinct case
/// configuration, whatever checks it makes (the GPU run plain and
/// instrumented, the interpreter's CPU checks, the order and subgroup
/// checks, the lesson check), and a Run of unchanged code not at all: the
/// counts of [`substitutions`] and [`parses`] on the thread that awaits the
/// Run, where every substitution and parse of a Run happens (its helper
/// threads only run the prepared program).
#[test]
fn a_run_prepares_each_distinct_case_once() {
    use gpu_puzzles_core::template::substitutions;
    use gpu_puzzles_instrument::parses;
    use gpu_puzzles_interp::PreparedShader;
    let set = set();
    let gpu = pollster::block_on(Gpu::new())
        .expect("a GPU adapter (lavapipe: apt install mesa-vulkan-drivers)");
    // Tree Reduction: several workgroup sizes among its cases; Subgroup Sum:
    // a lesson and subgroups (the subgroup sweep); both with random cases.
    for slug in ["tree-reduction", "subgroup-sum"] {
        let puzzle = set.get(slug).unwrap();
        let extra = gpu_puzzles_core::load::random_cases(puzzle, 11).expect("random cases");
        for (k, options) in
            [RunOptions::default(), RunOptions { instrument: true, cpu_checks: true }]
                .into_iter()
                .enumerate()
        {
            // Text no earlier Run met, so nothing is kept for it.
            let source =
                format!("{}\n// a Run with options {k}\n", puzzle.solution.as_deref().unwrap());
            let all = puzzle.cases.iter().chain(&extra);
            let distinct: std::collections::HashSet<u64> =
                all.map(|c| PreparedShader::key_of(puzzle, &source, &c.config)).collect();
            assert!(
                distinct.len() > 1 || slug == "subgroup-sum",
                "{slug}: cases of several configurations"
            );
            let before = (parses(), substitutions());
            let results = pollster::block_on(gpu_puzzles_runner::judge_with(
                &gpu, puzzle, &extra, &source, options,
            ))
            .unwrap();
            assert!(
                results.iter().all(|r| r.outcome.passed() || r.outcome.status() == "omitted"),
                "{slug}: {:?}",
                results.iter().map(|r| r.outcome.status()).collect::<Vec<_>>()
            );
            assert_eq!(
                parses() - before.0,
                distinct.len(),
                "{slug}, options {options:?}: naga parses in one Run"
            );
            assert_eq!(
                substitutions() - before.1,
                distinct.len(),
                "{slug}, options {options:?}: substitutions in one Run"
            );
            let before = (parses(), substitutions());
            pollster::block_on(gpu_puzzles_runner::judge_with(
                &gpu, puzzle, &extra, &source, options,
            ))
            .unwrap();
            assert_eq!(
                (parses(), substitutions()),
                before,
                "{slug}, options {options:?}: a Run of unchanged code parsed or substituted"
            );
        }
    }
}
