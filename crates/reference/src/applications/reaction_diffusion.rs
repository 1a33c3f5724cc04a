//! Reaction–Diffusion (the chapter "Applications"): the Gray–Scott model of
//! two chemicals `u` and `v` on a grid that wraps around at its edges,
//! advanced by explicit Euler steps, one dispatch a step, through two pairs
//! of buffers that take turns being read and written (as Jacobi Iteration).
//!
//! Computed in `f64` from the case's `f32` values and rounded to `f32` once
//! at the end, so the expected value is the `f32` nearest the exact iterate.
//! A kernel rounds every operation of every step in `f32`, and an error
//! made in one step can grow in the next ones (the reaction `u·v²` feeds on
//! itself). So along the exact states this function also bounds how far a
//! kernel's values can drift, and refuses a case whose bound passes
//! [`TOLERANCE`], the puzzle's `compare` (derived in its `puzzle.toml`).

use crate::error::ReferenceError;
use crate::input::{Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// The tolerance of the puzzle (`compare = { abs = 1e-3 }`), up to which
/// [`gray_scott_steps`] checks that every case's error bound stays.
pub const TOLERANCE: f64 = 1e-3;

/// Unit roundoff of `f32`: every correctly rounded operation is within
/// `EPS · |result|` of the exact result.
const EPS: f64 = 1.0 / 16_777_216.0;

/// Most rounding error one step adds to a cell of `u` or `v`, in units of
/// [`EPS`], for values in `[0, 1]` (the count is in `puzzle.toml`).
const STEP_ROUNDING: f64 = 20.0;

/// The parameters of the model, as the kernel sees them (`f32` uniforms).
#[derive(Debug, Clone, Copy)]
struct Model {
    feed: f64,
    kill: f64,
    du: f64,
    dv: f64,
    dt: f64,
}

/// Gray–Scott reaction–diffusion on a `rows × cols` grid with periodic
/// boundaries (Reaction–Diffusion). `u0` and `v0` hold the starting fields,
/// row-major, each with the same `shape`; `u1` and `v1` are the second
/// pair, zeros at the start. The uniform `params` gives `steps` (from 1 up),
/// `feed` (F), `kill` (k), `du`, `dv` and `dt`, and, where given, `rows`
/// and `cols`, which must agree with the shape. One explicit Euler step
/// maps `(u, v)` to `(u', v')` (Pearson, "Complex patterns in a simple
/// system", Science 261, 1993, with its five-point Laplacian):
///
/// ```text
/// ∇²u[r][c] = u[r−1][c] + u[r+1][c] + u[r][c−1] + u[r][c+1] − 4·u[r][c]   (indices mod rows, cols)
/// u' = u + dt·(du·∇²u − u·v² + F·(1 − u))
/// v' = v + dt·(dv·∇²v + u·v² − (F + k)·v)
/// ```
///
/// Step `s` (from 0) reads pair `s mod 2` (`u0, v0`, then `u1, v1` …) and
/// writes every cell of the other, so after `steps` steps pair
/// `steps mod 2` holds the last state and the other pair the state one
/// step before (for `steps = 1`, `u0, v0` still hold the start). Four
/// outputs, each `rows × cols` with that shape, in binding order: `u0`,
/// `v0`, `u1`, `v1`.
///
/// # Errors
/// A missing or mistyped `u0` or `v0`, a missing shape, shapes that differ
/// or a length other than the shape's, a missing `params` field or
/// `steps` of 0, [`ReferenceError::UniformDisagrees`] where `params.rows`
/// or `params.cols` differs from the shape; and, so that the puzzle's
/// tolerance holds, [`ReferenceError::ValueOutOfRange`] where an exact
/// state leaves `[0, 1]` and [`ReferenceError::UniformOutOfRange`] on
/// `params.steps` where the error bound of the case passes [`TOLERANCE`].
pub fn gray_scott_steps(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let u = input.f32("u0")?;
    let v = input.f32("v0")?;
    let [rows, cols] = input.shape("u0")?;
    for (name, len) in [("u0", u.len()), ("v0", v.len())] {
        if len != rows * cols {
            return Err(ReferenceError::WrongLength { name: name.into(), len, want: rows * cols });
        }
    }
    let [v_rows, v_cols] = input.shape("v0")?;
    for (field, size, given) in [("rows", rows, v_rows), ("cols", cols, v_cols)] {
        if given != size {
            return Err(ReferenceError::UniformDisagrees {
                field: format!("the {field} of `v0`'s shape"),
                given: given as f64,
                from_shapes: size,
            });
        }
    }
    let params = input.uniforms.get("params");
    let field = |name: &str| {
        params
            .and_then(|p| p.get(name))
            .copied()
            .ok_or_else(|| ReferenceError::MissingUniform { name: format!("params.{name}") })
    };
    for (name, size) in [("rows", rows), ("cols", cols)] {
        if let Some(&given) = params.and_then(|p| p.get(name)) {
            if given != size as f64 {
                return Err(ReferenceError::UniformDisagrees {
                    field: format!("params.{name}"),
                    given,
                    from_shapes: size,
                });
            }
        }
    }
    let steps = field("steps")?;
    if steps < 1.0 {
        return Err(ReferenceError::UniformOutOfRange {
            field: "params.steps".into(),
            want: "1 or more: every step is a dispatch, and a case makes at least one",
        });
    }
    // The kernel reads each parameter as an `f32`.
    let f32_field = |name: &str| field(name).map(|x| f64::from(x as f32));
    let model = Model {
        feed: f32_field("feed")?,
        kill: f32_field("kill")?,
        du: f32_field("du")?,
        dv: f32_field("dv")?,
        dt: f32_field("dt")?,
    };
    let mut now: (Vec<f64>, Vec<f64>) =
        (u.iter().map(|&x| f64::from(x)).collect(), v.iter().map(|&x| f64::from(x)).collect());
    let mut before = now.clone();
    let mut bound = 0.0;
    for s in 0..steps as usize {
        check_in_unit_range(&now, s)?;
        bound = lipschitz(&now, &model, bound) * bound + STEP_ROUNDING * EPS;
        let next = step(&now, rows, cols, &model);
        before = std::mem::replace(&mut now, next);
    }
    check_in_unit_range(&now, steps as usize)?;
    // The expected values are rounded to `f32` too: half an ULP, at most EPS.
    if bound + EPS > TOLERANCE {
        return Err(ReferenceError::UniformOutOfRange {
            field: "params.steps".into(),
            want: "few enough that the error bound along this case's states stays within the \
                   tolerance 1e-3 (see the derivation in puzzle.toml)",
        });
    }
    let shape = Some([rows as u32, cols as u32]);
    let f32s = |x: &[f64]| (Values::F32(x.iter().map(|&y| y as f32).collect()), shape);
    let (pair0, pair1) =
        if (steps as usize).is_multiple_of(2) { (&now, &before) } else { (&before, &now) };
    Ok(vec![f32s(&pair0.0), f32s(&pair0.1), f32s(&pair1.0), f32s(&pair1.1)])
}

/// One explicit Euler step of the `rows × cols` fields `(u, v)`
/// (row-major), the neighbours wrapping around at the edges.
fn step(
    (u, v): &(Vec<f64>, Vec<f64>),
    rows: usize,
    cols: usize,
    m: &Model,
) -> (Vec<f64>, Vec<f64>) {
    let mut next = (vec![0.0; u.len()], vec![0.0; v.len()]);
    for r in 0..rows {
        for c in 0..cols {
            let i = r * cols + c;
            let around = [
                ((r + rows - 1) % rows) * cols + c,
                ((r + 1) % rows) * cols + c,
                r * cols + (c + cols - 1) % cols,
                r * cols + (c + 1) % cols,
            ];
            let lap_u = around.iter().map(|&j| u[j]).sum::<f64>() - 4.0 * u[i];
            let lap_v = around.iter().map(|&j| v[j]).sum::<f64>() - 4.0 * v[i];
            let uvv = u[i] * v[i] * v[i];
            next.0[i] = u[i] + m.dt * (m.du * lap_u - uvv + m.feed * (1.0 - u[i]));
            next.1[i] = v[i] + m.dt * (m.dv * lap_v + uvv - (m.feed + m.kill) * v[i]);
        }
    }
    next
}

/// A Lipschitz constant of one step, in the largest difference over the
/// cells of both fields, between the exact state `(u, v)` and any state
/// within `err` of it: the largest sum of the absolute values of a row of
/// the step's Jacobian. For a cell of `u'` those are the centre's
/// `|1 − 4·du·dt − dt·(v² + F)|`, the four neighbours' `du·dt` each and
/// `∂u'/∂v = −2·dt·u·v`; for `v'`, `|1 − 4·dv·dt − dt·(F + k) + 2·dt·u·v|`,
/// `4·dv·dt` and `∂v'/∂u = dt·v²`. Within `err` of the state (values in
/// `[0, 1]`), `2·|u·v|` and `v²` grow by at most `4·err + 2·err²` and
/// `2·err + err²`, so `dt·(6·err + 3·err²)` is added.
fn lipschitz((u, v): &(Vec<f64>, Vec<f64>), m: &Model, err: f64) -> f64 {
    let (a, b) = (m.du * m.dt, m.dv * m.dt);
    let worst = u.iter().zip(v).fold(0.0_f64, |worst, (&u, &v)| {
        let row_u =
            (1.0 - 4.0 * a - m.dt * (v * v + m.feed)).abs() + 4.0 * a + 2.0 * m.dt * (u * v).abs();
        let row_v = (1.0 - 4.0 * b - m.dt * (m.feed + m.kill) + 2.0 * m.dt * u * v).abs()
            + 4.0 * b
            + m.dt * v * v;
        worst.max(row_u).max(row_v)
    });
    worst + m.dt * (6.0 * err + 3.0 * err * err)
}

/// Refuses a state outside `[0, 1]`, where the rounding count and the
/// Lipschitz constant no longer hold.
fn check_in_unit_range((u, v): &(Vec<f64>, Vec<f64>), s: usize) -> Result<(), ReferenceError> {
    for (name, field) in [("u", u), ("v", v)] {
        if let Some((at, &value)) =
            field.iter().enumerate().find(|(_, x)| !(0.0..=1.0).contains(*x))
        {
            return Err(ReferenceError::ValueOutOfRange {
                name: format!("{name} after {s} steps"),
                at,
                value,
                want: "in [0, 1], where the puzzle's tolerance is derived",
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::{CaseConfig, Values};
    use std::collections::BTreeMap;

    /// `gray_scott_steps` on `u0`, `v0` of `shape` with F = 0.04, k = 0.06,
    /// du = 0.2, dv = 0.1, dt = 1 and `params` from the shape, unless
    /// `rows_cols` is given.
    fn gray_scott(
        u0: &[f32],
        v0: &[f32],
        shape: [u32; 2],
        steps: f64,
        rows_cols: Option<[f64; 2]>,
    ) -> Result<Outputs, ReferenceError> {
        let config =
            CaseConfig { workgroup_size: [4, 4, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let (u0, v0) = (Values::F32(u0.to_vec()), Values::F32(v0.to_vec()));
        let [rows, cols] = rows_cols.unwrap_or([f64::from(shape[0]), f64::from(shape[1])]);
        let params = BTreeMap::from([
            ("rows", rows),
            ("cols", cols),
            ("steps", steps),
            ("feed", 0.04),
            ("kill", 0.06),
            ("du", 0.2),
            ("dv", 0.1),
            ("dt", 1.0),
        ]);
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("u0", (&u0, Some(shape))), ("v0", (&v0, Some(shape)))]),
            uniforms: BTreeMap::from([("params", params)]),
            output_lens: BTreeMap::new(),
        };
        gray_scott_steps(&input)
    }

    fn fields(out: &Outputs) -> Vec<Vec<f32>> {
        out.iter().map(|(x, _)| x.as_f32().unwrap().to_vec()).collect()
    }

    /// The statement's example: a 3 × 3 grid, u = 1 and v = 0 except the
    /// centre, u = 0.5 and v = 0.5.
    const U: [f32; 9] = [1.0, 1.0, 1.0, 1.0, 0.5, 1.0, 1.0, 1.0, 1.0];
    const V: [f32; 9] = [0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.0];

    #[test]
    fn the_statements_example_by_hand() {
        let out = gray_scott(&U, &V, [3, 3], 1.0, None).unwrap();
        assert!(out.iter().all(|(_, shape)| *shape == Some([3, 3])));
        let f = fields(&out);
        // One step leaves pair 0 as it was and writes pair 1.
        assert_eq!((f[0].as_slice(), f[1].as_slice()), (U.as_slice(), V.as_slice()));
        // The centre: ∇²u = 4·1 − 4·0.5 = 2, u·v² = 0.125, F·(1 − u) = 0.02:
        // u' = 0.5 + 0.2·2 − 0.125 + 0.02 = 0.795. ∇²v = −2: v' = 0.5 − 0.2
        // + 0.125 − 0.1·0.5 = 0.375.
        assert!((f64::from(f[2][4]) - 0.795).abs() < 1e-7, "{}", f[2][4]);
        assert!((f64::from(f[3][4]) - 0.375).abs() < 1e-7, "{}", f[3][4]);
        // A cell beside the centre (above it): ∇²u = 0.5 + 1 + 1 + 1 − 4 =
        // −0.5, so u' = 1 − 0.1 = 0.9; ∇²v = 0.5, so v' = 0.05. The corners
        // see only the edge cells, which start like them: unchanged.
        for i in [1, 3, 5, 7] {
            assert!((f64::from(f[2][i]) - 0.9).abs() < 1e-7, "{}", f[2][i]);
            assert!((f64::from(f[3][i]) - 0.05).abs() < 1e-7, "{}", f[3][i]);
        }
        for i in [0, 2, 6, 8] {
            assert_eq!((f[2][i], f[3][i]), (1.0, 0.0));
        }
        // Two steps: pair 0 holds the second state, pair 1 still the first.
        let g = fields(&gray_scott(&U, &V, [3, 3], 2.0, None).unwrap());
        assert_eq!((&g[2], &g[3]), (&f[2], &f[3]));
        assert_ne!(g[0], f[0]);
    }

    #[test]
    fn the_edges_wrap_around() {
        // A 1 × 4 ring: cell 0's left neighbour is cell 3, and the row wraps
        // onto itself, so "up" and "down" are the cell itself.
        let u = [0.5, 1.0, 1.0, 0.0];
        let v = [0.0; 4];
        let f = fields(&gray_scott(&u, &v, [1, 4], 1.0, None).unwrap());
        // ∇²u[0] = 0 + 1 + 0.5 + 0.5 − 2 = 0, so u' = 0.5 + 0.04·0.5 = 0.52.
        assert!((f64::from(f[2][0]) - 0.52).abs() < 1e-7, "{}", f[2][0]);
        // ∇²u[3] = 1 + 0.5 + 0 + 0 − 0 = 1.5: u' = 0.3 + 0.04 = 0.34.
        assert!((f64::from(f[2][3]) - 0.34).abs() < 1e-7, "{}", f[2][3]);
    }

    #[test]
    fn a_case_that_disagrees_or_passes_the_bound_is_refused() {
        assert!(matches!(
            gray_scott(&U, &V, [3, 3], 1.0, Some([3.0, 4.0])).unwrap_err(),
            ReferenceError::UniformDisagrees { from_shapes: 3, .. }
        ));
        assert!(matches!(
            gray_scott(&U, &V, [3, 3], 0.0, None).unwrap_err(),
            ReferenceError::UniformOutOfRange { .. }
        ));
        assert!(matches!(
            gray_scott(&U[..8], &V, [3, 3], 1.0, None).unwrap_err(),
            ReferenceError::WrongLength { len: 8, want: 9, .. }
        ));
        let above = [1.5; 9];
        assert!(matches!(
            gray_scott(&above, &V, [3, 3], 1.0, None).unwrap_err(),
            ReferenceError::ValueOutOfRange { .. }
        ));
        // u = v = 1 everywhere: v·(1 + u·v − F − k) grows each step, the
        // bound with it, until the state leaves [0, 1].
        let ones = [1.0; 9];
        assert!(gray_scott(&ones, &ones, [3, 3], 20.0, None).is_err());
    }
}
