//! Matrix products (Matrix Multiply, Tiled, Vectorized and Register-Tiled
//! Matrix Multiply), whole and at chosen elements for sampled performance
//! cases; the matrix–vector product and the transpose.

use crate::error::ReferenceError;
use crate::input::{check_dims, flat, shaped, Outputs, ReferenceInput};
use gpu_puzzles_values::Values;
/// `out = a · b`: `a` is `m × k`, `b` is `k × n`, `out` is `m × n`, all
/// row-major; `out[i][j] = Σ_l a[i][l] · b[l][j]` (Matrix Multiply).
pub fn matmul(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (a, b, [m, k, n]) = matmul_operands(input)?;
    // Row by row, accumulating over `l` in the inner-product order (so every
    // element is summed left to right) while walking `b` along its rows,
    // which keeps a 1024³ product to a fraction of a second.
    let mut out = vec![0.0f32; m * n];
    for i in 0..m {
        let row = &mut out[i * n..(i + 1) * n];
        for l in 0..k {
            let x = a[i * k + l];
            for (o, y) in row.iter_mut().zip(&b[l * n..(l + 1) * n]) {
                *o += x * y;
            }
        }
    }
    Ok(shaped(out, m, n))
}

/// `a` (`m × k`), `b` (`k × n`) and `[m, k, n]`.
type MatmulOperands<'a> = (&'a [f32], &'a [f32], [usize; 3]);

/// `a`, `b` and `[m, k, n]` of a matrix product, checked against each other
/// and against a `dims` uniform when the puzzle has one.
fn matmul_operands<'a>(input: &ReferenceInput<'a>) -> Result<MatmulOperands<'a>, ReferenceError> {
    let (a, b) = (input.f32("a")?, input.f32("b")?);
    let ([m, k], [k2, n]) = (input.shape("a")?, input.shape("b")?);
    if k != k2 {
        return Err(ReferenceError::InnerSizesDiffer { a: [m, k], b: [k2, n] });
    }
    // Puzzles that pass the sizes in a uniform must pass the shapes' sizes.
    check_dims(input, &[("m", m), ("n", n), ("k", k)])?;
    Ok((a, b, [m, k, n]))
}

/// [`matmul`] at chosen elements of `out` (row-major, `i * n + j`), each
/// summed in the same order, so the values are bit-for-bit the same: `k`
/// multiply-adds per element instead of `m·n·k` for the whole product.
pub fn matmul_at(
    input: &ReferenceInput,
    elements: &[usize],
) -> Result<Vec<Values>, ReferenceError> {
    let (a, b, [m, k, n]) = matmul_operands(input)?;
    let mut out = Vec::with_capacity(elements.len());
    for &e in elements {
        if e >= m * n {
            return Err(ReferenceError::ElementPastEnd { element: e, shape: [m, n] });
        }
        let (i, j) = (e / n, e % n);
        out.push((0..k).fold(0.0f32, |s, l| s + a[i * k + l] * b[l * n + j]));
    }
    Ok(vec![Values::F32(out)])
}

/// `y = a · x`: `a` is `m × k` (row-major), `x` has `k` elements, `y` has `m`,
/// `y[i] = Σ_l a[i][l] · x[l]` summed left to right in `f32` (Matrix–Vector
/// Product). With the integer-valued inputs of its cases every partial sum is
/// an integer below 2^24, so every summation order gives the same `f32`.
///
/// # Errors
/// A missing buffer or shape; [`ReferenceError::WrongLength`] when `x` does
/// not have `k` elements; [`ReferenceError::UniformDisagrees`] when `dims.m`
/// or `dims.k` differs from `a`'s shape.
pub fn matvec(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (a, x) = (input.f32("a")?, input.f32("x")?);
    let [m, k] = input.shape("a")?;
    if x.len() != k {
        return Err(ReferenceError::WrongLength { name: "x".to_string(), len: x.len(), want: k });
    }
    check_dims(input, &[("m", m), ("k", k)])?;
    Ok(flat(
        a.chunks(k.max(1))
            .take(m)
            .map(|row| row.iter().zip(x).fold(0.0f32, |s, (p, q)| s + p * q))
            .collect(),
    ))
}

/// `out[j][i] = a[i][j]`: `a` is `rows × cols` (row-major), `out` is
/// `cols × rows` (Transpose).
///
/// # Errors
/// A missing buffer or shape; [`ReferenceError::UniformDisagrees`] when
/// `dims.rows` or `dims.cols` differs from `a`'s shape.
pub fn transpose(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let [rows, cols] = input.shape("a")?;
    check_dims(input, &[("rows", rows), ("cols", cols)])?;
    let out = (0..cols).flat_map(|j| (0..rows).map(move |i| a[i * cols + j])).collect();
    Ok(shaped(out, cols, rows))
}
