//! Timing a kernel repeatedly for a performance case, as
//! [`gpu_puzzles_verdict::timing`] describes: calibration batches, a warm-up,
//! timed batches repeated while they disagree, and the clock probe around
//! them.

#[cfg(not(target_arch = "wasm32"))]
use crate::dispatch::poll_until_done;
use crate::dispatch::{encode, read_back};
use crate::peak::ClockProbe;
use crate::run::ms;
use crate::{Gpu, RunnerError};
use gpu_puzzles_verdict::timing::{
    clock_fraction, detect_quantum_ns, next_batch, target_span_ms, warmed_up, Measurement, Timer,
    MAX_ATTEMPTS, MAX_CLOCK_ATTEMPTS, MAX_SPREAD, RUNS, WARM_UP_MS,
};
use web_time::Instant;

/// The most dispatches the warm-up submits at once (each costs the CPU a
/// few microseconds to encode).
const MAX_WARM_UP_DISPATCHES: u32 = 20_000;
/// Times `steps` (pipelines dispatched in order, each over `workgroups`
/// with its bind group) as [`gpu_puzzles_verdict::timing`] describes: batches grown
/// until one spans [`gpu_puzzles_verdict::timing::MIN_SPAN_MS`], then
/// [`WARM_UP_MS`] of back-to-back work in one submission and batches until
/// three in a row agree (not on a software adapter, where one dispatch of a
/// performance case is slow and its figure teaches nothing about GPUs;
/// there the last calibration batch is the one timed run), then [`RUNS`]
/// timed batches, repeated up to [`MAX_ATTEMPTS`] times while their spread
/// is above [`MAX_SPREAD`] (the steadiest set is kept).
///
/// With a `probe`, the timed runs are preceded and followed by one run of
/// the device's clock probe, and the figure records the slower probe's rate
/// against the probe's reference (`Measurement::clock`); while that says
/// the clocks were low, the probes and timed runs are repeated, up to
/// [`MAX_CLOCK_ATTEMPTS`] times, and the set taken at the highest clocks is
/// kept (still marked, if its clocks were low too).
///
/// # Errors
/// As [`read_back`]; [`RunnerError::Readback`] when the timer gave no
/// usable figures.
pub(crate) async fn measure(
    gpu: &Gpu,
    steps: &[(&wgpu::ComputePipeline, &wgpu::BindGroup)],
    workgroups: [u32; 3],
    probe: Option<&ClockProbe>,
) -> Result<Measurement, RunnerError> {
    measure_from_start(gpu, steps, workgroups, probe).await.map(|m| m.measurement)
}

/// A [`measure`]ment, and what it left in the buffers the steps bind.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Measured {
    /// The figure.
    pub measurement: Measurement,
    /// The timed run was the first and only one, a single run of every
    /// step from the buffers' contents before the call: on a software
    /// adapter whose first calibration batch (one dispatch of each step)
    /// already spanned enough of the timer. The buffers then hold exactly
    /// what one run of the steps leaves, so a caller that wants that (a
    /// performance case's judged dispatch) can read them back instead of
    /// running the kernel again.
    pub one_run_from_start: bool,
}

