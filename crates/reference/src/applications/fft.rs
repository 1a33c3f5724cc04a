//! Fast Fourier Transform (the chapter "Applications"): the discrete
//! Fourier transform of every row of a batch of complex signals.
//!
//! The kernel computes it by a radix-2 FFT in `f32`, with twiddle factors
//! from WGSL's `sin` and `cos`; this function computes it in `f64` (by a
//! radix-2 FFT, `O(n log n)` a row, where `n` is a power of two, else by
//! the definition, `O(n²)`), and rounds each result to `f32` once, so the
//! expected value is the `f32` nearest the exact transform up to `f64`'s
//! own error (Higham's Theorem 24.2 with `u = 2^-53`: below
//! `log2(n) · 10^-15` of the row's 2-norm). The puzzle compares with an
//! absolute tolerance derived in its `puzzle.toml`. Being a plain
//! single-threaded FFT, it is also the CPU figure a performance case shows
//! beside the GPU's.

use crate::error::ReferenceError;
use crate::input::{check_dims, Outputs, ReferenceInput};
use gpu_puzzles_values::Values;
use std::f64::consts::PI;

/// The discrete Fourier transform of each row (Fast Fourier Transform).
/// `re` and `im` hold the real and imaginary parts of `rows` signals of `n`
/// samples each, row-major, `re` with its `shape = [rows, n]` and `im` of
/// the same length. Row `r` is `x_j = re[r][j] + i·im[r][j]`, and its
/// transform (the usual forward DFT, with the minus sign and no scaling) is
///
/// ```text
/// X_k = Σ_{j=0}^{n−1} x_j · e^(−2πi·jk/n),   k = 0, 1, …, n − 1
/// ```
///
/// in natural order. The angle is taken of `jk mod n`, which gives the same
/// factor and keeps the argument small. Two outputs, each `rows × n` with
/// that shape, in binding order: `out_re[r][k] = Re X_k`, then
/// `out_im[r][k] = Im X_k`. Any `n` from 1 up is computed; the puzzle's
/// kernels need a power of two.
///
/// # Errors
/// A missing or mistyped `re` or `im`, a missing shape on `re`, `re` or
/// `im` of another length than the shape, and
/// [`ReferenceError::UniformDisagrees`] where `dims.rows` or `dims.n`
/// differs from the shape.
pub fn fft_rows(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let re = input.f32("re")?;
    let im = input.f32("im")?;
    let [rows, n] = input.shape("re")?;
    for (name, values) in [("re", re), ("im", im)] {
        if values.len() != rows * n {
            return Err(ReferenceError::WrongLength {
                name: name.into(),
                len: values.len(),
                want: rows * n,
            });
        }
    }
    check_dims(input, &[("rows", rows), ("n", n)])?;
    let mut out_re = Vec::with_capacity(rows * n);
    let mut out_im = Vec::with_capacity(rows * n);
    // e^(−2πi·m/n) for m < n, each from its own angle.
    let twiddles: Vec<(f64, f64)> = (0..n)
        .map(|m| {
            let (s, c) = (2.0 * PI * m as f64 / n as f64).sin_cos();
            (c, -s)
        })
        .collect();
    let (mut row_re, mut row_im) = (vec![0.0f64; n], vec![0.0f64; n]);
    for r in 0..rows {
        let row = r * n..(r + 1) * n;
        for (j, (a, b)) in re[row.clone()].iter().zip(&im[row]).enumerate() {
            (row_re[j], row_im[j]) = (f64::from(*a), f64::from(*b));
        }
        if n.is_power_of_two() {
            fft_in_place(&mut row_re, &mut row_im, &twiddles);
        } else {
            definition(&mut row_re, &mut row_im, &twiddles);
        }
        out_re.extend(row_re.iter().map(|&v| v as f32));
        out_im.extend(row_im.iter().map(|&v| v as f32));
    }
    let shape = Some([rows as u32, n as u32]);
    Ok(vec![(Values::F32(out_re), shape), (Values::F32(out_im), shape)])
}

