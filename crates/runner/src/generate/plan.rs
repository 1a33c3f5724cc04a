//! The model on the device: its weights and activations as buffers, each
//! kernel compiled for the model's shapes, and the commands of one token's
//! step, recorded once and replayed for every token.

use super::check::{Probe, Probes};
use super::kernels::{
    attention_values, bind, compile, pad16, swiglu, topk_bytes, uniform_bytes, Compiled,
};
use super::{GenerateError, Kernels, Sampling, Weights};
use crate::dispatch::read_back;
use crate::Gpu;
use gpu_puzzles_core::{CaseConfig, Puzzle, PuzzleSet};
use gpu_puzzles_reference::lm::weights::Q8_BLOCK;
use gpu_puzzles_reference::lm::{forward::rope_table, Model, Q8Matrix};
use std::collections::HashMap;
use wgpu::util::DeviceExt;

/// Invocations per workgroup of every kernel but attention's.
const WGS: u32 = 64;
/// Keys per workgroup of decode attention (its `params.split`, and its
/// `{{smemSize}}`), and its invocations per workgroup (at most 64 there).
pub(super) const SPLIT: u32 = 32;
/// Candidates the sampling kernel's outputs have room for (the puzzle's
/// largest `k`).
const K_MAX: u64 = 64;

const STORAGE: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE
    .union(wgpu::BufferUsages::COPY_SRC)
    .union(wgpu::BufferUsages::COPY_DST);

/// One command of a step.
enum Op {
    /// Dispatches entry point `entry` of a compiled kernel.
    Dispatch { kernel: usize, entry: usize, group: wgpu::BindGroup, workgroups: [u32; 3] },
    /// Decode attention of a layer: both entry points, with as many splits
    /// as the step's cached positions need.
    Attention { layer: usize },
    /// Appends the step's keys and values to a layer's cache.
    CacheAppend { layer: usize },
    /// Copies a buffer's first `words` into the read-back at `at` (words).
    Probe { buffer: wgpu::Buffer, words: u64, at: u64 },
}

/// The GEMV kernel every matrix is multiplied by: `gemv-q8`'s on the
/// quantised weights, or the `gemv` puzzle's on the same weights
/// dequantised to `f32` ([`Weights`]).
struct Gemv<'a> {
    puzzle: &'a Puzzle,
    source: &'a str,
    f32: bool,
}

/// Everything on the device, and the step's commands.
pub(crate) struct Plan {
    compiled: Vec<Compiled>,
    /// Decode attention compiled for each number of splits met so far
    /// (index into `compiled`): `{{totalWorkgroups}}` may differ.
    attention: HashMap<u32, usize>,
    attention_source: String,
    attention_puzzle: Puzzle,
    /// Each substituted text compiled so far, by text (index into
    /// `compiled`): kernels whose texts come out the same share one
    /// pipeline, those compiled later for a new number of splits included.
    by_text: HashMap<String, usize>,
    ops: Vec<Op>,
    /// Where each probe lies in the read-back, in words.
    probes: Vec<(Probe, u64, u64)>,
    readback: wgpu::Buffer,
    x0: wgpu::Buffer,
    positions: wgpu::Buffer,
    attention_params: wgpu::Buffer,
    topk_params: wgpu::Buffer,
    u: wgpu::Buffer,
    residual: wgpu::Buffer,
    q: wgpu::Buffer,
    k: wgpu::Buffer,
    v: wgpu::Buffer,
    att: wgpu::Buffer,
    scratch: wgpu::Buffer,
    caches: Vec<(wgpu::Buffer, wgpu::Buffer)>,
}