/// [`measure`], saying whether the buffers hold one run's results
/// ([`Measured::one_run_from_start`]).
///
/// # Errors
/// As [`measure`].
pub(crate) async fn measure_from_start(
    gpu: &Gpu,
    steps: &[(&wgpu::ComputePipeline, &wgpu::BindGroup)],
    workgroups: [u32; 3],
    probe: Option<&ClockProbe>,
) -> Result<Measured, RunnerError> {
    let software = gpu.adapter().software;
    let timer = if gpu.timestamps { Timer::Timestamps } else { Timer::Wall };
    let mut readings = Vec::new();
    let quantum = |readings: &[u64]| detect_quantum_ns(readings).map(|ns| ns as f64 / 1e6);
    // Calibration: grow the batch until it spans enough of the timer.
    let mut k = 1;
    let mut span;
    // The first batch is one dispatch, cold: its wall time is what timing
    // a single call would report.
    let mut first_ms = None;
    loop {
        let since = Instant::now();
        span = timed_run(gpu, steps, workgroups, k, &mut readings).await?;
        first_ms = first_ms.or(Some(ms(since)));
        match next_batch(k, span, target_span_ms(quantum(&readings))) {
            Some(next) => k = next,
            None => break,
        }
    }
    let unusable = || RunnerError::Readback("the timer gave no usable figures".into());
    if software {
        // The last calibration batch is the one timed run.
        return Measurement::from_spans(&[span], k, timer, quantum(&readings))
            .map(|measurement| Measured {
                measurement: Measurement { first_ms, ..measurement },
                one_run_from_start: k == 1,
            })
            .ok_or_else(unusable);
    }
    // Warm-up: WARM_UP_MS of back-to-back work in one submission, then
    // batches until three in a row agree.
    let dispatches = (WARM_UP_MS / span.max(1e-3) * f64::from(k))
        .ceil()
        .min(f64::from(MAX_WARM_UP_DISPATCHES)) as u32;
    let mut total = timed_run(gpu, steps, workgroups, dispatches.max(k), &mut readings).await?;
    let mut last3 = [f64::INFINITY, f64::INFINITY, span];
    loop {
        let s = timed_run(gpu, steps, workgroups, k, &mut readings).await?;
        total += s;
        last3 = [last3[1], last3[2], s];
        if warmed_up(total, last3) {
            break;
        }
    }
    // Timed runs between clock probes, repeated while the probes say the
    // clocks were low.
    let mut best: Option<Measurement> = None;
    for _ in 0..MAX_CLOCK_ATTEMPTS {
        let before = match probe {
            Some(p) => Some(p.time(gpu).await?.0),
            None => None,
        };
        // Timed runs, repeated while the clocks still move under them.
        let mut steadiest: Option<Measurement> = None;
        for _ in 0..MAX_ATTEMPTS {
            let mut spans = Vec::with_capacity(RUNS as usize);
            for _ in 0..RUNS {
                spans.push(timed_run(gpu, steps, workgroups, k, &mut readings).await?);
            }
            let m = Measurement::from_spans(&spans, k, timer, quantum(&readings))
                .ok_or_else(unusable)?;
            if steadiest.is_none_or(|b| m.spread() < b.spread()) {
                steadiest = Some(m);
            }
            if m.spread() <= MAX_SPREAD {
                break;
            }
        }
        let mut m = steadiest.ok_or_else(unusable)?;
        if let (Some(p), Some(before)) = (probe, before) {
            let (after, reference) = p.time(gpu).await?;
            m.clock = clock_fraction(reference, &[before, after]);
        }
        if best.is_none_or(|b| m.clock > b.clock) {
            best = Some(m);
        }
        if !m.low_clocks() {
            break;
        }
    }
    best.map(|measurement| Measured {
        measurement: Measurement { first_ms, ..measurement },
        one_run_from_start: false,
    })
    .ok_or_else(unusable)
}

/// One timed run: `k` back-to-back runs of every step in one
/// compute pass, between one pair of timestamps (or, without timestamp
/// queries, from submission until the queue is idle). Returns the span in
/// milliseconds and adds the raw timestamps, in nanoseconds, to `readings`.
pub(crate) async fn timed_run(
    gpu: &Gpu,
    steps: &[(&wgpu::ComputePipeline, &wgpu::BindGroup)],
    [x, y, z]: [u32; 3],
    k: u32,
    readings: &mut Vec<u64>,
) -> Result<f64, RunnerError> {
    let device = &gpu.device;
    let stamps = gpu.timestamps.then(|| {
        let set = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("timed run"),
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        });
        let usage = wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC;
        let resolve = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timed run"),
            size: 16,
            usage,
            mapped_at_creation: false,
        });
        let usage = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
        let read = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timed run read-back"),
            size: 16,
            usage,
            mapped_at_creation: false,
        });
        (set, resolve, read)
    });
    let mut encoder =
        device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("timed run") });
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("timed run"),
            timestamp_writes: stamps.as_ref().map(|(set, _, _)| wgpu::ComputePassTimestampWrites {
                query_set: set,
                beginning_of_pass_write_index: Some(0),
                end_of_pass_write_index: Some(1),
            }),
        });
        for _ in 0..k {
            encode(&mut pass, steps, [x, y, z]);
        }
    }
    if let Some((set, resolve, read)) = &stamps {
        encoder.resolve_query_set(set, 0..2, resolve, 0);
        encoder.copy_buffer_to_buffer(resolve, 0, read, 0, 16);
    }
    let started = Instant::now();
    gpu.queue.submit([encoder.finish()]);
    let Some((_, resolve, read)) = stamps else {
        wait_idle(gpu).await?;
        return Ok(started.elapsed().as_secs_f64() * 1000.0);
    };
    let bytes = read_back(gpu, &read).await?;
    resolve.destroy();
    read.destroy();
    let period = f64::from(gpu.queue.get_timestamp_period());
    let stamp = |at: usize| {
        u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes")) as f64 * period
    };
    let (begin, end) = (stamp(0), stamp(8));
    readings.extend([begin as u64, end as u64]);
    Ok(((end - begin).max(0.0)) / 1e6)
}

/// Waits until the queue has finished everything submitted so far.
async fn wait_idle(gpu: &Gpu) -> Result<(), RunnerError> {
    let (tx, rx) = futures_channel::oneshot::channel();
    gpu.queue.on_submitted_work_done(move || {
        let _ = tx.send(());
    });
    #[cfg(not(target_arch = "wasm32"))]
    poll_until_done(gpu)?;
    rx.await.map_err(|_| {
        if gpu.is_lost() {
            gpu.lost_error()
        } else {
            RunnerError::Readback("the queue never reported its work done".into())
        }
    })
}
