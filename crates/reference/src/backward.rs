//! Training: backward passes, which turn the gradient of the loss with
//! respect to a layer's output into the gradient with respect to its input
//! (Softmax Backward).
//!
//! Like the kernels of modern models, these compute in `f64` and round to
//! `f32` once, so the expected value is the `f32` nearest the exact one; a
//! kernel reduces a row in any order in `f32`, and the puzzle compares with
//! a tolerance derived in its `puzzle.toml`.

use crate::error::ReferenceError;
use crate::input::{check_dims, shaped, Outputs, ReferenceInput};

/// The backward pass of a row-wise softmax. `y` is the softmax's output and
/// `dy` the gradient of the loss with respect to it, both `rows × cols`,
/// row-major (`y` gives the shape; `dy` must have as many elements). The
/// output `dx` has the same shape:
///
/// ```text
/// s[r]     = Σ_k dy[r][k] · y[r][k]            (the row's dot product)
/// dx[r][j] = y[r][j] · (dy[r][j] − s[r])
/// ```
///
/// which is `dy` multiplied by the softmax's Jacobian `diag(y) − y yᵀ`,
/// without forming it. Nothing requires a row of `y` to sum to 1: the
/// formula is applied as written. A `dims` uniform, when the puzzle has one,
/// must give the shape's `rows` and `cols`. Computed in `f64`, rounded to
/// `f32` once.
///
/// # Errors
/// A missing buffer or shape, [`ReferenceError::UniformDisagrees`] when
/// `dims` disagrees with the shape, and [`ReferenceError::WrongLength`] when
/// `y` or `dy` does not have `rows × cols` elements.
pub fn softmax_backward_rows(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (y, dy) = (input.f32("y")?, input.f32("dy")?);
    let [rows, cols] = input.shape("y")?;
    check_dims(input, &[("rows", rows), ("cols", cols)])?;
    for (name, len) in [("y", y.len()), ("dy", dy.len())] {
        if len != rows * cols {
            return Err(ReferenceError::WrongLength {
                name: name.to_string(),
                len,
                want: rows * cols,
            });
        }
    }
    let mut dx = Vec::with_capacity(rows * cols);
    let width = cols.max(1);
    for (yr, gr) in y.chunks(width).zip(dy.chunks(width)) {
        let s: f64 = yr.iter().zip(gr).map(|(&y, &g)| f64::from(g) * f64::from(y)).sum();
        dx.extend(yr.iter().zip(gr).map(|(&y, &g)| (f64::from(y) * (f64::from(g) - s)) as f32));
    }
    Ok(shaped(dx, rows, cols))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::{CaseConfig, Values};
    use std::collections::BTreeMap;

    /// `softmax_backward_rows` on `y` of `shape` and `dy`, with `dims` from
    /// the shape unless `dims` is given.
    fn backward(
        y: &[f32],
        dy: &[f32],
        shape: [u32; 2],
        dims: Option<[f64; 2]>,
    ) -> Result<Outputs, ReferenceError> {
        let config = CaseConfig {
            workgroup_size: [4, 1, 1],
            workgroups: [shape[0], 1, 1],
            workgroup_memory: None,
        };
        let (y, dy) = (Values::F32(y.to_vec()), Values::F32(dy.to_vec()));
        let [rows, cols] = dims.unwrap_or([f64::from(shape[0]), f64::from(shape[1])]);
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("y", (&y, Some(shape))), ("dy", (&dy, Some(shape)))]),
            uniforms: BTreeMap::from([("dims", BTreeMap::from([("rows", rows), ("cols", cols)]))]),
            output_lens: BTreeMap::new(),
        };
        softmax_backward_rows(&input)
    }

    fn values(out: &Outputs) -> Vec<f32> {
        out[0].0.as_f32().unwrap().to_vec()
    }

    #[test]
    fn the_statements_example_by_hand() {
        // y = (0.5, 0.3, 0.2), dy = (1, -2, 4): s = 0.5 - 0.6 + 0.8 = 0.7 and
        // dx = (0.5 · 0.3, 0.3 · -2.7, 0.2 · 3.3) = (0.15, -0.81, 0.66).
        // Row 1: s = -0.5 + 1.2 + 0 = 0.7, dx = (-0.57, 0.78, -0.21).
        let out = backward(
            &[0.5, 0.3, 0.2, 0.1, 0.6, 0.3],
            &[1.0, -2.0, 4.0, -5.0, 2.0, 0.0],
            [2, 3],
            None,
        )
        .unwrap();
        assert_eq!(out[0].1, Some([2, 3]));
        let want = [0.15, -0.81, 0.66, -0.57, 0.78, -0.21];
        for (j, (x, w)) in values(&out).iter().zip(want).enumerate() {
            assert!((f64::from(*x) - w).abs() < 1e-6, "element {j}: {x} for {w}");
        }
        // A softmax row's gradient sums to 0: Σ dx = s - s · Σ y.
        let sum: f32 = values(&out)[..3].iter().sum();
        assert!(sum.abs() < 1e-6, "{sum}");
    }

    #[test]
    fn special_rows_give_what_the_formula_says() {
        // One column: dx = y · (dy - dy · y) = y · dy · (1 - y).
        let out = backward(&[0.25, 0.75, 1.0], &[4.0, -10.0, 7.0], [3, 1], None).unwrap();
        assert_eq!(values(&out), [0.75, -1.875, 0.0]);
        // dy constant along a row that sums to 1: s is that constant, dx = 0.
        let y = [0.5, 0.25, 0.125, 0.0625, 0.0625];
        assert_eq!(values(&backward(&y, &[3.0; 5], [1, 5], None).unwrap()), [0.0; 5]);
        // One-hot y: s is dy at the hot column, so every dx is 0.
        let out = backward(&[0.0, 1.0, 0.0], &[5.0, -2.0, 9.0], [1, 3], None).unwrap();
        assert_eq!(values(&out), [0.0; 3]);
        // y need not sum to 1: the formula is applied as it is.
        let out = backward(&[0.5, 0.5, 0.5], &[2.0, 0.0, -2.0], [1, 3], None).unwrap();
        assert_eq!(values(&out), [1.0, 0.0, -1.0]);
    }

    #[test]
    fn a_case_that_disagrees_is_refused() {
        let y = [0.5, 0.5, 0.25, 0.75];
        assert!(matches!(
            backward(&y, &[1.0; 4], [2, 2], Some([2.0, 4.0])).unwrap_err(),
            ReferenceError::UniformDisagrees { from_shapes: 2, .. }
        ));
        assert!(matches!(
            backward(&y, &[1.0; 3], [2, 2], None).unwrap_err(),
            ReferenceError::WrongLength { len: 3, want: 4, .. }
        ));
    }
}
