//! The scalar types of buffers and uniform fields.

use serde::{Deserialize, Serialize};

/// The 4-byte scalar types a puzzle uses: the element type of a storage
/// buffer (an `array<atomic<u32>>` in the shader is a `u32` buffer, an
/// `array<atomic<i32>>` an `i32` one) and the type of a uniform field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElementType {
    /// 32-bit IEEE 754 float (WGSL `f32`).
    F32,
    /// 32-bit two's complement integer (WGSL `i32`).
    I32,
    /// 32-bit unsigned integer (WGSL `u32`).
    U32,
}

impl ElementType {
    /// The WGSL spelling, e.g. `"f32"`.
    pub fn wgsl(self) -> &'static str {
        match self {
            ElementType::F32 => "f32",
            ElementType::I32 => "i32",
            ElementType::U32 => "u32",
        }
    }
}
