//! Stencils over time (the chapter "Memory access and speed"): Jacobi
//! relaxation of a 2-D grid, one step per dispatch, through two buffers
//! that take turns being read and written.
//!
//! Computed in `f64` and rounded to `f32` once at the end, so the expected
//! value is the `f32` nearest the exact iterate; a kernel rounds every step
//! in `f32`, and the puzzle compares with a tolerance derived in its
//! `puzzle.toml`.

use crate::error::ReferenceError;
use crate::input::{Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// Jacobi relaxation of Laplace's equation on a `rows × cols` grid
/// (Jacobi Iteration). `a` holds the starting grid `u₀`, row-major, with its
/// `shape`; `b` is the second buffer, which starts as zeros. The uniform
/// `params` gives `steps` (from 1 up) and, where given, `rows` and `cols`,
/// which must agree with the shape. One step maps `u` to `u'`:
///
/// ```text
/// u'[r][c] = (u[r−1][c] + u[r+1][c] + u[r][c−1] + u[r][c+1]) / 4   for 0 < r < rows−1, 0 < c < cols−1
/// u'[r][c] = u[r][c]                                               on the boundary (first or last row or column)
/// ```
///
/// Step `s` (from 0) reads buffer `s mod 2` (`a`, then `b`, then `a` …) and
/// writes every cell of the other, so after `steps` steps buffer
/// `steps mod 2` holds `u_steps` and the other holds `u_{steps−1}` (for
/// `steps = 1`, `a` still holds `u₀`). Two outputs, each `rows × cols` with
/// that shape, in binding order: `a`'s final contents, then `b`'s.
///
/// # Errors
/// A missing or mistyped `a`, a missing shape, `a` of another length than
/// its shape, a missing `params.steps` or one of 0,
/// [`ReferenceError::UniformDisagrees`] where `params.rows` or `params.cols`
/// differs from the shape.
pub fn jacobi_steps(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let [rows, cols] = input.shape("a")?;
    if a.len() != rows * cols {
        return Err(ReferenceError::WrongLength {
            name: "a".into(),
            len: a.len(),
            want: rows * cols,
        });
    }
    let params = input.uniforms.get("params");
    for (field, size) in [("rows", rows), ("cols", cols)] {
        if let Some(&given) = params.and_then(|p| p.get(field)) {
            if given != size as f64 {
                return Err(ReferenceError::UniformDisagrees {
                    field: format!("params.{field}"),
                    given,
                    from_shapes: size,
                });
            }
        }
    }
    let steps = *params
        .and_then(|p| p.get("steps"))
        .ok_or_else(|| ReferenceError::MissingUniform { name: "params.steps".into() })?;
    if steps < 1.0 {
        return Err(ReferenceError::UniformOutOfRange {
            field: "params.steps".into(),
            want: "1 or more: every step is a dispatch, and a case makes at least one",
        });
    }
    let steps = steps as usize;
    let mut now: Vec<f64> = a.iter().map(|&v| f64::from(v)).collect();
    let mut before = now.clone();
    for _ in 0..steps {
        let next = step(&now, rows, cols);
        before = std::mem::replace(&mut now, next);
    }
    let shape = Some([rows as u32, cols as u32]);
    let f32s = |v: &[f64]| Values::F32(v.iter().map(|&x| x as f32).collect());
    let (in_a, in_b) = if steps.is_multiple_of(2) { (&now, &before) } else { (&before, &now) };
    Ok(vec![(f32s(in_a), shape), (f32s(in_b), shape)])
}

/// One Jacobi step of the `rows × cols` grid `u` (row-major): every interior
/// cell the mean of its four neighbours, the boundary copied.
fn step(u: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    let mut next = u.to_vec();
    for r in 1..rows.saturating_sub(1) {
        for c in 1..cols.saturating_sub(1) {
            let i = r * cols + c;
            next[i] = (u[i - cols] + u[i + cols] + u[i - 1] + u[i + 1]) / 4.0;
        }
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::{CaseConfig, Values};
    use std::collections::BTreeMap;

    /// `jacobi_steps` on `a` of `shape` with `params` from the shape and
    /// `steps`, unless `params` is given.
    fn jacobi(
        a: &[f32],
        shape: [u32; 2],
        steps: f64,
        params: Option<[f64; 2]>,
    ) -> Result<Outputs, ReferenceError> {
        let config =
            CaseConfig { workgroup_size: [4, 4, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let a = Values::F32(a.to_vec());
        let [rows, cols] = params.unwrap_or([f64::from(shape[0]), f64::from(shape[1])]);
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("a", (&a, Some(shape)))]),
            uniforms: BTreeMap::from([(
                "params",
                BTreeMap::from([("rows", rows), ("cols", cols), ("steps", steps)]),
            )]),
            output_lens: BTreeMap::new(),
        };
        jacobi_steps(&input)
    }

    fn grids(out: &Outputs) -> (Vec<f32>, Vec<f32>) {
        (out[0].0.as_f32().unwrap().to_vec(), out[1].0.as_f32().unwrap().to_vec())
    }

    /// The statement's example: a 4 × 5 grid, hot (8) along the top row,
    /// the rest 0.
    const EXAMPLE: [f32; 20] = [
        8.0, 8.0, 8.0, 8.0, 8.0, //
        0.0, 0.0, 0.0, 0.0, 0.0, //
        0.0, 0.0, 0.0, 0.0, 0.0, //
        0.0, 0.0, 0.0, 0.0, 0.0,
    ];

    #[test]
    fn the_statements_example_by_hand() {
        // Step 0: the interior cells of row 1 see the hot row above: 8 / 4 = 2;
        // row 2's see only zeros. `a` is untouched, `b` holds u1.
        let out = jacobi(&EXAMPLE, [4, 5], 1.0, None).unwrap();
        assert_eq!((out[0].1, out[1].1), (Some([4, 5]), Some([4, 5])));
        let (a, b) = grids(&out);
        assert_eq!(a, EXAMPLE);
        let u1 = [
            8.0, 8.0, 8.0, 8.0, 8.0, //
            0.0, 2.0, 2.0, 2.0, 0.0, //
            0.0, 0.0, 0.0, 0.0, 0.0, //
            0.0, 0.0, 0.0, 0.0, 0.0,
        ];
        assert_eq!(b, u1);
        // Step 1 reads b and writes a: row 1 becomes (8 + 0 + left + right) / 4,
        // (8 + 0 + 0 + 2) / 4 = 2.5 at the ends and (8 + 2 + 2) / 4 = 3 in the
        // middle; row 2 sees row 1's 2s: 0.5.
        let (a, b) = grids(&jacobi(&EXAMPLE, [4, 5], 2.0, None).unwrap());
        let u2 = [
            8.0, 8.0, 8.0, 8.0, 8.0, //
            0.0, 2.5, 3.0, 2.5, 0.0, //
            0.0, 0.5, 0.5, 0.5, 0.0, //
            0.0, 0.0, 0.0, 0.0, 0.0,
        ];
        assert_eq!((a.as_slice(), b.as_slice()), (u2.as_slice(), u1.as_slice()));
        // Step 2 reads a and writes b: b holds u3, a still u2.
        let (a, b) = grids(&jacobi(&EXAMPLE, [4, 5], 3.0, None).unwrap());
        assert_eq!(a, u2);
        assert_eq!(&b[5..10], [0.0, 2.875, 3.375, 2.875, 0.0]);
        assert_eq!(&b[10..15], [0.0, 0.75, 1.0, 0.75, 0.0]);
    }

    #[test]
    fn one_interior_cell_settles_after_one_step() {
        let a = [1.0, 2.0, 3.0, 4.0, 99.0, 6.0, 7.0, 8.0, 9.0];
        for steps in [1.0, 2.0, 7.0] {
            let (x, y) = grids(&jacobi(&a, [3, 3], steps, None).unwrap());
            let (new, old) = if steps == 2.0 { (x, y) } else { (y, x) };
            // (2 + 4 + 6 + 8) / 4 = 5; the boundary never changes.
            assert_eq!(new, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
            assert_eq!(old[4], if steps == 1.0 { 99.0 } else { 5.0 });
        }
    }

    #[test]
    fn a_grid_without_interior_is_copied() {
        let a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let (x, y) = grids(&jacobi(&a, [2, 3], 3.0, None).unwrap());
        assert_eq!((x.as_slice(), y.as_slice()), (a.as_slice(), a.as_slice()));
    }

    #[test]
    fn a_case_that_disagrees_is_refused() {
        assert!(matches!(
            jacobi(&EXAMPLE, [4, 5], 1.0, Some([5.0, 4.0])).unwrap_err(),
            ReferenceError::UniformDisagrees { from_shapes: 4, .. }
        ));
        assert!(matches!(
            jacobi(&EXAMPLE, [4, 5], 0.0, None).unwrap_err(),
            ReferenceError::UniformOutOfRange { .. }
        ));
        assert!(matches!(
            jacobi(&EXAMPLE[..19], [4, 5], 1.0, None).unwrap_err(),
            ReferenceError::WrongLength { len: 19, want: 20, .. }
        ));
    }
}
