//! The same answer every Run: for a puzzle that asks for it
//! (`Puzzle::deterministic`), a case that passed is run again on the GPU,
//! [`REPEATS`] times from its inputs, and its compared outputs must be the
//! same bits every time.
//!
//! Each run is its own submission, with the case's inputs written back into
//! its storage buffers before it (`Queue::write_buffer` lands before the
//! submission after it), its dispatches in one compute pass, and a copy of
//! every compared buffer into one read-back buffer after it. A sum through
//! float atomics (a compare-and-swap loop on the bits) adds in the order
//! the invocations get there, which changes from run to run on most GPUs;
//! on a software adapter with few threads it may not, and the CPU's order
//! check (`gpu_puzzles_interp::emulate::bits_differ` under its schedules)
//! finds it there.

use crate::dispatch::{bind, encode};
use crate::frames::{plain_pipeline, Slots};
use crate::{Gpu, RunnerError};
use gpu_puzzles_core::{Case, Puzzle, Values};
use gpu_puzzles_interp::PreparedShader;
use gpu_puzzles_verdict::judge::Outcome;

/// Runs of a case on the GPU compared bit for bit, the judged one not
/// counted: enough for a race between workgroups to show on a GPU that
/// runs them in parallel, few enough to cost little.
pub const REPEATS: usize = 4;

/// Runs `case` [`REPEATS`] times on the GPU and compares each run's
/// compared buffers with the first's, bit for bit: the failing outcome
/// (`MemoryError::OrderDependent` with `bits`) for the first element that
/// differs, naming both runs; `None` when every run agrees, or the puzzle
/// does not ask for the same bits.
///
/// # Errors
/// [`RunnerError::Unplayable`] when the shader gives no pipeline (the
/// judged run would have said why), or a lost device.
pub(crate) async fn same_bits_check(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    shader: &PreparedShader,
) -> Result<Option<Outcome>, RunnerError> {
    if !puzzle.deterministic {
        return Ok(None);
    }
    if gpu.is_lost() {
        return Err(gpu.lost_error());
    }
    let pipeline = plain_pipeline(gpu, puzzle, shader).await.map_err(RunnerError::Unplayable)?;
    let initial: Vec<Vec<u8>> = case.buffers.iter().map(|cb| cb.initial.to_bytes()).collect();
    let bound = bind(gpu, puzzle, case, &pipeline, &initial, None);
    let steps = bound.steps(&pipeline, case);
    let slots = Slots::new(puzzle, &bound);
    let readback = slots.readback(gpu, "repeats", REPEATS);
    for run in 0..REPEATS {
        for (buffer, b) in bound.storage.iter().zip(&initial) {
            gpu.queue.write_buffer(buffer, 0, b);
        }
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("repeat") });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("repeat"),
                timestamp_writes: None,
            });
            encode(&mut pass, &steps, case.config.workgroups);
        }
        slots.copy(&mut encoder, &bound, &readback, run);
        gpu.queue.submit([encoder.finish()]);
    }
    let bytes = crate::dispatch::read_back(gpu, &readback).await;
    drop(steps);
    for b in bound.into_buffers().chain(std::iter::once(readback)) {
        b.destroy();
    }
    let bytes = bytes?;
    let runs: Vec<Vec<Values>> = (0..REPEATS).map(|run| slots.read(puzzle, &bytes, run)).collect();
    let name = |run: usize| format!("the GPU ran it the {} time", ordinal(run + 1));
    Ok(runs.iter().enumerate().skip(1).find_map(|(k, other)| {
        gpu_puzzles_interp::emulate::bits_differ(puzzle, (&runs[0], name(0)), (other, name(k)))
    }))
}

/// "first", "second", … for the runs.
fn ordinal(n: usize) -> &'static str {
    ["first", "second", "third", "fourth", "fifth", "sixth"].get(n - 1).copied().unwrap_or("next")
}
