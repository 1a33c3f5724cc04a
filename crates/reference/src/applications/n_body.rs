//! N-Body (the chapter "Applications"): one time step of an all-pairs
//! gravitational simulation with Plummer softening, the kernel of GPU Gems 3,
//! chapter 31 (Nyland, Harris and Prins, "Fast N-Body Simulation with CUDA").
//!
//! Computed in `f64` and rounded to `f32` once at the end, so the expected
//! value is the `f32` nearest the exact step of the `f32` inputs; a kernel
//! sums `n` terms in `f32`, and the puzzle compares with a tolerance derived
//! in its `puzzle.toml`.

use crate::{Outputs, ReferenceError, ReferenceInput};
use gpu_puzzles_values::Values;

/// One semi-implicit Euler step of `n` bodies under softened gravity, `G = 1`
/// (N-Body). `pos` holds four `f32` per body, `(x, y, z, m)`: the position
/// and the mass; `vel` holds three per body, `(x, y, z)`. The uniform
/// `params` gives `n` (from 1, and `pos` and `vel` must hold exactly that
/// many bodies), the time step `dt` and the softening `eps2` = ε² (above 0),
/// both as the shader reads them (`f32`). For every body `i`:
///
/// ```text
/// a_i  = Σ_j m_j (p_j − p_i) / (|p_j − p_i|² + ε²)^(3/2)    over every j, i included (its term is 0)
/// v_i' = v_i + dt · a_i
/// p_i' = p_i + dt · v_i'                                     (the new velocity: semi-implicit Euler)
/// ```
///
/// Two outputs, in binding order: `pos_out` (`n × 4`: `p_i'` and the mass
/// `m_i` unchanged) and `vel_out` (`n × 3`: `v_i'`), each with that shape.
///
/// # Errors
/// A missing or mistyped `pos` or `vel`; a missing `params.n`, `params.dt`
/// or `params.eps2`; [`ReferenceError::UniformOutOfRange`] for `n = 0` or
/// `eps2 ≤ 0`; [`ReferenceError::WrongLength`] where `pos` is not `4 · n`
/// elements or `vel` not `3 · n`.
pub fn n_body_step(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let pos = input.f32("pos")?;
    let vel = input.f32("vel")?;
    let field = |name: &str| {
        input
            .uniforms
            .get("params")
            .and_then(|p| p.get(name))
            .copied()
            .ok_or_else(|| ReferenceError::MissingUniform { name: format!("params.{name}") })
    };
    let n = field("n")?;
    if n < 1.0 {
        return Err(ReferenceError::UniformOutOfRange {
            field: "params.n".into(),
            want: "1 or more: a case has at least one body",
        });
    }
    let n = n as usize;
    // The shader reads f32s: 0.1 arrives as 0.100000001490116…
    let dt = f64::from(field("dt")? as f32);
    let eps2 = f64::from(field("eps2")? as f32);
    if eps2 <= 0.0 {
        return Err(ReferenceError::UniformOutOfRange {
            field: "params.eps2".into(),
            want: "above 0: without softening a body's own term is 0 / 0",
        });
    }
    for (name, values, per) in [("pos", pos, 4), ("vel", vel, 3)] {
        if values.len() != per * n {
            return Err(ReferenceError::WrongLength {
                name: name.into(),
                len: values.len(),
                want: per * n,
            });
        }
    }
    let p: Vec<[f64; 4]> =
        pos.chunks_exact(4).map(|b| [b[0], b[1], b[2], b[3]].map(f64::from)).collect();
    let mut pos_out = Vec::with_capacity(4 * n);
    let mut vel_out = Vec::with_capacity(3 * n);
    for (i, v) in vel.chunks_exact(3).enumerate() {
        let a = acceleration(&p, i, eps2);
        let mut new_p = [0.0; 3];
        for k in 0..3 {
            let new_v = f64::from(v[k]) + dt * a[k];
            new_p[k] = p[i][k] + dt * new_v;
            vel_out.push(new_v as f32);
        }
        pos_out.extend(new_p.map(|x| x as f32));
        pos_out.push(pos[4 * i + 3]);
    }
    Ok(vec![
        (Values::F32(pos_out), Some([n as u32, 4])),
        (Values::F32(vel_out), Some([n as u32, 3])),
    ])
}

