//! Robustness: mutated shaders, judged natively. From every reference
//! solution, a fixed-seed generator derives shaders with deleted, duplicated
//! and swapped tokens and lines, huge constants and deep nesting; each must
//! come back as an outcome (passed, mismatch, compile error, configuration
//! error, memory error, runaway loop), never a panic, a hang or an abort;
//! and the CPU interpreter (emulated judging and the debugger) runs each
//! one without a panic.
//! Each puzzle's mutants come from a generator seeded by its slug alone, so
//! a puzzle added to the set adds its own mutants and leaves every other
//! one as it was (and lavapipe's shader cache warm for them).
//! `FUZZ_MUTANTS_PER_PUZZLE` sets how many (default 40).

use gpu_puzzles_core::generate::SplitMix64;
use gpu_puzzles_core::load::{load_puzzle_set, read_dir, read_solutions};
use gpu_puzzles_core::Puzzle;
use gpu_puzzles_interp::debug::Debugger;
use gpu_puzzles_interp::emulate;
use gpu_puzzles_runner::{run_case, Gpu, RunOptions};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Splits WGSL into tokens: identifiers and numbers, or single characters.
fn tokens(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in src.chars() {
        if c.is_alphanumeric() || c == '_' || c == '.' {
            cur.push(c);
        } else {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            out.push(c.to_string());
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// One mutant of `src`, chosen by `rng`; the name says what was done.
fn mutate(src: &str, rng: &mut SplitMix64) -> (String, String) {
    let pick = |rng: &mut SplitMix64, n: usize| (rng.next_u64() % n.max(1) as u64) as usize;
    let lines: Vec<&str> = src.lines().collect();
    let toks = tokens(src);
    match rng.next_u64() % 8 {
        0 => {
            let i = pick(rng, lines.len());
            let mut l = lines.clone();
            l.remove(i);
            (format!("delete line {}", i + 1), l.join("\n"))
        }
        1 => {
            let i = pick(rng, lines.len());
            let mut l = lines.clone();
            l.insert(i, lines[i]);
            (format!("duplicate line {}", i + 1), l.join("\n"))
        }
        2 => {
            let (i, j) = (pick(rng, lines.len()), pick(rng, lines.len()));
            let mut l = lines.clone();
            l.swap(i, j);
            (format!("swap lines {} and {}", i + 1, j + 1), l.join("\n"))
        }
        3 => {
            let i = pick(rng, toks.len());
            let mut t = toks.clone();
            t.remove(i);
            (format!("delete token {i}"), t.concat())
        }
        4 => {
            let i = pick(rng, toks.len());
            let mut t = toks.clone();
            t.insert(i, toks[i].clone());
            (format!("duplicate token {i}"), t.concat())
        }
        5 => {
            let (i, j) = (pick(rng, toks.len()), pick(rng, toks.len()));
            let mut t = toks.clone();
            t.swap(i, j);
            (format!("swap tokens {i} and {j}"), t.concat())
        }
        6 => {
            // A huge constant in place of a number.
            let numbers: Vec<usize> = (0..toks.len())
                .filter(|&i| toks[i].chars().next().is_some_and(|c| c.is_ascii_digit()))
                .collect();
            let mut t = toks.clone();
            let huge = [
                "4294967295u",
                "2147483647",
                "99999999999999999999",
                "1e39",
                "0xFFFFFFFFu",
                "-2147483648",
            ];
            if let Some(&i) = numbers.get(pick(rng, numbers.len())) {
                t[i] = huge[pick(rng, huge.len())].to_string();
            }
            ("huge constant".into(), t.concat())
        }
        _ => {
            // Deep nesting: wrap a line of main's body in many blocks.
            let depth = 1 + pick(rng, 300);
            let i = lines
                .iter()
                .rposition(|l| {
                    l.trim_start().starts_with("out") || l.trim_start().starts_with("output")
                })
                .unwrap_or(lines.len() / 2);
            let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            l[i] = format!("{}{}{}", "{".repeat(depth), lines[i], "}".repeat(depth));
            (format!("nest line {} {depth} deep", i + 1), l.join("\n"))
        }
    }
}

/// FNV-1a of `text`: a hash that no Rust release changes, for the seeds.
fn fnv1a(text: &str) -> u64 {
    text.bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

#[test]
fn mutated_shaders_always_give_an_outcome() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = read_dir(&root.join("puzzles")).unwrap();
    let solutions = read_solutions(&root.join("shaders")).unwrap();
    let set = load_puzzle_set(&files, Some(&solutions)).unwrap();
    let per_puzzle: usize =
        std::env::var("FUZZ_MUTANTS_PER_PUZZLE").ok().and_then(|v| v.parse().ok()).unwrap_or(40);
    let total = per_puzzle * set.puzzles.len();
    // The puzzles are shared out among a thread per core, each taking the
    // next one not yet taken (one thread would leave the other cores idle:
    // 216 s alone on 2 cores), each with a device of its own (a device
    // compiles its shaders one at a time, and on a new machine compiling
    // the mutants is most of the work); each mutant's outcome is the same
    // whichever thread judges it.
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let outcomes: BTreeMap<&'static str, usize> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let gpu = gpu_puzzles_tests::gpu().unwrap_or_else(|e| {
                        panic!("{e}: install lavapipe (apt install mesa-vulkan-drivers)")
                    });
                    let mut outcomes = BTreeMap::new();
                    while let Some(puzzle) = set.puzzles.get(next.fetch_add(1, Ordering::Relaxed)) {
                        mutate_and_judge(gpu, puzzle, per_puzzle, &mut outcomes);
                    }
                    outcomes
                })
            })
            .collect();
        let mut all = BTreeMap::new();
        for w in workers {
            // A worker's panic is a mutant's failure: pass it on as it was.
            let part = w.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            for (k, v) in part {
                *all.entry(k).or_default() += v;
            }
        }
        all
    });
    println!("{total} mutants: {outcomes:?}");
    assert_eq!(outcomes.values().sum::<usize>(), total);
    assert!(
        outcomes.get("compile-error").copied().unwrap_or(0) > total / 10,
        "most mutants should not compile: {outcomes:?}"
    );
    assert!(outcomes.len() >= 3, "the mutants should reach several outcomes: {outcomes:?}");
}

