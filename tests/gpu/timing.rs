//! The performance lab's timing loop on a real adapter (lavapipe where
//! there is no GPU): a performance case is timed over repeated runs (on a
//! software adapter, one run of a slow kernel, which is also the judged
//! one), and kernels that accumulate into their outputs are still judged on
//! one dispatch's worth, against the CPU reference.

use gpu_puzzles_core::load::{load_puzzle_set, read_dir, read_solutions};
use gpu_puzzles_core::model::Performance;
use gpu_puzzles_core::{Case, PuzzleSet, Values};
use gpu_puzzles_runner::{
    add_yardsticks, measure_peaks, run_case, Gpu, RunOptions, YardstickCache,
};
use gpu_puzzles_verdict::judge::CaseResult;
use std::path::Path;

fn set() -> PuzzleSet {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = read_dir(&root.join("puzzles")).expect("puzzles/");
    let solutions = read_solutions(&root.join("shaders")).expect("shaders/");
    load_puzzle_set(&files, Some(&solutions)).expect("a valid puzzle set")
}

fn gpu() -> Gpu {
    pollster::block_on(Gpu::new())
        .expect("a GPU adapter (lavapipe: apt install mesa-vulkan-drivers)")
}

/// The first performance case of puzzle `slug`, and the result of our
/// reference solution on it (judged and timed) on `gpu`.
fn reference_on_performance_case<'s>(
    set: &'s PuzzleSet,
    slug: &str,
    gpu: &Gpu,
) -> (&'s Case, CaseResult) {
    let puzzle = set.get(slug).unwrap();
    let case = puzzle.cases.iter().find(|c| c.is_performance()).expect("a performance case");
    let source = puzzle.solution.as_deref().unwrap();
    let r = pollster::block_on(run_case(gpu, puzzle, case, source, RunOptions::default()));
    (case, r.unwrap())
}

#[test]
fn a_histogram_that_accumulates_with_atomics_is_judged_after_its_timing() {
    let set = set();
    let gpu = gpu();
    let (case, r) = reference_on_performance_case(&set, "histogram-workgroup", &gpu);
    assert!(r.outcome.passed(), "{:?}", r.outcome);
    let m = r.timing.measured.expect("a performance case is timed repeatedly");
    // The kernel was timed, then judged (or, on a software adapter, its one
    // slow timed run was judged), and the judged counts are one dispatch's:
    // they add up to the number of values.
    assert!(m.runs >= 1 && m.dispatches_per_run >= 1, "{m:?}");
    assert!(m.min_ms <= m.median_ms && m.median_ms <= m.max_ms, "{m:?}");
    let Values::U32(bins) = &r.actual[0] else { panic!("u32 bins") };
    assert_eq!(
        bins.iter().map(|&b| u64::from(b)).sum::<u64>(),
        case.buffers[0].initial.len() as u64
    );
}

#[test]
fn a_kernel_that_adds_into_its_output_is_judged_on_one_dispatch() {
    // `out[i] += a[i] + 10` on zeroed outputs is right after one dispatch
    // and wrong after two: it passes only if every buffer is reset after
    // the timed runs.
    let set = set();
    let puzzle = set.get("map").unwrap();
    let mut case = puzzle.cases[0].clone();
    case.performance = Some(Performance {
        bytes: Some(8 * case.buffers[0].initial.len() as u64),
        ..Default::default()
    });
    let src = "@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < arrayLength(&a)) { out[g.x] = out[g.x] + a[g.x] + 10.0; }
}
";
    let gpu = gpu();
    let r = pollster::block_on(run_case(&gpu, puzzle, &case, src, RunOptions::default())).unwrap();
    assert!(r.outcome.passed(), "{:?}", r.outcome);
    let m = r.timing.measured.expect("timed");
    assert!(m.dispatches_per_run * m.runs >= 1);
    if !gpu.adapter().software {
        assert!(m.dispatches_per_run > 1, "a tiny kernel is batched on a GPU: {m:?}");
    }
}

