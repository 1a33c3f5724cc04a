//! Half-Precision Weights: a matrix–vector product whose weights are stored
//! in IEEE 754 binary16, two to a `u32` word, a puzzle of the chapter
//! "Numbers and formats".
//!
//! binary16 has 1 sign bit, 5 exponent bits (bias 15) and 10 fraction bits:
//! exponent 0 holds ±0 and the subnormals `m · 2⁻²⁴`, exponents 1 to 30 the
//! normal numbers `(1 + m / 1024) · 2^(e − 15)` up to 65504, and exponent
//! 31 the infinities and NaNs (IEEE 754-2019, §3.6, `binary16`). Every
//! binary16 value is exactly an `f64` (and an `f32`), so the only rounding
//! here is the final one; like `matvec_q8`, the product is summed in `f64`
//! and rounded to `f32` once, and the puzzle compares with a tolerance
//! derived in its `puzzle.toml`.

use crate::error::ReferenceError;
use crate::input::{check_dims, flat, Outputs, ReferenceInput};
use half::f16;

/// Weights per `u32` word: two halves of 16 bits.
const HALVES_PER_WORD: usize = 2;

/// Half `j` (0 or 1) of `word` as a number: bits `16j` to `16j + 15` read as
/// an IEEE 754 binary16 value, exactly (`half::f16::to_f64` converts every
/// finite half, subnormals and signed zeros included, without rounding).
/// Half 0 is the low half, as WGSL's `unpack2x16float` puts it in `.x`.
fn half_value(word: u32, j: usize) -> f64 {
    f16::from_bits((word >> (16 * j)) as u16).to_f64()
}

