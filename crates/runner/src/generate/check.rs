//! Checking one step kernel by kernel: every kernel's output, read back
//! from the GPU, against the `f64` CPU formula of its puzzle applied to the
//! very inputs the GPU gave it. A kernel's fault is named where it happens;
//! rounding carried in from earlier kernels is not blamed on it.

use gpu_puzzles_reference::lm::forward::{
    attention, gemv_q8, rmsnorm_fused, rope, rope_table, swiglu,
};
use gpu_puzzles_reference::lm::{sample, Model};
use std::collections::BTreeMap;

use super::Sampling;

/// A vector the GPU step computes and the page can compare, by layer
/// (from 0) where it has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Probe {
    /// The residual stream after the attention sublayer's RMS Norm added
    /// its input (`d_model`).
    AttnResidual(usize),
    /// That RMS Norm's output (`d_model`).
    AttnNorm(usize),
    /// `Wq · n` before RoPE (`heads × head_dim`).
    QueryProj(usize),
    /// `Wk · n` before RoPE (`kv_heads × head_dim`).
    KeyProj(usize),
    /// `Wv · n` (`kv_heads × head_dim`).
    Value(usize),
    /// The queries after RoPE.
    Query(usize),
    /// The keys after RoPE.
    Key(usize),
    /// Decode attention's output (`heads × head_dim`).
    Attention(usize),
    /// `Wo` times it (`d_model`).
    AttnOut(usize),
    /// The residual stream after the MLP's RMS Norm added its input.
    FfnResidual(usize),
    /// The MLP's RMS Norm's output (`d_model`).
    FfnNorm(usize),
    /// `Wgate · n` (`ffn_hidden`).
    Gate(usize),
    /// `Wup · n` (`ffn_hidden`).
    Up(usize),
    /// SwiGLU's output (`ffn_hidden`).
    Hidden(usize),
    /// `Wdown` times it (`d_model`).
    FfnOut(usize),
    /// The residual stream after the final RMS Norm's add.
    FinalResidual,
    /// The final RMS Norm's output.
    FinalNorm,
    /// The logits (`vocab`).
    Logits,
    /// The sampled token (one `u32`).
    Token,
}

/// The probes of one step, as read back: words by probe.
#[derive(Debug, Clone)]
pub(crate) struct Probes {
    words: BTreeMap<Probe, Vec<u32>>,
}

impl Probes {
    /// Cuts the read-back `words` at `slots` (probe, first word, words).
    pub(crate) fn new(slots: &[(Probe, u64, u64)], words: Vec<u32>) -> Probes {
        let words = slots
            .iter()
            .map(|&(p, at, n)| (p, words[at as usize..(at + n) as usize].to_vec()))
            .collect();
        Probes { words }
    }

    /// A probe's floats, widened to `f64`.
    fn f64s(&self, p: Probe) -> Vec<f64> {
        self.words[&p].iter().map(|&w| f64::from(f32::from_bits(w))).collect()
    }

    /// A probe's floats as the GPU wrote them.
    fn f32s(&self, p: Probe) -> Vec<f32> {
        self.words[&p].iter().map(|&w| f32::from_bits(w)).collect()
    }

    /// The sampled token.
    pub(crate) fn token(&self) -> u32 {
        self.words[&Probe::Token][0]
    }
}

/// A kernel whose output differs from its puzzle's formula applied to the
/// inputs it was given.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelFault {
    /// The puzzle whose kernel it is (`"rms-norm"`), or `"swiglu"` for the
    /// site's own.
    pub kernel: &'static str,
    /// What it computed there, e.g. "the queries' RoPE".
    pub stage: &'static str,
    /// The layer, from 0, where the stage has one.
    pub layer: Option<usize>,
    /// The token's position.
    pub pos: usize,
    /// The first element past the tolerance.
    pub element: usize,
    /// The CPU's value there.
    pub expected: f64,
    /// The GPU's.
    pub got: f32,
}