/// The softened pull of every body of `p` (`(x, y, z, m)` each) on body `i`.
fn acceleration(p: &[[f64; 4]], i: usize, eps2: f64) -> [f64; 3] {
    let mut a = [0.0; 3];
    for q in p {
        let d = [q[0] - p[i][0], q[1] - p[i][1], q[2] - p[i][2]];
        let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
        let s = q[3] / (r2 * r2.sqrt());
        for k in 0..3 {
            a[k] += s * d[k];
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    fn step(
        pos: &[f32],
        vel: &[f32],
        n: f64,
        dt: f64,
        eps2: f64,
    ) -> Result<Outputs, ReferenceError> {
        let config =
            CaseConfig { workgroup_size: [4, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let (p, v) = (Values::F32(pos.to_vec()), Values::F32(vel.to_vec()));
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("pos", (&p, None)), ("vel", (&v, None))]),
            uniforms: BTreeMap::from([(
                "params",
                BTreeMap::from([("n", n), ("dt", dt), ("eps2", eps2)]),
            )]),
            output_lens: BTreeMap::new(),
        };
        n_body_step(&input)
    }

    fn close(got: &[f32], want: &[f32]) {
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() <= 1e-6, "{got:?} != {want:?}");
        }
    }

    /// The statement's example: two bodies 0.4 apart along x with ε² = 0.09,
    /// so r² + ε² = 0.25 and its power 3/2 is 0.125: each pulls the other
    /// with 0.4 / 0.125 = 3.2 times its mass.
    #[test]
    fn the_statements_example_by_hand() {
        let pos = [0.1, 0.5, 0.5, 1.0, 0.5, 0.5, 0.5, 0.5];
        let vel = [0.0, 0.0, 0.0, 0.0, 0.2, 0.0];
        let out = step(&pos, &vel, 2.0, 0.1, 0.09).unwrap();
        assert_eq!((out[0].1, out[1].1), (Some([2, 4]), Some([2, 3])));
        // a_0 = 0.5 · 3.2 = +1.6 along x, a_1 = 1.0 · 3.2 = −3.2 along x.
        // v_0' = (0.16, 0, 0), p_0' = (0.1 + 0.016, 0.5, 0.5), mass 1.
        // v_1' = (−0.32, 0.2, 0), p_1' = (0.5 − 0.032, 0.5 + 0.02, 0.5), mass 0.5.
        close(out[1].0.as_f32().unwrap(), &[0.16, 0.0, 0.0, -0.32, 0.2, 0.0]);
        close(out[0].0.as_f32().unwrap(), &[0.116, 0.5, 0.5, 1.0, 0.468, 0.52, 0.5, 0.5]);
    }

    #[test]
    fn a_lone_body_drifts_and_bodies_on_one_point_feel_nothing() {
        // One body: its own term is 0, so it coasts.
        let out = step(&[0.25, 0.5, 0.75, 0.9], &[1.0, -1.0, 0.5], 1.0, 0.1, 0.01).unwrap();
        close(out[1].0.as_f32().unwrap(), &[1.0, -1.0, 0.5]);
        close(out[0].0.as_f32().unwrap(), &[0.35, 0.4, 0.8, 0.9]);
        // Three bodies on one point: every difference is 0, so no NaN and no pull.
        let pos = [0.5, 0.5, 0.5, 1.0].repeat(3);
        let out = step(&pos, &[0.0; 9], 3.0, 0.1, 0.01).unwrap();
        assert_eq!(out[1].0.as_f32().unwrap(), [0.0; 9]);
        assert_eq!(out[0].0.as_f32().unwrap(), pos.as_slice());
    }

    #[test]
    fn a_case_that_disagrees_is_refused() {
        let pos = [0.1, 0.5, 0.5, 1.0, 0.5, 0.5, 0.5, 0.5];
        let vel = [0.0; 6];
        assert!(matches!(
            step(&pos, &vel, 3.0, 0.1, 0.09).unwrap_err(),
            ReferenceError::WrongLength { len: 8, want: 12, .. }
        ));
        assert!(matches!(
            step(&pos, &vel[..5], 2.0, 0.1, 0.09).unwrap_err(),
            ReferenceError::WrongLength { len: 5, want: 6, .. }
        ));
        assert!(matches!(
            step(&pos, &vel, 2.0, 0.1, 0.0).unwrap_err(),
            ReferenceError::UniformOutOfRange { .. }
        ));
        assert!(matches!(
            step(&pos, &vel, 0.0, 0.1, 0.09).unwrap_err(),
            ReferenceError::UniformOutOfRange { .. }
        ));
    }
}
