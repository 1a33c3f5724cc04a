//! A case's steps as frames (`runner::frames`), on the test adapter
//! (lavapipe in CI): every frame of a Jacobi case is the CPU reference run
//! for that many steps, on the GPU and in the interpreter alike; the frames
//! are capped and evenly spaced, and the kernel's rate is measured.

use gpu_puzzles_core::load::{load_one_puzzle, read_dir};
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_runner::{frames, MAX_FRAMES};
use gpu_puzzles_tests::{gpu, root};

/// Jacobi's written case "an odd number of steps: 7 on 10 × 12" with its
/// step count changed to `k`: the reference gives its expected buffers.
fn jacobi_case(k: u32) -> (Puzzle, Case) {
    let mut files = read_dir(&root().join("puzzles")).expect("puzzles/ is readable");
    let text = files.get_mut("jacobi/puzzle.toml").expect("Jacobi is shipped");
    let from = "uniforms.params = { rows = 10, cols = 12, steps = 7 }";
    assert!(text.contains(from), "Jacobi's third case is as this test knows it");
    *text = text.replacen(
        from,
        &format!("uniforms.params = {{ rows = 10, cols = 12, steps = {k} }}"),
        1,
    );
    let puzzle =
        load_one_puzzle(&files, "jacobi").unwrap_or_else(|p| panic!("Jacobi loads: {p:?}"));
    let case = puzzle.cases[2].clone();
    (puzzle, case)
}

#[test]
fn each_frame_of_jacobi_is_the_reference_after_that_many_steps() {
    let gpu = gpu().unwrap_or_else(|e| panic!("{e}"));
    let source = std::fs::read_to_string(root().join("shaders/jacobi.wgsl")).expect("our solution");
    let (puzzle, case) = jacobi_case(7);
    let played = pollster::block_on(frames(gpu, &puzzle, &case, &source)).expect("the case plays");
    assert_eq!(played.after, (1..=7).collect::<Vec<u32>>(), "a frame after every step");
    assert_eq!(played.buffers, vec![0, 1], "both buffers, a and b, as compared");
    assert!(played.list_ms > 0.0 && played.captured_ms > 0.0, "timed: {played:?}");
    // The interpreter's frames, for a browser without WebGPU: the same steps.
    let emulated = gpu_puzzles_interp::emulate::frames(&puzzle, &case, &source, &played.after)
        .expect("the interpreter plays it");
    assert_eq!(emulated.len(), 7);
    for (k, frame) in (1..=7).chain(1..=7).zip(played.frames.iter().chain(&emulated)) {
        let (p, c) = jacobi_case(k);
        let expected = p.expected(&c).expect("the reference computes it");
        for (buffer, (got, want)) in frame.iter().zip(&expected).enumerate() {
            let (got, want) = (got.as_f32().expect("f32"), want.values.as_f32().expect("f32"));
            assert_eq!(got.len(), want.len());
            let worst = got.iter().zip(want).map(|(g, w)| (g - w).abs()).fold(0f32, f32::max);
            // The puzzle's own tolerance (abs = 1e-3, derived in its manifest).
            assert!(worst <= 1e-3, "frame after step {k}, buffer {buffer}: off by {worst}");
        }
    }
}

#[test]
fn a_long_list_keeps_evenly_spaced_frames_ending_with_the_last_step() {
    let gpu = gpu().unwrap_or_else(|e| panic!("{e}"));
    let source = std::fs::read_to_string(root().join("shaders/jacobi.wgsl")).expect("our solution");
    // 300 steps (past the promises, which only the loader's checks hold;
    // the runner plays whatever list a case has).
    let (puzzle, mut case) = jacobi_case(20);
    let one = case.dispatches[0].clone();
    case.dispatches = (0..300).map(|_| one.clone()).collect();
    let played = pollster::block_on(frames(gpu, &puzzle, &case, &source)).expect("the case plays");
    assert_eq!(played.frames.len(), MAX_FRAMES);
    assert_eq!(played.after.last(), Some(&300));
    assert!(played.after.windows(2).all(|w| w[0] < w[1]), "increasing");
    // Every dispatch here is step 0 (a → b) again, so every frame holds the
    // same buffers: the copies were taken after whole dispatches.
    assert!(played.frames.windows(2).all(|w| w[0] == w[1]), "the same step repeated");
}