impl Plan {
    pub(crate) async fn new(
        gpu: &Gpu,
        model: &Model,
        set: &PuzzleSet,
        kernels: &Kernels,
        weights: Weights,
    ) -> Result<Plan, GenerateError> {
        let c = &model.config;
        let (d, hd, ctx) = (c.d_model as u64, c.head_dim as u64, c.context as u64);
        let (qn, kvn, ffn, vocab) = (
            (c.heads * c.head_dim) as u64,
            (c.kv_heads * c.head_dim) as u64,
            c.ffn_hidden as u64,
            c.vocab as u64,
        );
        let device = &gpu.device;
        let empty = |label: &str, words: u64| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: words.max(1) * 4,
                usage: STORAGE,
                mapped_at_creation: false,
            })
        };
        let init = |label: &str, bytes: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytes,
                usage,
            })
        };
        let floats = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let puzzle = |slug: &'static str| set.get(slug).ok_or(GenerateError::NoKernel(slug));
        let source = |slug: &'static str| kernels.get(slug).ok_or(GenerateError::NoKernel(slug));

        let x0 = empty("x0", d);
        let residual = empty("residual", d);
        let n = empty("n", d);
        let (q, k, v, att) = (empty("q", qn), empty("k", kvn), empty("v", kvn), empty("att", qn));
        let a = empty("a", d);
        let (gate, up, hidden, f) =
            (empty("gate", ffn), empty("up", ffn), empty("hidden", ffn), empty("f", d));
        let logits = empty("logits", vocab);
        let (top_index, top_prob, token) =
            (empty("topk_index", K_MAX), empty("topk_prob", K_MAX), empty("token", 1));
        let u = empty("u", 1);
        let positions = empty("positions", 1);
        let splits_max = ctx.div_ceil(u64::from(SPLIT));
        let scratch = empty("scratch", qn / hd * splits_max * (hd + 2));
        let table: Vec<f32> =
            rope_table(c.context, c.head_dim, c.rope_theta).iter().map(|&x| x as f32).collect();
        let cos_sin = init("cos_sin", &floats(&table), STORAGE);
        let caches: Vec<_> = (0..c.layers)
            .map(|_| (empty("k_cache", kvn * ctx), empty("v_cache", kvn * ctx)))
            .collect();

        let uniform = |p: &Puzzle, values: &[(&str, f64)]| -> wgpu::Buffer {
            init(
                &p.slug,
                &uniform_bytes(p, values),
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            )
        };
        let (rms, rope, topk) = (puzzle("rms-norm")?, puzzle("rope")?, puzzle("top-k-sampling")?);
        let attention_puzzle = puzzle("decode-attention")?.clone();
        let rms_params = uniform(rms, &[("cols", d as f64), ("eps", c.eps)]);
        let rope_params = uniform(
            rope,
            &[
                ("tokens", 1.0),
                ("q_heads", c.heads as f64),
                ("kv_heads", c.kv_heads as f64),
                ("head_dim", hd as f64),
            ],
        );
        let topk_params =
            uniform(topk, &[("vocab", vocab as f64), ("k", 1.0), ("temperature", 1.0)]);
        let attention_params = uniform(&attention_puzzle, &attention_values(c, 1));

        let row = |workgroups: u32, smem: Option<u32>| CaseConfig {
            workgroup_size: [WGS, 1, 1],
            workgroups: [workgroups, 1, 1],
            workgroup_memory: smem.map(|s| [s, 1, 1]),
        };
        let mut compiled = Vec::new();
        let mut by_text: HashMap<String, usize> = HashMap::new();
        let rms_k =
            compile(gpu, rms, source("rms-norm")?, &row(1, Some(WGS)), &mut compiled, &mut by_text)
                .await?;
        let rope_pairs = ((c.heads + c.kv_heads) * c.head_dim / 2) as u32;
        let rope_groups = rope_pairs.div_ceil(WGS);
        let rope_k = compile(
            gpu,
            rope,
            source("rope")?,
            &row(rope_groups, None),
            &mut compiled,
            &mut by_text,
        )
        .await?;
        let topk_k = compile(
            gpu,
            topk,
            source("top-k-sampling")?,
            &row(1, Some(WGS)),
            &mut compiled,
            &mut by_text,
        )
        .await?;
        let gemv_slug = if weights == Weights::F32 { "gemv" } else { "gemv-q8" };
        let gemv = Gemv {
            puzzle: puzzle(gemv_slug)?,
            source: source(gemv_slug)?,
            f32: weights == Weights::F32,
        };
        let swiglu_k = compiled.len();
        compiled.push(swiglu(gpu));
        let swiglu_params = init(
            "swiglu",
            &pad16((ffn as u32).to_le_bytes().to_vec()),
            wgpu::BufferUsages::UNIFORM,
        );

        let mut plan = Plan {
            compiled,
            attention: HashMap::new(),
            attention_source: source("decode-attention")?.clone(),
            attention_puzzle,
            by_text: HashMap::new(),
            ops: Vec::new(),
            probes: Vec::new(),
            readback: empty("unused", 1),
            x0,
            positions,
            attention_params,
            topk_params: topk_params.clone(),
            u,
            residual,
            q,
            k,
            v,
            att,
            scratch,
            caches,
        };
        let mut at = 0u64;
        let mut probe = |plan: &mut Plan, p: Probe, buffer: &wgpu::Buffer, words: u64| {
            plan.ops.push(Op::Probe { buffer: buffer.clone(), words, at });
            plan.probes.push((p, at, words));
            at += words;
        };
        let x0 = plan.x0.clone();
        let residual = plan.residual.clone();
        let (qb, kb, vb, attb) = (plan.q.clone(), plan.k.clone(), plan.v.clone(), plan.att.clone());
        for (l, layer) in model.layers.iter().enumerate() {
            let x_in = if l == 0 { &x0 } else { &f };
            let attn_norm = init("attn_norm", &floats(&layer.attn_norm), STORAGE);
            plan.dispatch(
                device,
                rms_k,
                0,
                &[x_in, &residual, &attn_norm, &n, &rms_params],
                [1, 1, 1],
            );
            probe(&mut plan, Probe::AttnResidual(l), &residual, d);
            probe(&mut plan, Probe::AttnNorm(l), &n, d);
            for (m, out, p) in [
                (&layer.wq, &qb, Probe::QueryProj(l)),
                (&layer.wk, &kb, Probe::KeyProj(l)),
                (&layer.wv, &vb, Probe::Value(l)),
            ] {
                plan.gemv(gpu, &gemv, m, &n, out, &mut by_text).await?;
                probe(&mut plan, p, out, m.rows as u64);
            }
            plan.dispatch(
                device,
                rope_k,
                0,
                &[&qb, &kb, &plan.positions.clone(), &cos_sin, &rope_params],
                [rope_groups, 1, 1],
            );
            probe(&mut plan, Probe::Query(l), &qb, qn);
            probe(&mut plan, Probe::Key(l), &kb, kvn);
            plan.ops.push(Op::CacheAppend { layer: l });
            plan.ops.push(Op::Attention { layer: l });
            probe(&mut plan, Probe::Attention(l), &attb, qn);
            plan.gemv(gpu, &gemv, &layer.wo, &attb, &a, &mut by_text).await?;
            probe(&mut plan, Probe::AttnOut(l), &a, d);
            let ffn_norm = init("ffn_norm", &floats(&layer.ffn_norm), STORAGE);
            plan.dispatch(
                device,
                rms_k,
                0,
                &[&a, &residual, &ffn_norm, &n, &rms_params],
                [1, 1, 1],
            );
            probe(&mut plan, Probe::FfnResidual(l), &residual, d);
            probe(&mut plan, Probe::FfnNorm(l), &n, d);
            for (m, out, p) in
                [(&layer.w_gate, &gate, Probe::Gate(l)), (&layer.w_up, &up, Probe::Up(l))]
            {
                plan.gemv(gpu, &gemv, m, &n, out, &mut by_text).await?;
                probe(&mut plan, p, out, ffn);
            }
            plan.dispatch(
                device,
                swiglu_k,
                0,
                &[&gate, &up, &hidden, &swiglu_params],
                [(ffn as u32).div_ceil(WGS), 1, 1],
            );
            probe(&mut plan, Probe::Hidden(l), &hidden, ffn);
            plan.gemv(gpu, &gemv, &layer.w_down, &hidden, &f, &mut by_text).await?;
            probe(&mut plan, Probe::FfnOut(l), &f, d);
        }
        let final_norm = init("final_norm", &floats(&model.final_norm), STORAGE);
        plan.dispatch(device, rms_k, 0, &[&f, &residual, &final_norm, &n, &rms_params], [1, 1, 1]);
        probe(&mut plan, Probe::FinalResidual, &residual, d);
        probe(&mut plan, Probe::FinalNorm, &n, d);
        plan.gemv(gpu, &gemv, &model.lm_head, &n, &logits, &mut by_text).await?;
        plan.by_text = by_text;
        probe(&mut plan, Probe::Logits, &logits, vocab);
        let u_buffer = plan.u.clone();
        plan.dispatch(
            device,
            topk_k,
            0,
            &[&logits, &u_buffer, &top_index, &top_prob, &token, &topk_params],
            [1, 1, 1],
        );
        probe(&mut plan, Probe::Token, &token, 1);
        plan.readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("generate read-back"),
            size: at * 4,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Ok(plan)
    }

    /// Records a dispatch of `kernel`'s entry point `entry` with `buffers`
    /// bound in binding order (binding `i` is `buffers[i]`; only the
    /// bindings the kernel declares are bound).
    fn dispatch(
        &mut self,
        device: &wgpu::Device,
        kernel: usize,
        entry: usize,
        buffers: &[&wgpu::Buffer],
        workgroups: [u32; 3],
    ) {
        let group = bind(device, &self.compiled[kernel], buffers);
        self.ops.push(Op::Dispatch { kernel, entry, group, workgroups });
    }

    /// Records `y = W · x` for one matrix (`x` has `m.cols` elements, `y`
    /// `m.rows`): uploads its weights in the kernel's format and dispatches
    /// one workgroup per row.
    async fn gemv(
        &mut self,
        gpu: &Gpu,
        g: &Gemv<'_>,
        m: &Q8Matrix,
        x: &wgpu::Buffer,
        y: &wgpu::Buffer,
        by_text: &mut HashMap<String, usize>,
    ) -> Result<(), GenerateError> {
        let device = &gpu.device;
        let init = |label: &str, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        let (rows, cols) = (m.rows as u32, m.cols as u32);
        let config = CaseConfig {
            workgroup_size: [WGS, 1, 1],
            workgroups: [rows, 1, 1],
            workgroup_memory: Some([WGS, 1, 1]),
        };
        let kernel = compile(gpu, g.puzzle, g.source, &config, &mut self.compiled, by_text).await?;
        let dims_usage = wgpu::BufferUsages::UNIFORM;
        let buffers = if g.f32 {
            let a: Vec<f32> = (0..m.rows * m.cols)
                .map(|i| {
                    let (r, c) = (i / m.cols, i % m.cols);
                    m.scales[(r * m.cols + c) / Q8_BLOCK] * f32::from(m.weight(r, c))
                })
                .collect();
            let dims = uniform_bytes(g.puzzle, &[("m", f64::from(rows)), ("k", f64::from(cols))]);
            vec![
                init("a", &f32_bytes(&a), STORAGE),
                x.clone(),
                y.clone(),
                init("dims", &dims, dims_usage),
            ]
        } else {
            let words: Vec<u8> = m.words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let dims =
                uniform_bytes(g.puzzle, &[("rows", f64::from(rows)), ("cols", f64::from(cols))]);
            vec![
                init("w", &words, STORAGE),
                init("scales", &f32_bytes(&m.scales), STORAGE),
                x.clone(),
                y.clone(),
                init("dims", &dims, dims_usage),
            ]
        };
        let refs: Vec<&wgpu::Buffer> = buffers.iter().collect();
        self.dispatch(device, kernel, 0, &refs, [rows, 1, 1]);
        Ok(())
    }

    /// Runs one token's step at position `pos` and reads back every probe.
    pub(crate) async fn run(
        &mut self,
        gpu: &Gpu,
        model: &Model,
        token: u32,
        pos: usize,
        u: f32,
        sampling: &Sampling,
    ) -> Result<Probes, GenerateError> {
        let c = &model.config;
        let t = pos as u32 + 1;
        let splits = t.div_ceil(SPLIT);
        if !self.attention.contains_key(&splits) {
            let config = CaseConfig {
                workgroup_size: [SPLIT, 1, 1],
                workgroups: [splits, c.heads as u32, 1],
                workgroup_memory: Some([SPLIT, 1, 1]),
            };
            let (puzzle, source) = (&self.attention_puzzle, &self.attention_source);
            let (compiled, by_text) = (&mut self.compiled, &mut self.by_text);
            let index = compile(gpu, puzzle, source, &config, compiled, by_text).await?;
            self.attention.insert(splits, index);
        }
        let queue = &gpu.queue;
        queue.write_buffer(
            &self.x0,
            0,
            &model
                .embedding(token as usize)
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect::<Vec<u8>>(),
        );
        queue.write_buffer(&self.positions, 0, &(pos as u32).to_le_bytes());
        queue.write_buffer(&self.u, 0, &u.to_le_bytes());
        queue.write_buffer(
            &self.attention_params,
            0,
            &uniform_bytes(&self.attention_puzzle, &attention_values(c, t)),
        );
        let device = &gpu.device;
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.clear_buffer(&self.residual, 0, None);
        let attention = self.attention[&splits];
        let row_bytes = c.head_dim as u64 * 4;
        for op in &self.ops {
            match op {
                Op::Dispatch { kernel, entry, group, workgroups } => {
                    let mut pass = encoder.begin_compute_pass(&Default::default());
                    pass.set_pipeline(&self.compiled[*kernel].pipelines[*entry]);
                    pass.set_bind_group(0, group, &[]);
                    pass.dispatch_workgroups(workgroups[0], workgroups[1], workgroups[2]);
                }
                Op::CacheAppend { layer } => {
                    let (kc, vc) = &self.caches[*layer];
                    for g in 0..c.kv_heads as u64 {
                        let to = (g * c.context as u64 + pos as u64) * row_bytes;
                        encoder.copy_buffer_to_buffer(&self.k, g * row_bytes, kc, to, row_bytes);
                        encoder.copy_buffer_to_buffer(&self.v, g * row_bytes, vc, to, row_bytes);
                    }
                }
                Op::Attention { layer } => {
                    let (kc, vc) = &self.caches[*layer];
                    let kernel = &self.compiled[attention];
                    let buffers =
                        [&self.q, kc, vc, &self.scratch, &self.att, &self.attention_params];
                    let group = bind(device, kernel, &buffers);
                    for pipeline in &kernel.pipelines {
                        let mut pass = encoder.begin_compute_pass(&Default::default());
                        pass.set_pipeline(pipeline);
                        pass.set_bind_group(0, &group, &[]);
                        pass.dispatch_workgroups(splits, c.heads as u32, 1);
                    }
                }
                Op::Probe { buffer, words, at } => {
                    encoder.copy_buffer_to_buffer(buffer, 0, &self.readback, at * 4, words * 4);
                }
            }
        }
        // The sampling settings may change from one prompt to the next.
        queue.write_buffer(&self.topk_params, 0, &topk_bytes(c.vocab, sampling));
        gpu.queue.submit([encoder.finish()]);
        let bytes = read_back(gpu, &self.readback).await?;
        let words: Vec<u32> =
            bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        Ok(Probes::new(&self.probes, words))
    }
}

/// `values` as little-endian bytes.
fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|x| x.to_le_bytes()).collect()
}
