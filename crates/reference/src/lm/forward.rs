//! The model's forward pass in `f64`, one token at a time with a KV cache:
//! the specification the page's GPU run is checked against. Each stage is a
//! public function of its own, with the formula of the puzzle that computes
//! it on the GPU, so that a run can be compared stage by stage
//! ([`State::step_traced`]).
//!
//! Per layer, for the token at position `pos` (the residual stream starts at
//! 0 and the first `x` is the token's embedding):
//!
//! ```text
//! n1 = rmsnorm_fused(residual, x, attn_norm)          (residual += x)
//! q = rope(Wq·n1), k = rope(Wk·n1), v = Wv·n1         (k, v appended to the cache)
//! a = Wo · attention(q, cache[0..=pos])
//! n2 = rmsnorm_fused(residual, a, ffn_norm)           (residual += a)
//! x = Wdown · (silu(Wgate·n2) ⊙ Wup·n2)               (the next layer's x)
//! ```
//!
//! then `n = rmsnorm_fused(residual, x, final_norm)` and `logits = Wlm · n`.

use super::weights::{Model, Q8Matrix, Q8_BLOCK};

/// RMSNorm with the residual add fused before it (the `rms-norm` puzzle):
/// `residual` and `x` have `n` elements, `weight` has `n` (`eps` inside the
/// square root, e.g. 1e-5).
///
/// ```text
/// h = residual + x            (written back to residual)
/// out[c] = h[c] / sqrt((h[0]² + … + h[n−1]²) / n + eps) · weight[c]
/// ```
///
/// Returns `out`, `n` elements.
pub fn rmsnorm_fused(residual: &mut [f64], x: &[f64], weight: &[f32], eps: f64) -> Vec<f64> {
    for (r, x) in residual.iter_mut().zip(x) {
        *r += x;
    }
    let ms = residual.iter().map(|h| h * h).sum::<f64>() / residual.len() as f64;
    let inv = 1.0 / (ms + eps).sqrt();
    residual.iter().zip(weight).map(|(h, &w)| h * inv * f64::from(w)).collect()
}

/// The quantised matrix–vector product (the `gemv-q8` puzzle): `x` has
/// `m.cols` elements; returns `m.rows` elements,
///
/// ```text
/// y[r] = Σ_b scales[r][b] · Σ_{j<32} q[r][32b + j] · x[32b + j]
/// ```
///
/// each weight `q` an int8 read in two's complement, the sums in `f64`.
pub fn gemv_q8(m: &Q8Matrix, x: &[f64]) -> Vec<f64> {
    let blocks = m.cols / Q8_BLOCK;
    (0..m.rows)
        .map(|r| {
            (0..blocks)
                .map(|b| {
                    let block: f64 = (b * Q8_BLOCK..(b + 1) * Q8_BLOCK)
                        .map(|c| f64::from(m.weight(r, c)) * x[c])
                        .sum();
                    f64::from(m.scales[r * blocks + b]) * block
                })
                .sum()
        })
        .collect()
}

/// RoPE's table (the `rope` puzzle's `cos_sin`): `context × head_dim`
/// elements, row-major; row `pos` holds `cos(pos·θ_0) … cos(pos·θ_{half−1})`
/// then `sin(pos·θ_0) … sin(pos·θ_{half−1})`, with `half = head_dim / 2`
/// and `θ_i = theta^(−2i / head_dim)` radians.
pub fn rope_table(context: usize, head_dim: usize, theta: f64) -> Vec<f64> {
    let half = head_dim / 2;
    let mut table = vec![0.0; context * head_dim];
    for (pos, row) in table.chunks_mut(head_dim.max(1)).enumerate() {
        for i in 0..half {
            let angle = pos as f64 * theta.powf(-2.0 * i as f64 / head_dim as f64);
            row[i] = angle.cos();
            row[half + i] = angle.sin();
        }
    }
    table
}

/// Rotary embedding in place (the `rope` puzzle), on every head vector of
/// `v` (`heads × head_dim` elements, row-major) with one row of the table
/// (`head_dim` elements: `half` cosines, then `half` sines). For `i < half`,
/// with `c = row[i]`, `s = row[half + i]`:
///
/// ```text
/// v[i], v[i + half] ← v[i]·c − v[i + half]·s, v[i + half]·c + v[i]·s
/// ```
pub fn rope(v: &mut [f64], head_dim: usize, row: &[f64]) {
    let half = head_dim / 2;
    for head in v.chunks_mut(head_dim) {
        for i in 0..half {
            let (x1, x2, c, s) = (head[i], head[i + half], row[i], row[half + i]);
            head[i] = x1 * c - x2 * s;
            head[i + half] = x2 * c + x1 * s;
        }
    }
}