impl std::fmt::Display for KernelFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "your {} kernel differs", self.kernel)?;
        if let Some(l) = self.layer {
            write!(f, " at layer {}", l + 1)?;
        }
        write!(
            f,
            ", position {} ({}): element {} is {} where {} was expected from the inputs it was given",
            self.pos, self.stage, self.element, self.got, self.expected as f32
        )
    }
}

/// A kernel's largest deviation from the CPU's value over every element
/// and step checked so far, measured against the tolerance the check
/// applies there ([`RELATIVE`] times the largest magnitude of the expected
/// vector): a kernel whose rounding is sound stays near a thousandth of
/// it, and one that drifts is named by its share long before a sampled
/// token changes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drift {
    /// The puzzle whose kernel it is, as in [`KernelFault::kernel`].
    pub kernel: &'static str,
    /// What it computed where the deviation was largest.
    pub stage: &'static str,
    /// That stage's layer, from 0, where it has one.
    pub layer: Option<usize>,
    /// The token's position there.
    pub pos: usize,
    /// The element.
    pub element: usize,
    /// `|GPU − CPU|` there.
    pub deviation: f64,
    /// The difference allowed there.
    pub allowed: f64,
}

impl Drift {
    /// The deviation as a fraction of the difference allowed: above 1 is a
    /// fault ([`KernelFault`]).
    pub fn share(&self) -> f64 {
        self.deviation / self.allowed
    }
}

impl std::fmt::Display for Drift {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: largest deviation {:.3e}, {:.2e} of the {:.3e} allowed ({}",
            self.kernel,
            self.deviation,
            self.share(),
            self.allowed,
            self.stage
        )?;
        if let Some(l) = self.layer {
            write!(f, ", layer {}", l + 1)?;
        }
        write!(f, ", position {}, element {})", self.pos, self.element)
    }
}

/// The largest difference allowed, relative to the largest magnitude of
/// the expected vector: f32 rounding of these sums of at most a few
/// hundred terms stays near 1e-6 of it, and every mistake the chapter's
/// held solutions make moves some element by more than a percent.
const RELATIVE: f64 = 1e-3;

/// The first element of `got` further than the tolerance from `expected`.
fn first_difference(expected: &[f64], got: &[f32]) -> Option<usize> {
    let scale = expected.iter().fold(0.0f64, |m, e| m.max(e.abs())).max(1e-6);
    if expected.len() != got.len() {
        return Some(expected.len().min(got.len()));
    }
    expected.iter().zip(got).position(|(e, &g)| {
        let d = (f64::from(g) - e).abs();
        d.is_nan() || d > RELATIVE * scale
    })
}

/// The element of `got` furthest from `expected` against the tolerance:
/// (element, `|got − expected|`, the difference allowed). `None` for
/// vectors of different lengths or an empty one.
fn largest_deviation(expected: &[f64], got: &[f32]) -> Option<(usize, f64, f64)> {
    let scale = expected.iter().fold(0.0f64, |m, e| m.max(e.abs())).max(1e-6);
    if expected.len() != got.len() {
        return None;
    }
    let (i, d) = expected
        .iter()
        .zip(got)
        .map(|(e, &g)| (f64::from(g) - e).abs())
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    Some((i, d, RELATIVE * scale))
}

/// The CPU's side of the checks: the model, RoPE's table as the GPU reads
/// it (rounded to `f32`), the KV cache as the GPU filled it, and each
/// kernel's largest deviation so far.
pub(crate) struct Checker<'m> {
    model: &'m Model,
    table: Vec<f64>,
    caches: Vec<(Vec<f64>, Vec<f64>)>,
    drift: BTreeMap<&'static str, Drift>,
}