/// Judges `count` mutants of `puzzle`'s reference on the GPU and in the
/// interpreter, adding each GPU outcome's status to `outcomes`.
///
/// # Panics
/// When a mutant is not judged, or the interpreter panics on one.
fn mutate_and_judge(
    gpu: &Gpu,
    puzzle: &Puzzle,
    count: usize,
    outcomes: &mut BTreeMap<&'static str, usize>,
) {
    let mut rng = SplitMix64::new(0x6770_7570_757a_7a6c ^ fnv1a(&puzzle.slug));
    // Performance cases run only after the others pass (judge_puzzle), so
    // they never meet a runaway mutant uninstrumented; do the same here.
    let cases: Vec<_> = puzzle.cases.iter().filter(|c| !c.is_performance()).collect();
    for j in 0..count {
        let (what, src) = mutate(puzzle.solution.as_deref().unwrap(), &mut rng);
        let case = cases[j % cases.len()];
        let result = pollster::block_on(run_case(gpu, puzzle, case, &src, RunOptions::default()));
        match result {
            Ok(r) => *outcomes.entry(r.outcome.status()).or_default() += 1,
            Err(e) => {
                panic!("mutant {j} of {} ({what}) was not judged: {e}\n{src}", puzzle.slug)
            }
        }
        // The CPU interpreter (emulated judging, the debugger) on the same
        // mutant: an outcome or "cannot run", never a panic (in the page a
        // panic would end the page).
        let emulated = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = emulate::run_case(puzzle, case, &src, &emulate::SCHEDULES);
            if let Ok(mut d) = Debugger::new(puzzle, case, &src) {
                d.run_to_end();
                let _ = (d.memories(), d.invocations(), d.variables(0));
            }
        }));
        assert!(
            emulated.is_ok(),
            "mutant {j} of {} ({what}): the interpreter panicked\n{src}",
            puzzle.slug
        );
    }
}
