//! Typed buffer contents ([`Values`]) and how one `f32` is written for
//! display ([`format_f32`]).

use crate::ElementType;

/// Typed buffer contents, flat and row-major.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Values {
    /// `array<f32>`.
    F32(Vec<f32>),
    /// `array<i32>`.
    I32(Vec<i32>),
    /// `array<u32>` (also `array<atomic<u32>>`).
    U32(Vec<u32>),
}

impl Values {
    /// `len` zeros of the given type.
    pub fn zeros(element: ElementType, len: usize) -> Values {
        match element {
            ElementType::F32 => Values::F32(vec![0.0; len]),
            ElementType::I32 => Values::I32(vec![0; len]),
            ElementType::U32 => Values::U32(vec![0; len]),
        }
    }

    /// Element type.
    pub fn element(&self) -> ElementType {
        match self {
            Values::F32(_) => ElementType::F32,
            Values::I32(_) => ElementType::I32,
            Values::U32(_) => ElementType::U32,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Values::F32(v) => v.len(),
            Values::I32(v) => v.len(),
            Values::U32(v) => v.len(),
        }
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i` widened to `f64` (exact for every 32-bit type).
    pub fn get(&self, i: usize) -> f64 {
        match self {
            Values::F32(v) => v[i] as f64,
            Values::I32(v) => v[i] as f64,
            Values::U32(v) => v[i] as f64,
        }
    }

    /// Element `i` as text: integers without a fraction, floats in the
    /// shortest form that reads back to the same `f32` (`"1"`, `"0.5"`,
    /// `"NaN"`, `"inf"`).
    pub fn format(&self, i: usize) -> String {
        match self {
            Values::F32(v) => format_f32(v[i]),
            Values::I32(v) => v[i].to_string(),
            Values::U32(v) => v[i].to_string(),
        }
    }

    /// The little-endian bytes a storage buffer holds: `4 * len` bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Values::F32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Values::I32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Values::U32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        }
    }

    /// Reads `bytes.len() / 4` little-endian elements; a trailing partial
    /// element is ignored.
    pub fn from_bytes(element: ElementType, bytes: &[u8]) -> Values {
        let words = bytes.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]);
        match element {
            ElementType::F32 => Values::F32(words.map(f32::from_le_bytes).collect()),
            ElementType::I32 => Values::I32(words.map(i32::from_le_bytes).collect()),
            ElementType::U32 => Values::U32(words.map(u32::from_le_bytes).collect()),
        }
    }

    /// The values as `f32`, if this is an `f32` buffer.
    pub fn as_f32(&self) -> Option<&[f32]> {
        match self {
            Values::F32(v) => Some(v),
            _ => None,
        }
    }
}

/// Formats an `f32` for display: whole numbers without a fraction, and
/// magnitudes from 1e16 up (or below 1e-6) in scientific notation
/// (`3.4028235e38`), which a grid cell can hold.
pub fn format_f32(x: f32) -> String {
    if x.is_nan() {
        "NaN".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else if x != 0.0 && !(1e-6..1e16).contains(&x.abs()) {
        // The shortest round-tripping mantissa, with an exponent.
        format!("{x:e}")
    } else {
        // Rust's `Display` for floats is the shortest round-tripping form.
        format!("{x}")
    }
}
