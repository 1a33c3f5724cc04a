//! Neighbourhoods and access patterns: 1-D convolution, the 3×3 box blur,
//! 2-D convolution, and the branchy hash of Divergence.

use crate::error::ReferenceError;
use crate::input::{check_dims, flat, shaped, Outputs, ReferenceInput};
use gpu_puzzles_values::Values;
/// `out[i] = Σ_j a[i + j] · b[j]` over `j < len(b)` with `i + j < len(a)`:
/// a 1-D convolution whose window runs past the end of `a` into zeros
/// (1D Convolution). `out` has `len(a)` elements.
pub fn conv1d(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (a, b) = (input.f32("a")?, input.f32("b")?);
    let out = (0..a.len())
        .map(|i| {
            b.iter().enumerate().filter(|(j, _)| i + j < a.len()).map(|(j, w)| a[i + j] * w).sum()
        })
        .collect();
    Ok(flat(out))
}

/// [`conv1d`] on `i32` buffers (Scatter or Gather): `out[i] = Σ_j a[i + j] ·
/// b[j]` over `j < len(b)` with `i + j < len(a)`, in wrapping `i32`
/// arithmetic as WGSL's, so every order of the sum (a gather's loop, a
/// scatter's `atomicAdd`s) gives the same value. `out` has `len(a)` elements.
///
/// # Errors
/// A missing `a` or `b`, or one that is not `i32`.
pub fn conv1d_i32(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (a, b) = (input.i32s("a")?, input.i32s("b")?);
    let out = (0..a.len())
        .map(|i| {
            b.iter()
                .enumerate()
                .filter(|(j, _)| i + j < a.len())
                .fold(0i32, |s, (j, w)| s.wrapping_add(a[i + j].wrapping_mul(*w)))
        })
        .collect();
    Ok(vec![(Values::I32(out), None)])
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

/// A 2-D convolution with zero padding (2D Convolution): `a` is
/// `rows × cols` and `f` is `k × k` (`k` odd), both row-major, and `out` has
/// `a`'s shape, with `r = (k - 1) / 2`:
///
/// ```text
/// out[y][x] = Σ_{i < k} Σ_{j < k} f[i][j] · a[y + i - r][x + j - r]
/// ```
///
/// where a cell of `a` outside the grid counts as 0 (the filter is centred
/// on `(y, x)` and not flipped, as in machine learning's "convolution").
/// Summed in `f32`, `i` then `j`; with integer-valued inputs every partial
/// sum is exact, so every order gives the same `f32`.
///
/// # Errors
/// A missing buffer or shape; [`ReferenceError::WrongLength`] when `f` is not
/// `k × k` with `k` odd (`want` is then the nearest odd square); a `dims`
/// field (`rows`, `cols`, `k`) that differs from the shapes.
pub fn conv2d(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (a, f) = (input.f32("a")?, input.f32("f")?);
    let [rows, cols] = input.shape("a")?;
    let k = (f.len() as f64).sqrt().round() as usize;
    if k * k != f.len() || k.is_multiple_of(2) {
        let odd = if k.is_multiple_of(2) { k + 1 } else { k };
        return Err(ReferenceError::WrongLength {
            name: "f".to_string(),
            len: f.len(),
            want: odd * odd,
        });
    }
    check_dims(input, &[("rows", rows), ("cols", cols), ("k", k)])?;
    let r = (k - 1) / 2;
    let mut out = Vec::with_capacity(rows * cols);
    for y in 0..rows {
        for x in 0..cols {
            let mut sum = 0.0f32;
            for i in 0..k {
                for j in 0..k {
                    let (yy, xx) = ((y + i).wrapping_sub(r), (x + j).wrapping_sub(r));
                    if yy < rows && xx < cols {
                        sum += f[i * k + j] * a[yy * cols + xx];
                    }
                }
            }
            out.push(sum);
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
