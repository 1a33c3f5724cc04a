//! How long the interpreter takes to judge each puzzle's reference solution
//! (every ordinary case under the three schedules, as the order check and
//! emulated judging do), slowest first. A benchmark that prints figures,
//! not a test: `cargo bench -p gpu-puzzles-interp`; `EMULATE_PUZZLES=block-sum,shuffle`
//! picks puzzles by slug.

use gpu_puzzles_core::load::{load_puzzle_set, read_dir, read_solutions};
use gpu_puzzles_interp::emulate::judge_puzzle;
use std::path::Path;
use std::time::Instant;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = read_dir(&root.join("puzzles")).expect("puzzles/ is readable");
    let solutions = read_solutions(&root.join("shaders")).expect("shaders/ is readable");
    let set = load_puzzle_set(&files, Some(&solutions)).expect("the shipped set loads");
    let mut rows = Vec::new();
    let all = Instant::now();
    let only = std::env::var("EMULATE_PUZZLES").ok();
    let picked = |slug: &str| only.as_deref().is_none_or(|o| o.split(',').any(|s| s == slug));
    for p in set.puzzles.iter().filter(|p| picked(&p.slug)) {
        let source = p.solution.as_deref().expect("a reference solution");
        let t = Instant::now();
        let results = judge_puzzle(p, &[], source).expect("the interpreter runs every reference");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let cases = results.iter().filter(|r| r.outcome.passed()).count();
        let invocations: u64 = p
            .cases
            .iter()
            .filter(|c| !c.is_performance())
            .map(|c| c.config.total_invocations())
            .sum();
        rows.push((ms, p.slug.clone(), cases, invocations));
    }
    let total = all.elapsed().as_secs_f64() * 1e3;
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("{:<24} {:>9} {:>6} {:>12}", "puzzle", "ms", "cases", "invocations");
    for (ms, slug, cases, invocations) in &rows {
        println!("{slug:<24} {ms:>9.1} {cases:>6} {invocations:>12}");
    }
    println!("all {} puzzles: {total:.0} ms (each case under 3 schedules)", rows.len());
}
