//! int8 × int8 Dot Products (W8A8): a matrix–vector product whose weights
//! and activations are both signed 8-bit integers, four to a `u32` word, a
//! puzzle of the chapter "Numbers and formats".
//!
//! The products of two bytes are whole numbers, so their sum is computed
//! exactly (in `i64`, then checked to fit the `i32` the kernel writes);
//! only the final scaling rounds, and it rounds as the statement defines
//! it, in `f32`, one operation at a time.

use crate::error::ReferenceError;
use crate::input::{check_dims, Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// Signed bytes per `u32` word.
const BYTES_PER_WORD: usize = 4;

/// Byte `j` (0 to 3) of `word`, bits `8j` to `8j + 7`, read in two's
/// complement: `0x00` to `0x7F` are 0 to 127, `0x80` to `0xFF` are −128 to
/// −1 (what WGSL's `unpack4xI8` puts in component `j`).
fn signed_byte(word: u32, j: usize) -> i64 {
    i64::from((word >> (8 * j)) as u8 as i8)
}

/// The exact dot product of the four signed bytes of `a` with those of `b`,
/// byte `j` with byte `j` (WGSL's `dot4I8Packed`): at most 4 · 128 · 128 =
/// 65,536 in magnitude.
fn dot4_i8(a: u32, b: u32) -> i64 {
    (0..BYTES_PER_WORD).map(|j| signed_byte(a, j) * signed_byte(b, j)).sum()
}

/// A matrix–vector product over 8-bit integers with one scale per row of
/// weights and one for the activations (W8A8):
///
/// - `w` (`u32`, shape `rows × cols / 4`, row-major): the weights
///   `qw[r][c]`, signed bytes in two's complement, four to a word, lowest
///   byte first: bits `8j` to `8j + 7` of word `w[r][k]` hold `qw[r][4k + j]`;
/// - `xq` (`u32`, `cols / 4` words): the activations `qx[c]`, packed the
///   same way;
/// - `w_scale` (`f32`, `rows` elements): the scale of each row of weights;
/// - `x_scale` (`f32`, one element): the scale of the activations.
///
/// Two outputs, in binding order, each of `rows` elements:
///
/// ```text
/// acc[r] = Σ_c qw[r][c] · qx[c]                       (i32, exact)
/// y[r]   = (f32(acc[r]) · w_scale[r]) · x_scale[0]    (f32, rounded after each step)
/// ```
///
/// `acc` is summed exactly. `y` converts `acc` to the nearest `f32` (ties
/// to even: exact up to 2²⁴ in magnitude, rounded above) and multiplies by
/// the two scales in that order, each product rounded to nearest as IEEE
/// 754 binary32 does; the puzzle's tolerance covers the other orders of
/// the two products and WGSL's freedom to round the conversion either way
/// (its "Floating Point Conversion" section). The `dims` fields `rows` and
/// `cols`, where given, must agree with the buffers. The scheme is that of
/// LLM.int8() (Dettmers et al., 2022) and SmoothQuant (Xiao et al., 2023):
/// 8-bit weights with per-row scales times 8-bit activations with a
/// per-tensor scale, accumulated in 32-bit integers.
///
/// # Errors
/// A missing buffer or shape; [`ReferenceError::WrongLength`] for rows of
/// no words (`want` is one word a row), a `w` other than its shape says,
/// an `xq` other than one word per word of a row, a `w_scale` other than
/// one per row or an `x_scale` other than one element;
/// [`ReferenceError::UniformDisagrees`] for a `dims` field that differs;
/// [`ReferenceError::ValueOutOfRange`] for a row whose sum does not fit in
/// an `i32` (rows of more than 131,068 columns can reach it; `at` is the
/// row's first word).
pub fn matvec_w8a8(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (w, xq) = (input.u32s("w")?, input.u32s("xq")?);
    let (w_scale, x_scale) = (input.f32("w_scale")?, input.f32("x_scale")?);
    let [rows, words] = input.shape("w")?;
    if words == 0 {
        return Err(ReferenceError::WrongLength {
            name: "w".to_string(),
            len: w.len(),
            want: rows,
        });
    }
    let want = [
        ("w", w.len(), rows * words),
        ("xq", xq.len(), words),
        ("w_scale", w_scale.len(), rows),
        ("x_scale", x_scale.len(), 1),
    ];
    for (name, len, want) in want {
        if len != want {
            return Err(ReferenceError::WrongLength { name: name.to_string(), len, want });
        }
    }
    check_dims(input, &[("rows", rows), ("cols", BYTES_PER_WORD * words)])?;
    let mut acc = Vec::with_capacity(rows);
    for r in 0..rows {
        let row = &w[r * words..(r + 1) * words];
        let sum: i64 = row.iter().zip(xq).map(|(&a, &b)| dot4_i8(a, b)).sum();
        let sum = i32::try_from(sum).map_err(|_| ReferenceError::ValueOutOfRange {
            name: "w".to_string(),
            at: r * words,
            value: sum as f64,
            want: "in a row whose dot product with `xq` fits in an i32",
        })?;
        acc.push(sum);
    }
    // `as f32` rounds an i32 to the nearest f32, ties to even.
    let y = acc.iter().zip(w_scale).map(|(&a, &s)| a as f32 * s * x_scale[0]).collect();
    Ok(vec![(Values::I32(acc), None), (Values::F32(y), None)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    /// What `matvec_w8a8` gives (`acc`, then `y`) for `rows` rows of `w`,
    /// the words `xq` and the scales, with a `dims` uniform of the fields
    /// given.
    fn w8a8_with(
        w: &[u32],
        rows: u32,
        xq: &[u32],
        [w_scale, x_scale]: [&[f32]; 2],
        dims: &[(&'static str, u32)],
    ) -> Result<(Vec<i32>, Vec<f32>), ReferenceError> {
        let config = CaseConfig {
            workgroup_size: [4, 1, 1],
            workgroups: [rows, 1, 1],
            workgroup_memory: None,
        };
        let words = w.len() as u32 / rows;
        let (w, xq) = (Values::U32(w.to_vec()), Values::U32(xq.to_vec()));
        let (ws, xs) = (Values::F32(w_scale.to_vec()), Values::F32(x_scale.to_vec()));
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([
                ("w", (&w, Some([rows, words]))),
                ("xq", (&xq, None)),
                ("w_scale", (&ws, None)),
                ("x_scale", (&xs, None)),
            ]),
            uniforms: BTreeMap::from([(
                "dims",
                dims.iter().map(|&(k, v)| (k, f64::from(v))).collect(),
            )]),
            output_lens: BTreeMap::new(),
        };
        let out = matvec_w8a8(&input)?;
        let Values::I32(acc) = &out[0].0 else { panic!("acc is not an i32 buffer") };
        Ok((acc.clone(), out[1].0.as_f32().unwrap().to_vec()))
    }

    /// `w8a8_with` and a `dims` uniform of `rows` and `4 · words`.
    fn w8a8(
        w: &[u32],
        rows: u32,
        xq: &[u32],
        scales: [&[f32]; 2],
    ) -> Result<(Vec<i32>, Vec<f32>), ReferenceError> {
        let cols = 4 * w.len() as u32 / rows;
        w8a8_with(w, rows, xq, scales, &[("rows", rows), ("cols", cols)])
    }

    #[test]
    fn w8a8_sums_signed_bytes_exactly_and_scales_once() {
        // The statement's worked example: x = 1, -2, 3, -4 | 127, -128, 0, 5
        // | 2, 2, 2, 2 | -1, 0, 1, 0. Row 0: (3, 1, -1, 2) gives
        // 3 - 2 - 3 - 8 = -10, (-128, 127, 1, 0) gives -16256 - 16256 =
        // -32512, word 2 is 0, (4, 0, 0, 0) gives -4: -32526. Row 1: 0,
        // (-128, -128, 0, 0) gives -16256 + 16384 = 128, (1, 2, 3, 4) gives
        // 20, (-1, -1, -1, -1) gives 1 - 1 = 0: 148.
        let xq = [0xFC03_FE01, 0x0500_807F, 0x0202_0202, 0x0001_00FF];
        let w = [0x02FF_0103, 0x0001_7F80, 0, 4, 0, 0x0000_8080, 0x0403_0201, 0xFFFF_FFFF];
        let (acc, y) = w8a8(&w, 2, &xq, [&[0.25, 0.5], &[0.0625]]).unwrap();
        assert_eq!(acc, [-32526, 148]);
        // -32526 / 64 and 148 / 32, both exact in f32.
        assert_eq!(y, [-508.21875, 4.625]);
    }

    #[test]
    fn w8a8_reads_the_lowest_byte_first() {
        // One weight of 1 in byte j meets x = 10, 20, 30, 40: the product
        // picks out x[j], so a reversed order would give 40, 30, 20, 10.
        let xq = [0x281E_140A];
        for j in 0..4 {
            let (acc, _) = w8a8(&[1 << (8 * j)], 1, &xq, [&[1.0], &[1.0]]).unwrap();
            assert_eq!(acc, [10 * (j + 1)]);
        }
        // 0x80 is -128 and 0x7F is 127, in either operand: the weights
        // -128, 127, -128, 127 meet 127, 127, -128, -128, and
        // -16256 + 16129 + 16384 - 16256 = 1.
        let (acc, _) = w8a8(&[0x7F80_7F80], 1, &[0x8080_7F7F], [&[1.0], &[1.0]]).unwrap();
        assert_eq!(acc, [1]);
    }

    #[test]
    fn w8a8_rounds_the_sum_to_f32_above_2_to_the_24() {
        // 1024 words of four -128s times four -128s: 2^26 exactly, an f32.
        let (acc, y) =
            w8a8(&[0x8080_8080; 1024], 1, &[0x8080_8080; 1024], [&[1.0], &[0.5]]).unwrap();
        assert_eq!((acc[0], y[0]), (1 << 26, (1 << 25) as f32));
        // 2^24 + 1 is no f32: the conversion rounds to 2^24 (ties to even)
        // before the scales apply. 256 words of (-128)·(-128)·4 make 2^24,
        // one more word of 1·1 adds 1.
        let mut w = vec![0x8080_8080; 257];
        let mut xq = vec![0x8080_8080; 257];
        (w[256], xq[256]) = (1, 1);
        let (acc, y) = w8a8(&w, 1, &xq, [&[1.0], &[1.0]]).unwrap();
        assert_eq!((acc[0], y[0]), ((1 << 24) + 1, 16_777_216.0));
        // The scales apply in order, each product rounded: 3 · 0.1 rounds
        // to 0.3 + 1.19e-8 in f32, then · 0.1 again.
        let (_, y) = w8a8(&[3], 1, &[1], [&[0.1], &[0.1]]).unwrap();
        assert_eq!(y[0], 3.0f32 * 0.1f32 * 0.1f32);
    }

    #[test]
    fn w8a8_says_what_a_case_gets_wrong() {
        let one = [&[1.0f32][..], &[1.0f32][..]];
        let wrong_length = |r: Result<(Vec<i32>, Vec<f32>), ReferenceError>, which: &str, n| matches!(r, Err(ReferenceError::WrongLength { name, want, .. }) if name == which && want == n);
        // Two words a row need two words of xq.
        assert!(wrong_length(w8a8(&[1, 2], 1, &[1], one), "xq", 2));
        // Two rows need two row scales; x_scale is one number.
        assert!(wrong_length(w8a8(&[1, 2], 2, &[1], one), "w_scale", 2));
        assert!(wrong_length(w8a8(&[1], 1, &[1], [&[1.0], &[1.0, 2.0]]), "x_scale", 1));
        assert!(matches!(
            w8a8_with(&[1], 1, &[1], one, &[("rows", 1), ("cols", 8)]),
            Err(ReferenceError::UniformDisagrees { from_shapes: 4, .. })
        ));
        assert!(matches!(
            w8a8(&[1], 1, &[1], [&[1.0], &[]]),
            Err(ReferenceError::WrongLength { .. })
        ));
        // 32,768 words of 4 · 128 · 128 make 2^31, one past i32::MAX.
        let w = vec![0x8080_8080; 32_768];
        assert!(matches!(w8a8(&w, 1, &w, one), Err(ReferenceError::ValueOutOfRange { at: 0, .. })));
    }
}