/// The radix-2 FFT of one row in place (decimation in time: bit-reversed
/// order, then `log2(n)` stages of butterflies); `n` a power of two and
/// `twiddles[m] = e^(−2πi·m/n)`.
fn fft_in_place(re: &mut [f64], im: &mut [f64], twiddles: &[(f64, f64)]) {
    let n = re.len();
    let bits = n.trailing_zeros();
    for j in 0..n {
        let k = if bits == 0 { 0 } else { j.reverse_bits() >> (usize::BITS - bits) };
        if j < k {
            re.swap(j, k);
            im.swap(j, k);
        }
    }
    let mut span = 1;
    while span < n {
        // A butterfly of span s uses e^(−2πi·k/2s) = twiddles[k · n/2s].
        let stride = n / (2 * span);
        for top in (0..n).step_by(2 * span) {
            for k in 0..span {
                let (wr, wi) = twiddles[k * stride];
                let (a, b) = (top + k, top + k + span);
                let (or, oi) = (wr * re[b] - wi * im[b], wr * im[b] + wi * re[b]);
                (re[b], im[b]) = (re[a] - or, im[a] - oi);
                (re[a], im[a]) = (re[a] + or, im[a] + oi);
            }
        }
        span *= 2;
    }
}

/// The definition summed, `X_k = Σ_j x_j · e^(−2πi·(jk mod n)/n)`, for a
/// row whose length is not a power of two; `twiddles` as in [`fft_in_place`].
fn definition(re: &mut [f64], im: &mut [f64], twiddles: &[(f64, f64)]) {
    let n = re.len();
    let (x_re, x_im) = (re.to_vec(), im.to_vec());
    for k in 0..n {
        let (mut sum_re, mut sum_im) = (0.0, 0.0);
        for j in 0..n {
            let (c, s) = twiddles[(j * k) % n];
            sum_re += x_re[j] * c - x_im[j] * s;
            sum_im += x_re[j] * s + x_im[j] * c;
        }
        (re[k], im[k]) = (sum_re, sum_im);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    /// `fft_rows` on `re` and `im` of `shape`, with `dims` from the shape
    /// unless `dims` is given.
    fn fft(
        re: &[f32],
        im: &[f32],
        shape: [u32; 2],
        dims: Option<[f64; 2]>,
    ) -> Result<Outputs, ReferenceError> {
        let config = CaseConfig {
            workgroup_size: [shape[1].max(2) / 2, 1, 1],
            workgroups: [shape[0], 1, 1],
            workgroup_memory: Some([shape[1], 1, 1]),
        };
        let (re, im) = (Values::F32(re.to_vec()), Values::F32(im.to_vec()));
        let [rows, n] = dims.unwrap_or([f64::from(shape[0]), f64::from(shape[1])]);
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("re", (&re, Some(shape))), ("im", (&im, Some(shape)))]),
            uniforms: BTreeMap::from([("dims", BTreeMap::from([("rows", rows), ("n", n)]))]),
            output_lens: BTreeMap::new(),
        };
        fft_rows(&input)
    }

    fn assert_near(got: &[f32], want: &[f32]) {
        assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            assert!((g - w).abs() <= 1e-6, "element {i}: got {g}, want {w}");
        }
    }

    /// The statement's example: two rows of 4 samples.
    #[test]
    fn the_statements_example_by_hand() {
        // Row 0: the real ramp −0.75, −0.25, 0.25, 0.75. X_0 is the sum, 0;
        // with w = e^(−2πi/4) = −i, X_1 = x_0 + x_1·w + x_2·w² + x_3·w³
        // = −0.75 + 0.25i − 0.25 + 0.75i = −1 + i, X_2 = −0.75 + 0.25 + 0.25
        // − 0.75 = −1, X_3 = conj(X_1) = −1 − i (a real row's transform is
        // conjugate-symmetric). Row 1: an impulse at j = 1, x_1 = 1:
        // X_k = w^k = 1, −i, −1, i.
        let re = [-0.75, -0.25, 0.25, 0.75, 0.0, 1.0, 0.0, 0.0];
        let im = [0.0; 8];
        let out = fft(&re, &im, [2, 4], None).unwrap();
        assert_eq!((out[0].1, out[1].1), (Some([2, 4]), Some([2, 4])));
        assert_near(out[0].0.as_f32().unwrap(), &[0.0, -1.0, -1.0, -1.0, 1.0, 0.0, -1.0, 0.0]);
        assert_near(out[1].0.as_f32().unwrap(), &[0.0, 1.0, 0.0, -1.0, 0.0, -1.0, 0.0, 1.0]);
    }

    #[test]
    fn an_imaginary_constant_goes_to_bin_zero_and_two_points_add_and_subtract() {
        // A constant i·3 over 8 samples: X_0 = 8·3i, every other bin 0.
        let out = fft(&[0.0; 8], &[3.0; 8], [1, 8], None).unwrap();
        assert_near(out[0].0.as_f32().unwrap(), &[0.0; 8]);
        assert_near(out[1].0.as_f32().unwrap(), &[24.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        // n = 2: X_0 = x_0 + x_1, X_1 = x_0 − x_1.
        let out = fft(&[0.5, -0.25], &[1.0, 0.75], [1, 2], None).unwrap();
        assert_near(out[0].0.as_f32().unwrap(), &[0.25, 0.75]);
        assert_near(out[1].0.as_f32().unwrap(), &[1.75, 0.25]);
    }

    #[test]
    fn a_pure_tone_lands_in_its_bin() {
        // x_j = e^(2πi·3j/16): X_k = 16 at k = 3 and 0 elsewhere.
        let (re, im): (Vec<f32>, Vec<f32>) = (0..16)
            .map(|j| {
                let t = 2.0 * PI * f64::from(3 * j) / 16.0;
                (t.cos() as f32, t.sin() as f32)
            })
            .unzip();
        let out = fft(&re, &im, [1, 16], None).unwrap();
        let (got_re, got_im) = (out[0].0.as_f32().unwrap(), out[1].0.as_f32().unwrap());
        for k in 0..16 {
            let want = if k == 3 { 16.0 } else { 0.0 };
            assert!((got_re[k] - want).abs() < 1e-5, "bin {k}: {}", got_re[k]);
            assert!(got_im[k].abs() < 1e-5, "bin {k}: {}", got_im[k]);
        }
    }

    #[test]
    fn a_case_that_disagrees_is_refused() {
        let re = [1.0, 2.0, 3.0, 4.0];
        assert!(matches!(
            fft(&re, &[0.0; 4], [1, 4], Some([1.0, 8.0])).unwrap_err(),
            ReferenceError::UniformDisagrees { from_shapes: 4, .. }
        ));
        assert!(matches!(
            fft(&re, &[0.0; 3], [1, 4], None).unwrap_err(),
            ReferenceError::WrongLength { len: 3, want: 4, .. }
        ));
        assert!(matches!(
            fft(&re[..3], &[0.0; 4], [1, 4], None).unwrap_err(),
            ReferenceError::WrongLength { len: 3, want: 4, .. }
        ));
    }

    #[test]
    fn the_fft_agrees_with_the_definition() {
        // Pseudo-random rows of every power of two up to 256.
        let mut state = 12345u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        for bits in 0..=8 {
            let n = 1usize << bits;
            let twiddles: Vec<(f64, f64)> = (0..n)
                .map(|m| {
                    let (s, c) = (2.0 * PI * m as f64 / n as f64).sin_cos();
                    (c, -s)
                })
                .collect();
            let (re, im): (Vec<f64>, Vec<f64>) = (0..n).map(|_| (next(), next())).unzip();
            let (mut a_re, mut a_im) = (re.clone(), im.clone());
            fft_in_place(&mut a_re, &mut a_im, &twiddles);
            let (mut b_re, mut b_im) = (re, im);
            definition(&mut b_re, &mut b_im, &twiddles);
            for k in 0..n {
                assert!((a_re[k] - b_re[k]).abs() < 1e-12, "n = {n}, bin {k}");
                assert!((a_im[k] - b_im[k]).abs() < 1e-12, "n = {n}, bin {k}");
            }
        }
    }
}
