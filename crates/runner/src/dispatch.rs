//! Uploading a case's buffers, dispatching and reading back (a performance
//! case's repeated timing is in `timing.rs`).

use crate::peak::ClockProbe;
use crate::pipeline::Pipeline;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use crate::readback::poll_until_done;
pub(crate) use crate::readback::read_back;
use crate::readback::{await_map, request_map, Mapped};
use crate::timing::measure_from_start;
use crate::{Gpu, RunnerError};
use gpu_puzzles_core::{Case, Puzzle, Values};
use gpu_puzzles_instrument::TRACE_BINDING;
use gpu_puzzles_verdict::judge::Timing;
use web_time::Instant;
use wgpu::util::DeviceExt;

/// Offsets of buffers packed into one read-back buffer are multiples of this
/// (WebGPU's copy offset alignment is 4 and its map offset alignment 8;
/// 256 keeps every copy well aligned).
const READBACK_ALIGN: u64 = 256;

/// How to dispatch a case.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct DispatchOptions {
    /// Bind a zeroed trace buffer of `.0` bytes and read back its first
    /// `.1` bytes (an instrumented run).
    pub trace_bytes: Option<(u64, u64)>,
    /// Time the kernel repeatedly first ([`crate::timing::measure`],
    /// between the device's clock probes on a hardware adapter), for a
    /// performance case; every storage buffer is then reset to its initial
    /// contents before the judged dispatch, so kernels that accumulate into
    /// their outputs are judged on one dispatch's worth. Where the timing
    /// was one run of the kernel from those contents (a slow kernel on a
    /// software adapter, [`crate::timing::Measured::one_run_from_start`]),
    /// that run is the judged one: its results are read back and the
    /// kernel is not run again, which halves a software adapter's time on
    /// a performance case.
    pub measure: bool,
}

/// A dispatch submitted with its read-back copy, the mapping requested and
/// not yet awaited ([`finish`]): the cases of a Run are submitted one
/// after another and their read-backs awaited after, so the GPU process
/// works on them together instead of one round trip per case.
pub(crate) struct Submitted {
    readback: wgpu::Buffer,
    mapped: Mapped,
    /// Where each compared buffer (then the trace) starts in the read-back,
    /// and how many bytes were copied.
    offsets: Vec<u64>,
    copied: Vec<u64>,
    compared: usize,
    traced: bool,
    timestamp_offset: Option<u64>,
    started: Instant,
    /// Freed once read back.
    buffers: Vec<wgpu::Buffer>,
    /// Boxed: most dispatches are not timed, and the case's states move.
    measured: Option<Box<gpu_puzzles_verdict::timing::Measurement>>,
    /// The timed run was the judged one (a performance case on a software
    /// adapter, [`crate::timing::Measured::one_run_from_start`]): the
    /// read-back submitted after it dispatched nothing, and `started` is
    /// when the timed run began.
    judged_in_timed_run: bool,
}