impl<'m> Checker<'m> {
    pub(crate) fn new(model: &'m Model) -> Checker<'m> {
        let c = &model.config;
        let table = rope_table(c.context, c.head_dim, c.rope_theta)
            .iter()
            .map(|&x| f64::from(x as f32))
            .collect();
        let size = c.kv_heads * c.context * c.head_dim;
        Checker {
            model,
            table,
            caches: vec![(vec![0.0; size], vec![0.0; size]); c.layers],
            drift: BTreeMap::new(),
        }
    }

    /// Each kernel's largest deviation over the steps checked so far,
    /// sorted by kernel name.
    pub(crate) fn drift(&self) -> Vec<Drift> {
        self.drift.values().copied().collect()
    }

    /// Checks every kernel of the step at `pos` that fed `token` and drew
    /// `u`; at most one fault per kernel, the first in the step.
    pub(crate) fn check(
        &mut self,
        probes: &Probes,
        token: u32,
        pos: usize,
        u: f32,
        sampling: &Sampling,
    ) -> Vec<KernelFault> {
        let (m, c) = (self.model, &self.model.config);
        let hd = c.head_dim;
        let row = &self.table[pos * hd..(pos + 1) * hd];
        let mut faults: Vec<KernelFault> = Vec::new();
        let drift = &mut self.drift;
        let mut compare = |kernel, stage, layer, expected: &[f64], p: Probe| {
            let got = probes.f32s(p);
            if let Some((element, deviation, allowed)) = largest_deviation(expected, &got) {
                let d = Drift { kernel, stage, layer, pos, element, deviation, allowed };
                let worse = drift.get(kernel).is_none_or(|old| d.share() > old.share());
                if worse {
                    drift.insert(kernel, d);
                }
            }
            if faults.iter().any(|f| f.kernel == kernel) {
                return;
            }
            if let Some(i) = first_difference(expected, &got) {
                let (expected, got) = (
                    expected.get(i).copied().unwrap_or(f64::NAN),
                    got.get(i).copied().unwrap_or(f32::NAN),
                );
                faults.push(KernelFault { kernel, stage, layer, pos, element: i, expected, got });
            }
        };
        let mut x: Vec<f64> = m.embedding(token as usize).iter().map(|&e| f64::from(e)).collect();
        let mut residual = vec![0.0; c.d_model];
        for (l, layer) in m.layers.iter().enumerate() {
            let n1 = rmsnorm_fused(&mut residual, &x, &layer.attn_norm, c.eps);
            compare(
                "rms-norm",
                "the residual add before attention",
                Some(l),
                &residual,
                Probe::AttnResidual(l),
            );
            compare("rms-norm", "the norm before attention", Some(l), &n1, Probe::AttnNorm(l));
            let n1 = probes.f64s(Probe::AttnNorm(l));
            compare(
                "gemv-q8",
                "the query projection",
                Some(l),
                &gemv_q8(&layer.wq, &n1),
                Probe::QueryProj(l),
            );
            compare(
                "gemv-q8",
                "the key projection",
                Some(l),
                &gemv_q8(&layer.wk, &n1),
                Probe::KeyProj(l),
            );
            compare(
                "gemv-q8",
                "the value projection",
                Some(l),
                &gemv_q8(&layer.wv, &n1),
                Probe::Value(l),
            );
            let mut q = probes.f64s(Probe::QueryProj(l));
            let mut k = probes.f64s(Probe::KeyProj(l));
            rope(&mut q, hd, row);
            rope(&mut k, hd, row);
            compare("rope", "the queries' rotation", Some(l), &q, Probe::Query(l));
            compare("rope", "the keys' rotation", Some(l), &k, Probe::Key(l));
            let (k, v, q) = (
                probes.f64s(Probe::Key(l)),
                probes.f64s(Probe::Value(l)),
                probes.f64s(Probe::Query(l)),
            );
            let (kc, vc) = &mut self.caches[l];
            for g in 0..c.kv_heads {
                let at = (g * c.context + pos) * hd;
                kc[at..at + hd].copy_from_slice(&k[g * hd..(g + 1) * hd]);
                vc[at..at + hd].copy_from_slice(&v[g * hd..(g + 1) * hd]);
            }
            let att = attention(&q, kc, vc, c.kv_heads, hd, pos + 1);
            compare(
                "decode-attention",
                "attention over the cache",
                Some(l),
                &att,
                Probe::Attention(l),
            );
            let att = probes.f64s(Probe::Attention(l));
            compare(
                "gemv-q8",
                "the attention's output projection",
                Some(l),
                &gemv_q8(&layer.wo, &att),
                Probe::AttnOut(l),
            );
            let mut residual2 = probes.f64s(Probe::AttnResidual(l));
            let n2 = rmsnorm_fused(
                &mut residual2,
                &probes.f64s(Probe::AttnOut(l)),
                &layer.ffn_norm,
                c.eps,
            );
            compare(
                "rms-norm",
                "the residual add before the MLP",
                Some(l),
                &residual2,
                Probe::FfnResidual(l),
            );
            compare("rms-norm", "the norm before the MLP", Some(l), &n2, Probe::FfnNorm(l));
            let n2 = probes.f64s(Probe::FfnNorm(l));
            compare(
                "gemv-q8",
                "the MLP's gate projection",
                Some(l),
                &gemv_q8(&layer.w_gate, &n2),
                Probe::Gate(l),
            );
            compare(
                "gemv-q8",
                "the MLP's up projection",
                Some(l),
                &gemv_q8(&layer.w_up, &n2),
                Probe::Up(l),
            );
            let hidden = swiglu(&probes.f64s(Probe::Gate(l)), &probes.f64s(Probe::Up(l)));
            compare("swiglu", "SwiGLU", Some(l), &hidden, Probe::Hidden(l));
            let hidden = probes.f64s(Probe::Hidden(l));
            compare(
                "gemv-q8",
                "the MLP's down projection",
                Some(l),
                &gemv_q8(&layer.w_down, &hidden),
                Probe::FfnOut(l),
            );
            x = probes.f64s(Probe::FfnOut(l));
            residual = probes.f64s(Probe::FfnResidual(l));
        }
        let n = rmsnorm_fused(&mut residual, &x, &m.final_norm, c.eps);
        compare(
            "rms-norm",
            "the residual add before the final norm",
            None,
            &residual,
            Probe::FinalResidual,
        );
        compare("rms-norm", "the final norm", None, &n, Probe::FinalNorm);
        let n = probes.f64s(Probe::FinalNorm);
        compare("gemv-q8", "the LM head", None, &gemv_q8(&m.lm_head, &n), Probe::Logits);
        let logits = probes.f64s(Probe::Logits);
        let token = probes.token();
        if let Some(expected) = sampled_differently(&logits, token, u, sampling) {
            faults.push(KernelFault {
                kernel: "top-k-sampling",
                stage: "the sampled token",
                layer: None,
                pos,
                element: 0,
                expected: expected as f64,
                got: token as f32,
            });
        }
        faults
    }
}

/// The token the sampling rule draws from the GPU's `logits` with `u`,
/// when the GPU's `token` differs from it and `u` is not within 1e-5 of
/// the cumulative probability that separates the two (a near tie the
/// kernel's `f32` arithmetic may break the other way).
fn sampled_differently(logits: &[f64], token: u32, u: f32, sampling: &Sampling) -> Option<usize> {
    let k = sampling.k as usize;
    let expected = sample::sample(logits, k, sampling.temperature, f64::from(u)).ok()?;
    if expected == token as usize {
        return None;
    }
    let top = sample::top_k(logits, k, sampling.temperature);
    let (Some(i), Some(j)) = (
        top.tokens.iter().position(|&t| t == expected),
        top.tokens.iter().position(|&t| t == token as usize),
    ) else {
        return Some(expected);
    };
    let near = |at: usize| (top.cumulative[at] - f64::from(u)).abs() < 1e-5;
    if (i.min(j)..i.max(j)).any(near) {
        return None;
    }
    Some(expected)
}
