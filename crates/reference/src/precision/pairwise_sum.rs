//! A Sum That Holds (`pairwise-sum`): the sum of an array of `f32`, as
//! exactly as `f32` can hold it. The puzzle compares with a relative
//! tolerance derived in its `puzzle.toml` from the error bound of pairwise
//! summation, which a running `f32` sum of a long array misses.

use crate::error::ReferenceError;
use crate::input::{flat, Outputs, ReferenceInput};

/// The sum of every element of `x`, in one output `total` of 1 element:
///
/// ```text
/// total[0] = x[0] + x[1] + … + x[n − 1]
/// ```
///
/// summed in `f64` and rounded to `f32` once. For the puzzle's inputs (at
/// most 2^20 elements, none negative) the `f64` sum's own error is at most
/// `(n − 1) · 2^-53 · Σ|x|` (Higham, "Accuracy and Stability of Numerical
/// Algorithms", eq. 4.4), below 2^-33 of the sum: far inside the rounding
/// to `f32`, so `total` is the exact sum correctly rounded except in the
/// rarest ties.
///
/// `n` is `x`'s length; a case whose uniform `params.n` differs is refused
/// ([`ReferenceError::UniformDisagrees`]), as is a case without `x`
/// ([`ReferenceError::MissingInput`]) or whose `x` is not `f32`
/// ([`ReferenceError::WrongType`]).
pub fn sum_rounded_once(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let x = input.f32("x")?;
    if let Some(&n) = input.uniforms.get("params").and_then(|p| p.get("n")) {
        if n != x.len() as f64 {
            return Err(ReferenceError::UniformDisagrees {
                field: "params.n".into(),
                given: n,
                from_shapes: x.len(),
            });
        }
    }
    let total: f64 = x.iter().map(|&v| f64::from(v)).sum();
    Ok(flat(vec![total as f32]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::{CaseConfig, Values};
    use std::collections::BTreeMap;

    /// `sum_rounded_once` of `x`, with `params.n = n` when given.
    fn run(x: Option<&[f32]>, n: Option<f64>) -> Result<Vec<f32>, ReferenceError> {
        let config = CaseConfig {
            workgroup_size: [64, 1, 1],
            workgroups: [1, 1, 1],
            workgroup_memory: None,
        };
        let values = x.map(|x| Values::F32(x.to_vec()));
        let input = ReferenceInput {
            config: &config,
            buffers: values.iter().map(|v| ("x", (v, None))).collect(),
            uniforms: n.map(|n| ("params", BTreeMap::from([("n", n)]))).into_iter().collect(),
            output_lens: BTreeMap::from([("total", 1)]),
        };
        let out = sum_rounded_once(&input)?;
        Ok(out[0].0.as_f32().unwrap().to_vec())
    }

    /// 2^24 and a thousand ones: an `f32` running sum stays at 2^24 (each
    /// `+ 1` rounds back to it, the spacing of `f32` there being 2), the
    /// sum is 16,778,216, which `f32` holds exactly.
    #[test]
    fn sums_what_a_running_f32_sum_loses() {
        let mut x = vec![16_777_216.0f32];
        x.extend(std::iter::repeat_n(1.0f32, 1000));
        let mut running = 0.0f32;
        for &v in &x {
            running += v;
        }
        assert_eq!(running, 16_777_216.0);
        assert_eq!(run(Some(&x), Some(1001.0)).unwrap(), [16_778_216.0]);
    }

    /// A million copies of `0.1f32`: `f64` gives the exact sum of the
    /// `f32` value (0.100000001490116…) times 2^20, rounded once.
    #[test]
    fn sums_a_fill_exactly() {
        let n = 1 << 20;
        let x = vec![0.1f32; n];
        let exact = f64::from(0.1f32) * n as f64;
        assert_eq!(run(Some(&x), Some(n as f64)).unwrap(), [exact as f32]);
    }

    #[test]
    fn refuses_a_length_the_uniform_contradicts() {
        let err = run(Some(&[1.0, 2.0]), Some(3.0)).unwrap_err();
        assert!(matches!(err, ReferenceError::UniformDisagrees { from_shapes: 2, .. }), "{err:?}");
    }

    #[test]
    fn refuses_a_case_without_x() {
        let err = run(None, Some(3.0)).unwrap_err();
        assert_eq!(err, ReferenceError::MissingInput { name: "x".into() });
    }
}