/// Uploads the case's buffers (and binds a zeroed trace buffer, when
/// asked, laid out as `shadows` says), optionally times the kernel,
/// dispatches the case's dispatch list once more (unless the timed run was
/// that one run, [`DispatchOptions::measure`]) with a copy of
/// every compared buffer and the trace's read part into one read-back
/// buffer, and requests its mapping.
///
/// # Errors
/// As [`measure`], for a performance case.
pub(crate) async fn submit(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    p: &Pipeline,
    options: DispatchOptions,
    shadows: Option<&gpu_puzzles_verdict::trace::TraceLayout>,
) -> Result<Submitted, RunnerError> {
    let trace_bytes = options.trace_bytes;
    let device = &gpu.device;
    // The clock probe (measuring the peaks first, once per device) before
    // the case's buffers exist: the two need not share the GPU's memory.
    let probe = if options.measure && !gpu.adapter().software {
        Some(ClockProbe::of(gpu).await?)
    } else {
        None
    };
    let storage_usage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let initial: Vec<Vec<u8>> = case.buffers.iter().map(|cb| cb.initial.to_bytes()).collect();
    // WebGPU zero-initialises new buffers, which is the trace's initial state.
    let trace_buffer = trace_bytes.map(|(size, _)| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("trace"),
            size,
            usage: storage_usage,
            mapped_at_creation: false,
        })
    });
    let bound = bind(gpu, puzzle, case, p, &initial, trace_buffer.as_ref());
    let steps = bound.steps(p, case);
    let storage = &bound.storage;
    // Whether the timed run left exactly one run's results in the buffers
    // (a slow kernel on a software adapter): then those are read back, and
    // the kernel is not run a second time to be judged.
    let mut judged_already = false;
    let timed_since = Instant::now();
    let measured = if options.measure {
        let m = measure_from_start(gpu, &steps, case.config.workgroups, probe.as_ref()).await?;
        judged_already = m.one_run_from_start;
        if !judged_already {
            for (buffer, bytes) in storage.iter().zip(&initial) {
                gpu.queue.write_buffer(buffer, 0, bytes);
            }
        }
        Some(Box::new(m.measurement))
    } else {
        None
    };
    drop(initial);

    // Read-back layout: every compared buffer, the trace, then two timestamps.
    let mut sources: Vec<&wgpu::Buffer> = puzzle.compared_buffers().map(|i| &storage[i]).collect();
    let compared = sources.len();
    sources.extend(trace_buffer.as_ref());
    // Bytes copied from each: whole compared buffers, the trace's read part.
    let copied: Vec<u64> =
        sources
            .iter()
            .enumerate()
            .map(|(k, b)| {
                if k == compared {
                    trace_bytes.map_or(b.size(), |(_, read)| read)
                } else {
                    b.size()
                }
            })
            .collect();
    let mut offsets = Vec::with_capacity(sources.len());
    let mut size = 0u64;
    for &bytes in &copied {
        offsets.push(size);
        size += bytes.div_ceil(READBACK_ALIGN) * READBACK_ALIGN;
    }
    let timestamps = (gpu.timestamps && !judged_already).then(|| {
        let set = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("pass time"),
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        });
        let resolve = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timestamps"),
            size: 16,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        (set, resolve)
    });
    let timestamp_offset = size;
    if timestamps.is_some() {
        size += READBACK_ALIGN;
    }
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read-back"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let mut encoder = device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(&puzzle.slug) });
    // The dispatches in one compute pass, except that an entry point
    // dispatched again first has its racecheck shadows zeroed, between
    // passes: WebGPU makes each dispatch's storage writes visible to the
    // next, so its earlier dispatch's accesses cannot race with its new one's.
    let mut seen = vec![false; p.pipelines.len()];
    let mut passes: Vec<(usize, Vec<(u64, u64)>)> = vec![(0, Vec::new())];
    for (k, d) in case.dispatches.iter().enumerate() {
        let again = std::mem::replace(&mut seen[d.entry as usize], true);
        let ranges = shadows
            .filter(|_| again)
            .map(|layout| layout.shadow_ranges(d.entry))
            .unwrap_or_default();
        if !ranges.is_empty() {
            passes.push((k, ranges));
        }
    }
    let [x, y, z] = case.config.workgroups;
    if judged_already {
        passes.clear();
    }
    for (i, (first, clear)) in passes.iter().enumerate() {
        if let Some(t) = &trace_buffer {
            for &(word, words) in clear {
                encoder.clear_buffer(t, word * 4, Some(words * 4));
            }
        }
        let end = passes.get(i + 1).map_or(steps.len(), |n| n.0);
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(&puzzle.slug),
            // The first pass writes the first timestamp, the last the second.
            timestamp_writes: timestamps.as_ref().filter(|_| i == 0 || i + 1 == passes.len()).map(
                |(set, _)| wgpu::ComputePassTimestampWrites {
                    query_set: set,
                    beginning_of_pass_write_index: (i == 0).then_some(0),
                    end_of_pass_write_index: (i + 1 == passes.len()).then_some(1),
                },
            ),
        });
        encode(&mut pass, &steps[*first..end], [x, y, z]);
    }
    for ((b, &off), &bytes) in sources.iter().zip(&offsets).zip(&copied) {
        encoder.copy_buffer_to_buffer(b, 0, &readback, off, bytes);
    }
    if let Some((set, resolve)) = &timestamps {
        encoder.resolve_query_set(set, 0..2, resolve, 0);
        encoder.copy_buffer_to_buffer(resolve, 0, &readback, timestamp_offset, 16);
    }
    let started = if judged_already { timed_since } else { Instant::now() };
    gpu.queue.submit([encoder.finish()]);
    let mapped = request_map(&readback);
    drop((steps, sources));
    let mut buffers: Vec<wgpu::Buffer> = bound.into_buffers().chain(trace_buffer).collect();
    let timestamp_offset = timestamps.map(|(_, resolve)| {
        buffers.push(resolve);
        timestamp_offset
    });
    Ok(Submitted {
        readback,
        mapped,
        offsets,
        copied,
        compared,
        traced: trace_bytes.is_some(),
        timestamp_offset,
        started,
        buffers,
        measured,
        judged_in_timed_run: judged_already,
    })
}

