//! WGSL's data packing and unpacking built-in functions (WGSL "Data Packing
//! Built-in Functions", <https://www.w3.org/TR/WGSL/#pack-builtin-functions>,
//! and "Data Unpacking Built-in Functions",
//! <https://www.w3.org/TR/WGSL/#unpack-builtin-functions>) and the packed
//! 4×8-bit integer dot products `dot4I8Packed` and `dot4U8Packed` (WGSL
//! "Numeric Built-in Functions", <https://www.w3.org/TR/WGSL/#dot4I8Packed-builtin>).
//!
//! Every function here lays out its fields the same way: component `j` of
//! a vector is bits `w × j` to `w × j + w − 1` of the `u32`, for fields `w`
//! bits wide (8 or 16), so component 0 is the lowest byte or half.
//!
//! Where the specification gives a formula (`⌊0.5 + 127 × min(1, max(−1,
//! e))⌋`), it is evaluated exactly. Where it lets the result vary (a value
//! outside `f16`'s finite range, a NaN, a rounding direction), the choice
//! is IEEE-754's default, and the comment at the function says which.

use super::f32_of;
use crate::value::{Scalar, Value};
use crate::Stop;
use naga::MathFunction as M;

/// `fun(args)` for the packing and unpacking functions and the packed dot
/// products; an internal error for any other function.
pub(super) fn math(fun: M, args: &[Value]) -> Result<Value, Stop> {
    let arg = |k: usize| {
        args.get(k).ok_or_else(|| Stop::internal(format!("{fun:?} without argument {k}")))
    };
    let e = arg(0)?;
    let packed = |word: u32| Value::Scalar(Scalar::U32(word));
    Ok(match fun {
        M::Pack4x8snorm => packed(join(8, floats(e)?.into_iter().map(|x| snorm(x, 127)))),
        M::Pack4x8unorm => packed(join(8, floats(e)?.into_iter().map(|x| unorm(x, 255)))),
        M::Pack2x16snorm => packed(join(16, floats(e)?.into_iter().map(|x| snorm(x, 32767)))),
        M::Pack2x16unorm => packed(join(16, floats(e)?.into_iter().map(|x| unorm(x, 65535)))),
        M::Pack2x16float => packed(join(16, floats(e)?.into_iter().map(to_f16_bits))),
        // The lowest 8 bits of each component (two's complement for i32),
        // after clamping to [-128, 127] or [0, 255] for the Clamp forms.
        M::Pack4xI8 => packed(join(8, ints(e)?.into_iter().map(|v| v as u32))),
        M::Pack4xU8 => packed(join(8, uints(e)?)),
        M::Pack4xI8Clamp => {
            packed(join(8, ints(e)?.into_iter().map(|v| v.clamp(-128, 127) as u32)))
        }
        M::Pack4xU8Clamp => packed(join(8, uints(e)?.into_iter().map(|v| v.min(255)))),
        M::Unpack4x8snorm => floats_of(word(e)?, 8, 4, |v| (signed(v, 8) as f32 / 127.0).max(-1.0)),
        M::Unpack4x8unorm => floats_of(word(e)?, 8, 4, |v| v as f32 / 255.0),
        M::Unpack2x16snorm => {
            floats_of(word(e)?, 16, 2, |v| (signed(v, 16) as f32 / 32767.0).max(-1.0))
        }
        M::Unpack2x16unorm => floats_of(word(e)?, 16, 2, |v| v as f32 / 65535.0),
        // Every binary16 value, subnormals, infinities and NaNs included,
        // is exactly an f32 value.
        M::Unpack2x16float => {
            floats_of(word(e)?, 16, 2, |v| half::f16::from_bits(v as u16).to_f32())
        }
        // Component j is sign-extended by unpack4xI8 (two's complement) and
        // zero-extended by unpack4xU8.
        M::Unpack4xI8 => {
            let w = word(e)?;
            Value::Vector((0..4).map(|j| Scalar::I32(signed(field(w, 8, j), 8))).collect())
        }
        M::Unpack4xU8 => {
            let w = word(e)?;
            Value::Vector((0..4).map(|j| Scalar::U32(field(w, 8, j))).collect())
        }
        // Each byte sign-extended (or zero-extended) to 32 bits, multiplied
        // and summed: at most 4 × 128 × 128 = 65536 in magnitude signed, at
        // most 4 × 255 × 255 = 260100 unsigned, so nothing can overflow.
        M::Dot4I8Packed => {
            let (a, b) = (word(e)?, word(arg(1)?)?);
            let sum = (0..4).map(|j| signed(field(a, 8, j), 8) * signed(field(b, 8, j), 8)).sum();
            Value::Scalar(Scalar::I32(sum))
        }
        M::Dot4U8Packed => {
            let (a, b) = (word(e)?, word(arg(1)?)?);
            Value::Scalar(Scalar::U32((0..4).map(|j| field(a, 8, j) * field(b, 8, j)).sum()))
        }
        other => return Err(Stop::internal(format!("{other:?} is not a packing function"))),
    })
}

