//! Neighbourhoods and access patterns: 1-D convolution, the 3×3 box blur,
//! and the branchy hash of Divergence.

use super::{flat, shaped, Outputs, ReferenceError, ReferenceInput, Values};
/// `out[i] = Σ_j a[i + j] · b[j]` over `j < len(b)` with `i + j < len(a)`:
/// a 1-D convolution whose window runs past the end of `a` into zeros
/// (1D Convolution). `out` has `len(a)` elements.
pub fn conv1d(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (a, b) = (input.f32("a")?, input.f32("b")?);
    let out = (0..a.len()).map(|i| b.iter().enumerate().filter(|(j, _)| i + j < a.len()).map(|(j, w)| a[i + j] * w).sum()).collect();
    Ok(flat(out))
}

/// `out[r][c]` = the sum of `a` over the 3×3 neighbourhood of `(r, c)` that
/// lies inside the grid, divided by 9 (cells past the edge count as 0);
/// same shape as `a` (Box Blur).
pub fn box_blur_3x3(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let [rows, cols] = input.shape("a")?;
    let mut out = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let mut sum = 0.0f32;
            for rr in r.saturating_sub(1)..=(r + 1).min(rows - 1) {
                for cc in c.saturating_sub(1)..=(c + 1).min(cols - 1) {
                    sum += a[rr * cols + cc];
                }
            }
            out.push(sum / 9.0);
        }
    }
    Ok(shaped(out, rows, cols))
}

/// Rounds of each branch in [`branch_hash`].
pub const BRANCH_HASH_ROUNDS: u32 = 64;

/// `out[i]` hashes `a[i]` with one of two integer mixers, chosen by whether
/// `i` is even: [`BRANCH_HASH_ROUNDS`] rounds of a linear congruential step
/// (`x * 1664525 + 1013904223`, the constants of Numerical Recipes) for even
/// `i`, of xorshift (`x ^= x << 13; x ^= x >> 17; x ^= x << 5`, Marsaglia
/// 2003) for odd `i`. Wrapping `u32` arithmetic, as in WGSL (Divergence).
pub fn branch_hash(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.u32s("a")?;
    let out = a
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let mut h = x;
            for _ in 0..BRANCH_HASH_ROUNDS {
                h = if i % 2 == 0 {
                    h.wrapping_mul(1_664_525).wrapping_add(1_013_904_223)
                } else {
                    h ^= h << 13;
                    h ^= h >> 17;
                    h ^ (h << 5)
                };
            }
            h
        })
        .collect();
    Ok(vec![(Values::U32(out), None)])
}
