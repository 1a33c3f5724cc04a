//! How the site shows a buffer's values: `view` and `format` on a
//! `[[buffer]]`.

use serde::{Deserialize, Serialize};

/// How a grid writes each word of a `u32` buffer (`format = "…"` on a
/// `[[buffer]]`): the number itself, or the values a packed format holds
/// in it. Only what is shown changes; values are compared as words.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WordFormat {
    /// Absent: the element as a number (a `u32` in decimal).
    #[default]
    Number,
    /// `"hex"`: `0x` and eight hexadecimal digits (the bits of an `f32`, a
    /// mask).
    Hex,
    /// `"f16x2"`: two IEEE 754 binary16 values, bits 0–15 first, as
    /// `unpack2x16float` reads them.
    F16x2,
    /// `"bf16x2"`: two bfloat16 values (the top 16 bits of an `f32`), bits
    /// 0–15 first.
    Bf16x2,
    /// `"e4m3x4"`: four FP8 E4M3 values (OCP OFP8: bias 7, no infinities,
    /// `S.1111.111` NaN), byte 0 first.
    E4m3x4,
    /// `"i8x4"`: four signed bytes in two's complement, byte 0 first, as
    /// `unpack4xI8` reads them.
    I8x4,
}

/// How the site shows a buffer's values (`view = "…"` on a `[[buffer]]`).
/// A 1-D buffer is always a grid of numbers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BufferView {
    /// Absent: a grid, except that an `f32` or `i32` matrix of more than
    /// 32 × 32 elements, at least 16 along each side, is drawn as an image
    /// (`gpu_puzzles_verdict::image::shows_image`). `u32` buffers, often
    /// packed or indices, stay grids unless marked.
    #[default]
    Auto,
    /// `"grid"`: numbers at every size.
    Grid,
    /// `"image"`: a picture at every size (the numbers beside it while they
    /// fit a readable grid): grey scale, or a diverging scale for signed
    /// values.
    Image,
    /// `"rgba8"`: a `u32` buffer whose elements are pixels packed as WGSL's
    /// `pack4x8unorm(vec4f(r, g, b, a))` packs them (red in bits 0–7).
    Rgba8,
}
