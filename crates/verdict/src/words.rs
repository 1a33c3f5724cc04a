//! Words of packed data written as what they hold: a `u32` buffer with
//! `format = "…"` ([`WordFormat`]) shows each word in a grid as its two
//! halves, its four bytes or its bits, so that a student reads
//! `1.5 | -2` where the word is `3221241344`. Only what is shown changes:
//! values are still compared word for word.

use gpu_puzzles_core::format::WordFormat;
use gpu_puzzles_values::format_f32;

/// Word `w` as `format` writes it: the lanes from the lowest bits up,
/// joined by `" | "`. [`WordFormat::Number`] gives the decimal number.
pub fn word_text(format: WordFormat, w: u32) -> String {
    let join = |lanes: Vec<String>| lanes.join(" | ");
    match format {
        WordFormat::Number => w.to_string(),
        WordFormat::Hex => format!("0x{w:08X}"),
        WordFormat::F16x2 => {
            join(halves(w).map(|h| format_f32(half::f16::from_bits(h).to_f32())).to_vec())
        }
        WordFormat::Bf16x2 => {
            join(halves(w).map(|h| format_f32(f32::from_bits(u32::from(h) << 16))).to_vec())
        }
        WordFormat::E4m3x4 => join(w.to_le_bytes().map(|b| format_f32(e4m3(b))).to_vec()),
        WordFormat::I8x4 => join(w.to_le_bytes().map(|b| (b as i8).to_string()).to_vec()),
    }
}

/// What a grid of words in `format` shows, for its caption (`None` for
/// plain numbers).
pub fn describe(format: WordFormat) -> Option<&'static str> {
    match format {
        WordFormat::Number => None,
        WordFormat::Hex => Some("words in hexadecimal"),
        WordFormat::F16x2 => Some("each word as its two binary16 halves, bits 0–15 first"),
        WordFormat::Bf16x2 => Some("each word as its two bfloat16 halves, bits 0–15 first"),
        WordFormat::E4m3x4 => Some("each word as its four FP8 E4M3 bytes, byte 0 first"),
        WordFormat::I8x4 => Some("each word as its four signed bytes, byte 0 first"),
    }
}

/// The two 16-bit halves of `w`, bits 0–15 first.
fn halves(w: u32) -> [u16; 2] {
    [w as u16, (w >> 16) as u16]
}

/// The value of FP8 E4M3 code `b` (OCP OFP8, 2023): sign, 4 exponent bits
/// with bias 7, 3 mantissa bits; exponent 0 is subnormal (`m/8 · 2^-6`),
/// `S.1111.111` is NaN and there is no infinity. Every code is exact in
/// `f32`.
fn e4m3(b: u8) -> f32 {
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let (e, m) = (i32::from((b >> 3) & 0xF), f32::from(b & 7));
    if e == 0xF && m == 7.0 {
        f32::NAN
    } else if e == 0 {
        sign * m / 8.0 * 2f32.powi(-6)
    } else {
        sign * (1.0 + m / 8.0) * 2f32.powi(e - 7)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_are_read_low_first() {
        // 0x3C00 is 1.0 and 0xC000 is -2.0 in binary16.
        assert_eq!(word_text(WordFormat::F16x2, 0xC000_3C00), "1 | -2");
        // The largest finite half and the smallest subnormal, 2^-24.
        assert_eq!(word_text(WordFormat::F16x2, 0x0001_7BFF), "65504 | 5.9604645e-8");
        // bfloat16 0x3FC0 is 1.5; 0x7FC0 a NaN.
        assert_eq!(word_text(WordFormat::Bf16x2, 0x7FC0_3FC0), "1.5 | NaN");
    }

    #[test]
    fn bytes_are_read_low_first_with_their_sign() {
        // The word of Quantised GEMV's worked example: 1, -1, 2, -3.
        assert_eq!(word_text(WordFormat::I8x4, 0xFD02_FF01), "1 | -1 | 2 | -3");
        // E4M3: 0x38 is 1, 0x7E is 448 (the largest), 0x01 is 2^-9, 0xFF NaN.
        assert_eq!(word_text(WordFormat::E4m3x4, 0xFF01_7E38), "1 | 448 | 0.001953125 | NaN");
        assert_eq!(word_text(WordFormat::E4m3x4, 0x0000_80B8), "-1 | -0 | 0 | 0");
    }

    #[test]
    fn plain_and_hex_words() {
        assert_eq!(word_text(WordFormat::Number, 3_221_241_344), "3221241344");
        assert_eq!(word_text(WordFormat::Hex, 0x7F80_0001), "0x7F800001");
        assert_eq!(describe(WordFormat::Number), None);
    }
}