/// Decode attention over a KV cache (the `decode-attention` puzzle). `q` is
/// `heads × head_dim`; `k_cache` and `v_cache` are `kv_heads × capacity ×
/// head_dim` (`capacity` follows from their length), row `j` of kv head `g`
/// at `(g · capacity + j) · head_dim`, of which rows `0..t` are read. Query
/// head `h` reads kv head `g = h / (heads / kv_heads)`:
///
/// ```text
/// s[j]   = (q[h] · k_cache[g][j]) / sqrt(head_dim)
/// out[h] = Σ_j exp(s[j] − max s) · v_cache[g][j] / Σ_j exp(s[j] − max s)
/// ```
///
/// Returns `out`, `heads × head_dim` elements.
pub fn attention(
    q: &[f64],
    k_cache: &[f64],
    v_cache: &[f64],
    kv_heads: usize,
    head_dim: usize,
    t: usize,
) -> Vec<f64> {
    let d = head_dim;
    let capacity = k_cache.len() / (kv_heads * d);
    let heads = q.len() / d;
    let group = heads / kv_heads;
    let scale = 1.0 / (d as f64).sqrt();
    let mut out = vec![0.0; heads * d];
    for (h, (qh, oh)) in q.chunks(d).zip(out.chunks_mut(d)).enumerate() {
        let g = h / group;
        let row = |j: usize| (g * capacity + j) * d..(g * capacity + j + 1) * d;
        let s: Vec<f64> = (0..t)
            .map(|j| k_cache[row(j)].iter().zip(qh).map(|(k, q)| k * q).sum::<f64>() * scale)
            .collect();
        let max = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = s.iter().map(|s| (s - max).exp()).collect();
        let total: f64 = e.iter().sum();
        for (j, e) in e.iter().enumerate() {
            for (o, v) in oh.iter_mut().zip(&v_cache[row(j)]) {
                *o += e * v;
            }
        }
        for o in oh.iter_mut() {
            *o /= total;
        }
    }
    out
}

/// The SwiGLU activation: `gate` and `up` have `n` elements; returns
/// `silu(gate[i]) · up[i]` with `silu(g) = g / (1 + exp(−g))`.
pub fn swiglu(gate: &[f64], up: &[f64]) -> Vec<f64> {
    gate.iter().zip(up).map(|(g, u)| g / (1.0 + (-g).exp()) * u).collect()
}

/// The LM head: the final norm's output `n` (`d_model` elements) to
/// `vocab` logits, `Wlm · n` (a [`gemv_q8`]).
pub fn lm_head(model: &Model, n: &[f64]) -> Vec<f64> {
    gemv_q8(&model.lm_head, n)
}

/// A vector the forward pass computes, named for comparing with a GPU run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The attention RMSNorm's output `n1` of a layer (`d_model`).
    AttnNorm(usize),
    /// The queries after RoPE (`heads × head_dim`).
    Query(usize),
    /// The keys after RoPE (`kv_heads × head_dim`).
    Key(usize),
    /// The values (`kv_heads × head_dim`).
    Value(usize),
    /// Attention's output, before `Wo` (`heads × head_dim`).
    Attention(usize),
    /// `Wo` times attention's output (`d_model`).
    AttnOut(usize),
    /// The residual stream after the attention sublayer's add (`d_model`).
    Residual(usize),
    /// The MLP RMSNorm's output `n2` (`d_model`).
    FfnNorm(usize),
    /// `silu(Wgate·n2) ⊙ Wup·n2` (`ffn_hidden`).
    Hidden(usize),
    /// The MLP's output `Wdown · hidden` (`d_model`).
    FfnOut(usize),
    /// The final RMSNorm's output (`d_model`).
    FinalNorm,
    /// The logits (`vocab`).
    Logits,
}

/// Why [`State::step`] cannot take a token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// The token id is not below the vocabulary's size.
    #[error("token {token} is not in the vocabulary of {vocab}")]
    UnknownToken {
        /// The id.
        token: u32,
        /// The vocabulary's size.
        vocab: usize,
    },
    /// The position is past the cached positions or the context.
    #[error("position {pos} cannot follow the {cached} cached positions (context {context})")]
    Position {
        /// The position asked for.
        pos: usize,
        /// Positions in the cache.
        cached: usize,
        /// The model's context length.
        context: usize,
    },
}

/// The decoding state of one sequence: the KV cache of every layer.
#[derive(Debug, Clone)]
pub struct State<'m> {
    model: &'m Model,
    /// Per layer, keys after RoPE: `kv_heads × context × head_dim`.
    k_cache: Vec<Vec<f64>>,
    /// Per layer, values: `kv_heads × context × head_dim`.
    v_cache: Vec<Vec<f64>>,
    /// RoPE's table, [`rope_table`].
    cos_sin: Vec<f64>,
    cached: usize,
}

