//! The CPU interpreter judges as the GPU runner does, case by case, on a
//! real adapter (lavapipe where there is no GPU): every puzzle's reference
//! solution (with one seed's random cases), starter, comparison kernels
//! and every file in `solutions/`. One named test per puzzle and kernel:
//! `emulate::<slug>::<kernel>`.
//!
//! The outcomes' kinds must be equal, and a memory error must be the same
//! finding: an out-of-bounds access of the same kind to the same buffer or
//! variable, or a race in the same one (the interpreter runs the same race
//! detection rules as the GPU's racecheck). A file's `// message:` line
//! must hold for the interpreter's summaries as for the GPU's. Performance
//! cases are not emulated.
//!
//! A machine with no adapter fails every test; nothing passes silently.
//! These trials run in the `puzzles` binary, so the GPU's judgement of each
//! kernel is made once for them and the expectation tests
//! ([`gpu_puzzles_tests::judged`]).

use gpu_puzzles_core::load::random_cases;
use gpu_puzzles_core::{Case, Puzzle, PuzzleSet};
use gpu_puzzles_tests::{emulated, gpu, held_solutions, judged, trial};
use gpu_puzzles_verdict::judge::Outcome;
use gpu_puzzles_verdict::report::MemoryError;
use libtest_mimic::{Failed, Trial};
use std::sync::Arc;

/// Whether the GPU's outcome and the interpreter's agree (module doc).
fn agree(gpu: &Outcome, cpu: &Outcome) -> bool {
    let check = |o: &Outcome| match o {
        Outcome::MemoryError { error: MemoryError::OutOfBounds(b), .. } => {
            Some(format!("out of bounds: {} {:?}", b.space, b.kind))
        }
        Outcome::MemoryError { error: MemoryError::Hazard(h), .. } => {
            Some(format!("race in {}", h.space))
        }
        Outcome::MemoryError { error: MemoryError::OrderDependent(_), .. } => Some("order".into()),
        Outcome::MemoryError { error: MemoryError::SubgroupSizeDependent(_), .. } => {
            Some("subgroup size".into())
        }
        _ => None,
    };
    gpu.status() == cpu.status() && check(gpu) == check(cpu)
}

/// Judges `source` in the interpreter on the puzzle's cases and, with a
/// seed, that seed's random cases, and compares with the GPU's judgement.
fn compare(puzzle: &Puzzle, source: &str, seed: Option<u64>) -> Result<(), Failed> {
    let on_gpu = judged(puzzle, source, seed).map_err(Failed::from)?;
    let extra = match seed {
        Some(seed) => random_cases(puzzle, seed).map_err(Failed::from)?,
        None => Vec::new(),
    };
    let extra = &extra[..];
    // At the GPU's own subgroup size, so that both run the same kernel.
    let size = gpu()
        .map_err(Failed::from)?
        .adapter()
        .subgroup_sizes
        .map_or(emulate_default(), |(min, _)| min);
    // Each case's run is shared with the seed sweep (`seeds.rs`).
    let emulated = emulated(puzzle, extra, source, size)
        .map_err(|e| Failed::from(format!("the interpreter could not judge it: {e}")))?;
    // A file's `// message:` (see puzzles.rs) holds for the interpreter's
    // summaries too: the same invocations, lines and buffers are named.
    let message = source.lines().nth(1).and_then(|l| l.strip_prefix("// message:")).map(str::trim);
    let mut differences = Vec::new();
    let mut compared = 0;
    for c in &emulated {
        let performance = puzzle.cases.get(c.case - 1).is_some_and(Case::is_performance);
        if performance {
            continue;
        }
        // A seed's judgement on the GPU has no performance cases
        // ([`gpu_puzzles_tests::judged_with`]): pair the rest by number.
        let g = on_gpu
            .iter()
            .find(|g| g.case == c.case)
            .ok_or_else(|| format!("case {}: the GPU's judgement has no result", c.case))?;
        compared += 1;
        if !agree(&g.outcome, &c.outcome) {
            differences.push(format!(
                "case {}:\n  GPU: {}\n  CPU: {}",
                g.case,
                g.outcome.summary(),
                c.outcome.summary()
            ));
        } else if let Some(text) =
            message.filter(|_| !c.outcome.passed()).filter(|t| !c.outcome.summary().contains(t))
        {
            differences.push(format!(
                "case {}: the interpreter's summary lacks `{text}`: {}",
                g.case,
                c.outcome.summary()
            ));
        }
    }
    if compared == 0 {
        return Err("no case was compared".into());
    }
    if differences.is_empty() {
        Ok(())
    } else {
        Err(differences.join("\n").into())
    }
}

fn emulate_default() -> u32 {
    gpu_puzzles_interp::subgroup::DEFAULT_SIZE
}

/// One trial per puzzle and kernel: `emulate::<slug>::<kernel>`.
pub fn trials(set: &Arc<PuzzleSet>) -> Vec<Trial> {
    let held = held_solutions();
    let mut trials = Vec::new();
    for (i, p) in set.puzzles.iter().enumerate() {
        let mut kernels: Vec<(String, String, bool)> = vec![
            ("reference".into(), p.solution.clone().expect("a reference solution"), true),
            ("starter".into(), p.starter.clone(), false),
        ];
        kernels.extend(
            p.comparisons
                .iter()
                .enumerate()
                .map(|(k, c)| (format!("comparison-{}", k + 1), c.source.clone(), false)),
        );
        kernels.extend(
            held.iter()
                .filter(|h| h.slug == p.slug)
                .map(|h| (h.label.clone(), h.source.clone(), false)),
        );
        for (label, source, random) in kernels {
            let s = set.clone();
            trials.push(trial(format!("emulate::{}::{label}", p.slug), move || {
                compare(&s.puzzles[i], &source, random.then_some(1))
            }));
        }
    }
    trials
}
