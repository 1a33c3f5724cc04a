//! Separable Gaussian Blur (the chapter "Applications"): a grey-scale
//! picture blurred by a `(2r+1) × (2r+1)` binomial kernel, as a row pass
//! into `tmp` and a column pass from `tmp` into `out`.
//!
//! Computed exactly, in integers: with pixels that are integers from 0 to
//! 255 and weights `C(2r, k) / 4^r`, `tmp · 4^r` and `out · 16^r` are
//! integers, at most `255 · 4^r` and `255 · 16^r`. Each is divided by its
//! power of two only at the end, and for `r ≤ 4` the quotient has at most
//! `8 + 4r ≤ 24` significant bits, so it is an `f32` exactly: the expected
//! values are the exact blur, with no rounding at all.

use crate::error::ReferenceError;
use crate::input::{Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// The largest radius computed: `8 + 4r` bits must fit `f32`'s 24.
const MAX_RADIUS: usize = 4;

/// The binomial weights' numerators `C(2r, k)` for `k = 0 … 2r`, row `2r`
/// of Pascal's triangle; each weight is this over `4^r = 2^(2r)`, their sum.
fn binomial_row(r: usize) -> Vec<i64> {
    let n = 2 * r as i64;
    let mut row = vec![1i64];
    for k in 0..n {
        // C(n, k+1) = C(n, k) · (n − k) / (k + 1), exact in integers.
        let next = row[k as usize] * (n - k) / (k + 1);
        row.push(next);
    }
    row
}

/// The separable Gaussian blur (Separable Gaussian Blur). `img` holds a
/// `rows × cols` picture (its `shape`, row-major), every pixel an integer
/// from 0 to 255; the uniform `params` gives the radius `r` (1 to 4) and,
/// where given, `rows` and `cols`, which must agree with the shape. With the
/// binomial weights `w_k = C(2r, k) / 4^r` (`k = 0 … 2r`, summing to 1; the
/// binomial distribution of `2r` coin flips, the classic integer stand-in
/// for a Gaussian of variance `r / 2`) and coordinates clamped to the
/// picture (clamp-to-edge borders):
///
/// ```text
/// tmp[y][x] = Σ_k w_k · img[y][clamp(x + k − r, 0, cols − 1)]
/// out[y][x] = Σ_k w_k · tmp[clamp(y + k − r, 0, rows − 1)][x]
/// ```
///
/// `out` is the picture convolved with the 2-D kernel `w_i · w_j`, the
/// borders clamped. Two outputs, each `rows × cols` with that shape, in
/// binding order: `tmp`, then `out`. Computed exactly (see the module).
///
/// # Errors
/// A missing or mistyped `img`, a missing shape, `img` of another length
/// than its shape, [`ReferenceError::ValueOutOfRange`] at a pixel that is
/// not an integer from 0 to 255, [`ReferenceError::MissingUniform`] or
/// [`ReferenceError::UniformOutOfRange`] for `params.r`, and
/// [`ReferenceError::UniformDisagrees`] where `params.rows` or `params.cols`
/// differs from the shape.
pub fn gaussian_blur_separable(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let img = input.f32("img")?;
    let [rows, cols] = input.shape("img")?;
    if img.len() != rows * cols {
        return Err(ReferenceError::WrongLength {
            name: "img".into(),
            len: img.len(),
            want: rows * cols,
        });
    }
    let params = input.uniforms.get("params");
    for (field, size) in [("rows", rows), ("cols", cols)] {
        if let Some(&given) = params.and_then(|p| p.get(field)) {
            if given != size as f64 {
                return Err(ReferenceError::UniformDisagrees {
                    field: format!("params.{field}"),
                    given,
                    from_shapes: size,
                });
            }
        }
    }
    let r = *params
        .and_then(|p| p.get("r"))
        .ok_or_else(|| ReferenceError::MissingUniform { name: "params.r".into() })?;
    if !(1.0..=MAX_RADIUS as f64).contains(&r) || r.fract() != 0.0 {
        return Err(ReferenceError::UniformOutOfRange {
            field: "params.r".into(),
            want: "an integer from 1 to 4: the exact sums need 8 + 4r bits of f32's 24",
        });
    }
    let r = r as usize;
    let mut pixels = Vec::with_capacity(img.len());
    for (at, &p) in img.iter().enumerate() {
        if !(0.0..=255.0).contains(&p) || p.fract() != 0.0 {
            return Err(ReferenceError::ValueOutOfRange {
                name: "img".into(),
                at,
                value: f64::from(p),
                want: "an integer from 0 to 255",
            });
        }
        pixels.push(p as i64);
    }
    let c = binomial_row(r);
    // The tap k of pixel i along an axis of n pixels, clamped to the axis.
    let tap = |i: usize, k: usize, n: usize| (i + k).saturating_sub(r).min(n - 1);
    // Row pass, scaled by 4^r: integers.
    let mut tmp4 = vec![0i64; rows * cols];
    for y in 0..rows {
        for x in 0..cols {
            tmp4[y * cols + x] =
                (0..=2 * r).map(|k| c[k] * pixels[y * cols + tap(x, k, cols)]).sum();
        }
    }
    // Column pass, scaled by 4^r · 4^r = 16^r: integers.
    let mut out16 = vec![0i64; rows * cols];
    for y in 0..rows {
        for x in 0..cols {
            out16[y * cols + x] =
                (0..=2 * r).map(|k| c[k] * tmp4[tap(y, k, rows) * cols + x]).sum();
        }
    }
    // Exact: an integer below 2^(8 + 2r) or 2^(8 + 4r) over a power of two,
    // at most 24 significant bits.
    let scaled = |v: &[i64], by: i32| {
        Values::F32(v.iter().map(|&n| (n as f64 * 2f64.powi(-by)) as f32).collect())
    };
    let shape = Some([rows as u32, cols as u32]);
    Ok(vec![(scaled(&tmp4, 2 * r as i32), shape), (scaled(&out16, 4 * r as i32), shape)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    /// `gaussian_blur_separable` on `img` of `shape` with radius `r`.
    fn blur(img: &[f32], shape: [u32; 2], r: f64) -> Result<Outputs, ReferenceError> {
        let config =
            CaseConfig { workgroup_size: [4, 4, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let img = Values::F32(img.to_vec());
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("img", (&img, Some(shape)))]),
            uniforms: BTreeMap::from([(
                "params",
                BTreeMap::from([
                    ("rows", f64::from(shape[0])),
                    ("cols", f64::from(shape[1])),
                    ("r", r),
                ]),
            )]),
            output_lens: BTreeMap::new(),
        };
        gaussian_blur_separable(&input)
    }

    fn f32s(v: &Values) -> Vec<f32> {
        v.as_f32().unwrap().to_vec()
    }

    #[test]
    fn the_weights_are_rows_of_pascals_triangle() {
        assert_eq!(binomial_row(1), [1, 2, 1]);
        assert_eq!(binomial_row(2), [1, 4, 6, 4, 1]);
        assert_eq!(binomial_row(4), [1, 8, 28, 56, 70, 56, 28, 8, 1]);
        for r in 1..=MAX_RADIUS {
            assert_eq!(binomial_row(r).iter().sum::<i64>(), 1 << (2 * r));
        }
    }

    /// The statement's example: one pixel of 16 in the middle of a 3 × 5
    /// picture, one of 64 in its top-right corner, r = 1 (weights 1/4, 1/2,
    /// 1/4).
    #[test]
    fn the_statements_example_by_hand() {
        #[rustfmt::skip]
        let img = [
            0.0, 0.0,  0.0, 0.0, 64.0,
            0.0, 0.0, 16.0, 0.0,  0.0,
            0.0, 0.0,  0.0, 0.0,  0.0,
        ];
        let out = blur(&img, [3, 5], 1.0).unwrap();
        assert_eq!((out[0].1, out[1].1), (Some([3, 5]), Some([3, 5])));
        // Row 0: (0, 4) = 0/4 + 64/2 + 64/4 (its right tap clamped to itself)
        // = 48, (0, 3) = 64/4 = 16. Row 1: 16 spread as 4, 8, 4.
        #[rustfmt::skip]
        let tmp = [
            0.0, 0.0, 0.0, 16.0, 48.0,
            0.0, 4.0, 8.0,  4.0,  0.0,
            0.0, 0.0, 0.0,  0.0,  0.0,
        ];
        assert_eq!(f32s(&out[0].0), tmp);
        // Column pass: (0, 4) = 48/4 (clamped) + 48/2 + 0/4 = 36; (1, 4) =
        // 48/4 = 12; (0, 3) = 16·3/4 + 4/4 = 13; (1, 3) = 16/4 + 4/2 = 6;
        // (2, 3) = 4/4 + 0 + 0 (clamped) = 1; the 16's own column 2, 4, 2.
        #[rustfmt::skip]
        let want = [
            0.0, 1.0, 2.0, 13.0, 36.0,
            0.0, 2.0, 4.0,  6.0, 12.0,
            0.0, 1.0, 2.0,  1.0,  0.0,
        ];
        assert_eq!(f32s(&out[1].0), want);
    }

    #[test]
    fn a_flat_picture_stays_flat_and_the_widest_kernel_is_exact() {
        let out = blur(&[255.0; 6], [2, 3], 4.0).unwrap();
        assert_eq!(f32s(&out[0].0), [255.0; 6]);
        assert_eq!(f32s(&out[1].0), [255.0; 6]);
        // One pixel of 1 in a 9 × 9 picture at r = 4: the output's centre is
        // w_4² = (70/256)², which needs 16 fractional bits, exactly.
        let mut img = vec![0.0; 81];
        img[40] = 1.0;
        let out = blur(&img, [9, 9], 4.0).unwrap();
        assert_eq!(f32s(&out[1].0)[40], 4900.0 / 65536.0);
        assert_eq!(f32s(&out[1].0)[0], 1.0 / 65536.0);
    }

    #[test]
    fn a_bad_case_is_refused() {
        let img = [1.0, 2.0, 3.0, 4.0];
        assert!(matches!(
            blur(&img, [2, 2], 5.0).unwrap_err(),
            ReferenceError::UniformOutOfRange { .. }
        ));
        assert!(matches!(
            blur(&img, [2, 2], 0.0).unwrap_err(),
            ReferenceError::UniformOutOfRange { .. }
        ));
        assert!(matches!(
            blur(&[1.0, 2.5, 3.0, 4.0], [2, 2], 1.0).unwrap_err(),
            ReferenceError::ValueOutOfRange { at: 1, .. }
        ));
        assert!(matches!(
            blur(&[1.0, 2.0, 3.0, 256.0], [2, 2], 1.0).unwrap_err(),
            ReferenceError::ValueOutOfRange { at: 3, .. }
        ));
        assert!(matches!(
            blur(&img[..3], [2, 2], 1.0).unwrap_err(),
            ReferenceError::WrongLength { len: 3, want: 4, .. }
        ));
    }
}