impl<'m> State<'m> {
    /// An empty state for `model`: nothing cached.
    pub fn new(model: &'m Model) -> Self {
        let c = &model.config;
        let size = c.kv_heads * c.context * c.head_dim;
        State {
            model,
            k_cache: vec![vec![0.0; size]; c.layers],
            v_cache: vec![vec![0.0; size]; c.layers],
            cos_sin: rope_table(c.context, c.head_dim, c.rope_theta),
            cached: 0,
        }
    }

    /// Positions held in the cache.
    pub fn cached(&self) -> usize {
        self.cached
    }

    /// The keys (after RoPE) of `layer`'s cache: `kv_heads × context ×
    /// head_dim`, of which the first [`State::cached`] rows of each kv head
    /// are filled.
    pub fn keys(&self, layer: usize) -> &[f64] {
        &self.k_cache[layer]
    }

    /// The values of `layer`'s cache, laid out as [`State::keys`].
    pub fn values(&self, layer: usize) -> &[f64] {
        &self.v_cache[layer]
    }

    /// Runs `token` at position `pos` and returns its `vocab` logits. `pos`
    /// must be at most the number of cached positions (a smaller one drops
    /// the cache from `pos` on, to run a sequence again from there) and
    /// below the context; the cache then holds `pos + 1` positions.
    ///
    /// # Errors
    /// [`StepError`] for a token outside the vocabulary or such a position.
    pub fn step(&mut self, token: u32, pos: usize) -> Result<Vec<f64>, StepError> {
        self.step_traced(token, pos, &mut |_, _| {})
    }

    /// [`State::step`], calling `trace` with every [`Stage`]'s vector as it
    /// is computed, in order.
    ///
    /// # Errors
    /// As [`State::step`].
    pub fn step_traced(
        &mut self,
        token: u32,
        pos: usize,
        trace: &mut dyn FnMut(Stage, &[f64]),
    ) -> Result<Vec<f64>, StepError> {
        let model = self.model;
        let c = &model.config;
        if token as usize >= c.vocab {
            return Err(StepError::UnknownToken { token, vocab: c.vocab });
        }
        if pos > self.cached || pos >= c.context {
            return Err(StepError::Position { pos, cached: self.cached, context: c.context });
        }
        let (hd, kvh) = (c.head_dim, c.kv_heads);
        let row = &self.cos_sin[pos * hd..(pos + 1) * hd];
        let mut residual = vec![0.0; c.d_model];
        let mut x: Vec<f64> =
            model.embedding(token as usize).iter().map(|&e| f64::from(e)).collect();
        for (i, layer) in model.layers.iter().enumerate() {
            let n1 = rmsnorm_fused(&mut residual, &x, &layer.attn_norm, c.eps);
            trace(Stage::AttnNorm(i), &n1);
            let mut q = gemv_q8(&layer.wq, &n1);
            let mut k = gemv_q8(&layer.wk, &n1);
            let v = gemv_q8(&layer.wv, &n1);
            rope(&mut q, hd, row);
            rope(&mut k, hd, row);
            trace(Stage::Query(i), &q);
            trace(Stage::Key(i), &k);
            trace(Stage::Value(i), &v);
            for g in 0..kvh {
                let at = (g * c.context + pos) * hd;
                self.k_cache[i][at..at + hd].copy_from_slice(&k[g * hd..(g + 1) * hd]);
                self.v_cache[i][at..at + hd].copy_from_slice(&v[g * hd..(g + 1) * hd]);
            }
            let att = attention(&q, &self.k_cache[i], &self.v_cache[i], kvh, hd, pos + 1);
            trace(Stage::Attention(i), &att);
            let a = gemv_q8(&layer.wo, &att);
            trace(Stage::AttnOut(i), &a);
            let n2 = rmsnorm_fused(&mut residual, &a, &layer.ffn_norm, c.eps);
            trace(Stage::Residual(i), &residual);
            trace(Stage::FfnNorm(i), &n2);
            let hidden = swiglu(&gemv_q8(&layer.w_gate, &n2), &gemv_q8(&layer.w_up, &n2));
            trace(Stage::Hidden(i), &hidden);
            x = gemv_q8(&layer.w_down, &hidden);
            trace(Stage::FfnOut(i), &x);
        }
        let n = rmsnorm_fused(&mut residual, &x, &model.final_norm, c.eps);
        trace(Stage::FinalNorm, &n);
        let logits = lm_head(model, &n);
        trace(Stage::Logits, &logits);
        self.cached = pos + 1;
        Ok(logits)
    }
}
