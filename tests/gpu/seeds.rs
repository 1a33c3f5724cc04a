//! A verdict must not depend on the random draw: every reference solution
//! and every held solution of `solutions/` is judged by the CPU interpreter
//! (no GPU) on the random cases of seeds 1 to [`SEEDS`]
//! ([`SUBGROUP_SEEDS`] for a shader that uses subgroups,
//! [`PASSING_HELD_SEEDS`] for a held kernel that expects to pass),
//! and the verdict of every seed must be the one its expectation names:
//! passed for a reference and for `// expect: passed`, failed for every
//! wrong solution. A seed that gives another verdict fails the test, naming
//! the seed and the case. One named test per puzzle and kernel:
//! `seeds::<slug>::<kernel>`.
//!
//! Random cases run in one schedule (lockstep): what depends on the draw
//! is sizes and values, and the race detector flags a race in any
//! schedule; the written cases are judged in all three, as a Run judges
//! them. The written cases are judged once: when one of them fails, every seed's
//! verdict is failed whatever its random cases give, so only a kernel that
//! passes the written cases has its random cases judged seed by seed, and
//! a seed's random cases only up to the first that fails (which decides
//! its verdict).
//! Files expecting a compile or configuration error are left out (they
//! never reach a case), and so are `failed in random cases` files: they
//! special-case the written cases' sizes on purpose, which no written case
//! can catch, to test how a failing random case is shown. Performance
//! cases are not judged (the interpreter does not time).
//!
//! These trials run in the `puzzles` binary: the written cases' judgement
//! of each kernel is the one the comparison with the GPU (`emulate.rs`)
//! makes, made once for both ([`gpu_puzzles_tests::emulated`]).

use gpu_puzzles_core::load::random_cases;
use gpu_puzzles_core::{Puzzle, PuzzleSet};
use gpu_puzzles_interp::emulate::{self, SCHEDULES};
use gpu_puzzles_interp::subgroup::DEFAULT_SIZE;
use gpu_puzzles_tests::{emulated, held_solutions, trial};
use gpu_puzzles_verdict::judge::{verdict, CaseResult, Verdict};
use libtest_mimic::{Failed, Trial};
use std::sync::Arc;

/// The last seed swept; the first is 1. It was 200 until 2026-11-29:
/// halved for CI's time (the sweep was the native suite's largest part),
/// which still draws every generator's random cases a hundred times per
/// kernel (docs/performance.md, eighteenth session).
const SEEDS: u64 = 100;

/// The last seed swept for a shader that uses subgroups: each of its cases
/// runs again at every subgroup size (up to six more runs), so 25 seeds
/// judge more runs than 100 of another shader, at a quarter of the draws.
const SUBGROUP_SEEDS: u64 = 25;

/// The last seed swept for a held kernel that expects to pass: a correct
/// kernel written another way than the reference (most are there to be
/// timed on a GPU: `plain`, `loops`). The reference's sweep of the same
/// draws is the full one; a wrong kernel's verdict is what must not depend
/// on the draw.
const PASSING_HELD_SEEDS: u64 = 25;

/// Judges `source` over every seed up to `last` (or the subgroup limit,
/// if lower) and checks each seed's verdict.
fn sweep(puzzle: &Puzzle, source: &str, want: Verdict, last: u64) -> Result<(), Failed> {
    let written = emulated(puzzle, &[], source, DEFAULT_SIZE)
        .map_err(|e| Failed::from(format!("the interpreter could not judge it: {e}")))?;
    let first_failure = |results: &[CaseResult]| {
        results
            .iter()
            .find(|r| r.outcome.failed())
            .map(|r| format!("case {}: {}", r.case, r.outcome.summary()))
    };
    if verdict(&written) == Verdict::Failed {
        // Failed on every seed, by the written cases alone.
        return if want == Verdict::Failed {
            Ok(())
        } else {
            Err(format!(
                "fails a written case on every seed: {}",
                first_failure(&written).unwrap_or_default()
            )
            .into())
        };
    }
    if puzzle.generator.is_none() {
        return if want == Verdict::Passed {
            Ok(())
        } else {
            Err("passes every written case, and the puzzle draws no random cases".into())
        };
    }
    let mut wrong = Vec::new();
    let seeds = if gpu_puzzles_core::wgsl::uses_subgroups(source) {
        SUBGROUP_SEEDS.min(last)
    } else {
        last
    };
    for seed in 1..=seeds {
        let random = random_cases(puzzle, seed).map_err(Failed::from)?;
        if random.is_empty() {
            return Err(format!("seed {seed}: the generator drew no case").into());
        }
        let mut results = written.clone();
        for case in &random {
            let r = emulate::run_case(puzzle, case, source, &SCHEDULES[..1])
                .map_err(|e| Failed::from(format!("seed {seed}: {}", e.message)))?;
            let failed = r.outcome.failed();
            results.push(r);
            // One failed case fails the seed whatever the rest give
            // ([`verdict`]), and the message names the first: the rest
            // of the seed's cases would change neither.
            if failed {
                break;
            }
        }
        if verdict(&results) != want {
            let why = first_failure(&results).unwrap_or_else(|| "every case passed".into());
            wrong.push(format!("seed {seed}: {why}"));
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        let want = if want == Verdict::Passed { "pass" } else { "fail" };
        Err(format!(
            "should {want} on every seed, but {} of {seeds} seeds give the other verdict:\n{}",
            wrong.len(),
            wrong.join("\n")
        )
        .into())
    }
}

/// One trial per puzzle and kernel: `seeds::<slug>::<kernel>`.
pub fn trials(set: &Arc<PuzzleSet>) -> Vec<Trial> {
    let mut trials = Vec::new();
    for (i, p) in set.puzzles.iter().enumerate() {
        let s = set.clone();
        trials.push(trial(format!("seeds::{}::reference", p.slug), move || {
            let p = &s.puzzles[i];
            sweep(
                p,
                p.solution.as_deref().ok_or("no reference solution in shaders/")?,
                Verdict::Passed,
                SEEDS,
            )
        }));
    }
    for held in held_solutions() {
        if held.expect.starts_with("compile-error")
            || held.expect == "config-error"
            || held.expect == "failed in random cases"
        {
            continue;
        }
        let i = set
            .position(&held.slug)
            .unwrap_or_else(|| panic!("{}--{}: no puzzle `{}`", held.slug, held.label, held.slug));
        let (want, last) = if held.expect == "passed" {
            (Verdict::Passed, PASSING_HELD_SEEDS)
        } else {
            (Verdict::Failed, SEEDS)
        };
        let s = set.clone();
        trials.push(trial(format!("seeds::{}::{}", held.slug, held.label), move || {
            sweep(&s.puzzles[i], &held.source, want, last)
        }));
    }
    trials
}
