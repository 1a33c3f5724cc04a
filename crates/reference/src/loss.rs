//! Training: the loss a model is trained on and its gradient, the start of
//! the backward pass. Like the kernels of modern models (`kernels`), these
//! compute in `f64` and round to `f32` once; their puzzles compare with a
//! tolerance derived in each `puzzle.toml` from WGSL's stated accuracy.

use crate::error::ReferenceError;
use crate::input::{check_dims, Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// Cross-entropy of a softmax over each row of logits, and its gradient
/// (Cross-Entropy, Forward and Backward). `z` is `rows × cols`, row-major
/// (needs `shape`); `labels` (`u32`) has one class per row, each below
/// `cols`. For row `r` with label `l = labels[r]` and maximum
/// `m = max_j z[r][j]`:
///
/// ```text
/// S[r]       = Σ_j exp(z[r][j] - m)
/// loss[r]    = log(S[r]) + m - z[r][l]              (= -log softmax(z[r])_l)
/// grad[r][j] = exp(z[r][j] - m) / S[r] - (j == l ? 1 : 0)
/// ```
///
/// `grad` is the derivative of `loss[r]` with respect to `z[r][j]`:
/// `softmax(z[r]) - onehot(l)`. Two outputs, in binding order: `loss`
/// (`rows` elements, shown as a column `rows × 1`) and `grad` (`z`'s
/// shape), each computed in `f64` and rounded to `f32` once. A `dims`
/// uniform, when the puzzle has one, must give the shape's `rows` and
/// `cols`. The form with the maximum subtracted is the one every framework
/// computes (the log-sum-exp trick); the loss is the negative
/// log-likelihood of the label under the softmax.
///
/// # Errors
/// A missing buffer or shape; [`ReferenceError::WrongLength`] for a
/// `labels` other than one per row; [`ReferenceError::IndexPastEnd`] for a
/// label not below `cols`; [`ReferenceError::UniformDisagrees`] for a
/// `dims` field that differs from the shape.
pub fn cross_entropy_rows(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (z, labels) = (input.f32("z")?, input.u32s("labels")?);
    let [rows, cols] = input.shape("z")?;
    check_dims(input, &[("rows", rows), ("cols", cols)])?;
    if labels.len() != rows {
        return Err(ReferenceError::WrongLength {
            name: "labels".to_string(),
            len: labels.len(),
            want: rows,
        });
    }
    if let Some(at) = labels.iter().position(|&l| l as usize >= cols) {
        return Err(ReferenceError::IndexPastEnd {
            name: "labels".to_string(),
            at,
            index: labels[at],
            len: cols,
        });
    }
    let (mut loss, mut grad) = (Vec::with_capacity(rows), Vec::with_capacity(rows * cols));
    for (row, &label) in z.chunks(cols.max(1)).take(rows).zip(labels) {
        let label = label as usize;
        let max = row.iter().fold(f64::NEG_INFINITY, |m, &x| m.max(f64::from(x)));
        let exps: Vec<f64> = row.iter().map(|&x| (f64::from(x) - max).exp()).collect();
        let sum: f64 = exps.iter().sum();
        loss.push((sum.ln() + max - f64::from(row[label])) as f32);
        grad.extend(
            exps.iter()
                .enumerate()
                .map(|(j, &e)| (e / sum - if j == label { 1.0 } else { 0.0 }) as f32),
        );
    }
    Ok(vec![
        (Values::F32(loss), Some([rows as u32, 1])),
        (Values::F32(grad), Some([rows as u32, cols as u32])),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    /// `cross_entropy_rows` on `z` of `shape` with `labels`: loss and grad.
    fn run(z: &[f32], shape: [u32; 2], labels: &[u32]) -> Result<Outputs, ReferenceError> {
        let config = CaseConfig {
            workgroup_size: [4, 1, 1],
            workgroups: [shape[0], 1, 1],
            workgroup_memory: None,
        };
        let (z, labels) = (Values::F32(z.to_vec()), Values::U32(labels.to_vec()));
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("z", (&z, Some(shape))), ("labels", (&labels, None))]),
            uniforms: BTreeMap::from([(
                "dims",
                BTreeMap::from([("rows", f64::from(shape[0])), ("cols", f64::from(shape[1]))]),
            )]),
            output_lens: BTreeMap::new(),
        };
        cross_entropy_rows(&input)
    }

    fn values(out: &Outputs) -> (Vec<f32>, Vec<f32>) {
        (out[0].0.as_f32().unwrap().to_vec(), out[1].0.as_f32().unwrap().to_vec())
    }

    #[test]
    fn the_worked_example_by_hand() {
        // The statement's row 1, 2, 3, 4 with label 2: m = 4, S = e^-3 + e^-2
        // + e^-1 + 1 = 1.55300, loss = log S + 4 - 3 = 1.44019 = -log p_2,
        // grad = p - (0, 0, 1, 0) = (0.03206, 0.08714, -0.76311, 0.64391).
        let out = run(&[1.0, 2.0, 3.0, 4.0], [1, 4], &[2]).unwrap();
        assert_eq!((out[0].1, out[1].1), (Some([1, 1]), Some([1, 4])));
        let (loss, grad) = values(&out);
        let s = (-3f64).exp() + (-2f64).exp() + (-1f64).exp() + 1.0;
        assert_eq!(loss, [(s.ln() + 1.0) as f32]);
        assert!((loss[0] - 1.44019).abs() < 1e-5);
        let want = [0.03206, 0.08714, -0.76311, 0.64391];
        for (g, w) in grad.iter().zip(want) {
            assert!((g - w).abs() < 1e-5, "{grad:?}");
        }
        // A gradient row sums to 0: the probabilities sum to 1, less the 1.
        assert!(grad.iter().map(|&g| f64::from(g)).sum::<f64>().abs() < 1e-7);
    }

    #[test]
    fn the_edges_of_the_statement() {
        // One column: p = 1, loss 0, grad 0. Equal logits: loss log(cols).
        let (loss, grad) = values(&run(&[-42.0], [1, 1], &[0]).unwrap());
        assert_eq!((loss, grad), (vec![0.0], vec![0.0]));
        let (loss, grad) = values(&run(&[7.0; 4], [1, 4], &[3]).unwrap());
        assert_eq!(loss, [4f64.ln() as f32]);
        assert_eq!(grad, [0.25, 0.25, 0.25, -0.75]);
        // Logits where exp overflows f32, and where it underflows: finite.
        let (loss, _) = values(&run(&[100.0, 99.0, -100.0, -99.0], [2, 2], &[1, 0]).unwrap());
        let l = (1.0 + (-1f64).exp()).ln();
        assert_eq!(loss, [(l + 1.0) as f32, (l + 1.0) as f32]);
        // The label's logit far below the maximum: a loss near 200, where
        // -log(p) in f32 would be -log(0) = inf.
        let (loss, grad) = values(&run(&[100.0, -100.0], [1, 2], &[1]).unwrap());
        assert_eq!(loss, [200.0]);
        assert_eq!(grad, [1.0, -1.0]);
    }

    #[test]
    fn it_says_what_a_case_gets_wrong() {
        assert!(matches!(
            run(&[1.0, 2.0], [1, 2], &[0, 0]),
            Err(ReferenceError::WrongLength { .. })
        ));
        assert_eq!(
            run(&[1.0, 2.0, 3.0, 4.0], [2, 2], &[1, 2]).unwrap_err(),
            ReferenceError::IndexPastEnd { name: "labels".to_string(), at: 1, index: 2, len: 2 }
        );
    }
}