/// A matrix–vector product `y = W · x` whose weights are binary16 numbers
/// (Half-Precision Weights):
///
/// - `w` (`u32`, shape `rows × cols / 2`, row-major): the weights, two to a
///   word, lowest half first: bits 0 to 15 of word `w[r][k]` hold
///   `W[r][2k]` and bits 16 to 31 hold `W[r][2k + 1]`, each an IEEE 754
///   binary16 number that is finite (no infinity or NaN);
/// - `x`: `cols` elements (`w` gives `rows` and `cols`).
///
/// ```text
/// y[r] = Σ_c W[r][c] · x[c]
/// ```
///
/// One output, `y`, of `rows` elements, computed in `f64` and rounded to
/// `f32` once (the puzzle compares with a tolerance where the values are
/// fractions). Each product of a half (11 significant bits) and an `f32`
/// (24) is exact in `f64` (53 bits); the `f64` sum's own rounding, at most
/// `(cols − 1) · 2⁻⁵³ · Σ_c |W[r][c] · x[c]|` (Higham, "Accuracy and
/// Stability of Numerical Algorithms", chapter 4), is far below the `f32`
/// rounding that follows. A `dims` uniform's fields `rows` and `cols`,
/// where given, must agree with the buffers.
///
/// # Errors
/// A missing buffer or shape; [`ReferenceError::WrongLength`] for an `x`
/// other than `cols` long or a `w` other than its shape says;
/// [`ReferenceError::ValueOutOfRange`] for a word with an infinite or NaN
/// half (`at` is the word's index, `value` the half's value), whose
/// product no tolerance could compare; [`ReferenceError::UniformDisagrees`]
/// for a `dims` field that differs.
pub fn matvec_f16(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (w, x) = (input.u32s("w")?, input.f32("x")?);
    let [rows, words] = input.shape("w")?;
    let cols = HALVES_PER_WORD * words;
    for (name, len, want) in [("w", w.len(), rows * words), ("x", x.len(), cols)] {
        if len != want {
            return Err(ReferenceError::WrongLength { name: name.to_string(), len, want });
        }
    }
    check_dims(input, &[("rows", rows), ("cols", cols)])?;
    for (at, &word) in w.iter().enumerate() {
        if let Some(value) =
            (0..HALVES_PER_WORD).map(|j| half_value(word, j)).find(|v| !v.is_finite())
        {
            return Err(ReferenceError::ValueOutOfRange {
                name: "w".to_string(),
                at,
                value,
                want: "two finite binary16 halves (no exponent of all ones)",
            });
        }
    }
    let y = (0..rows)
        .map(|r| {
            let row = &w[r * words..(r + 1) * words];
            let total: f64 = (0..cols)
                .map(|c| {
                    half_value(row[c / HALVES_PER_WORD], c % HALVES_PER_WORD) * f64::from(x[c])
                })
                .sum();
            total as f32
        })
        .collect();
    Ok(flat(y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::{CaseConfig, Values};
    use std::collections::BTreeMap;

    /// `matvec_f16` on `rows` rows of `w` (`u32` words) and `x`, with a
    /// `dims` uniform of `[rows, cols]`; `x` is left out when `None`.
    fn f16_gemv(
        w: &[u32],
        rows: u32,
        x: Option<&[f32]>,
        dims: [u32; 2],
    ) -> Result<Vec<f32>, ReferenceError> {
        let config = CaseConfig {
            workgroup_size: [4, 1, 1],
            workgroups: [rows, 1, 1],
            workgroup_memory: None,
        };
        let words = w.len() as u32 / rows;
        let w = Values::U32(w.to_vec());
        let x = x.map(|x| Values::F32(x.to_vec()));
        let mut buffers = BTreeMap::from([("w", (&w, Some([rows, words])))]);
        if let Some(x) = &x {
            buffers.insert("x", (x, None));
        }
        let input = ReferenceInput {
            config: &config,
            buffers,
            uniforms: BTreeMap::from([(
                "dims",
                BTreeMap::from([("rows", f64::from(dims[0])), ("cols", f64::from(dims[1]))]),
            )]),
            output_lens: BTreeMap::new(),
        };
        Ok(matvec_f16(&input)?[0].0.as_f32().unwrap().to_vec())
    }

    #[test]
    fn f16_reads_each_word_low_half_first() {
        // The statement's worked example: 2 rows of 8 columns, x = 1 … 8.
        // Row 0: 0x40003C00 holds 1.0 (low, column 0) and 2.0 (high,
        // column 1); 0xC2003800 holds 0.5 and -3.0; 0x00008000 holds -0.0
        // and 0.0; 0x3400BC00 holds -1.0 and 0.25:
        // 1 + 4 + 1.5 - 12 + 0 + 0 - 7 + 2 = -10.5.
        // Row 1: 0x3E00B800 holds -0.5 and 1.5; 0x4500C000 -2.0 and 5.0;
        // 0 two zeros; 0x3C003A00 0.75 and 1.0:
        // -0.5 + 3 - 6 + 20 + 0 + 0 + 5.25 + 8 = 29.75.
        let w = [
            0x4000_3C00,
            0xC200_3800,
            0x0000_8000,
            0x3400_BC00,
            0x3E00_B800,
            0x4500_C000,
            0,
            0x3C00_3A00,
        ];
        let x: Vec<f32> = (1..=8).map(|c| c as f32).collect();
        assert_eq!(f16_gemv(&w, 2, Some(&x), [2, 8]).unwrap(), [-10.5, 29.75]);
    }

    #[test]
    fn f16_decodes_the_extremes_of_the_format() {
        let x = [3.0, -2.0];
        // The largest finite half, 0x7BFF, is 65504 (2047 · 2⁵); 0xFBFF is
        // -65504: 65504 · 3 - (-65504) · 2 = 327520.
        assert_eq!(f16_gemv(&[0xFBFF_7BFF], 1, Some(&x), [1, 2]).unwrap(), [327_520.0]);
        // Subnormals: 0x0001 is 2⁻²⁴ and 0x03FF the largest, 1023 · 2⁻²⁴;
        // 0x0400 is the smallest normal, 2⁻¹⁴ = 1024 · 2⁻²⁴. A row of them
        // is a whole number of 2⁻²⁴: 3 · 1 - 2 · 1023 = -2043, and
        // 3 · 1024 - 2 · (-1) = 3074 (0x8001 is -2⁻²⁴).
        let tiny = 2f32.powi(-24);
        assert_eq!(
            f16_gemv(&[0x03FF_0001, 0x8001_0400], 2, Some(&x), [2, 2]).unwrap(),
            [-2043.0 * tiny, 3074.0 * tiny]
        );
        // -0.0 (0x8000) and +0.0 add nothing: a row of them sums to zero.
        let y = f16_gemv(&[0x0000_8000], 1, Some(&x), [1, 2]).unwrap();
        assert_eq!(y, [0.0]);
    }

    #[test]
    fn f16_says_what_a_case_gets_wrong() {
        let x = [1.0; 4];
        assert_eq!(
            f16_gemv(&[0; 2], 1, None, [1, 4]),
            Err(ReferenceError::MissingInput { name: "x".to_string() })
        );
        assert!(matches!(
            f16_gemv(&[0; 2], 1, Some(&x[..3]), [1, 4]),
            Err(ReferenceError::WrongLength { len: 3, want: 4, .. })
        ));
        assert!(matches!(
            f16_gemv(&[0; 2], 1, Some(&x), [2, 4]),
            Err(ReferenceError::UniformDisagrees { .. })
        ));
        // An infinity (0x7C00) in the high half of word 1, and a NaN
        // (0x7E00) in the low half of word 0 of another case.
        assert!(matches!(
            f16_gemv(&[0x3C00_3C00, 0x7C00_0000], 1, Some(&x), [1, 4]),
            Err(ReferenceError::ValueOutOfRange { at: 1, .. })
        ));
        assert!(matches!(
            f16_gemv(&[0x0000_7E00, 0], 1, Some(&x), [1, 4]),
            Err(ReferenceError::ValueOutOfRange { at: 0, .. })
        ));
    }
}