impl Submitted {
    /// Records on the timed measurement, if any, how long creating the
    /// kernel's pipeline took for this case (`None`: it was reused).
    pub(crate) fn note_pipeline_ms(&mut self, ms: Option<f64>) {
        if let Some(m) = &mut self.measured {
            m.pipeline_ms = ms;
        }
    }
}

/// A case's buffers on the device, with its bind groups: one for the case,
/// and one per dispatch that sets a per-dispatch uniform.
pub(crate) struct Bound {
    /// The storage buffers, in the puzzle's order.
    pub storage: Vec<wgpu::Buffer>,
    /// The uniform buffers, in the puzzle's order.
    pub uniforms: Vec<wgpu::Buffer>,
    /// Per dispatch, the uniform it sets (its index) and that uniform's buffer.
    overrides: Vec<Option<(u32, wgpu::Buffer)>>,
    group: wgpu::BindGroup,
    own: Vec<Option<wgpu::BindGroup>>,
}

impl Bound {
    /// The case's dispatches as (pipeline, bind group) pairs, in order.
    pub fn steps<'a>(
        &'a self,
        p: &'a Pipeline,
        case: &Case,
    ) -> Vec<(&'a wgpu::ComputePipeline, &'a wgpu::BindGroup)> {
        case.dispatches
            .iter()
            .zip(&self.own)
            .map(|(d, g)| (&p.pipelines[d.entry as usize], g.as_ref().unwrap_or(&self.group)))
            .collect()
    }

    /// Every buffer, to be destroyed once read back.
    pub fn into_buffers(self) -> impl Iterator<Item = wgpu::Buffer> {
        self.storage
            .into_iter()
            .chain(self.uniforms)
            .chain(self.overrides.into_iter().flatten().map(|o| o.1))
    }
}

/// Uploads a case's storage buffers (from `initial`, their bytes) and
/// uniforms, and creates its bind groups, binding `trace` too when given.
pub(crate) fn bind(
    gpu: &Gpu,
    puzzle: &Puzzle,
    case: &Case,
    p: &Pipeline,
    initial: &[Vec<u8>],
    trace: Option<&wgpu::Buffer>,
) -> Bound {
    let device = &gpu.device;
    let storage_usage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let storage: Vec<wgpu::Buffer> = puzzle
        .buffers
        .iter()
        .zip(initial)
        .map(|(b, bytes)| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(&b.name),
                contents: bytes,
                usage: storage_usage,
            })
        })
        .collect();
    let uniforms: Vec<wgpu::Buffer> = puzzle
        .uniforms
        .iter()
        .zip(&case.uniforms)
        .map(|(u, bytes)| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(&u.name),
                contents: bytes,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            })
        })
        .collect();
    let overrides: Vec<Option<(u32, wgpu::Buffer)>> = case
        .dispatches
        .iter()
        .map(|d| {
            d.uniform.as_ref().map(|(u, bytes)| {
                let usage = wgpu::BufferUsages::UNIFORM;
                (
                    *u,
                    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some(&puzzle.uniforms[*u as usize].name),
                        contents: bytes,
                        usage,
                    }),
                )
            })
        })
        .collect();
    let bind_group_with = |over: Option<&(u32, wgpu::Buffer)>| {
        let mut entries: Vec<wgpu::BindGroupEntry> = puzzle
            .buffers
            .iter()
            .zip(&storage)
            .map(|(b, buf)| wgpu::BindGroupEntry {
                binding: b.binding,
                resource: buf.as_entire_binding(),
            })
            .collect();
        entries.extend(puzzle.uniforms.iter().zip(&uniforms).enumerate().map(|(k, (u, buf))| {
            let buf = over.filter(|(o, _)| *o as usize == k).map_or(buf, |(_, b)| b);
            wgpu::BindGroupEntry { binding: u.binding, resource: buf.as_entire_binding() }
        }));
        if let Some(t) = trace {
            entries.push(wgpu::BindGroupEntry {
                binding: TRACE_BINDING,
                resource: t.as_entire_binding(),
            });
        }
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("puzzle bindings"),
            layout: &p.bind_group_layout,
            entries: &entries,
        })
    };
    let group = bind_group_with(None);
    let own = overrides.iter().map(|o| o.as_ref().map(|o| bind_group_with(Some(o)))).collect();
    Bound { storage, uniforms, overrides, group, own }
}

