//! Instrumentation overhead: each case judged plainly (one plain compile and
//! dispatch, as only performance cases are judged now) and as every other
//! case is judged (the plain module for the compiler's messages, the pass,
//! one instrumented compile and dispatch), in one process on one device, for
//! the Matrix Multiply and Tiled Matrix Multiply cases and a 1M-element Map.
//! Prints the medians and the ratios (target: instrumented at most 2×
//! plain). Run: `cargo bench -p gpu-puzzles-tests --bench instrument`.

use gpu_puzzles_core::load::{load_puzzle_set, read_dir, read_solutions};
use gpu_puzzles_core::{Case, CaseConfig, Puzzle, Values};
use gpu_puzzles_runner::{run_case, Gpu, RunOptions};
use std::path::Path;
use std::time::Instant;

const RUNS: usize = 7;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// A 1M-element map: the Blocks puzzle (out = a + 10 over many workgroups)
/// with one case of 2^20 elements (4096 workgroups of 256).
fn big_map(blocks: &Puzzle) -> (Puzzle, Case) {
    let n = 1usize << 20;
    let a: Vec<f32> = (0..n).map(|i| ((i * 7919) % 201) as f32 - 100.0).collect();
    let mut case = blocks.cases[0].clone();
    case.name = "1M-element map".into();
    case.config = CaseConfig {
        workgroup_size: [256, 1, 1],
        workgroups: [(n / 256) as u32, 1, 1],
        workgroup_memory: None,
    };
    case.buffers[0].initial = Values::F32(a.clone()).into();
    case.buffers[1].initial = Values::F32(vec![0.0; n]).into();
    case.buffers[1].expected = Some(Values::F32(a.iter().map(|x| x + 10.0).collect()));
    (blocks.clone(), case)
}

fn main() {
    // GPU_PUZZLES_ROOT lets a copied binary find the puzzles on another machine.
    let root = std::env::var_os("GPU_PUZZLES_ROOT")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    let files = read_dir(&root.join("puzzles")).expect("puzzles/");
    let solutions = read_solutions(&root.join("shaders")).expect("shaders/");
    let set = load_puzzle_set(&files, Some(&solutions)).expect("a valid puzzle set");
    let gpu = pollster::block_on(Gpu::new())
        .expect("a GPU adapter (lavapipe: apt install mesa-vulkan-drivers)");
    println!("adapter: {} ({})", gpu.adapter().name, gpu.adapter().backend);
    // The Matrix Multiply cases, plain and tiled (whose workgroup-memory
    // racecheck is the heaviest part of the instrumentation).
    let mut work: Vec<(Puzzle, Case)> = ["matmul", "tiled-matmul"]
        .into_iter()
        .flat_map(|slug| {
            let p = set.get(slug).unwrap();
            p.cases.iter().filter(|c| !c.is_performance()).map(move |c| (p.clone(), c.clone()))
        })
        .collect();
    work.push(big_map(set.get("blocks").unwrap()));
    println!(
        "{:<34} {:>11} {:>11} {:>6}   {:>12} {:>12} {:>6}   {:>9} {:>9}",
        "case",
        "plain ms",
        "instr. ms",
        "ratio",
        "plain disp.",
        "instr. disp.",
        "ratio",
        "pass ms",
        "WGSL KB"
    );
    let mut worst: f64 = 0.0;
    for (puzzle, case) in &work {
        let source = puzzle.solution.as_deref().unwrap();
        let mut plain = Vec::new();
        let mut instr = Vec::new();
        let mut plain_disp = Vec::new();
        let mut instr_disp = Vec::new();
        for i in 0..=RUNS {
            let t = Instant::now();
            let p = pollster::block_on(run_case(
                &gpu,
                puzzle,
                case,
                source,
                RunOptions { instrument: false, cpu_checks: false },
            ))
            .unwrap();
            let plain_ms = t.elapsed().as_secs_f64() * 1e3;
            let t = Instant::now();
            let r = pollster::block_on(run_case(
                &gpu,
                puzzle,
                case,
                source,
                RunOptions { instrument: true, cpu_checks: false },
            ))
            .unwrap();
            let instr_ms = t.elapsed().as_secs_f64() * 1e3;
            assert!(
                p.outcome.passed() && r.outcome.passed(),
                "{}: {:?} / {:?}",
                case.name,
                p.outcome,
                r.outcome
            );
            let it = r.instrumented_timing.expect("the instrumented run happened");
            if i > 0 {
                plain.push(plain_ms);
                instr.push(instr_ms);
                plain_disp.push(p.timing.gpu_ms.unwrap_or(p.timing.wall_ms));
                instr_disp.push(it.gpu_ms.unwrap_or(it.wall_ms));
            }
        }
        // The CPU pass alone (naga: parse, rewrite, validate, write WGSL), and
        // the size of what the device then compiles.
        let sub = gpu_puzzles_core::template::substitute(source, &case.config);
        let traced: Vec<_> = puzzle
            .buffers
            .iter()
            .zip(&case.buffers)
            .map(|(b, cb)| gpu_puzzles_instrument::Traced {
                binding: b.binding,
                len: cb.initial.len() as u32,
            })
            .collect();
        let eps: Vec<&str> = puzzle.entry_points.iter().map(String::as_str).collect();
        let mut pass = Vec::new();
        let mut wgsl_kb = 0.0;
        for _ in 0..RUNS {
            let t = Instant::now();
            let out = gpu_puzzles_instrument::instrument(
                &sub.text,
                &traced,
                &case.config,
                &eps,
                gpu_puzzles_instrument::Options { racecheck: true },
            )
            .unwrap();
            pass.push(t.elapsed().as_secs_f64() * 1e3);
            wgsl_kb = out.wgsl().unwrap().len() as f64 / 1024.0;
        }
        let (pm, im, pd, id) =
            (median(plain), median(instr), median(plain_disp), median(instr_disp));
        if puzzle.slug.contains("matmul") {
            worst = worst.max(im / pm);
        }
        println!(
            "{:<34} {:>11.3} {:>11.3} {:>5.2}×   {:>12.3} {:>12.3} {:>5.2}×   {:>9.3} {:>9.1}",
            format!("{} {}", puzzle.slug, case.name),
            pm,
            im,
            im / pm,
            pd,
            id,
            id / pd,
            median(pass),
            wgsl_kb
        );
    }
    println!(
        "whole-judgement ratio, worst Matrix Multiply case: {worst:.2}× (target ≤ 2×). Dispatch times are GPU timestamps where the adapter has them, else wall time; median of {RUNS} runs after one warm-up."
    );
}
