//! Weights stored in 4 bits (4-bit Weights with Group Scales), a puzzle of
//! the chapter "Inside a language model". Its 8-bit counterpart,
//! `matvec_q8` (Quantised GEMV), lives in `language_model`; like it, this
//! product is computed in `f64` and rounded to `f32` once, and the puzzle
//! compares with a tolerance derived in its `puzzle.toml`.

use crate::error::ReferenceError;
use crate::input::{check_dims, flat, Outputs, ReferenceInput};

/// Weights per `u32` word of the 4-bit layout.
const Q4_PER_WORD: usize = 8;

/// Weight `j` (0 to 7) of a word: bits `4j` to `4j + 3`, a nibble in two's
/// complement. Flipping the nibble's top bit and subtracting 8 maps `0x0` to
/// `0x7` onto 0 to 7 and `0x8` to `0xF` onto −8 to −1.
fn nibble(word: u32, j: usize) -> f64 {
    let n = (word >> (4 * j)) & 0xF;
    f64::from((n ^ 8) as i32 - 8)
}

/// A matrix–vector product whose weights are stored in 4 bits, with one
/// scale per group of consecutive columns:
///
/// - `w` (`u32`, shape `rows × cols / 8`, row-major): the weights `q[r][c]`,
///   signed 4-bit integers (−8 to 7) in two's complement, eight to a word,
///   lowest nibble first: bits `4j` to `4j + 3` of word `w[r][k]` hold
///   `q[r][8k + j]`;
/// - `dims.group`: the columns per group, a multiple of 8 that divides
///   `cols` (so a word never spans two groups); the puzzle's cases use 32
///   and 64;
/// - `scales` (`rows × cols / group` elements, row-major): `scales[r][g]` is
///   the scale of group `g` of row `r`, the weights `q[r][group·g]` to
///   `q[r][group·g + group − 1]`;
/// - `x`: `cols` elements (`w` gives `rows` and `cols`).
///
/// ```text
/// y[r] = Σ_g scales[r][g] · Σ_{j<group} q[r][group·g + j] · x[group·g + j]
/// ```
///
/// One output, `y`, of `rows` elements, computed in `f64` and rounded to
/// `f32` once. The `dims` fields `rows` and `cols`, where given, must agree
/// with the buffers. The layout is that of ggml's `Q4_0` (groups of 32)
/// with three differences: the scale is an `f32` rather than an `f16`, the
/// nibbles are two's complement rather than offset by 8, and they run in
/// column order, where `Q4_0` puts a group's first 16 weights in the low
/// nibbles of its bytes and the last 16 in the high ones.
///
/// # Errors
/// A missing buffer or shape; [`ReferenceError::MissingUniform`] without a
/// `dims.group`; [`ReferenceError::UniformOutOfRange`] for a group that is
/// not a multiple of 8 from 8 up; [`ReferenceError::WrongLength`] for a row
/// of `w` that is not a whole number of groups (`want` rounds it up), an
/// `x` other than `cols` long or a `scales` other than one per group;
/// [`ReferenceError::UniformDisagrees`] for a `dims` field that differs.
pub fn matvec_q4(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (w, scales, x) = (input.u32s("w")?, input.f32("scales")?, input.f32("x")?);
    let [rows, words] = input.shape("w")?;
    let group = input.uniforms.get("dims").and_then(|d| d.get("group")).copied();
    let group =
        group.ok_or_else(|| ReferenceError::MissingUniform { name: "dims.group".to_string() })?;
    if group < Q4_PER_WORD as f64 || group % Q4_PER_WORD as f64 != 0.0 {
        return Err(ReferenceError::UniformOutOfRange {
            field: "dims.group".to_string(),
            want: "a multiple of 8 from 8 up",
        });
    }
    let group = group as usize;
    let cols = Q4_PER_WORD * words;
    if cols == 0 || !cols.is_multiple_of(group) {
        let want = rows * cols.max(1).next_multiple_of(group) / Q4_PER_WORD;
        return Err(ReferenceError::WrongLength { name: "w".to_string(), len: w.len(), want });
    }
    let groups = cols / group;
    for (name, len, want) in [("x", x.len(), cols), ("scales", scales.len(), rows * groups)] {
        if len != want {
            return Err(ReferenceError::WrongLength { name: name.to_string(), len, want });
        }
    }
    check_dims(input, &[("rows", rows), ("cols", cols)])?;
    let y = (0..rows)
        .map(|r| {
            let row = &w[r * words..(r + 1) * words];
            let weight = |c: usize| nibble(row[c / Q4_PER_WORD], c % Q4_PER_WORD);
            let total: f64 = (0..groups)
                .map(|g| {
                    let sum: f64 =
                        (g * group..(g + 1) * group).map(|c| weight(c) * f64::from(x[c])).sum();
                    f64::from(scales[r * groups + g]) * sum
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

    /// `matvec_q4` on `rows` rows of `w` (`u32` words) with `scales` and `x`,
    /// and a `dims` uniform of the fields given.
    fn q4_with(
        w: &[u32],
        rows: u32,
        scales: &[f32],
        x: &[f32],
        dims: &[(&'static str, u32)],
    ) -> Result<Vec<f32>, ReferenceError> {
        let config = CaseConfig {
            workgroup_size: [4, 1, 1],
            workgroups: [rows, 1, 1],
            workgroup_memory: None,
        };
        let words = w.len() as u32 / rows;
        let (w, scales, x) =
            (Values::U32(w.to_vec()), Values::F32(scales.to_vec()), Values::F32(x.to_vec()));
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([
                ("w", (&w, Some([rows, words]))),
                ("scales", (&scales, None)),
                ("x", (&x, None)),
            ]),
            uniforms: BTreeMap::from([(
                "dims",
                dims.iter().map(|&(k, v)| (k, f64::from(v))).collect(),
            )]),
            output_lens: BTreeMap::new(),
        };
        Ok(matvec_q4(&input)?[0].0.as_f32().unwrap().to_vec())
    }

    /// `q4_with` and a `dims` uniform of `[rows, cols, group]`.
    fn q4(
        w: &[u32],
        rows: u32,
        scales: &[f32],
        x: &[f32],
        [r, c, g]: [u32; 3],
    ) -> Result<Vec<f32>, ReferenceError> {
        q4_with(w, rows, scales, x, &[("rows", r), ("cols", c), ("group", g)])
    }

    #[test]
    fn q4_sign_extends_each_nibble_and_scales_each_group() {
        // The statement's worked example: 2 rows of 64 weights in groups of
        // 32 (8 words a row, 4 a group), x = 1, 2, 3, 4 over and over.
        // Row 0: word 0 holds the nibbles 1 F 2 D 7 8 0 5 from the lowest
        // up, the weights 1, -1, 2, -3, 7, -8, 0, 5, which meet x as
        // 1 - 2 + 6 - 12 + 7 - 16 + 0 + 20 = 4 (group 0, scale 0.5); word 4
        // (group 1, scale 2) holds 3 0 E 1 F F 6 D, the weights
        // 3, 0, -2, 1, -1, -1, 6, -3: 3 + 0 - 6 + 4 - 1 - 2 + 18 - 12 = 4.
        // So y[0] = 0.5 · 4 + 2 · 4 = 10. Row 1: word 2 holds B 3 0 2 8 7 1 0,
        // the weights -5, 3, 0, 2, -8, 7, 1, 0: -5 + 6 + 0 + 8 - 8 + 14 + 3 + 0
        // = 18 (scale 1); word 7 holds eight -1: -20 (scale 0.25). y[1] = 13.
        let mut w = [0u32; 16];
        (w[0], w[4], w[8 + 2], w[8 + 7]) = (0x5087_D2F1, 0xD6FF_1E03, 0x0178_203B, 0xFFFF_FFFF);
        let x: Vec<f32> = (0..64).map(|c| (c % 4 + 1) as f32).collect();
        assert_eq!(q4(&w, 2, &[0.5, 2.0, 1.0, 0.25], &x, [2, 64, 32]).unwrap(), [10.0, 13.0]);
        // The extremes: the nibbles 8 7 F 1 are -8, 7, -1, 1 (not 8 and 15):
        // (-8 · 1 + 7 · 2 - 1 · 3 + 1 · 4) · 0.5 = 7 · 0.5.
        let mut w = [0u32; 4];
        w[0] = 0x0000_1F78;
        assert_eq!(q4(&w, 1, &[0.5], &x[..32], [1, 32, 32]).unwrap(), [3.5]);
        // The same words in groups of 32 and of 64: every weight 1 and every
        // x 1, so each group sums to its size. Two scales of a row of 64
        // columns, 32 · 1 + 32 · 2, or one, 64 · 3.
        let ones = [0x1111_1111; 8];
        assert_eq!(q4(&ones, 1, &[1.0, 2.0], &[1.0; 64], [1, 64, 32]).unwrap(), [96.0]);
        assert_eq!(q4(&ones, 1, &[3.0], &[1.0; 64], [1, 64, 64]).unwrap(), [192.0]);
        // A zero scale silences its group, whatever its weights: group 0's
        // weights are all 7, group 1's all 1.
        let w = [[0x7777_7777; 4], [0x1111_1111; 4]].concat();
        assert_eq!(q4(&w, 1, &[0.0, 1.0], &[1.0; 64], [1, 64, 32]).unwrap(), [32.0]);
    }

    #[test]
    fn q4_says_what_a_case_gets_wrong() {
        let x = [1.0; 64];
        let out_of_range = |r: Result<Vec<f32>, ReferenceError>| matches!(r, Err(ReferenceError::UniformOutOfRange { field, .. }) if field == "dims.group");
        assert!(matches!(
            q4_with(&[0; 4], 1, &[1.0], &x[..32], &[("rows", 1), ("cols", 32)]),
            Err(ReferenceError::MissingUniform { .. })
        ));
        assert!(out_of_range(q4(&[0; 4], 1, &[1.0], &x[..32], [1, 32, 0])));
        assert!(out_of_range(q4(&[0; 4], 1, &[1.0], &x[..32], [1, 32, 12])));
        // Rows of 4 words are 32 weights, half a group of 64.
        assert!(matches!(
            q4(&[0; 4], 1, &[1.0], &x[..32], [1, 32, 64]),
            Err(ReferenceError::WrongLength { want: 8, .. })
        ));
        assert!(matches!(
            q4(&[0; 4], 1, &[1.0], &x[..31], [1, 32, 32]),
            Err(ReferenceError::WrongLength { want: 32, .. })
        ));
        // Two rows of two groups of 32 need four scales.
        assert!(matches!(
            q4(&[0; 16], 2, &[1.0, 1.0], &x, [2, 64, 32]),
            Err(ReferenceError::WrongLength { len: 2, want: 4, .. })
        ));
        assert!(matches!(
            q4(&[0; 8], 1, &[1.0, 1.0], &x, [1, 32, 32]),
            Err(ReferenceError::UniformDisagrees { .. })
        ));
    }
}
