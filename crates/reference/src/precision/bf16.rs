//! bfloat16 by Bits: `f32` words rounded to bfloat16 with integer operations,
//! a puzzle of the chapter "Numbers and formats".
//!
//! bfloat16 keeps the top 16 bits of an IEEE 754 binary32 (1 sign bit, 8
//! exponent bits, 7 fraction bits), so the conversion is a rounding of the
//! low 16 bits away. The rule here is the one of the `half` crate's
//! `bf16::from_f32` (checked against it in the tests below), written out on
//! the `u32` so that no `f32` value, and so no NaN, is ever moved through a
//! float register on the way.

use crate::error::ReferenceError;
use crate::input::{Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// The bits of `+∞` in binary32: exponent all ones, fraction 0.
const F32_INF: u32 = 0x7F80_0000;

/// The top fraction bit of a bfloat16 (bit 6): set, it makes a NaN quiet.
const BF16_QUIET: u32 = 0x0040;

/// The bfloat16 nearest to the binary32 whose bits are `x`, as its 16 bits
/// (in the low half of the result):
///
/// - a NaN (exponent all ones, fraction not 0: `x & 0x7FFF_FFFF` above
///   `0x7F80_0000`) keeps its sign and the top 7 bits of its fraction, with
///   the quiet bit set: `(x >> 16) | 0x0040`. A signalling NaN whose payload
///   lies only in the low 16 bits thus stays a NaN (`0x7FC0`), where cutting
///   the bits off would make it an infinity;
/// - anything else (±0, subnormals, normals, ±∞) rounds to nearest, ties to
///   even, on the bits: `(x + 0x7FFF + ((x >> 16) & 1)) >> 16`. Adding
///   `0x7FFF` carries into bit 16 exactly when the low half is above
///   `0x8000`; at `0x8000`, the tie, the kept part's lowest bit adds the one
///   that carries when that bit is odd. A carry out of the fraction raises
///   the exponent, so the largest finite values round to ±∞ (`0x7F7F_8000`
///   and up), and ±∞ themselves (low half 0) stay. The sum never passes
///   `u32::MAX`: the largest non-NaN word is `0xFF80_0000`.
fn bf16_bits(x: u32) -> u32 {
    if x & 0x7FFF_FFFF > F32_INF {
        (x >> 16) | BF16_QUIET
    } else {
        (x + 0x7FFF + ((x >> 16) & 1)) >> 16
    }
}

/// What `back` holds for a bfloat16 `h` (its bits in the low half): the
/// same number as an `f32`, whose bits are `h << 16` (bfloat16 to binary32
/// is exact), except 0 for a NaN. The judge compares `f32` values as
/// numbers and a NaN equals nothing, itself included, so a NaN in `back`
/// could never match; the NaN's bits are checked in `packed`.
fn bf16_as_f32(h: u32) -> f32 {
    let value = f32::from_bits(h << 16);
    if value.is_nan() {
        0.0
    } else {
        value
    }
}

/// Rounds `n` binary32 values, given as their bits, to bfloat16 (bfloat16
/// by Bits).
///
/// Input: `x` (`u32`, `n` elements, `n` at least 1), the bits of `n` `f32`
/// values; `params.n`, if the case gives it, must be `n`. Each `x[i]`
/// becomes `h[i] = bf16_bits(x[i])` (round to nearest, ties to even; NaNs
/// quiet, keeping sign and top payload: see [`bf16_bits`]). Two outputs, in
/// binding order:
///
/// - `packed` (`u32`, `ceil(n / 2)` words): two bfloat16 to a word,
///   `packed[k] = h[2k] | (h[2k + 1] << 16)`, element `2k` in the low half;
///   when `n` is odd the last word's high half is 0;
/// - `back` (`f32`, `n` elements): `h[i]` as an `f32` ([`bf16_as_f32`]: the
///   number itself, 0 for a NaN).
///
/// Both are exact: the puzzle compares them with no tolerance.
///
/// # Errors
/// A missing or non-`u32` `x`; [`ReferenceError::WrongLength`] for an empty
/// `x`; [`ReferenceError::UniformDisagrees`] for a `params.n` other than
/// `x`'s length.
pub fn round_to_bf16(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let x = input.u32s("x")?;
    if x.is_empty() {
        return Err(ReferenceError::WrongLength { name: "x".to_string(), len: 0, want: 1 });
    }
    if let Some(&given) = input.uniforms.get("params").and_then(|p| p.get("n")) {
        if given != x.len() as f64 {
            return Err(ReferenceError::UniformDisagrees {
                field: "params.n".to_string(),
                given,
                from_shapes: x.len(),
            });
        }
    }
    let h: Vec<u32> = x.iter().map(|&w| bf16_bits(w)).collect();
    let packed =
        h.chunks(2).map(|pair| pair[0] | pair.get(1).map_or(0, |&high| high << 16)).collect();
    let back = h.iter().map(|&b| bf16_as_f32(b)).collect();
    Ok(vec![(Values::U32(packed), None), (Values::F32(back), None)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    /// `round_to_bf16` on the words `x`, with `params.n` if given: `packed`
    /// and `back`.
    fn round(x: &[u32], n: Option<u32>) -> Result<(Vec<u32>, Vec<f32>), ReferenceError> {
        let config =
            CaseConfig { workgroup_size: [2, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let x = Values::U32(x.to_vec());
        let params: BTreeMap<&str, f64> = n.map(|n| ("n", f64::from(n))).into_iter().collect();
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("x", (&x, None))]),
            uniforms: BTreeMap::from([("params", params)]),
            output_lens: BTreeMap::new(),
        };
        let out = round_to_bf16(&input)?;
        let (Values::U32(packed), Values::F32(back)) = (&out[0].0, &out[1].0) else {
            panic!("round_to_bf16 gave {out:?}");
        };
        Ok((packed.clone(), back.clone()))
    }

    #[test]
    fn ties_go_to_the_even_neighbour_both_ways() {
        // 1 + 2^-8: halfway between 0x3F80 (even) and 0x3F81; stays 1.0.
        assert_eq!(bf16_bits(0x3F80_8000), 0x3F80);
        // 1 + 2^-7 + 2^-8: halfway between 0x3F81 (odd) and 0x3F82; goes up.
        assert_eq!(bf16_bits(0x3F81_8000), 0x3F82);
        // Just past and just short of the tie.
        assert_eq!(bf16_bits(0x3F80_8001), 0x3F81);
        assert_eq!(bf16_bits(0x3F81_7FFF), 0x3F81);
        // Negative values round on their magnitude, the sign untouched.
        assert_eq!(bf16_bits(0xBF80_8000), 0xBF80);
        assert_eq!(bf16_bits(0xBF81_8000), 0xBF82);
        // A carry out of the fraction raises the exponent: 0.998… to 1.0.
        assert_eq!(bf16_bits(0x3F7F_8000), 0x3F80);
    }

    #[test]
    fn the_largest_values_round_to_infinity_and_infinities_stay() {
        assert_eq!(bf16_bits(0x7F7F_FFFF), 0x7F80); // f32::MAX
        assert_eq!(bf16_bits(0xFF7F_FFFF), 0xFF80); // f32::MIN
        assert_eq!(bf16_bits(0x7F7F_8000), 0x7F80); // a tie to the odd 0x7F7F goes up, to ∞
        assert_eq!(bf16_bits(0x7F7F_7FFF), 0x7F7F); // bfloat16's largest finite
        assert_eq!(bf16_bits(0x7F7E_8000), 0x7F7E); // a tie to an even one stays finite
        assert_eq!(bf16_bits(F32_INF), 0x7F80);
        assert_eq!(bf16_bits(0xFF80_0000), 0xFF80);
        assert_eq!(bf16_as_f32(0x7F80), f32::INFINITY);
        assert_eq!(bf16_as_f32(0xFF80), f32::NEG_INFINITY);
    }

    #[test]
    fn zeros_and_subnormals_round_like_any_other_value() {
        assert_eq!(bf16_bits(0x0000_0000), 0x0000);
        assert_eq!(bf16_bits(0x8000_0000), 0x8000);
        assert_eq!(bf16_bits(0x0000_0001), 0x0000); // smallest subnormal: to +0
        assert_eq!(bf16_bits(0x8000_0001), 0x8000); // to −0
        assert_eq!(bf16_bits(0x0000_8000), 0x0000); // a tie to the even 0
        assert_eq!(bf16_bits(0x0001_8000), 0x0002); // a tie to the even 2
        assert_eq!(bf16_bits(0x0001_0000), 0x0001); // bfloat16's smallest subnormal
        assert_eq!(bf16_bits(0x007F_FFFF), 0x0080); // largest subnormal: up to 2^-126
        assert_eq!(bf16_as_f32(0x0001), f32::from_bits(0x0001_0000));
        assert!(bf16_as_f32(0x8000).is_sign_negative());
    }

    #[test]
    fn nans_stay_nans_of_their_sign_and_become_quiet() {
        assert_eq!(bf16_bits(0x7FC0_0000), 0x7FC0); // quiet
        assert_eq!(bf16_bits(0x7F80_0001), 0x7FC0); // signalling, payload in the low half only
        assert_eq!(bf16_bits(0xFF80_0001), 0xFFC0);
        assert_eq!(bf16_bits(0x7F80_8000), 0x7FC0); // rounding would make it 0x7F80, ∞
        assert_eq!(bf16_bits(0x7FBF_FFFF), 0x7FFF); // top payload kept, quiet bit set
        assert_eq!(bf16_bits(0x7FFF_FFFF), 0x7FFF); // rounding would carry into the sign: −0
        assert_eq!(bf16_bits(0xFFFF_FFFF), 0xFFFF); // rounding would wrap to +0
        assert_eq!(bf16_bits(0xFFC1_2345), 0xFFC1);
        assert_eq!(bf16_as_f32(0x7FC0), 0.0);
        assert_eq!(bf16_as_f32(0xFFFF), 0.0);
    }

    #[test]
    fn the_rule_is_the_half_crates_on_every_kind_of_word() {
        // Every word with a low half from a set of edges, over a sweep of
        // high halves, and a stride through all 2^32 words.
        let lows = [0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF];
        let edges = (0..=0xFFFFu32).flat_map(|hi| lows.map(|lo| (hi << 16) | lo));
        let stride = (0..=u32::MAX / 65_521).map(|k| k * 65_521);
        for x in edges.chain(stride) {
            let want = u32::from(half::bf16::from_f32(f32::from_bits(x)).to_bits());
            assert_eq!(bf16_bits(x), want, "x = {x:#010x}");
        }
    }

    #[test]
    fn pairs_pack_low_half_first_and_odd_n_leaves_the_last_high_half_zero() {
        // The statement's worked example.
        let x = [
            0x3F80_0000,
            0x3F80_8000,
            0x3F81_8000,
            0x3F80_8001,
            0x8000_0000,
            0x7F80_0000,
            0x7FC0_0000,
            0x7F80_0001,
        ];
        let (packed, back) = round(&x, Some(8)).unwrap();
        assert_eq!(packed, [0x3F80_3F80, 0x3F81_3F82, 0x7F80_8000, 0x7FC0_7FC0]);
        assert_eq!(back, [1.0, 1.0, 1.015625, 1.0078125, -0.0, f32::INFINITY, 0.0, 0.0]);
        // One value, π: 0x40490FDB rounds down to 0x4049, 3.140625.
        assert_eq!(round(&[0x4049_0FDB], Some(1)).unwrap(), (vec![0x4049], vec![3.140625]));
        let (packed, back) = round(&[0x3F80_0000, 0x4000_0000, 0xC040_0000], None).unwrap();
        assert_eq!((packed, back), (vec![0x4000_3F80, 0xC040], vec![1.0, 2.0, -3.0]));
    }

    #[test]
    fn a_case_with_no_values_or_another_n_is_refused() {
        assert_eq!(
            round(&[], None),
            Err(ReferenceError::WrongLength { name: "x".to_string(), len: 0, want: 1 })
        );
        assert_eq!(
            round(&[0, 0, 0], Some(4)),
            Err(ReferenceError::UniformDisagrees {
                field: "params.n".to_string(),
                given: 4.0,
                from_shapes: 3
            })
        );
    }
}
