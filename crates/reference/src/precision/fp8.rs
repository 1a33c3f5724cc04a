//! 8-bit Floats: E4M3: `f32` words encoded as FP8 E4M3 with integer
//! operations, a puzzle of the chapter "Numbers and formats".
//!
//! E4M3 is the 8-bit format of the Open Compute Project's "OCP 8-bit
//! Floating Point Specification (OFP8)" (revision 1.0, 2023), the one
//! NVIDIA Hopper's FP8 tensor cores read: 1 sign bit, 4 exponent bits with
//! bias 7 and 3 mantissa bits. Exponent field 0 holds the subnormals
//! `m/8 · 2^-6`; `S.1111.111` (0x7F, 0xFF) is NaN, the only NaN; there is
//! no infinity, so `S.1111.110` (±448) is the largest finite value. The
//! encoder here rounds to nearest, ties to even, and saturates (the
//! specification's saturating mode, CUDA's `__NV_SATFINITE`): finite
//! values beyond ±448 and ±∞ become ±448. It works on the `u32` so that no
//! `f32`, and so no NaN, is moved through a float register on the way; the
//! tests check it against a search for the nearest of the 256 codes.

use crate::error::ReferenceError;
use crate::input::{Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// The bits of `+∞` in binary32: exponent all ones, fraction 0.
const F32_INF: u32 = 0x7F80_0000;

/// 448.0 in binary32: from here up (and 464, the midpoint to the would-be
/// 480, rounds down to 448 anyway) every finite value saturates.
const F32_448: u32 = 0x43E0_0000;

/// 2^-6 in binary32, E4M3's smallest normal value (code 0x08).
const F32_MIN_NORMAL: u32 = 0x3C80_0000;

/// 2^-10 in binary32, half of E4M3's smallest subnormal 2^-9: a tie that
/// rounds to the even 0. Below this binade's bottom every value becomes 0.
const F32_HALF_MIN_SUBNORMAL: u32 = 0x3A80_0000;

/// The sign bit of an E4M3 code.
const E4M3_SIGN: u32 = 0x80;

/// The E4M3 NaN without its sign, `0.1111.111`.
const E4M3_NAN: u32 = 0x7F;

/// The largest finite E4M3 without its sign, `0.1111.110` = 448.
const E4M3_MAX: u32 = 0x7E;

/// The E4M3 code (in the low 8 bits) of the binary32 whose bits are `x`,
/// rounded to nearest, ties to even, with saturation:
///
/// - a NaN (`x & 0x7FFF_FFFF` above `0x7F80_0000`) becomes NaN with its
///   sign, `0x7F` or `0xFF` (the OFP8 text maps NaN to NaN; it keeps the
///   sign here, as `S.1111.111` allows both);
/// - a magnitude of 448 or more, ±∞ included, becomes ±448 (`0x7E`,
///   `0xFE`): rounding gives 448 up to the midpoint 464 (a tie, and 448's
///   mantissa 110 is the even one) and the code `0x7F` above it, which is
///   not a number, so saturation clamps it;
/// - a normal E4M3 (magnitude from 2^-6 up): the binary32 exponent `E`
///   becomes `E - 120` (bias 127 to bias 7) by subtracting `120 << 23`, and
///   the 20 low fraction bits are rounded away as bfloat16 rounds its 16:
///   `(t + 0x7FFFF + ((t >> 20) & 1)) >> 20`; a carry raises the exponent;
/// - a subnormal E4M3 (magnitude below 2^-6): the code is the number `m` of
///   steps of 2^-9, `m = s · 2^(E - 150) / 2^-9 = s >> (141 - E)` for the
///   24-bit significand `s` (the fraction with its leading 1), rounded the
///   same way at a shift that grows from 21 (`E` = 120) to 24 (`E` = 117);
///   `m` = 8 is the carry into 2^-6, code 0x08. Below 2^-10 (`E` < 117)
///   the value is nearer 0 than 2^-9 and becomes ±0.
fn e4m3_bits(x: u32) -> u32 {
    let sign = (x >> 24) & E4M3_SIGN;
    let mag = x & 0x7FFF_FFFF;
    let code = if mag > F32_INF {
        E4M3_NAN
    } else if mag >= F32_448 {
        E4M3_MAX
    } else if mag >= F32_MIN_NORMAL {
        let t = mag - (120 << 23);
        (t + 0x7_FFFF + ((t >> 20) & 1)) >> 20
    } else if mag < F32_HALF_MIN_SUBNORMAL {
        0
    } else {
        let shift = 141 - (mag >> 23);
        let s = (mag & 0x7F_FFFF) | 0x80_0000;
        (s + (1 << (shift - 1)) - 1 + ((s >> shift) & 1)) >> shift
    };
    sign | code
}

/// The value of the E4M3 code `code` (its low 8 bits) as an `f32`, from
/// the definition: with exponent field `e` and mantissa `m`, `m · 2^-9` for
/// `e` = 0 and `(8 + m) · 2^(e - 10)`, that is `(1 + m/8) · 2^(e - 7)`,
/// otherwise, negated when the sign bit is set; NaN for `S.1111.111`.
/// Every E4M3 value is exactly an `f32`.
fn e4m3_value(code: u32) -> f32 {
    let e = (code >> 3) & 0xF;
    let m = code & 0x7;
    if e == 0xF && m == 0x7 {
        return f32::NAN;
    }
    let magnitude =
        if e == 0 { m as f32 / 512.0 } else { (8 + m) as f32 * 2f32.powi(e as i32 - 10) };
    if code & E4M3_SIGN != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// What `back` holds for an E4M3 code: its value ([`e4m3_value`]), but 0
/// for a NaN. The judge compares `f32` values as numbers and a NaN equals
/// nothing, itself included, so a NaN in `back` could never match; the
/// NaN's sign is checked in `packed`.
fn e4m3_as_f32(code: u32) -> f32 {
    let value = e4m3_value(code);
    if value.is_nan() {
        0.0
    } else {
        value
    }
}

/// Encodes `n` binary32 values, given as their bits, as FP8 E4M3 (8-bit
/// Floats: E4M3).
///
/// Input: `x` (`u32`, `n` elements, `n` at least 1), the bits of `n` `f32`
/// values; `params.n`, if the case gives it, must be `n`. Each `x[i]`
/// becomes the code `c[i] = e4m3_bits(x[i])` (OCP OFP8 E4M3, round to
/// nearest, ties to even, saturating at ±448, NaN to NaN with its sign:
/// see [`e4m3_bits`]). Two outputs, in binding order:
///
/// - `packed` (`u32`, `ceil(n / 4)` words): four codes to a word,
///   `packed[k] = c[4k] | c[4k + 1] << 8 | c[4k + 2] << 16 | c[4k + 3] << 24`,
///   element `4k` in the lowest byte; the bytes of the last word past
///   element `n - 1` are 0;
/// - `back` (`f32`, `n` elements): each code's value ([`e4m3_as_f32`]: the
///   number itself, 0 for a NaN).
///
/// Both are exact: the puzzle compares them with no tolerance.
///
/// # Errors
/// A missing or non-`u32` `x`; [`ReferenceError::WrongLength`] for an empty
/// `x`; [`ReferenceError::UniformDisagrees`] for a `params.n` other than
/// `x`'s length.
pub fn encode_e4m3(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
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
    let codes: Vec<u32> = x.iter().map(|&w| e4m3_bits(w)).collect();
    let packed = codes
        .chunks(4)
        .map(|four| four.iter().enumerate().fold(0, |word, (j, &c)| word | c << (8 * j)))
        .collect();
    let back = codes.iter().map(|&c| e4m3_as_f32(c)).collect();
    Ok(vec![(Values::U32(packed), None), (Values::F32(back), None)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    /// `encode_e4m3` on the words `x`, with `params.n` if given: `packed`
    /// and `back`.
    fn encode(x: &[u32], n: Option<u32>) -> Result<(Vec<u32>, Vec<f32>), ReferenceError> {
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
        let out = encode_e4m3(&input)?;
        let (Values::U32(packed), Values::F32(back)) = (&out[0].0, &out[1].0) else {
            panic!("encode_e4m3 gave {out:?}");
        };
        Ok((packed.clone(), back.clone()))
    }

    /// The E4M3 code of the `f32` `v`.
    fn code_of(v: f32) -> u32 {
        e4m3_bits(v.to_bits())
    }

    /// The values of the positive codes 0x00 ..= 0x7E in `f64`, written from
    /// the definition a second way: the 8 subnormals `m/8 · 2^-6`, then for
    /// each exponent field 1 ..= 15 the 8 values `2^(e - 7) · (1 + m/8)`
    /// (the last binade has only 7: 0x7F is NaN).
    fn positive_values() -> Vec<f64> {
        let mut values: Vec<f64> = (0..8).map(|m| f64::from(m) / 8.0 / 64.0).collect();
        for e in 1..16 {
            for m in 0..8 {
                if e < 15 || m < 7 {
                    values.push(2f64.powi(e - 7) * (1.0 + f64::from(m) / 8.0));
                }
            }
        }
        values
    }

    /// An encoder independent of the bits: the code whose value is nearest
    /// to `|x|`, found by a search of the ordered positive values, a tie
    /// (`2|x|` equal to the sum of the two neighbours, exact in `f64`) going
    /// to the even code; 448 for a magnitude of 448 or more and for ±∞, NaN
    /// for a NaN; then the sign.
    fn nearest_by_search(x: u32, values: &[f64]) -> u32 {
        let sign = if x >> 31 == 1 { E4M3_SIGN } else { 0 };
        let v = f64::from(f32::from_bits(x));
        if v.is_nan() {
            return sign | E4M3_NAN;
        }
        let a = v.abs();
        if a >= 448.0 {
            return sign | E4M3_MAX;
        }
        let below = values.partition_point(|&c| c <= a) - 1;
        let (lo, hi) = (values[below], values[below + 1]);
        let code = match (2.0 * a).partial_cmp(&(lo + hi)).unwrap() {
            std::cmp::Ordering::Less => below,
            std::cmp::Ordering::Greater => below + 1,
            std::cmp::Ordering::Equal => below + below % 2,
        };
        sign | code as u32
    }

    #[test]
    fn the_codes_have_the_values_of_the_ofp8_definition() {
        let by_hand = [
            (0x00, 0.0),
            (0x01, 0.001953125), // 2^-9, the smallest subnormal
            (0x02, 0.00390625),
            (0x07, 0.013671875), // 7 · 2^-9, the largest subnormal
            (0x08, 0.015625),    // 2^-6, the smallest normal
            (0x09, 0.017578125), // 2^-6 · 1.125
            (0x30, 0.5),
            (0x38, 1.0),
            (0x39, 1.125),
            (0x3A, 1.25),
            (0x45, 3.25),
            (0x57, 15.0),
            (0x58, 16.0),
            (0x77, 240.0),
            (0x78, 256.0),
            (0x7D, 416.0),
            (0x7E, 448.0), // the largest finite
            (0xB8, -1.0),
            (0xC0, -2.0),
            (0xFE, -448.0),
        ];
        for (code, want) in by_hand {
            assert_eq!(e4m3_value(code), want, "code {code:#04x}");
        }
        assert!(e4m3_value(0x80).is_sign_negative() && e4m3_value(0x80) == 0.0);
        assert!(e4m3_value(0x7F).is_nan() && e4m3_value(0xFF).is_nan());
        assert_eq!((e4m3_as_f32(0x7F), e4m3_as_f32(0xFF)), (0.0, 0.0));
        // Every other code is a number: 0x7F and 0xFF are the only NaNs,
        // and there is no infinity.
        let numbers = (0..256).filter(|&c| !e4m3_value(c).is_nan()).count();
        assert_eq!(numbers, 254);
        assert!((0..256).all(|c| e4m3_value(c).is_finite() || c & 0x7F == 0x7F));
        // The positive codes in order are the values in increasing order,
        // and the sign bit negates.
        let values = positive_values();
        assert_eq!(values.len(), 127);
        assert!(values.windows(2).all(|w| w[0] < w[1]));
        for (code, &v) in values.iter().enumerate() {
            let code = code as u32;
            assert_eq!(f64::from(e4m3_value(code)), v, "code {code:#04x}");
            assert_eq!(e4m3_value(code | E4M3_SIGN), -e4m3_value(code));
        }
    }

    #[test]
    fn ties_go_to_the_even_code_in_both_ranges() {
        assert_eq!(code_of(1.0625), 0x38); // between 1 (0x38) and 1.125 (0x39)
        assert_eq!(code_of(1.1875), 0x3A); // between 0x39 and 1.25 (0x3A)
        assert_eq!(code_of(-1.0625), 0xB8);
        assert_eq!(code_of(-1.1875), 0xBA);
        assert_eq!(code_of(15.5), 0x58); // 15 (0x57) and 16 (0x58): a carry
        assert_eq!(code_of(432.0), 0x7E); // 416 (0x7D) and 448 (0x7E)
        assert_eq!(code_of(0.015625 * 1.0625), 0x08); // 2^-6 and 0x09
                                                      // In the subnormal range the step is 2^-9 at every exponent.
        assert_eq!(code_of(2f32.powi(-10)), 0x00); // 0 and 2^-9: to 0
        assert_eq!(code_of(1.5 * 2f32.powi(-9)), 0x02);
        assert_eq!(code_of(2.5 * 2f32.powi(-9)), 0x02);
        assert_eq!(code_of(6.5 * 2f32.powi(-9)), 0x06);
        assert_eq!(code_of(7.5 * 2f32.powi(-9)), 0x08); // up into 2^-6
                                                        // Rounding twice (to 3 fraction bits first, then to the subnormal
                                                        // step) would make this 0x04: 3.4999990 steps round once, to 3.
        assert_eq!(e4m3_bits(0x3BDF_FFFC), 0x03);
        assert_eq!(code_of(0.01), 0x05); // 5.12 steps of 2^-9
        assert_eq!(code_of(std::f32::consts::PI), 0x45); // 3.25
    }

    #[test]
    fn large_values_and_infinities_saturate_at_448() {
        assert_eq!(code_of(448.0), 0x7E);
        assert_eq!(code_of(447.0), 0x7E);
        assert_eq!(code_of(464.0), 0x7E); // the tie to the would-be 480
        assert_eq!(e4m3_bits(0x43E8_0001), 0x7E); // above it: 480 does not exist
        assert_eq!(code_of(480.0), 0x7E);
        assert_eq!(code_of(500.0), 0x7E);
        assert_eq!(code_of(-500.0), 0xFE);
        assert_eq!(code_of(f32::MAX), 0x7E);
        assert_eq!(e4m3_bits(F32_INF), 0x7E);
        assert_eq!(e4m3_bits(0xFF80_0000), 0xFE);
        assert_eq!(code_of(240.0), 0x77);
        assert_eq!(code_of(416.0), 0x7D);
    }

    #[test]
    fn zeros_and_tiny_values_keep_their_sign() {
        assert_eq!(e4m3_bits(0x0000_0000), 0x00);
        assert_eq!(e4m3_bits(0x8000_0000), 0x80);
        assert_eq!(e4m3_bits(0x0000_0001), 0x00); // binary32's smallest subnormal
        assert_eq!(e4m3_bits(0x8000_0001), 0x80);
        assert_eq!(e4m3_bits(0x3A7F_FFFF), 0x00); // just below 2^-10
        assert_eq!(e4m3_bits(0x3A80_0001), 0x01); // just above it
        assert_eq!(e4m3_bits(0x3A00_0000), 0x00); // 2^-11
        assert_eq!(e4m3_bits(0x3C7F_FFFF), 0x08); // just below 2^-6
        assert_eq!(e4m3_bits(0xBBC0_0000), 0x83); // -3 · 2^-9
    }

    #[test]
    fn nans_stay_nans_of_their_sign() {
        for (x, want) in [
            (0x7FC0_0000, 0x7F),
            (0xFFC0_0000, 0xFF),
            (0x7F80_0001, 0x7F), // signalling
            (0xFF80_0001, 0xFF),
            (0x7FFF_FFFF, 0x7F),
            (0xFFFF_FFFF, 0xFF),
        ] {
            assert_eq!(e4m3_bits(x), want, "x = {x:#010x}");
        }
    }

    #[test]
    fn the_bits_agree_with_a_search_for_the_nearest_code() {
        // Every word whose low 16 bits come from a set of edges (ties of
        // every shift among them), over all high halves, and a stride
        // through all 2^32 words; then each code's own value.
        let values = positive_values();
        let lows = [0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF];
        let edges = (0..=0xFFFFu32).flat_map(|hi| lows.map(|lo| (hi << 16) | lo));
        let stride = (0..=u32::MAX / 65_521).map(|k| k * 65_521);
        for x in edges.chain(stride) {
            assert_eq!(e4m3_bits(x), nearest_by_search(x, &values), "x = {x:#010x}");
        }
        // Every word from 2^-11 to 512, positive and negative, in steps
        // of 101 ulps (the ties are among the edges above).
        for x in (0x3A00_0000..0x4400_0000u32).step_by(101) {
            assert_eq!(e4m3_bits(x), nearest_by_search(x, &values), "x = {x:#010x}");
            let neg = x | 0x8000_0000;
            assert_eq!(e4m3_bits(neg), nearest_by_search(neg, &values), "x = {neg:#010x}");
        }
        for code in (0..256).filter(|&c| c & 0x7F != 0x7F) {
            assert_eq!(code_of(e4m3_value(code)), code, "code {code:#04x}");
        }
    }

    #[test]
    fn fours_pack_lowest_byte_first_and_a_short_tail_leaves_zeros() {
        // The statement's worked example.
        let x = [
            0x3F80_0000, // 1.0
            0x43E0_0000, // 448
            0x43FA_0000, // 500
            0x3F98_0000, // 1.1875
            0x3B00_0000, // 2^-9
            0x3A80_0000, // 2^-10
            0x8000_0000, // -0.0
            0x7FC0_0000, // NaN
        ];
        let (packed, back) = encode(&x, Some(8)).unwrap();
        assert_eq!(packed, [0x3A7E_7E38, 0x7F80_0001]);
        assert_eq!(back, [1.0, 448.0, 448.0, 1.25, 0.001953125, 0.0, -0.0, 0.0]);
        assert!(back[6].is_sign_negative());
        // One value, π: 0x45, 3.25, alone in its word.
        assert_eq!(encode(&[0x4049_0FDB], Some(1)).unwrap(), (vec![0x45], vec![3.25]));
        let x = [0x3F80_0000, 0x4000_0000, 0xC040_0000, 0x3F00_0000, 0xBF80_0000];
        let (packed, back) = encode(&x, None).unwrap();
        assert_eq!(packed, [0x30C4_4038, 0xB8]);
        assert_eq!(back, [1.0, 2.0, -3.0, 0.5, -1.0]);
    }

    #[test]
    fn a_case_with_no_values_or_another_n_is_refused() {
        assert_eq!(
            encode(&[], None),
            Err(ReferenceError::WrongLength { name: "x".to_string(), len: 0, want: 1 })
        );
        assert_eq!(
            encode(&[0, 0, 0], Some(4)),
            Err(ReferenceError::UniformDisagrees {
                field: "params.n".to_string(),
                given: 4.0,
                from_shapes: 3
            })
        );
    }
}
