//! Scans whose operator is not a sum: the linear recurrence
//! `h[t] = a[t] · h[t − 1] + b[t]` (Linear Recurrence), which a GPU runs as
//! a scan over pairs `(a, b)` composed as affine maps.
//!
//! Computed in `f64` along `t`, left to right, and rounded to `f32` once, so
//! the expected value is the `f32` nearest the exact one; a kernel combines
//! the pairs in a tree in `f32`, and the puzzle compares with a tolerance
//! derived in its `puzzle.toml` from the recurrence's condition.

use crate::error::ReferenceError;
use crate::input::{Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// The pair `(a, b)` composed after `(a0, b0)`: the map `h ↦ a·h + b`
/// applied to the result of `h ↦ a0·h + b0`, which is
/// `h ↦ (a·a0)·h + (a·b0 + b)`.
fn then((a0, b0): (f64, f64), (a, b): (f64, f64)) -> (f64, f64) {
    (a * a0, a * b0 + b)
}

/// The linear recurrence over `a` and `b` (`n` elements each), with two
/// outputs:
///
/// ```text
/// h[t]   = a[t] · h[t − 1] + b[t]   for t = 0 … n − 1, with h[−1] = 0
/// blocks = (A_w, B_w) for each workgroup w, row-major `groups × 2`
/// ```
///
/// where block `w` holds elements `w·W … w·W + W − 1` (below `n`) for the
/// case's `W = workgroup_size.x` and `groups = workgroups.x`, and
/// `(A_w, B_w)` is the composition of its pairs in order, from the identity
/// `(1, 0)`: `A_w` is the product of its `a`, `B_w` the recurrence run over
/// the block from `h = 0`. A block past `n` holds the identity `(1, 0)`.
/// Computed in `f64` in order of `t`, each value rounded to `f32` once.
///
/// # Errors
/// A missing buffer, [`ReferenceError::LengthsDiffer`] when `a` and `b`
/// differ in length, and [`ReferenceError::WrongLength`] when the
/// workgroups cannot cover `a` (`n` above `groups · W`, the `want` given).
pub fn linear_recurrence(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (a, b) = (input.f32("a")?, input.f32("b")?);
    if a.len() != b.len() {
        return Err(ReferenceError::LengthsDiffer { a: a.len(), b: b.len() });
    }
    let width = (input.config.workgroup_size[0] as usize).max(1);
    let groups = input.config.workgroups[0] as usize;
    if a.len() > groups * width {
        return Err(ReferenceError::WrongLength {
            name: "a".to_string(),
            len: a.len(),
            want: groups * width,
        });
    }
    let pairs: Vec<(f64, f64)> =
        a.iter().zip(b).map(|(&a, &b)| (f64::from(a), f64::from(b))).collect();
    let mut h = Vec::with_capacity(pairs.len());
    let mut state = 0.0;
    for &(a, b) in &pairs {
        state = a * state + b;
        h.push(state as f32);
    }
    let mut blocks = Vec::with_capacity(2 * groups);
    for w in 0..groups {
        let block = pairs.iter().skip(w * width).take(width);
        let (total_a, total_b) = block.fold((1.0, 0.0), |acc, &p| then(acc, p));
        blocks.extend([total_a as f32, total_b as f32]);
    }
    Ok(vec![(Values::F32(h), None), (Values::F32(blocks), Some([groups as u32, 2]))])
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    /// `linear_recurrence` on `a` and `b` in blocks of `width`, `groups`
    /// workgroups: `(h, blocks)`.
    fn run(
        a: &[f32],
        b: &[f32],
        width: u32,
        groups: u32,
    ) -> Result<(Vec<f32>, Vec<f32>), ReferenceError> {
        let config = CaseConfig {
            workgroup_size: [width, 1, 1],
            workgroups: [groups, 1, 1],
            workgroup_memory: None,
        };
        let (va, vb) = (Values::F32(a.to_vec()), Values::F32(b.to_vec()));
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("a", (&va, None)), ("b", (&vb, None))]),
            uniforms: BTreeMap::new(),
            output_lens: BTreeMap::new(),
        };
        let out = linear_recurrence(&input)?;
        assert_eq!(out[1].1, Some([groups, 2]));
        let values = |k: usize| out[k].0.as_f32().unwrap().to_vec();
        Ok((values(0), values(1)))
    }

    #[test]
    fn the_statements_example_by_hand() {
        // h = 1, 0.5·1 + 2 = 2.5, −2.5 + 0 = −2.5, 0 + 3 = 3 | 0.5·3 − 1 = 0.5,
        // 0.5 + 4 = 4.5, −0.5·4.5 + 1 = −1.25, −1·(−1.25) + 0.5 = 1.75.
        let a = [1.0, 0.5, -1.0, 0.0, 0.5, 1.0, -0.5, -1.0];
        let b = [1.0, 2.0, 0.0, 3.0, -1.0, 4.0, 1.0, 0.5];
        let (h, blocks) = run(&a, &b, 4, 2).unwrap();
        assert_eq!(h, [1.0, 2.5, -2.5, 3.0, 0.5, 4.5, -1.25, 1.75]);
        // Block 0 from 0: its product holds a 0, and B is h[3]. Block 1 from
        // 0: −1, 3, −0.5, 1; the product of its a is 0.25. Composing them in
        // order gives h's last value: 0.25 · 3 + 1 = 1.75.
        assert_eq!(blocks, [0.0, 3.0, 0.25, 1.0]);
        assert_eq!(then((0.0, 3.0), (0.25, 1.0)), (0.0, 1.75));
    }

    #[test]
    fn special_coefficients_give_copies_and_prefix_sums() {
        let b = [3.0, -1.0, 4.0, 1.0, -5.0];
        // a = 0: nothing is carried, h = b.
        assert_eq!(run(&[0.0; 5], &b, 2, 3).unwrap().0, b);
        // a = 1: a plain inclusive prefix sum of b.
        assert_eq!(run(&[1.0; 5], &b, 2, 3).unwrap().0, [3.0, 2.0, 6.0, 7.0, 2.0]);
        // a = −1: the sign of what is carried alternates.
        assert_eq!(run(&[-1.0; 5], &b, 2, 3).unwrap().0, [3.0, -4.0, 8.0, -7.0, 2.0]);
    }

    #[test]
    fn blocks_compose_in_order_and_unused_blocks_are_the_identity() {
        // Composition is not commutative: (2, 1) then (3, 0) is 3·(2h + 1)
        // = 6h + 3, while (3, 0) then (2, 1) is 2·3h + 1 = 6h + 1.
        assert_eq!(then((2.0, 1.0), (3.0, 0.0)), (6.0, 3.0));
        assert_eq!(then((3.0, 0.0), (2.0, 1.0)), (6.0, 1.0));
        // Three elements in blocks of 2, over 3 workgroups: the second block
        // is short (its one pair), the third empty.
        let (h, blocks) = run(&[2.0, 3.0, 0.5], &[1.0, 0.0, 4.0], 2, 3).unwrap();
        assert_eq!(h, [1.0, 3.0, 5.5]);
        assert_eq!(blocks, [6.0, 3.0, 0.5, 4.0, 1.0, 0.0]);
    }

    #[test]
    fn a_case_that_cannot_be_computed_is_refused() {
        assert_eq!(
            run(&[1.0; 3], &[1.0; 2], 4, 1).unwrap_err(),
            ReferenceError::LengthsDiffer { a: 3, b: 2 }
        );
        assert!(matches!(
            run(&[1.0; 9], &[1.0; 9], 4, 2).unwrap_err(),
            ReferenceError::WrongLength { len: 9, want: 8, .. }
        ));
    }
}
