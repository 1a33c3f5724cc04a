//! The interpreter on the shipped puzzles, with no GPU: every reference
//! solution and comparison kernel passes every ordinary case, emulated
//! under every schedule, and every starter fails. (Agreement with the GPU
//! runner, case by case, is checked on a real adapter in
//! `tests/gpu/emulate.rs`.)

use gpu_puzzles_core::judge::{verdict, CaseResult, Verdict};
use gpu_puzzles_core::load::{load_puzzle_set, read_dir, read_solutions};
use gpu_puzzles_core::PuzzleSet;
use gpu_puzzles_interp::emulate::judge_puzzle;
use std::path::Path;

fn set() -> PuzzleSet {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = read_dir(&root.join("puzzles")).expect("puzzles/ is readable");
    let solutions = read_solutions(&root.join("shaders")).expect("shaders/ is readable");
    load_puzzle_set(&files, Some(&solutions)).expect("the shipped set loads")
}

fn describe(results: &[CaseResult]) -> String {
    results.iter().map(|r| format!("case {}: {}", r.case, r.outcome.summary())).collect::<Vec<_>>().join("\n")
}

#[test]
fn every_reference_solution_passes_emulated() {
    let set = set();
    assert!(set.puzzles.len() > 20, "the shipped set has its puzzles");
    let mut failures = Vec::new();
    for p in &set.puzzles {
        let source = p.solution.as_deref().expect("a reference solution");
        for (label, source) in std::iter::once(("reference", source)).chain(p.comparisons.iter().map(|c| (c.label.as_str(), c.source.as_str()))) {
            match judge_puzzle(p, &[], source) {
                Ok(results) if verdict(&results) == Verdict::Passed => {}
                Ok(results) => failures.push(format!("{} ({label}):\n{}", p.slug, describe(&results))),
                Err(e) => failures.push(format!("{} ({label}): {}", p.slug, e.message)),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_starter_fails_emulated() {
    let set = set();
    let mut failures = Vec::new();
    for p in &set.puzzles {
        match judge_puzzle(p, &[], &p.starter) {
            Ok(results) if verdict(&results) == Verdict::Failed => {}
            Ok(results) => failures.push(format!("{}:\n{}", p.slug, describe(&results))),
            Err(e) => failures.push(format!("{}: {}", p.slug, e.message)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