/// Records `steps` into `pass`, each over `workgroups`, setting a bind
/// group only where it differs from the step before's (most puzzles have
/// one for every dispatch).
pub(crate) fn encode(
    pass: &mut wgpu::ComputePass<'_>,
    steps: &[(&wgpu::ComputePipeline, &wgpu::BindGroup)],
    [x, y, z]: [u32; 3],
) {
    let mut bound: Option<&wgpu::BindGroup> = None;
    for &(pipeline, group) in steps {
        if bound != Some(group) {
            pass.set_bind_group(0, group, &[]);
            bound = Some(group);
        }
        pass.set_pipeline(pipeline);
        pass.dispatch_workgroups(x, y, z);
    }
}

/// Awaits a submitted dispatch's read-back. Returns the compared buffers'
/// contents in binding order, the trace words (when a trace was bound) and
/// the timing (wall time from submission to the moment the read-back was
/// mapped, whatever ran on the CPU before it was awaited).
///
/// # Errors
/// As [`read_back`].
pub(crate) async fn finish(
    gpu: &Gpu,
    puzzle: &Puzzle,
    s: Submitted,
) -> Result<(Vec<Values>, Option<Vec<u32>>, Timing), RunnerError> {
    let (bytes, mapped_at) = await_map(gpu, &s.readback, s.mapped).await?;
    let wall_ms = mapped_at.duration_since(s.started).as_secs_f64() * 1000.0;
    let (offsets, copied) = (&s.offsets, &s.copied);
    let slice = |k: usize| &bytes[offsets[k] as usize..(offsets[k] + copied[k]) as usize];
    let actual: Vec<Values> = puzzle
        .compared_buffers()
        .enumerate()
        .map(|(k, i)| Values::from_bytes(puzzle.buffers[i].element, slice(k)))
        .collect();
    let trace_words = s.traced.then(|| {
        slice(s.compared)
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    });
    let mut gpu_ms = s.timestamp_offset.and_then(|at| {
        let t = &bytes[at as usize..at as usize + 16];
        let begin = u64::from_le_bytes(t[0..8].try_into().ok()?);
        let end = u64::from_le_bytes(t[8..16].try_into().ok()?);
        (end > begin).then(|| (end - begin) as f64 * gpu.queue.get_timestamp_period() as f64 / 1e6)
    });
    // The timed run was the judged one: its GPU time is the dispatch's.
    if s.judged_in_timed_run {
        gpu_ms = s
            .measured
            .as_deref()
            .filter(|m| m.timer == gpu_puzzles_verdict::timing::Timer::Timestamps)
            .map(|m| m.median_ms);
    }
    // Free GPU memory now: on the web, dropping a buffer leaves it to the
    // garbage collector, and a page may run hundreds of times.
    for b in s.buffers.iter().chain(std::iter::once(&s.readback)) {
        b.destroy();
    }
    Ok((actual, trace_words, Timing { wall_ms, gpu_ms, measured: s.measured.map(|m| *m) }))
}