/// The `u32` argument of an unpacking function or a packed dot product.
fn word(v: &Value) -> Result<u32, Stop> {
    match v.scalar()? {
        Scalar::U32(w) => Ok(w),
        other => Err(Stop::internal(format!("expected a u32, found {other:?}"))),
    }
}

/// The components of an `f32` vector.
fn floats(v: &Value) -> Result<Vec<f32>, Stop> {
    v.components()?.into_iter().map(f32_of).collect()
}

/// The components of an `i32` vector.
fn ints(v: &Value) -> Result<Vec<i32>, Stop> {
    let int = |s| match s {
        Scalar::I32(v) => Ok(v),
        other => Err(Stop::internal(format!("expected an i32, found {other:?}"))),
    };
    v.components()?.into_iter().map(int).collect()
}

/// The components of a `u32` vector.
fn uints(v: &Value) -> Result<Vec<u32>, Stop> {
    let uint = |s| match s {
        Scalar::U32(v) => Ok(v),
        other => Err(Stop::internal(format!("expected a u32, found {other:?}"))),
    };
    v.components()?.into_iter().map(uint).collect()
}

/// Fields `bits` wide joined into one word, the first in the lowest bits;
/// each field's bits above `bits` are dropped.
fn join(bits: u32, fields: impl IntoIterator<Item = u32>) -> u32 {
    let mask = u32::MAX >> (32 - bits);
    fields.into_iter().zip(0..).fold(0, |word, (f, j)| word | ((f & mask) << (bits * j)))
}

/// Field `j` of `word` for fields `bits` wide, zero-extended.
fn field(word: u32, bits: u32, j: u32) -> u32 {
    (word >> (bits * j)) & (u32::MAX >> (32 - bits))
}

/// A field `bits` wide read as a two's complement integer.
fn signed(field: u32, bits: u32) -> i32 {
    ((field << (32 - bits)) as i32) >> (32 - bits)
}

/// `count` fields of `word`, each `bits` wide, as a vector of `f32`s.
fn floats_of(word: u32, bits: u32, count: u32, f: impl Fn(u32) -> f32) -> Value {
    Value::Vector((0..count).map(|j| Scalar::F32(f(field(word, bits, j)))).collect())
}

/// WGSL's snorm packing of one component: `⌊0.5 + scale × min(1, max(−1,
/// x))⌋` as a two's complement integer, `scale` 127 or 32767.
///
/// Evaluated exactly in `f64`: `scale × x` of an `f32` `x` has at most
/// 24 + 15 significant bits, and adding 0.5 is exact too unless
/// `|scale × x| < 2⁻¹⁴`, where the floor is 0 either way. So a tie goes
/// up, as the formula says: −0.5 packs to −63 (0xC1) in 8 bits, where a
/// lowering to `round(clamp(x, −1, 1) × 127)` with ties to even or away
/// from zero gives −64. `max` and `min` are taken to ignore a NaN operand
/// (IEEE-754's `maxNum` and `minNum`), so a NaN packs as −scale; WGSL
/// leaves a NaN's result indeterminate.
fn snorm(x: f32, scale: u32) -> u32 {
    // max(−1, NaN) = −1 (IEEE-754's maxNum), then min(1, −1) = −1.
    let clamped = if x.is_nan() { -1.0 } else { x.clamp(-1.0, 1.0) };
    (0.5 + f64::from(scale) * f64::from(clamped)).floor() as i32 as u32
}