#[test]
fn a_slow_kernel_on_a_software_adapter_is_judged_on_its_one_timed_run() {
    // On a software adapter a performance case is timed by one run when
    // that run spans enough of the timer, and that run's results are the
    // ones judged: the kernel is not dispatched a second time. A 1024³
    // matrix product (2^31 floating-point operations) spans far more than
    // the timer's 10 ms on a CPU.
    let set = set();
    let gpu = gpu();
    let (_, r) = reference_on_performance_case(&set, "matmul-vec4", &gpu);
    assert!(r.outcome.passed(), "{:?}", r.outcome);
    let m = r.timing.measured.expect("timed");
    if gpu.adapter().software {
        assert!(m.median_ms >= gpu_puzzles_verdict::timing::MIN_SPAN_MS, "a slow kernel: {m:?}");
        assert_eq!((m.runs, m.dispatches_per_run), (1, 1), "one timed run: {m:?}");
        // The judged dispatch's time is the timed run's own figure.
        if m.timer == gpu_puzzles_verdict::timing::Timer::Timestamps {
            assert_eq!(r.timing.gpu_ms, Some(m.median_ms), "{:?}", r.timing);
        }
        assert!(r.timing.wall_ms >= m.median_ms, "{:?}", r.timing);
    }
}

#[test]
fn a_figure_on_a_gpu_carries_its_clock_probe_and_the_peaks_are_measured_once() {
    let set = set();
    let puzzle = set.get("map").unwrap();
    let mut case = puzzle.cases[0].clone();
    case.performance = Some(Performance {
        bytes: Some(8 * case.buffers[0].initial.len() as u64),
        ..Default::default()
    });
    let gpu = gpu();
    let r = pollster::block_on(run_case(
        &gpu,
        puzzle,
        &case,
        puzzle.solution.as_deref().unwrap(),
        RunOptions::default(),
    ))
    .unwrap();
    assert!(r.outcome.passed(), "{:?}", r.outcome);
    let m = r.timing.measured.expect("timed");
    // Timed between two runs of the clock probe on a GPU; on a software
    // adapter there is no probe (its figures teach nothing about clocks).
    assert_eq!(m.clock.is_some(), !gpu.adapter().software, "{m:?}");
    if let Some(c) = m.clock {
        assert!(c > 0.0 && c <= 1.0, "{m:?}");
    }
    // The peaks the probe is held to are measured once per device.
    let first = pollster::block_on(measure_peaks(&gpu)).unwrap();
    assert_eq!(pollster::block_on(measure_peaks(&gpu)).unwrap(), first);
}

#[test]
fn the_reference_run_as_it_is_is_its_own_yardstick_and_another_kernel_is_timed_beside_it() {
    // Transpose's first performance case: our reference as the student's
    // text takes its own figure as the reference's (the same kernel on the
    // same device, not measured twice); a comparison kernel as the
    // student's has the reference measured apart, and both comparison
    // figures filled in.
    let set = set();
    let gpu = gpu();
    let puzzle = set.get("transpose").unwrap();
    let reference = puzzle.solution.as_deref().unwrap();
    let (_, r) = reference_on_performance_case(&set, "transpose", &gpu);
    let mut results = vec![r];
    let mut cache = YardstickCache::new();
    pollster::block_on(add_yardsticks(&gpu, puzzle, reference, &mut results, &mut cache, true))
        .unwrap();
    let r = &results[0];
    assert!(r.outcome.passed(), "{:?}", r.outcome);
    assert_eq!(r.reference_timing, Some(r.timing), "the student's figure is the reference's");
    assert_eq!(r.comparison_timings.len(), puzzle.comparisons.len());
    assert!(r.comparison_timings.iter().all(Option::is_some), "{:?}", r.comparison_timings);

    let naive = &puzzle.comparisons[0].source;
    let case = puzzle.cases.iter().find(|c| c.is_performance()).unwrap();
    let r = pollster::block_on(run_case(&gpu, puzzle, case, naive, RunOptions::default())).unwrap();
    let mut results = vec![r];
    let mut fresh = YardstickCache::new();
    pollster::block_on(add_yardsticks(&gpu, puzzle, naive, &mut results, &mut fresh, true))
        .unwrap();
    let r = &results[0];
    let measured = r.reference_timing.expect("the reference measured");
    assert_ne!(measured, r.timing, "another kernel's figure is not the reference's");
    assert!(measured.measured.is_some_and(|m| m.runs >= 1), "{measured:?}");

    // Comparison kernels left out (a software adapter's page, until the
    // student asks): the reference is still placed, and no comparison
    // kernel has a figure.
    let mut results = vec![r.clone()];
    results[0].comparison_timings.clear();
    pollster::block_on(add_yardsticks(&gpu, puzzle, naive, &mut results, &mut cache, false))
        .unwrap();
    assert!(results[0].reference_timing.is_some(), "{:?}", results[0]);
    assert!(results[0].comparison_timings.is_empty(), "{:?}", results[0].comparison_timings);
}
