//! A case's steps as frames: the compared buffers read back after each
//! dispatch of its dispatch list, so that a simulation (Jacobi,
//! reaction–diffusion) can be played step by step.
//!
//! The dispatches run as written, each in a compute pass of its own and
//! followed by a copy of every compared buffer into one read-back buffer;
//! WebGPU orders a pass's storage writes before the copies recorded after
//! it. A case with more dispatches than [`MAX_FRAMES`] (or whose frames
//! would pass [`MAX_FRAME_BYTES`]) keeps evenly spaced ones, the last
//! always among them. The rate of the kernel alone is measured apart, on
//! the same buffers reset to the case's inputs, with no copies between the
//! dispatches ([`crate::timing`]).

use crate::dispatch::{bind, encode, Bound};
use crate::pipeline::{build, cache_key, layout_entries, plain_source, Cached, Pipeline};
use crate::{Gpu, RunnerError};
use gpu_puzzles_core::{Case, Puzzle, Values};
use gpu_puzzles_interp::PreparedShader;
use web_time::Instant;

/// Most frames a case keeps: ten seconds at 24 frames a second.
pub const MAX_FRAMES: usize = 240;

/// Most bytes the kept frames may take together (64 MiB): a 256 × 256 grid
/// of two `f32` buffers keeps all 240 frames (125 KiB… 0.5 MiB a frame).
pub const MAX_FRAME_BYTES: u64 = 64 << 20;

/// The compared buffers after some of a case's dispatches.
#[derive(Debug, Clone)]
pub struct Frames {
    /// Indices into the puzzle's `buffers` of the buffers captured: its
    /// compared ones (outputs and input-outputs), in binding order.
    pub buffers: Vec<usize>,
    /// After how many dispatches each frame was taken: increasing, from 1,
    /// the last equal to the case's dispatch count.
    pub after: Vec<u32>,
    /// Per frame, the captured buffers' contents, in the order of `buffers`.
    pub frames: Vec<Vec<Values>>,
    /// The whole dispatch list's time per run in milliseconds, with no copies
    /// between dispatches (median of the timed runs; one run on a software
    /// adapter, where the figure says little about GPUs).
    pub list_ms: f64,
    /// Wall-clock milliseconds from submitting the captured run to its
    /// read-back: the dispatches and every frame's copy.
    pub captured_ms: f64,
}

impl Frames {
    /// Dispatches a second of the kernel alone ([`Frames::list_ms`]), or
    /// `None` where the timer read zero.
    pub fn steps_per_second(&self, dispatches: usize) -> Option<f64> {
        (self.list_ms > 0.0).then(|| dispatches as f64 * 1000.0 / self.list_ms)
    }
}

/// How many frames a case keeps whose captured buffers take `frame_bytes`
/// together: [`MAX_FRAMES`], fewer where they would pass
/// [`MAX_FRAME_BYTES`], at least one.
pub fn frame_limit(frame_bytes: u64) -> usize {
    MAX_FRAMES.min((MAX_FRAME_BYTES / frame_bytes.max(1)).max(1) as usize)
}

/// Which dispatches (counted from 1) end a frame: all of them up to
/// `limit`, else `limit` evenly spaced, the last dispatch always included.
pub fn frame_points(dispatches: usize, limit: usize) -> Vec<u32> {
    let limit = limit.max(1);
    if dispatches <= limit {
        return (1..=dispatches as u32).collect();
    }
    // Frame k (1-based) ends after round(k · n / limit) dispatches.
    (1..=limit).map(|k| ((k * dispatches + limit / 2) / limit) as u32).collect()
}

/// Runs `case` with `source` and reads its compared buffers back after each
/// frame's dispatch ([`frame_points`]), then times the dispatch list alone.
///
/// # Errors
/// [`RunnerError::Unplayable`] when the shader does not compile or bind
/// (the page offers a case to play only after it ran, so this means the
/// code changed); otherwise a lost device, a timeout or a failed read-back.
pub async fn frames(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    source: &str,
) -> Result<Frames, RunnerError> {
    if gpu.is_lost() {
        return Err(gpu.lost_error());
    }
    let device = &gpu.device;
    let shader = gpu.prepared(puzzle, source, &case.config);
    let pipeline = plain_pipeline(gpu, puzzle, &shader).await.map_err(RunnerError::Unplayable)?;
    let initial: Vec<Vec<u8>> = case.buffers.iter().map(|cb| cb.initial.to_bytes()).collect();
    let bound = bind(gpu, puzzle, case, &pipeline, &initial, None);
    let steps = bound.steps(&pipeline, case);
    let slots = Slots::new(puzzle, &bound);
    let after = frame_points(steps.len(), frame_limit(slots.bytes()));
    let readback = slots.readback(gpu, "frames", after.len());
    let mut encoder =
        device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frames") });
    let mut done = 0usize;
    for (f, &end) in after.iter().enumerate() {
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("frame"),
                timestamp_writes: None,
            });
            encode(&mut pass, &steps[done..end as usize], case.config.workgroups);
        }
        done = end as usize;
        slots.copy(&mut encoder, &bound, &readback, f);
    }
    let started = Instant::now();
    gpu.queue.submit([encoder.finish()]);
    let bytes = crate::dispatch::read_back(gpu, &readback).await?;
    let captured_ms = started.elapsed().as_secs_f64() * 1000.0;
    let frames = (0..after.len()).map(|f| slots.read(puzzle, &bytes, f)).collect();
    // The kernel alone: the buffers back to the case's inputs, the whole
    // list timed as a performance case's kernel is.
    for (buffer, b) in bound.storage.iter().zip(&initial) {
        gpu.queue.write_buffer(buffer, 0, b);
    }
    let measured =
        crate::timing::measure_from_start(gpu, &steps, case.config.workgroups, None).await?;
    drop(steps);
    for b in bound.into_buffers().chain(std::iter::once(readback)) {
        b.destroy();
    }
    Ok(Frames {
        buffers: slots.buffers,
        after,
        frames,
        list_ms: measured.measurement.median_ms,
        captured_ms,
    })
}

