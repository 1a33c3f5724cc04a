//! The interpreter on the shipped puzzles, with no GPU: the debugger steps
//! a reference to its barrier and through a list of dispatches, and the
//! order check catches a missing barrier.
//!
//! That every reference solution passes emulated under every schedule,
//! every comparison kernel gets the values right and every starter fails
//! is checked in `tests/gpu/emulate.rs`, case by case against the GPU's
//! judgement (whose verdicts `tests/gpu/puzzles.rs` requires), so it is not
//! judged a second time here; nor is the order check of every reference,
//! which each reference's GPU judgement makes (`<slug>::reference` there
//! requires it to pass with nothing unchecked).

use gpu_puzzles_core::load::{load_puzzle_set, read_dir, read_solutions};
use gpu_puzzles_core::PuzzleSet;
use std::path::Path;

fn set() -> PuzzleSet {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = read_dir(&root.join("puzzles")).expect("puzzles/ is readable");
    let solutions = read_solutions(&root.join("shaders")).expect("shaders/ is readable");
    load_puzzle_set(&files, Some(&solutions)).expect("the shipped set loads")
}

#[test]
fn the_debugger_steps_shared_to_its_barrier() {
    let set = set();
    let p = set.get("shared").expect("the Shared puzzle");
    let source = p.solution.as_deref().expect("a reference solution");
    let case = &p.cases[0];
    let mut d =
        gpu_puzzles_interp::debug::Debugger::new(p, case, source).expect("the reference runs");
    let barrier_line =
        source.lines().position(|l| l.contains("workgroupBarrier")).expect("a barrier") + 1;
    let n = case.config.workgroup_size[0] as usize;
    // Before the first step every invocation is on the function's first line.
    assert!(d.invocations().iter().all(|i| i.status == gpu_puzzles_interp::exec::Status::Running));
    d.to_barrier();
    let invocations = d.invocations();
    assert_eq!(invocations.len(), n);
    assert!(
        invocations.iter().all(|i| i.status == gpu_puzzles_interp::exec::Status::Waiting
            && i.line == Some(barrier_line)),
        "{invocations:?}"
    );
    assert_eq!(d.lines(), vec![barrier_line]);
    // Workgroup 0's tile holds the first n inputs; nothing is written yet.
    let memories = d.memories();
    let smem = memories.iter().find(|m| m.workgroup).expect("workgroup memory");
    let a = &case.buffers[0].initial;
    let expected: Vec<String> = (0..n).map(|k| a.format(k)).collect();
    assert_eq!(&smem.values[..n], &expected[..]);
    let out = memories.iter().find(|m| m.name == "out").expect("the output buffer");
    assert!(out.values.iter().all(|v| v == "0"));
    let (reads, writes) = d.touched(1);
    assert_eq!((reads, writes), (vec!["a[1]".to_string()], vec!["smem[1]".to_string()]));
    assert!(d.variables(1).iter().any(|(k, v)| k == "i" && v == "1"), "{:?}", d.variables(1));
    d.run_to_end();
    assert!(d.finished() && d.stopped().is_none());
    let out = d.memories().into_iter().find(|m| m.name == "out").expect("the output buffer");
    let expected = &case.buffers[1].expected.as_ref().expect("expected values");
    assert_eq!(out.values, (0..expected.len()).map(|k| expected.format(k)).collect::<Vec<_>>());
}

/// The debugger walks a dispatch list: Bitonic Sort's first case runs
/// `sort_blocks`, then `merge_step` once per merge step, each with its own
/// `step` values, and ends with the sorted keys.
#[test]
fn the_debugger_walks_bitonic_sorts_dispatches_with_their_uniform() {
    let set = set();
    let p = set.get("bitonic-sort").expect("the Bitonic Sort puzzle");
    let source = p.solution.as_deref().expect("a reference solution");
    let case = &p.cases[0];
    let mut d =
        gpu_puzzles_interp::debug::Debugger::new(p, case, source).expect("the reference runs");
    // (dispatch number, entry point, the per-dispatch uniform's fields).
    type Seen = (usize, String, Vec<(String, u32)>);
    let mut seen: Vec<Seen> = Vec::new();
    while !d.finished() {
        let (number, total) = d.dispatch_number();
        assert_eq!(total, case.dispatches.len());
        if seen.last().is_none_or(|s| s.0 != number) {
            seen.push((number, d.entry_point().to_string(), d.dispatch_values()));
        }
        d.step();
    }
    assert!(d.stopped().is_none(), "{:?}", d.stopped());
    // Blocks of 4 keys, 4 workgroups: stages of 8 and 16 places.
    let steps = [(8, 4), (8, 2), (8, 1), (16, 8), (16, 4), (16, 2), (16, 1)];
    assert_eq!(seen.len(), 1 + steps.len());
    assert_eq!((seen[0].0, seen[0].1.as_str(), seen[0].2.len()), (1, "sort_blocks", 0));
    for (k, (size, dist)) in steps.into_iter().enumerate() {
        let values = vec![("step.size".to_string(), size), ("step.dist".to_string(), dist)];
        assert_eq!(seen[k + 1], (k + 2, "merge_step".to_string(), values));
    }
    let out = d.memories().into_iter().find(|m| m.name == "out").expect("the output buffer");
    let expected = case.buffers[1].expected.as_ref().expect("expected values");
    assert_eq!(out.values, (0..expected.len()).map(|k| expected.format(k)).collect::<Vec<_>>());
}

/// The order check (the GPU judge's second line of defence) fails a result
/// that depends on the order invocations run in, and never a reference.
#[test]
fn the_order_check_catches_missing_barriers() {
    use gpu_puzzles_interp::emulate::order_check;
    use gpu_puzzles_verdict::report::MemoryError;
    let set = set();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/gpu/solutions");
    for (slug, file) in [
        ("prefix-scan", "prefix-scan--one-barrier.wgsl"),
        ("tiled-matmul", "tiled-matmul--no-second-barrier.wgsl"),
    ] {
        let p = set.get(slug).expect("the puzzle");
        let source = std::fs::read_to_string(root.join(file)).expect("the solution file");
        let flagged: Vec<_> = p
            .cases
            .iter()
            .filter(|c| !c.is_performance())
            .filter_map(|c| order_check(p, c, &source).expect("it runs"))
            .collect();
        assert!(!flagged.is_empty(), "{file}: no case depends on the order");
        for o in flagged {
            match o {
                gpu_puzzles_verdict::Outcome::MemoryError {
                    error: MemoryError::OrderDependent(d),
                    message,
                } => {
                    assert!(message.contains("depends on the order"), "{message}");
                    assert_ne!(d.first.1, d.second.1, "two different values");
                }
                other => panic!("{file}: {other:?}"),
            }
        }
    }
}
