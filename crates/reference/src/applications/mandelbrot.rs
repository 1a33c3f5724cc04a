//! Mandelbrot Set (the chapter "Applications"): escape-time iteration
//! counts of a rectangle of the complex plane, one per pixel, computed in
//! fixed-point integer arithmetic so that every GPU, the CPU interpreter and
//! this function agree bit for bit.
//!
//! Why fixed point: in `f32` a compiler may fuse `a * b + c` into one
//! rounding (an FMA) or not, and near the set's boundary one rounding
//! decides whether a point escapes at step 17 or 18, so no tolerance on the
//! counts could judge an `f32` kernel. Integers have one answer everywhere.

use crate::{Outputs, ReferenceError, ReferenceInput};
use gpu_puzzles_values::Values;

/// Fractional bits of the fixed-point format: a real `v` is held as the
/// `i32` `round(v · 2^F)`, so `1.0` is 4096 and the grid is `1/4096`.
pub const MANDELBROT_FRAC_BITS: u32 = 12;

/// The largest magnitude of either part of `c` (4.0 in fixed point), which
/// the overflow proof in [`escape_count`] relies on.
pub const MANDELBROT_C_LIMIT: i32 = 4 << MANDELBROT_FRAC_BITS;

/// Escape-time counts of the Mandelbrot set (Mandelbrot Set). The uniform
/// `params` gives, as WGSL reads them: `x0` and `y0` (`i32`, fixed point with
/// [`MANDELBROT_FRAC_BITS`] fractional bits), the point of the top-left
/// pixel; `step` (`i32`, fixed point), the distance between neighbouring
/// pixels; `rows`, `cols` (the image's size, both from 1) and `max_iter`.
/// Pixel `(row, col)` stands for
///
/// ```text
/// c = (cx, cy) = (x0 + col · step, y0 − row · step)
/// ```
///
/// (the imaginary part grows upwards, as in the mathematicians' picture) and
/// its count is [`escape_count`]`(cx, cy, max_iter)`. One output, `count`
/// (`u32`, `rows × cols`, row-major, with that shape).
///
/// The recurrence is Mandelbrot's `z ← z² + c` from `z = 0` (B. Mandelbrot,
/// *The Fractal Geometry of Nature*, 1982; the escape-time algorithm of
/// every fractal program), in the fixed-point form the statement specifies.
///
/// # Errors
/// A missing `params` field; `rows` or `cols` of 0
/// ([`ReferenceError::UniformOutOfRange`]); a pixel whose `cx` or `cy` lies
/// outside `±`[`MANDELBROT_C_LIMIT`] (the overflow proof would not hold);
/// a case whose `count` has another length than `rows × cols`.
pub fn mandelbrot_counts(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let params = input.uniforms.get("params");
    let field = |name: &str| {
        params
            .and_then(|p| p.get(name))
            .copied()
            .ok_or_else(|| ReferenceError::MissingUniform { name: format!("params.{name}") })
    };
    // The manifest's integers arrive as f64; every one fits an i64 exactly.
    let [x0, y0, step, rows, cols, max_iter] =
        ["x0", "y0", "step", "rows", "cols", "max_iter"].map(field);
    let (x0, y0, step) = (x0? as i64, y0? as i64, step? as i64);
    let (rows, cols, max_iter) = (rows? as i64, cols? as i64, max_iter? as u32);
    for (name, size) in [("rows", rows), ("cols", cols)] {
        if size < 1 {
            return Err(ReferenceError::UniformOutOfRange {
                field: format!("params.{name}"),
                want: "1 or more",
            });
        }
    }
    // The rectangle's corners bound every pixel's c (c is linear in row and
    // col); computed in i64, so the check itself cannot overflow.
    let limit = i64::from(MANDELBROT_C_LIMIT);
    for (name, ends) in [("x0", [x0, x0 + (cols - 1) * step]), ("y0", [y0, y0 - (rows - 1) * step])]
    {
        if ends.iter().any(|v| v.abs() > limit) {
            return Err(ReferenceError::UniformOutOfRange {
                field: format!("params.{name}"),
                want: "such that every pixel's c has both parts within ±4.0 (±16384 in fixed point), where no step of the recurrence overflows i32",
            });
        }
    }
    let len = (rows * cols) as usize;
    if let Ok(given) = input.output_len("count") {
        if given != len {
            return Err(ReferenceError::WrongLength {
                name: "count".into(),
                len: given,
                want: len,
            });
        }
    }
    let mut counts = Vec::with_capacity(len);
    for row in 0..rows {
        for col in 0..cols {
            // Within ±16384 by the check above, so the casts are exact.
            let cx = (x0 + col * step) as i32;
            let cy = (y0 - row * step) as i32;
            counts.push(escape_count(cx, cy, max_iter));
        }
    }
    Ok(vec![(Values::U32(counts), Some([rows as u32, cols as u32]))])
}

