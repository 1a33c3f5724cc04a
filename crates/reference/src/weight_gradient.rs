//! Training: the gradient of a linear layer's weights, summed over a batch
//! (Weight Gradient).
//!
//! A kernel adds `batch` products into every weight, in whatever order its
//! split of the batch gives (chunks then their partials, atomics in any
//! order, or one long loop). This computes each sum in `f64` and rounds it
//! to `f32` once, so the expected value is the `f32` nearest the exact sum,
//! and the puzzle compares with a tolerance derived in its `puzzle.toml`.

use crate::error::ReferenceError;
use crate::input::{check_dims, shaped, Outputs, ReferenceInput};

/// The gradient of the loss with respect to the weights of a linear layer
/// `y = W·x`, summed over a batch. `x` is the layer's input, `batch × in`,
/// and `dy` the gradient arriving at its output, `batch × out`, both
/// row-major (each gives its shape; the batches must agree). The output `dw`
/// is `out × in`, row-major (`out · in` elements):
///
/// ```text
/// dw[o][i] = Σ_b dy[b][o] · x[b][i]      (b from 0 to batch − 1)
/// ```
///
/// that is `dyᵀ · x`. A `dims` uniform, when the puzzle has one, must give
/// `batch`, `n_in` and `n_out` as the shapes do (its `chunk`, how a kernel
/// splits the batch, is not read). Computed in `f64`, rounded to `f32`
/// once.
///
/// # Errors
/// A missing buffer or shape, [`ReferenceError::WrongLength`] when `dy`
/// has another number of rows than `x`, and
/// [`ReferenceError::UniformDisagrees`] when `dims` disagrees with the
/// shapes.
pub fn weight_gradient(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (x, dy) = (input.f32("x")?, input.f32("dy")?);
    let [batch, n_in] = input.shape("x")?;
    let [dy_rows, n_out] = input.shape("dy")?;
    if dy_rows != batch {
        return Err(ReferenceError::WrongLength {
            name: "dy".to_string(),
            len: dy_rows * n_out,
            want: batch * n_out,
        });
    }
    check_dims(input, &[("batch", batch), ("n_in", n_in), ("n_out", n_out)])?;
    let mut sums = vec![0.0f64; n_out * n_in];
    for b in 0..batch {
        let (xr, gr) = (&x[b * n_in..(b + 1) * n_in], &dy[b * n_out..(b + 1) * n_out]);
        for (o, &g) in gr.iter().enumerate() {
            let row = &mut sums[o * n_in..(o + 1) * n_in];
            for (s, &v) in row.iter_mut().zip(xr) {
                *s += f64::from(g) * f64::from(v);
            }
        }
    }
    Ok(shaped(sums.into_iter().map(|s| s as f32).collect(), n_out, n_in))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::{CaseConfig, Values};
    use std::collections::BTreeMap;

    /// `weight_gradient` on `x` (`batch × n_in`) and `dy` (`dy_rows ×
    /// n_out`), with `dims` from the shapes unless `dims` is given as
    /// `[batch, n_in, n_out]`.
    fn gradient(
        x: &[f32],
        x_shape: [u32; 2],
        dy: &[f32],
        dy_shape: [u32; 2],
        dims: Option<[f64; 3]>,
    ) -> Result<Outputs, ReferenceError> {
        let config =
            CaseConfig { workgroup_size: [4, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let (x, dy) = (Values::F32(x.to_vec()), Values::F32(dy.to_vec()));
        let from_shapes = [f64::from(x_shape[0]), f64::from(x_shape[1]), f64::from(dy_shape[1])];
        let [batch, n_in, n_out] = dims.unwrap_or(from_shapes);
        let fields =
            BTreeMap::from([("batch", batch), ("n_in", n_in), ("n_out", n_out), ("chunk", 2.0)]);
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("x", (&x, Some(x_shape))), ("dy", (&dy, Some(dy_shape)))]),
            uniforms: BTreeMap::from([("dims", fields)]),
            output_lens: BTreeMap::new(),
        };
        weight_gradient(&input)
    }

    fn values(out: &Outputs) -> Vec<f32> {
        out[0].0.as_f32().unwrap().to_vec()
    }

    #[test]
    fn the_statements_example_by_hand() {
        // x = [[1, 2], [0, -1], [3, 1]], dy = [[1, 0, -1], [2, 1, 0], [0, -1, 1]]:
        // dw[0] = 1·(1, 2) + 2·(0, -1) + 0·(3, 1) = (1, 0),
        // dw[1] = 0·(1, 2) + 1·(0, -1) - 1·(3, 1) = (-3, -2),
        // dw[2] = -1·(1, 2) + 0·(0, -1) + 1·(3, 1) = (2, -1).
        let x = [1.0, 2.0, 0.0, -1.0, 3.0, 1.0];
        let dy = [1.0, 0.0, -1.0, 2.0, 1.0, 0.0, 0.0, -1.0, 1.0];
        let out = gradient(&x, [3, 2], &dy, [3, 3], None).unwrap();
        assert_eq!(out[0].1, Some([3, 2]), "out × in");
        assert_eq!(values(&out), [1.0, 0.0, -3.0, -2.0, 2.0, -1.0]);
    }

    #[test]
    fn one_row_is_an_outer_product_and_rows_add_up() {
        // One row: dw = dyᵀ x, the outer product.
        let out = gradient(&[2.0, -3.0], [1, 2], &[0.5, 4.0], [1, 2], None).unwrap();
        assert_eq!(values(&out), [1.0, -1.5, 8.0, -12.0]);
        // One weight: the dot product of the two columns.
        let out = gradient(&[1.0, 2.0, 3.0], [3, 1], &[4.0, -5.0, 6.0], [3, 1], None).unwrap();
        assert_eq!(values(&out), [12.0]);
        // The sum is rounded once: 2^24 + 1 + 1 is exact in f64, then
        // rounds to 2^24 + 2, where f32 left to right would stay at 2^24.
        let big = 16_777_216.0;
        let out = gradient(&[big, 1.0, 1.0], [3, 1], &[1.0; 3], [3, 1], None).unwrap();
        assert_eq!(values(&out), [16_777_218.0]);
    }

    #[test]
    fn a_case_that_disagrees_is_refused() {
        let x = [1.0; 6];
        assert!(matches!(
            gradient(&x, [3, 2], &[1.0; 4], [2, 2], None).unwrap_err(),
            ReferenceError::WrongLength { len: 4, want: 6, .. }
        ));
        assert!(matches!(
            gradient(&x, [3, 2], &[1.0; 6], [3, 2], Some([3.0, 2.0, 3.0])).unwrap_err(),
            ReferenceError::UniformDisagrees { from_shapes: 2, .. }
        ));
        assert!(matches!(
            gradient(&x, [3, 2], &[1.0; 6], [3, 2], Some([4.0, 2.0, 2.0])).unwrap_err(),
            ReferenceError::UniformDisagrees { from_shapes: 3, .. }
        ));
    }
}