/// A bound case's compared buffers, copied side by side into numbered
/// slots of one read-back buffer, each buffer at an offset that is a
/// multiple of 256 bytes (a safe alignment for buffer copies): the frames
/// of a played case, or the repeated runs of [`crate::repeats`].
pub(crate) struct Slots {
    /// Indices into the puzzle's `buffers` of the buffers copied.
    pub(crate) buffers: Vec<usize>,
    /// Their sizes in bytes.
    sizes: Vec<u64>,
}

impl Slots {
    /// The compared buffers of `puzzle` as `bound` holds them.
    pub(crate) fn new(puzzle: &Puzzle, bound: &Bound) -> Self {
        let buffers: Vec<usize> = puzzle.compared_buffers().collect();
        let sizes = buffers.iter().map(|&i| bound.storage[i].size()).collect();
        Slots { buffers, sizes }
    }

    /// Bytes of one slot's buffers, unaligned.
    pub(crate) fn bytes(&self) -> u64 {
        self.sizes.iter().sum()
    }

    /// Bytes from one slot to the next.
    fn stride(&self) -> u64 {
        self.sizes.iter().map(|&s| align(s)).sum()
    }

    /// A mappable buffer of `slots` slots.
    pub(crate) fn readback(&self, gpu: &Gpu, label: &str, slots: usize) -> wgpu::Buffer {
        gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: self.stride() * slots as u64,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Records copies of the buffers into slot `slot` of `readback`.
    pub(crate) fn copy(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        bound: &Bound,
        readback: &wgpu::Buffer,
        slot: usize,
    ) {
        let mut at = self.stride() * slot as u64;
        for (&i, &size) in self.buffers.iter().zip(&self.sizes) {
            encoder.copy_buffer_to_buffer(&bound.storage[i], 0, readback, at, size);
            at += align(size);
        }
    }

    /// Slot `slot` of the read-back `bytes`, a `Values` per buffer.
    pub(crate) fn read(&self, puzzle: &Puzzle, bytes: &[u8], slot: usize) -> Vec<Values> {
        let mut at = (self.stride() * slot as u64) as usize;
        self.buffers
            .iter()
            .zip(&self.sizes)
            .map(|(&i, &size)| {
                let size = size as usize;
                let v = Values::from_bytes(puzzle.buffers[i].element, &bytes[at..at + size]);
                at += align(size as u64) as usize;
                v
            })
            .collect()
    }
}

/// `bytes` rounded up to a multiple of 256.
fn align(bytes: u64) -> u64 {
    bytes.div_ceil(256) * 256
}

/// The student's shader as written (not instrumented) for `shader`'s case,
/// from the device's cache or built and cached.
///
/// # Errors
/// Why there is none, in a sentence: a configuration problem, or the
/// shader's first compile error.
pub(crate) async fn plain_pipeline(
    gpu: &Gpu,
    puzzle: &Puzzle,
    shader: &PreparedShader,
) -> Result<Pipeline, String> {
    let entries =
        layout_entries(shader).map_err(|e| gpu_puzzles_verdict::report::config_problem(&e))?;
    let key = cache_key(shader, puzzle, &entries, None);
    if let Some(c) = gpu.cached(key) {
        return Ok(c.pipeline);
    }
    let sub = shader.sub();
    let built = build(gpu, puzzle, &puzzle.slug, plain_source(shader), Some(&entries), |m| {
        crate::messages::diagnostic(m, sub, shader.source())
    })
    .await;
    match built {
        Ok(Some(p)) => {
            gpu.cache(key, Cached { pipeline: p.clone(), meta: None });
            Ok(p)
        }
        Ok(None) => Err("no pipeline was built".into()),
        Err(d) => Err(format!(
            "the shader does not compile: {}",
            d.first().map_or(String::new(), |d| d.message.clone())
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::frame_points;

    #[test]
    fn every_dispatch_is_a_frame_up_to_the_limit_then_evenly_spaced_ones() {
        assert_eq!(frame_points(3, 240), vec![1, 2, 3]);
        assert_eq!(frame_points(10, 4), vec![3, 5, 8, 10]);
        let many = frame_points(1000, 240);
        assert_eq!(many.len(), 240);
        assert_eq!(many.last(), Some(&1000));
        assert!(many.windows(2).all(|w| w[0] < w[1]), "increasing");
        assert_eq!(frame_points(5, 0), vec![5], "a limit of 0 keeps the last");
    }
}