/// The escape-time count of `c = (cx, cy)` (fixed point, `F` =
/// [`MANDELBROT_FRAC_BITS`] fractional bits): the first `n < max_iter` at
/// which `|z_n|² > 4` (`z_0 = 0`, `z_{n+1} = z_n² + c`), else `max_iter`.
/// Each step is, in `i32` with `>>` the arithmetic (sign-keeping) shift that
/// WGSL's `>>` on `i32` is:
///
/// ```text
/// x2 = (zx · zx) >> F;  y2 = (zy · zy) >> F
/// if x2 + y2 > 4 << F: stop, the count is n
/// xy = (zx · zy) >> F
/// zy = 2 · xy + cy;  zx = x2 − y2 + cx;  n = n + 1
/// ```
///
/// **No step overflows `i32`** when `|cx|, |cy| ≤ 4·S` (`S = 2^F` = 4096).
/// `z_0 = 0` and `z_1 = c` are within `4·S`. A later `z_n` was made from a
/// `z_{n−1}` that passed the test, so its `x2 + y2 ≤ 4·S` with `x2, y2 ≥ 0`
/// (squares are non-negative); then `|zx_n| = |x2 − y2 + cx| ≤ 4·S + 4·S =
/// 8·S`. As `x2 = ⌊zx²/S⌋`, `zx² < (x2 + 1)·S`, so `zx² + zy² < (4·S + 2)·S`
/// and `|zx·zy| ≤ (zx² + zy²)/2 < (2·S + 1)·S`, giving `|xy| ≤ 2·S + 1` and
/// `|zy_n| ≤ 2·(2·S + 1) + 4·S = 8·S + 2`. So at any test both parts are at
/// most `8·S + 2 = 2^15 + 2`, every product is at most `(2^15 + 2)² = 2^30 +
/// 2^17 + 4 < 2^31`, and `x2 + y2 ≤ 2^19`: far from the limit. The
/// wrapping operations below therefore never wrap; they are written so
/// only to say which semantics (WGSL's) would apply if they did.
pub fn escape_count(cx: i32, cy: i32, max_iter: u32) -> u32 {
    const F: u32 = MANDELBROT_FRAC_BITS;
    let (mut zx, mut zy) = (0i32, 0i32);
    let mut n = 0u32;
    while n < max_iter {
        let x2 = zx.wrapping_mul(zx) >> F;
        let y2 = zy.wrapping_mul(zy) >> F;
        if x2.wrapping_add(y2) > 4 << F {
            break;
        }
        let xy = zx.wrapping_mul(zy) >> F;
        zy = xy.wrapping_mul(2).wrapping_add(cy);
        zx = x2.wrapping_sub(y2).wrapping_add(cx);
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    /// `mandelbrot_counts` with `params` = `[x0, y0, step, rows, cols,
    /// max_iter]` and, where given, the output's length.
    fn counts(p: [f64; 6], len: Option<usize>) -> Result<Outputs, ReferenceError> {
        let config =
            CaseConfig { workgroup_size: [8, 8, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let names = ["x0", "y0", "step", "rows", "cols", "max_iter"];
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::new(),
            uniforms: BTreeMap::from([("params", names.into_iter().zip(p).collect())]),
            output_lens: len.map(|n| BTreeMap::from([("count", n)])).unwrap_or_default(),
        };
        mandelbrot_counts(&input)
    }

    #[test]
    fn points_worked_by_hand() {
        const S: i32 = 4096;
        // c = 0 never moves: the cap.
        assert_eq!(escape_count(0, 0, 50), 50);
        // c = −2: z = −2, 2, 2, … with |z|² = 4 exactly, never above: the
        // test is strict, so it stays to the cap.
        assert_eq!(escape_count(-2 * S, 0, 30), 30);
        // c = 2i: z1 = 2i (|z|² = 4, stays), z2 = −4 + 2i (|z|² = 20): 2.
        assert_eq!(escape_count(0, 2 * S, 30), 2);
        // c = 1: z = 1, 2, 5: |z_2|² = 4 stays, |z_3|² = 25 escapes: 3.
        assert_eq!(escape_count(S, 0, 30), 3);
        // c = 3: z1 = 3 escapes at once: 1.
        assert_eq!(escape_count(3 * S, 0, 30), 1);
        // c = −1 cycles 0, −1, 0, −1: the cap; c = i cycles too.
        assert_eq!(escape_count(-S, 0, 40), 40);
        assert_eq!(escape_count(0, S, 40), 40);
        // max_iter = 1: only z0 = 0 is tested, so every pixel counts 1.
        assert_eq!(escape_count(4 * S, 4 * S, 1), 1);
        // The arithmetic shift rounds negative products down: −0.5 · 0.25 =
        // −0.125 exactly, and −1/4096 · 1/4096 rounds to −1, not 0.
        assert_eq!((-2048i32 * 1024) >> 12, -512);
        let (minus_one, one) = (-1i32, std::hint::black_box(1i32));
        assert_eq!((minus_one * one) >> 12, -1);
    }

    #[test]
    fn a_small_image_row_major_with_its_shape() {
        // 2 rows × 3 cols from (−2, 1) with step 1: row 0 is y = 1, row 1
        // y = 0; columns x = −2, −1, 0.
        let out = counts([-8192.0, 4096.0, 4096.0, 2.0, 3.0, 10.0], Some(6)).unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].1, Some([2, 3]));
        // The statement's example: −2 + i has |c|² = 5 and escapes at 1;
        // −1 + i goes to −1 − i, then −1 + 3i (|z|² = 10): 3; i cycles
        // between −1 + i and −i; −2 sits at |z|² = 4 exactly (the test is
        // strict); −1 and 0 cycle. The last four reach the cap.
        let want = [1, 3, 10, 10, 10, 10];
        assert_eq!(out[0].0, Values::U32(want.to_vec()));
    }

    #[test]
    fn cases_outside_the_promises_are_refused() {
        // A rectangle reaching x = 4.5.
        assert!(matches!(
            counts([0.0, 0.0, 4096.0, 1.0, 6.0, 10.0], None).unwrap_err(),
            ReferenceError::UniformOutOfRange { .. }
        ));
        // Rows of 0, a length that disagrees, a missing field.
        assert!(matches!(
            counts([0.0, 0.0, 1.0, 0.0, 6.0, 10.0], None).unwrap_err(),
            ReferenceError::UniformOutOfRange { .. }
        ));
        assert!(matches!(
            counts([0.0, 0.0, 1.0, 2.0, 3.0, 10.0], Some(5)).unwrap_err(),
            ReferenceError::WrongLength { len: 5, want: 6, .. }
        ));
        let config =
            CaseConfig { workgroup_size: [1, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::new(),
            uniforms: BTreeMap::new(),
            output_lens: BTreeMap::new(),
        };
        assert!(matches!(
            mandelbrot_counts(&input).unwrap_err(),
            ReferenceError::MissingUniform { .. }
        ));
    }
}
