//! Basics: one invocation per element, guards, two dimensions, broadcasting
//! (Map, Zip, Guards, Map 2D, Broadcast, Blocks, Blocks 2D, Shared,
//! Pooling).

use crate::error::ReferenceError;
use crate::input::{flat, shaped, Outputs, ReferenceInput};
use gpu_puzzles_values::Values;
/// `out[i] = a[i] + 10` (Map, Guards, Map 2D, Blocks, Blocks 2D, Shared);
/// keeps `a`'s shape.
pub fn add_ten(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let out = a.iter().map(|x| x + 10.0).collect();
    Ok(vec![(Values::F32(out), input.buffers["a"].1)])
}

/// `out[i] = a[i] + b[i]` (Zip).
pub fn zip_add(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (a, b) = (input.f32("a")?, input.f32("b")?);
    if a.len() != b.len() {
        return Err(ReferenceError::LengthsDiffer { a: a.len(), b: b.len() });
    }
    Ok(flat(a.iter().zip(b).map(|(x, y)| x + y).collect()))
}

/// `out[i][j] = a[i] + b[j]`: `a` is a column of `len(a)` rows, `b` a row of
/// `len(b)` columns, `out` is `len(a) × len(b)`, row-major (Broadcast).
pub fn broadcast_add(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (a, b) = (input.f32("a")?, input.f32("b")?);
    let out = a.iter().flat_map(|x| b.iter().map(move |y| x + y)).collect();
    Ok(shaped(out, a.len(), b.len()))
}

/// `out[i] = a[i - 2] + a[i - 1] + a[i]`, leaving out indices below 0
/// (Pooling).
pub fn window_sum_3(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let out = (0..a.len()).map(|i| a[i.saturating_sub(2)..=i].iter().sum()).collect();
    Ok(flat(out))
}