/// WGSL's unorm packing of one component: `⌊0.5 + scale × min(1, max(0,
/// x))⌋`, `scale` 255 or 65535, evaluated exactly as [`snorm`] is: 0.5
/// packs to 128 in 8 bits; a NaN packs as 0.
fn unorm(x: f32, scale: u32) -> u32 {
    let clamped = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    (0.5 + f64::from(scale) * f64::from(clamped)).floor() as u32
}

/// The IEEE-754 binary16 bits of `x`, for `pack2x16float`.
///
/// WGSL's "Floating Point Conversion"
/// (<https://www.w3.org/TR/WGSL/#floating-point-conversion>) lets a value
/// between two adjacent binary16 values become either one; this rounds to
/// the nearest, ties to even: IEEE-754's default rounding, and the one
/// GPUs' conversion instructions use unless told otherwise. For a
/// component outside binary16's finite range (beyond ±65504, an infinity,
/// a NaN) `pack2x16float` says the whole result is an indeterminate `u32`;
/// this gives the IEEE conversion (what a Vulkan driver's `PackHalf2x16`
/// is expected to give; not checked on hardware here), so a finite
/// value of magnitude 65520 or more and an infinity become ±infinity
/// (0x7C00, 0xFC00), one between 65504 and 65520 rounds to ±65504, and a
/// NaN stays a NaN (quiet, its sign and top payload bits kept; a GPU may
/// give another NaN pattern). Values below binary16's normal range become
/// its subnormals, rounded to nearest even, or ±0; WGSL lets an
/// implementation flush subnormals to zero instead, which this does not.
/// The `half` crate does the conversion.
fn to_f16_bits(x: f32) -> u32 {
    u32::from(half::f16::from_f32(x).to_bits())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word_of(fun: M, e: Value) -> u32 {
        match math(fun, &[e]).unwrap() {
            Value::Scalar(Scalar::U32(w)) => w,
            other => panic!("{fun:?} gave {other:?}"),
        }
    }

    fn floats_from(fun: M, w: u32) -> Vec<f32> {
        let v = math(fun, &[Value::Scalar(Scalar::U32(w))]).unwrap();
        v.components().unwrap().into_iter().map(|s| f32_of(s).unwrap()).collect()
    }

    fn vf(x: &[f32]) -> Value {
        Value::Vector(x.iter().map(|x| Scalar::F32(*x)).collect())
    }

    fn vi(x: [i32; 4]) -> Value {
        Value::Vector(x.map(Scalar::I32).to_vec())
    }

    fn vu(x: [u32; 4]) -> Value {
        Value::Vector(x.map(Scalar::U32).to_vec())
    }

    fn dot(fun: M, a: u32, b: u32) -> Scalar {
        let args = [Value::Scalar(Scalar::U32(a)), Value::Scalar(Scalar::U32(b))];
        math(fun, &args).unwrap().scalar().unwrap()
    }

    #[test]
    fn unorm_packing_is_floor_of_a_half_plus_the_scaled_clamped_value() {
        // 0 → 0; 0.5 → ⌊0.5 + 127.5⌋ = 128; 1 → 255; 2 clamps to 1 → 255.
        assert_eq!(word_of(M::Pack4x8unorm, vf(&[0.0, 0.5, 1.0, 2.0])), 0xFFFF_8000);
        // −1 clamps to 0; 0.25 → ⌊64.25⌋ = 64; NaN → 0; 0.998 → ⌊254.99…⌋ = 254.
        assert_eq!(word_of(M::Pack4x8unorm, vf(&[-1.0, 0.25, f32::NAN, 0.998])), 0xFE00_4000);
        // 0.5 → ⌊0.5 + 32767.5⌋ = 32768; 3 clamps to 1 → 65535.
        assert_eq!(word_of(M::Pack2x16unorm, vf(&[0.5, 3.0])), 0xFFFF_8000);
    }

    #[test]
    fn snorm_packing_rounds_a_tie_up_as_the_formula_says() {
        // 1 → ⌊127.5⌋ = 127; −1 → ⌊−126.5⌋ = −127 (0x81); 0.5 → ⌊64⌋ = 64;
        // −0.5 → ⌊0.5 − 63.5⌋ = −63 (0xC1), not −64.
        assert_eq!(word_of(M::Pack4x8snorm, vf(&[1.0, -1.0, 0.5, -0.5])), 0xC140_817F);
        // ±2 clamp to ±1; −0 packs as 0; NaN: max(−1, NaN) = −1 → −127.
        assert_eq!(word_of(M::Pack4x8snorm, vf(&[2.0, -2.0, -0.0, f32::NAN])), 0x8100_817F);
        // 1 → 32767 (0x7FFF), −1 → −32767 (0x8001).
        assert_eq!(word_of(M::Pack2x16snorm, vf(&[1.0, -1.0])), 0x8001_7FFF);
        // 0.5 → ⌊16384⌋ = 16384 (0x4000); −0.5 → ⌊−16383⌋ = −16383 (0xC001).
        assert_eq!(word_of(M::Pack2x16snorm, vf(&[0.5, -0.5])), 0xC001_4000);
    }

    #[test]
    fn normalized_unpacking_divides_and_clamps_the_most_negative_field() {
        // Bytes from the lowest: 0, 127, −127, −128; −128 ÷ 127 clamps to −1.
        assert_eq!(floats_from(M::Unpack4x8snorm, 0x8081_7F00), [0.0, 1.0, -1.0, -1.0]);
        assert_eq!(
            floats_from(M::Unpack4x8snorm, 0x0000_C140),
            [64.0 / 127.0, -63.0 / 127.0, 0.0, 0.0]
        );
        assert_eq!(
            floats_from(M::Unpack4x8unorm, 0xFF80_0100),
            [0.0, 1.0 / 255.0, 128.0 / 255.0, 1.0]
        );
        assert_eq!(floats_from(M::Unpack2x16snorm, 0x8000_7FFF), [1.0, -1.0]);
        assert_eq!(floats_from(M::Unpack2x16snorm, 0x8001_0000), [0.0, -1.0]);
        assert_eq!(floats_from(M::Unpack2x16unorm, 0xFFFF_0000), [0.0, 1.0]);
        assert_eq!(
            floats_from(M::Unpack2x16unorm, 0x8000_0001),
            [1.0 / 65535.0, 32768.0 / 65535.0]
        );
    }

    #[test]
    fn every_normalized_field_survives_unpacking_and_packing_again() {
        for b in 0..=255u32 {
            let w = b * 0x0101_0101;
            let back = |unpack, pack| word_of(pack, vf(&floats_from(unpack, w)));
            assert_eq!(back(M::Unpack4x8unorm, M::Pack4x8unorm), w, "{w:#x}");
            // −128 unpacks to −1, which packs as −127.
            let snorm = if b == 0x80 { 0x8181_8181 } else { w };
            assert_eq!(back(M::Unpack4x8snorm, M::Pack4x8snorm), snorm, "{w:#x}");
        }
        for h in 0..=0xFFFFu32 {
            let w = h | (0xFFFF - h) << 16;
            let back = |unpack, pack| word_of(pack, vf(&floats_from(unpack, w)));
            assert_eq!(back(M::Unpack2x16unorm, M::Pack2x16unorm), w, "{w:#x}");
            let snorm = |h: u32| if h == 0x8000 { 0x8001 } else { h };
            let expected = snorm(h) | snorm(0xFFFF - h) << 16;
            assert_eq!(back(M::Unpack2x16snorm, M::Pack2x16snorm), expected, "{w:#x}");
        }
    }

    #[test]
    fn pack2x16float_rounds_to_nearest_even_with_component_0_low() {
        assert_eq!(word_of(M::Pack2x16float, vf(&[1.0, -2.0])), 0xC000_3C00);
        // 1 + 2⁻¹¹ is halfway between 1 (0x3C00) and 1 + 2⁻¹⁰ (0x3C01): even
        // 0x3C00. 1 + 3 × 2⁻¹¹ is halfway between 0x3C01 and 0x3C02: 0x3C02.
        let ties = [1.0 + 2f32.powi(-11), 1.0 + 3.0 * 2f32.powi(-11)];
        assert_eq!(word_of(M::Pack2x16float, vf(&ties)), 0x3C02_3C00);
        // 1/3 lies nearer 0x3555 (0.33325…) than 0x3556 (0.33349…).
        assert_eq!(word_of(M::Pack2x16float, vf(&[1.0 / 3.0, 0.0])), 0x0000_3555);
    }

    #[test]
    fn pack2x16float_overflows_to_infinity_and_keeps_nan() {
        // 65504 is binary16's largest finite value; below 65520 rounds to it.
        assert_eq!(word_of(M::Pack2x16float, vf(&[65504.0, 65519.0])), 0x7BFF_7BFF);
        assert_eq!(word_of(M::Pack2x16float, vf(&[65520.0, -1.0e6])), 0xFC00_7C00);
        assert_eq!(word_of(M::Pack2x16float, vf(&[f32::INFINITY, f32::NEG_INFINITY])), 0xFC00_7C00);
        let w = word_of(M::Pack2x16float, vf(&[f32::NAN, 0.0]));
        assert!(w & 0x7C00 == 0x7C00 && w & 0x03FF != 0, "a NaN: {w:#x}");
        assert_eq!(w >> 16, 0);
    }

    #[test]
    fn pack2x16float_keeps_binary16_subnormals_and_flushes_smaller() {
        let tiny = 2f32.powi(-24); // binary16's smallest subnormal
        assert_eq!(word_of(M::Pack2x16float, vf(&[tiny, -tiny])), 0x8001_0001);
        // Half of it is a tie between 0 and 0x0001: even 0. 1.5 × it is a
        // tie between 0x0001 and 0x0002: even 0x0002.
        assert_eq!(word_of(M::Pack2x16float, vf(&[tiny / 2.0, 1.5 * tiny])), 0x0002_0000);
        // The largest subnormal and the smallest normal.
        assert_eq!(word_of(M::Pack2x16float, vf(&[1023.0 * tiny, 2f32.powi(-14)])), 0x0400_03FF);
        // An f32 subnormal is far below binary16's range: a signed zero.
        assert_eq!(word_of(M::Pack2x16float, vf(&[1.0e-40, -1.0e-40])), 0x8000_0000);
        assert_eq!(word_of(M::Pack2x16float, vf(&[-0.0, 0.0])), 0x0000_8000);
    }

    #[test]
    fn unpack2x16float_is_exact() {
        // 0x3555: exponent 13, fraction 0x155: 2⁻² × (1 + 341/1024) = 1365/4096.
        assert_eq!(floats_from(M::Unpack2x16float, 0x7C00_3555), [1365.0 / 4096.0, f32::INFINITY]);
        assert_eq!(
            floats_from(M::Unpack2x16float, 0x8001_FC00),
            [f32::NEG_INFINITY, -(2f32.powi(-24))]
        );
        assert_eq!(floats_from(M::Unpack2x16float, 0x7BFF_0400), [2f32.powi(-14), 65504.0]);
        assert!(floats_from(M::Unpack2x16float, 0x0000_7E00)[0].is_nan());
        // Every binary16 value but a NaN survives unpacking and packing again.
        for h in 0..=0xFFFFu32 {
            let w = h | (0xFFFF - h) << 16;
            let back = word_of(M::Pack2x16float, vf(&floats_from(M::Unpack2x16float, w)));
            let nan = |h: u32| h & 0x7C00 == 0x7C00 && h & 0x03FF != 0;
            for (got, was) in [(back & 0xFFFF, h), (back >> 16, 0xFFFF - h)] {
                assert!(
                    if nan(was) { nan(got) } else { got == was },
                    "{was:#x} came back {got:#x}"
                );
            }
        }
    }

    #[test]
    fn pack4x8_integers_take_the_low_byte_and_the_clamp_forms_clamp_first() {
        let i = vi([200, -200, 127, -128]);
        // 200 = 0xC8, −200 ≡ 56 = 0x38 (mod 256).
        assert_eq!(word_of(M::Pack4xI8, i.clone()), 0x807F_38C8);
        assert_eq!(word_of(M::Pack4xI8Clamp, i), 0x807F_807F);
        let extremes = vi([i32::MAX, i32::MIN, 0, -1]);
        assert_eq!(word_of(M::Pack4xI8, extremes.clone()), 0xFF00_00FF);
        assert_eq!(word_of(M::Pack4xI8Clamp, extremes), 0xFF00_807F);
        let u = vu([256, 255, 1000, 0]);
        // 1000 ≡ 232 = 0xE8 (mod 256).
        assert_eq!(word_of(M::Pack4xU8, u.clone()), 0x00E8_FF00);
        assert_eq!(word_of(M::Pack4xU8Clamp, u), 0x00FF_FFFF);
        for w in [0x01FF_7F80, 0x8000_0001, 0xDEAD_BEEF] {
            let back = |unpack, pack| {
                word_of(pack, math(unpack, &[Value::Scalar(Scalar::U32(w))]).unwrap())
            };
            assert_eq!(back(M::Unpack4xI8, M::Pack4xI8), w);
            assert_eq!(back(M::Unpack4xU8, M::Pack4xU8), w);
        }
    }

    #[test]
    fn unpack4x8_takes_the_lowest_byte_first() {
        // Bytes from the lowest: 0x80 (-128 or 128), 0x7F (127), 0xFF (-1 or 255), 0x01.
        let word = [Value::Scalar(Scalar::U32(0x01FF_7F80))];
        let signed = [-128, 127, -1, 1].map(Scalar::I32).to_vec();
        assert_eq!(math(M::Unpack4xI8, &word).unwrap(), Value::Vector(signed));
        assert_eq!(
            math(M::Unpack4xU8, &word).unwrap(),
            Value::Vector([128, 127, 255, 1].map(Scalar::U32).to_vec())
        );
        assert_eq!(
            math(M::Unpack4xI8, &[Value::Scalar(Scalar::U32(0))]).unwrap(),
            Value::Vector(vec![Scalar::I32(0); 4])
        );
    }

    #[test]
    fn packed_dot_products_extend_each_byte_before_multiplying() {
        // Bytes from the lowest: a = (−128, 127, 2, −1) signed,
        // (128, 127, 2, 255) unsigned; b = (4, 3, 2, 1).
        // Signed: −512 + 381 + 4 − 1 = −128. Unsigned: 512 + 381 + 4 + 255 = 1152.
        assert_eq!(dot(M::Dot4I8Packed, 0xFF02_7F80, 0x0102_0304), Scalar::I32(-128));
        assert_eq!(dot(M::Dot4U8Packed, 0xFF02_7F80, 0x0102_0304), Scalar::U32(1152));
        // 0xFF is −1 signed: (−1)(−1) = 1, not 255 × 255.
        assert_eq!(dot(M::Dot4I8Packed, 0xFF, 0xFF), Scalar::I32(1));
        assert_eq!(dot(M::Dot4U8Packed, 0xFF, 0xFF), Scalar::U32(65025));
        // The extremes: 4 × (−128)² = 65536, 4 × (−128 × 127) = −65024,
        // 4 × 255² = 260100.
        assert_eq!(dot(M::Dot4I8Packed, 0x8080_8080, 0x8080_8080), Scalar::I32(65536));
        assert_eq!(dot(M::Dot4I8Packed, 0x8080_8080, 0x7F7F_7F7F), Scalar::I32(-65024));
        assert_eq!(dot(M::Dot4U8Packed, u32::MAX, u32::MAX), Scalar::U32(260_100));
    }
}
