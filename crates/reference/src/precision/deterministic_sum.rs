//! The Same Answer Every Run (`deterministic-sum`): the sums of an array's
//! blocks and of the whole array. The puzzle compares with a tolerance
//! (any fixed order of `f32` additions passes) and asks, besides, for the
//! same bits on every Run (`deterministic = true` in its `puzzle.toml`),
//! which the judge checks by running the kernel again, not by these values.

use crate::error::ReferenceError;
use crate::input::{flat, Outputs, ReferenceInput};

/// Two outputs: `partials` of `⌈n / chunk⌉` elements, the sum of each block
/// of `chunk` consecutive elements of `x` (the last block holds what is
/// left), and `total` of 1 element, the sum of all of `x`:
///
/// ```text
/// partials[w] = x[w·chunk] + … + x[min((w + 1)·chunk, n) − 1]
/// total[0]    = x[0] + x[1] + … + x[n − 1]
/// ```
///
/// each summed in `f64` and rounded to `f32` once (for `n ≤ 2^20` values of
/// one sign the `f64` sum is within `(n − 1)·2^-53` of the exact one,
/// Higham, "Accuracy and Stability of Numerical Algorithms", eq. 4.4: far
/// inside the rounding to `f32`).
///
/// `n` is `x`'s length and `chunk` is the uniform `params.chunk`. Refused:
/// a case without `x` ([`ReferenceError::MissingInput`]) or whose `x` is
/// not `f32` ([`ReferenceError::WrongType`]), a `params.n` other than `x`'s
/// length ([`ReferenceError::UniformDisagrees`]), a missing `params.chunk`
/// ([`ReferenceError::MissingUniform`]) and one below 1
/// ([`ReferenceError::UniformOutOfRange`]).
pub fn sums_by_block(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let x = input.f32("x")?;
    let params = input.uniforms.get("params");
    if let Some(&n) = params.and_then(|p| p.get("n")) {
        if n != x.len() as f64 {
            return Err(ReferenceError::UniformDisagrees {
                field: "params.n".into(),
                given: n,
                from_shapes: x.len(),
            });
        }
    }
    let chunk = *params
        .and_then(|p| p.get("chunk"))
        .ok_or_else(|| ReferenceError::MissingUniform { name: "params.chunk".into() })?;
    if chunk < 1.0 || chunk.fract() != 0.0 {
        return Err(ReferenceError::UniformOutOfRange {
            field: "params.chunk".into(),
            want: "a whole number of elements, at least 1",
        });
    }
    let sum = |v: &[f32]| v.iter().map(|&v| f64::from(v)).sum::<f64>() as f32;
    let partials = x.chunks(chunk as usize).map(sum).collect();
    Ok(flat2(partials, vec![sum(x)]))
}

/// Two flat outputs, in the puzzle's binding order.
fn flat2(a: Vec<f32>, b: Vec<f32>) -> Outputs {
    let mut out = flat(a);
    out.extend(flat(b));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::{CaseConfig, Values};
    use std::collections::BTreeMap;

    fn run(x: &[f32], chunk: f64) -> Result<(Vec<f32>, Vec<f32>), ReferenceError> {
        let config =
            CaseConfig { workgroup_size: [4, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let values = Values::F32(x.to_vec());
        let params = BTreeMap::from([("n", x.len() as f64), ("chunk", chunk)]);
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("x", (&values, None))]),
            uniforms: BTreeMap::from([("params", params)]),
            output_lens: BTreeMap::new(),
        };
        let out = sums_by_block(&input)?;
        let f = |k: usize| out[k].0.as_f32().unwrap().to_vec();
        Ok((f(0), f(1)))
    }

    /// The statement's worked example: 1, 2^-24 and 2^-24 added left to
    /// right give 1 (each 2^-24 is half the spacing of `f32` at 1, a tie
    /// that rounds to the even 1), right to left 1 + 2^-23; the sum rounded
    /// once is the latter, and f32 holds it.
    #[test]
    fn the_worked_example_rounds_once() {
        let tiny = 2f32.powi(-24);
        assert_eq!((1.0 + tiny) + tiny, 1.0);
        assert_eq!(1.0 + (tiny + tiny), 1.0 + 2f32.powi(-23));
        let (partials, total) = run(&[1.0, 0.0, tiny, 0.0, tiny, 0.0, 0.5, 0.0], 2.0).unwrap();
        assert_eq!(partials, [1.0, tiny, tiny, 0.5]);
        assert_eq!(total, [1.5 + 2f32.powi(-23)]);
    }

    /// A ragged last block holds what is left.
    #[test]
    fn the_last_block_holds_the_rest() {
        let x: Vec<f32> = (1..=10).map(|v| v as f32).collect();
        let (partials, total) = run(&x, 4.0).unwrap();
        assert_eq!(partials, [10.0, 26.0, 19.0]);
        assert_eq!(total, [55.0]);
    }

    #[test]
    fn refuses_a_chunk_of_zero() {
        assert!(matches!(run(&[1.0], 0.0), Err(ReferenceError::UniformOutOfRange { .. })));
    }
}
