//! Inside a language model: the kernels a decoder-only transformer runs for
//! every token. Like the chapter before (`kernels`), a reduction here
//! computes in `f64` and rounds to `f32` once; a kernel of a few products per
//! element (`rope_neox`) computes in `f32`, the way its statement writes it.
//! Their puzzles compare with a tolerance derived in each `puzzle.toml`.

use crate::error::ReferenceError;
use crate::input::{check_dims, flat, row_norm_eps, shaped, Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// RMSNorm with the residual add fused before it (RMS Norm): `x` and
/// `residual` are `rows × cols`, row-major (`x` gives the shape), `weight`
/// has `cols` elements, and `params` holds `eps` (and `cols`, which must
/// match the shape). For row `r` and column `c`:
///
/// ```text
/// h[r][c]   = residual[r][c] + x[r][c]                 (the new residual stream, f32)
/// ms[r]     = (h[r][0]² + … + h[r][cols-1]²) / cols    (mean square)
/// out[r][c] = h[r][c] / sqrt(ms[r] + eps) · weight[c]
/// ```
///
/// Two outputs, in binding order: `residual` holds `h` (the add is one
/// `f32` addition, rounded as the shader's is), and `out` the normalised
/// row, computed in `f64` from `h` and rounded to `f32` once. RMSNorm is
/// Zhang and Sennrich 2019, "Root Mean Square Layer Normalization", eq. 4
/// (without the optional bias), as LLaMA applies it before each sublayer;
/// `eps` is read as the shader reads it, an `f32`.
pub fn rms_norm_residual(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (x, residual, weight) = (input.f32("x")?, input.f32("residual")?, input.f32("weight")?);
    let [rows, cols] = input.shape("x")?;
    let eps = row_norm_eps(input, cols)?;
    if residual.len() != x.len() {
        return Err(ReferenceError::WrongLength {
            name: "residual".to_string(),
            len: residual.len(),
            want: x.len(),
        });
    }
    if weight.len() != cols {
        return Err(ReferenceError::WrongLength {
            name: "weight".to_string(),
            len: weight.len(),
            want: cols,
        });
    }
    let h: Vec<f32> = residual.iter().zip(x).map(|(&r, &x)| r + x).take(rows * cols).collect();
    let mut out = Vec::with_capacity(rows * cols);
    for row in h.chunks(cols.max(1)) {
        let ms = row.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() / cols as f64;
        let inv_rms = 1.0 / (ms + eps).sqrt();
        out.extend(
            row.iter().zip(weight).map(|(&v, &w)| (f64::from(v) * inv_rms * f64::from(w)) as f32),
        );
    }
    let mut outputs = shaped(h, rows, cols);
    outputs.extend(shaped(out, rows, cols));
    Ok(outputs)
}

/// Rotary position embedding (Rotary Embedding), applied in place to the
/// queries and keys of a batch of tokens from a precomputed cos/sin cache, in
/// the half-split ("NeoX", `rotate_half`) pairing.
///
/// `params` holds `tokens`, `q_heads`, `kv_heads` and `head_dim` (even, from
/// 2 up); `half = head_dim / 2`. The buffers, all row-major:
///
/// - `q`: `tokens × q_heads × head_dim` elements, head `h` of token `t` at
///   `(t · q_heads + h) · head_dim`;
/// - `k`: `tokens × kv_heads × head_dim`, laid out the same way;
/// - `positions` (`u32`): `tokens` elements, each token's position, each
///   below `max_positions`;
/// - `cos_sin`: `max_positions × head_dim`; row `p` holds
///   `cos(p·θ_0) … cos(p·θ_{half-1})`, then `sin(p·θ_0) … sin(p·θ_{half-1})`
///   (whatever numbers the case gives; the reference reads them as they are).
///
/// In every head vector `v` of `q` and of `k`, for `i < half`, with
/// `c = cos_sin[pos · head_dim + i]`, `s = cos_sin[pos · head_dim + half + i]`
/// and `pos = positions[t]`:
///
/// ```text
/// v[i]        ← v[i] · c − v[i + half] · s
/// v[i + half] ← v[i + half] · c + v[i] · s      (both from the old v)
/// ```
///
/// computed in `f32`, two products and one subtraction or addition, each
/// rounded, as the statement writes it (a GPU may fuse a product into the
/// add, so the puzzle compares with a tolerance). Two outputs in binding
/// order, `q` then `k`, each shown `tokens × (heads · head_dim)`. The
/// rotation is Su et al. 2021, "RoFormer: Enhanced Transformer with Rotary
/// Position Embedding" (arXiv:2104.09864), with the pairs taken as halves of
/// the head vector, as GPT-NeoX and Llama take them.
pub fn rope_neox(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let param = |field: &str| -> Result<usize, ReferenceError> {
        let name = format!("params.{field}");
        let given = *input
            .uniforms
            .get("params")
            .and_then(|p| p.get(field))
            .ok_or_else(|| ReferenceError::MissingUniform { name: name.clone() })?;
        Ok(given as usize)
    };
    let (tokens, q_heads, kv_heads, head_dim) =
        (param("tokens")?, param("q_heads")?, param("kv_heads")?, param("head_dim")?);
    if head_dim == 0 || head_dim % 2 != 0 {
        return Err(ReferenceError::UniformOutOfRange {
            field: "params.head_dim".to_string(),
            want: "an even number from 2 up",
        });
    }
    let (q, k, positions, cos_sin) =
        (input.f32("q")?, input.f32("k")?, input.u32s("positions")?, input.f32("cos_sin")?);
    for (name, len, want) in [
        ("q", q.len(), tokens * q_heads * head_dim),
        ("k", k.len(), tokens * kv_heads * head_dim),
        ("positions", positions.len(), tokens),
    ] {
        if len != want {
            return Err(ReferenceError::WrongLength { name: name.to_string(), len, want });
        }
    }
    if cos_sin.len() % head_dim != 0 {
        let want = cos_sin.len().next_multiple_of(head_dim);
        return Err(ReferenceError::WrongLength {
            name: "cos_sin".to_string(),
            len: cos_sin.len(),
            want,
        });
    }
    let max_positions = cos_sin.len() / head_dim;
    if let Some(at) = positions.iter().position(|&p| p as usize >= max_positions) {
        return Err(ReferenceError::IndexPastEnd {
            name: "positions".to_string(),
            at,
            index: positions[at],
            len: max_positions,
        });
    }
    let half = head_dim / 2;
    let rotate = |v: &[f32], heads: usize| -> Vec<f32> {
        let mut out = v.to_vec();
        for (row, head) in out.chunks_mut(head_dim).enumerate() {
            let at = positions[row / heads] as usize * head_dim;
            let (cos, sin) = cos_sin[at..at + head_dim].split_at(half);
            let (x1s, x2s) = head.split_at_mut(half);
            for i in 0..half {
                let (x1, x2, c, s) = (x1s[i], x2s[i], cos[i], sin[i]);
                x1s[i] = x1 * c - x2 * s;
                x2s[i] = x2 * c + x1 * s;
            }
        }
        out
    };
    let shape = |heads: usize| Some([tokens as u32, (heads * head_dim) as u32]);
    Ok(vec![
        (Values::F32(rotate(q, q_heads)), shape(q_heads)),
        (Values::F32(rotate(k, kv_heads)), shape(kv_heads)),
    ])
}

/// Weights per block of Quantised GEMV's `Q8_0` layout: one scale each.
const Q8_BLOCK: usize = 32;

/// A matrix–vector product whose weights are stored in 8 bits (Quantised
/// GEMV), in the layout of llama.cpp's `Q8_0` blocks with an `f32` scale:
///
/// - `w` (`u32`, shape `rows × cols / 4`, row-major): the weights
///   `q[r][c]`, signed 8-bit integers in two's complement, four to a word and
///   little-endian: bits `8j` to `8j + 7` of word `w[r][k]` hold `q[r][4k + j]`;
/// - `scales` (`rows × cols / 32` elements, row-major): `scales[r][b]` is
///   the scale of block `b` of row `r`, the 32 weights `q[r][32b]` to
///   `q[r][32b + 31]`;
/// - `x`: `cols` elements, `cols` a multiple of 32 (`w` gives `rows`).
///
/// ```text
/// y[r] = Σ_b scales[r][b] · Σ_{j<32} q[r][32b + j] · x[32b + j]
/// ```
///
/// One output, `y`, of `rows` elements, computed in `f64` and rounded to
/// `f32` once (the puzzle compares with a tolerance). A `dims` uniform's
/// fields `rows` and `cols`, where given, must agree with the buffers. The
/// layout is `block_q8_0` of ggml (llama.cpp), whose scale is an `f16`.
///
/// # Errors
/// A missing buffer or shape; [`ReferenceError::WrongLength`] for a row of
/// `w` that is not a whole number of blocks (`want` rounds it up), an `x`
/// other than `cols` long or a `scales` other than one per block;
/// [`ReferenceError::UniformDisagrees`] for a `dims` field that differs.
pub fn matvec_q8(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (w, scales, x) = (input.u32s("w")?, input.f32("scales")?, input.f32("x")?);
    let [rows, words] = input.shape("w")?;
    let cols = 4 * words;
    if cols == 0 || cols % Q8_BLOCK != 0 {
        let want = rows * cols.max(1).next_multiple_of(Q8_BLOCK) / 4;
        return Err(ReferenceError::WrongLength { name: "w".to_string(), len: w.len(), want });
    }
    let blocks = cols / Q8_BLOCK;
    for (name, len, want) in [("x", x.len(), cols), ("scales", scales.len(), rows * blocks)] {
        if len != want {
            return Err(ReferenceError::WrongLength { name: name.to_string(), len, want });
        }
    }
    check_dims(input, &[("rows", rows), ("cols", cols)])?;
    // Byte j of a word, sign-extended: `as i8` reads the byte in two's complement.
    let weight = |word: u32, j: usize| f64::from((word >> (8 * j)) as u8 as i8);
    let y = (0..rows)
        .map(|r| {
            let row = &w[r * words..(r + 1) * words];
            let total: f64 = (0..blocks)
                .map(|b| {
                    let block: f64 = (0..Q8_BLOCK)
                        .map(|c| {
                            weight(row[(b * Q8_BLOCK + c) / 4], c % 4)
                                * f64::from(x[b * Q8_BLOCK + c])
                        })
                        .sum();
                    f64::from(scales[r * blocks + b]) * block
                })
                .sum();
            total as f32
        })
        .collect();
    Ok(flat(y))
}

/// Attention for one new token over a KV cache (Decode Attention over a KV
/// Cache): each query head attends over the first `t` rows of its kv head's
/// cached keys and values.
///
/// `params` holds `heads`, `kv_heads` (from 1 up, dividing `heads`), `d`
/// (from 1 up), `t` and `capacity` (`1 <= t <= capacity`); a `split` field,
/// how the kernel divides the work, does not change the result and is not
/// read. The buffers, row-major:
///
/// - `q`: `heads × d`, one query vector per head;
/// - `k_cache`, `v_cache`: `kv_heads × capacity × d`; row `j` of kv head `g`
///   starts at `(g · capacity + j) · d`. Rows `t` to `capacity - 1` are
///   stale and never read.
///
/// Query head `h` reads kv head `g = h / (heads / kv_heads)` (grouped-query
/// attention: consecutive query heads share a kv head). For `j < t`:
///
/// ```text
/// s[h][j]   = (Σ_c q[h][c] · k_cache[g][j][c]) / sqrt(d)
/// out[h][c] = Σ_j exp(s[h][j] - m_h) · v_cache[g][j][c] / Σ_j exp(s[h][j] - m_h)
/// ```
///
/// with `m_h` the largest `s[h][j]`. One output, `out`, `heads × d`,
/// computed in `f64` and rounded to `f32` once (the puzzle compares with a
/// tolerance). The splitting of the kernel (Dao et al., "Flash-Decoding for
/// long-context inference", 2023) gives the same values up to rounding.
///
/// # Errors
/// A missing buffer or uniform field; [`ReferenceError::UniformOutOfRange`]
/// for a `d` or `kv_heads` of 0, a `kv_heads` that does not divide `heads`,
/// or a `t` of 0 or above `capacity`; [`ReferenceError::WrongLength`] for a
/// buffer of another size than those fields give it.
pub fn decode_attention(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let param = |field: &str| -> Result<usize, ReferenceError> {
        let given = input.uniforms.get("params").and_then(|p| p.get(field));
        given
            .map(|&v| v as usize)
            .ok_or_else(|| ReferenceError::MissingUniform { name: format!("params.{field}") })
    };
    let (heads, kv_heads, d, t, capacity) =
        (param("heads")?, param("kv_heads")?, param("d")?, param("t")?, param("capacity")?);
    let out_of_range = |field: &str, want| {
        Err(ReferenceError::UniformOutOfRange { field: format!("params.{field}"), want })
    };
    if d == 0 {
        return out_of_range("d", "from 1 up");
    }
    if kv_heads == 0 || heads % kv_heads != 0 {
        return out_of_range("kv_heads", "a divisor of `params.heads`, from 1 up");
    }
    if t == 0 || t > capacity {
        return out_of_range("t", "from 1 to `params.capacity`");
    }
    let (q, k, v) = (input.f32("q")?, input.f32("k_cache")?, input.f32("v_cache")?);
    for (name, len, want) in [
        ("q", q.len(), heads * d),
        ("k_cache", k.len(), kv_heads * capacity * d),
        ("v_cache", v.len(), kv_heads * capacity * d),
    ] {
        if len != want {
            return Err(ReferenceError::WrongLength { name: name.to_string(), len, want });
        }
    }
    let (group, scale) = (heads / kv_heads, 1.0 / (d as f64).sqrt());
    let mut out = Vec::with_capacity(heads * d);
    for (h, qh) in q.chunks(d).enumerate() {
        let rows = (h / group) * capacity * d; // where the kv head's rows start
        let key = |j: usize| &k[rows + j * d..rows + (j + 1) * d];
        let s: Vec<f64> = (0..t)
            .map(|j| {
                qh.iter().zip(key(j)).map(|(&a, &b)| f64::from(a) * f64::from(b)).sum::<f64>()
                    * scale
            })
            .collect();
        let max = s.iter().fold(f64::NEG_INFINITY, |m, &x| m.max(x));
        let e: Vec<f64> = s.iter().map(|&x| (x - max).exp()).collect();
        let total: f64 = e.iter().sum();
        out.extend((0..d).map(|c| {
            (e.iter().enumerate().map(|(j, &w)| w * f64::from(v[rows + j * d + c])).sum::<f64>()
                / total) as f32
        }));
    }
    Ok(shaped(out, heads, d))
}

#[cfg(test)]
mod tests;
