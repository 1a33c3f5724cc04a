//! Sampling the next token (Top-k Sampling): the last step of a language
//! model's decoding, which turns a row of logits into one token. The
//! selection is exact (logits are compared as the `f32` numbers they are,
//! ties broken by index); the probabilities are computed in `f64` and
//! rounded to `f32` once, so the puzzle compares them with a tolerance; and
//! the sampled token must not depend on rounding at all, so a case whose
//! random number lies near a cumulative probability is refused
//! ([`DRAW_MARGIN`]).

use crate::error::ReferenceError;
use crate::input::{Outputs, ReferenceInput};
use gpu_puzzles_values::Values;
use std::cmp::Ordering;

/// The largest `k` a case may ask for: the kernel keeps the top-k in arrays
/// of this size.
pub const MAX_K: usize = 64;

/// How far every random number `u[row]` must stay from every cumulative
/// probability `C_j` (`j < k - 1`) of its row, in the reference's exact
/// arithmetic, for the case to be valid. A conformant GPU's `exp`, its sums
/// in any order and its divisions move `C_j` by less than 1.6e-5 (the
/// derivation is in `puzzles/top-k-sampling/puzzle.toml`), so with this
/// margin every correct kernel picks the same token as the reference.
pub const DRAW_MARGIN: f64 = 1e-4;

/// Top-k sampling, one row of `logits` per sequence. `logits` is
/// `rows × vocab` (it gives the shape), `u` holds one number in `[0, 1)` per
/// row, and `params` holds `k` (1 to [`MAX_K`], at most `vocab`), a
/// `temperature` above 0, and `vocab`, which, where given, must match the
/// shape. For each row:
///
/// ```text
/// top[0..k]  = the k indices of the largest logits, by value descending,
///              equal values by index ascending
/// e[j]       = exp((logits[top[j]] - logits[top[0]]) / temperature)
/// p[j]       = e[j] / (e[0] + … + e[k-1])
/// token      = top[j] for the first j with p[0] + … + p[j] > u,
///              or top[k-1] when there is none
/// ```
///
/// Three outputs, in binding order: `topk_index` (`u32`, `rows × k`),
/// `topk_prob` (`rows × k`, computed in `f64` and rounded to `f32` once) and
/// `token` (`u32`, `rows`). The temperature is read as the shader reads it,
/// an `f32`.
///
/// # Errors
/// A missing buffer, shape or uniform field; [`ReferenceError::UniformOutOfRange`]
/// for a `k` or `temperature` outside what is allowed;
/// [`ReferenceError::UniformDisagrees`] for a `vocab` other than the shape's;
/// [`ReferenceError::WrongLength`] for a `u` other than one per row;
/// [`ReferenceError::ValueOutOfRange`] for a logit that is not finite or a
/// `u` outside `[0, 1)`; [`ReferenceError::DrawTooClose`] for a `u` within
/// [`DRAW_MARGIN`] of a cumulative probability.
pub fn top_k_sample(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (logits, u) = (input.f32("logits")?, input.f32("u")?);
    let [rows, vocab] = input.shape("logits")?;
    let params = input.uniforms.get("params");
    let field = |name: &str| {
        params
            .and_then(|p| p.get(name))
            .copied()
            .ok_or_else(|| ReferenceError::MissingUniform { name: format!("params.{name}") })
    };
    if let Some(&given) = params.and_then(|p| p.get("vocab")) {
        if given != vocab as f64 {
            return Err(ReferenceError::UniformDisagrees {
                field: "params.vocab".to_string(),
                given,
                from_shapes: vocab,
            });
        }
    }
    let k = field("k")?;
    if !(1.0..=MAX_K as f64).contains(&k) || k > vocab as f64 {
        return Err(ReferenceError::UniformOutOfRange {
            field: "params.k".to_string(),
            want: "from 1 to 64, and at most the vocabulary",
        });
    }
    let k = k as usize;
    let temperature = f64::from(field("temperature")? as f32);
    if !(temperature.is_finite() && temperature > 0.0) {
        return Err(ReferenceError::UniformOutOfRange {
            field: "params.temperature".to_string(),
            want: "a finite number above 0",
        });
    }
    if u.len() != rows {
        return Err(ReferenceError::WrongLength {
            name: "u".to_string(),
            len: u.len(),
            want: rows,
        });
    }
    if let Some(at) = logits.iter().position(|l| !l.is_finite()) {
        return Err(ReferenceError::ValueOutOfRange {
            name: "logits".to_string(),
            at,
            value: f64::from(logits[at]),
            want: "finite",
        });
    }
    if let Some(at) = u.iter().position(|x| !(0.0..1.0).contains(x)) {
        return Err(ReferenceError::ValueOutOfRange {
            name: "u".to_string(),
            at,
            value: f64::from(u[at]),
            want: "in [0, 1)",
        });
    }
    let (mut index, mut prob, mut token) =
        (Vec::with_capacity(rows * k), Vec::with_capacity(rows * k), Vec::with_capacity(rows));
    for (row, values) in logits.chunks(vocab.max(1)).take(rows).enumerate() {
        // Descending by value, equal values ascending by index: a total order,
        // since no logit is NaN (and -0 equals 0, as in WGSL's comparisons).
        let mut order: Vec<usize> = (0..vocab).collect();
        order.sort_by(|&a, &b| {
            values[b].partial_cmp(&values[a]).unwrap_or(Ordering::Equal).then(a.cmp(&b))
        });
        let top = &order[..k];
        let max = f64::from(values[top[0]]);
        let e: Vec<f64> =
            top.iter().map(|&c| ((f64::from(values[c]) - max) / temperature).exp()).collect();
        let total: f64 = e.iter().sum();
        let p: Vec<f64> = e.iter().map(|e| e / total).collect();
        let draw = f64::from(u[row]);
        let (mut cumulative, mut chosen) = (0.0, None);
        for (j, &pj) in p.iter().enumerate() {
            cumulative += pj;
            // No boundary but the last (1: u never reaches it, and past it the
            // walk falls back to the last entry anyway) may lie within the
            // margin of u, where a kernel whose sums round otherwise could
            // stop one entry earlier or later.
            if j + 1 < k && (draw - cumulative).abs() < DRAW_MARGIN {
                return Err(ReferenceError::DrawTooClose {
                    row,
                    u: u[row],
                    boundary: cumulative,
                    margin: DRAW_MARGIN,
                });
            }
            if chosen.is_none() && cumulative > draw {
                chosen = Some(top[j]);
            }
        }
        index.extend(top.iter().map(|&c| c as u32));
        prob.extend(p.iter().map(|&p| p as f32));
        token.push(chosen.unwrap_or(top[k - 1]) as u32);
    }
    let shape = Some([rows as u32, k as u32]);
    Ok(vec![(Values::U32(index), shape), (Values::F32(prob), shape), (Values::U32(token), None)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    /// `top_k_sample` on `logits` of `shape`, one `u` per row, and `params`
    /// of `k` and `temperature` (and `vocab` from the shape).
    fn sample(
        logits: &[f32],
        shape: [u32; 2],
        u: &[f32],
        k: f64,
        temperature: f64,
    ) -> Result<Outputs, ReferenceError> {
        let config = CaseConfig {
            workgroup_size: [4, 1, 1],
            workgroups: [shape[0], 1, 1],
            workgroup_memory: Some([4, 1, 1]),
        };
        let (logits, u) = (Values::F32(logits.to_vec()), Values::F32(u.to_vec()));
        let params = BTreeMap::from([
            ("vocab", f64::from(shape[1])),
            ("k", k),
            ("temperature", temperature),
        ]);
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("logits", (&logits, Some(shape))), ("u", (&u, None))]),
            uniforms: BTreeMap::from([("params", params)]),
            output_lens: BTreeMap::new(),
        };
        top_k_sample(&input)
    }

    /// The three outputs of a case that computes: indices, probabilities, tokens.
    fn outputs(out: &Outputs) -> (Vec<u32>, Vec<f32>, Vec<u32>) {
        let u32s = |v: &Values| match v {
            Values::U32(v) => v.clone(),
            other => panic!("not u32: {other:?}"),
        };
        (u32s(&out[0].0), out[1].0.as_f32().unwrap().to_vec(), u32s(&out[2].0))
    }

    #[test]
    fn top_k_keeps_the_largest_and_samples_by_the_cumulative_sum() {
        // Both rows are [1, 3, 0, 2]: the top 3 are indices 1, 3, 0 (logits
        // 3, 2, 1). At temperature 1 the weights are 1, e^-1, e^-2, which sum
        // to 1.503215: p = 0.665241, 0.244728, 0.090031, cumulative 0.665241,
        // 0.909969, 1. u = 0.7 passes the first, not the second: index 3.
        let out = sample(&[1.0, 3.0, 0.0, 2.0, 1.0, 3.0, 0.0, 2.0], [2, 4], &[0.7, 0.95], 3.0, 1.0)
            .unwrap();
        let (index, prob, token) = outputs(&out);
        assert_eq!((out[0].1, out[1].1, out[2].1), (Some([2, 3]), Some([2, 3]), None));
        assert_eq!(index, [1, 3, 0, 1, 3, 0]);
        for (got, want) in prob.iter().zip([0.665241, 0.244728, 0.090031]) {
            assert!((f64::from(*got) - want).abs() < 1e-6, "{prob:?}");
        }
        // 0.95 is past 0.909969: the last of the top 3, index 0.
        assert_eq!(token, [3, 0]);
        // Temperature 0.5 doubles the gaps: weights 1, e^-2, e^-4, p =
        // 0.866813, 0.117310, 0.015876, cumulative 0.866813, 0.984124. The
        // same u = 0.95 now stops at the second entry.
        let out = sample(&[1.0, 3.0, 0.0, 2.0], [1, 4], &[0.95], 3.0, 0.5).unwrap();
        let (_, prob, token) = outputs(&out);
        for (got, want) in prob.iter().zip([0.866813, 0.117310, 0.015876]) {
            assert!((f64::from(*got) - want).abs() < 1e-6, "{prob:?}");
        }
        assert_eq!(token, [3]);
        // u = 0 takes the first entry, whatever the probabilities.
        assert_eq!(
            outputs(&sample(&[1.0, 3.0, 0.0, 2.0], [1, 4], &[0.0], 3.0, 1.0).unwrap()).2,
            [1]
        );
    }

    #[test]
    fn equal_logits_go_by_index_inside_the_top_k_and_at_its_last_place() {
        // Three 5s (indices 1, 2, 4), then the 2s at 0 and 5 compete for the
        // fourth place: the smaller index, 0, takes it. Weights 1, 1, 1, e^-3:
        // cumulative 0.327892, 0.655783, 0.983675; u = 0.5 picks index 2.
        let out = sample(&[2.0, 5.0, 5.0, 1.0, 5.0, 2.0], [1, 6], &[0.5], 4.0, 1.0).unwrap();
        let (index, prob, token) = outputs(&out);
        assert_eq!(index, [1, 2, 4, 0]);
        assert_eq!(prob[0], prob[2]);
        assert_eq!(token, [2]);
        // -0 and 0 are equal logits: the smaller index first.
        assert_eq!(
            outputs(&sample(&[0.0, -0.0, 0.0], [1, 3], &[0.1], 2.0, 1.0).unwrap()).0,
            [0, 1]
        );
        // A row of equal logits: the first k indices, each 1 / k.
        let (index, prob, token) =
            outputs(&sample(&[0.25; 10], [1, 10], &[0.55], 4.0, 1.0).unwrap());
        assert_eq!((index, prob, token), (vec![0, 1, 2, 3], vec![0.25; 4], vec![2]));
    }

    #[test]
    fn k_of_one_is_greedy_and_k_of_the_vocabulary_orders_the_whole_row() {
        // k = 1: the largest logit has probability 1, whatever u is.
        let out = sample(&[-3.0, 7.5, 7.0, -20.0], [1, 4], &[0.999], 1.0, 1.0).unwrap();
        assert_eq!(outputs(&out), (vec![1], vec![1.0], vec![1]));
        // k = vocab: every index, in order; very negative logits are fine,
        // since only differences from the maximum reach exp.
        let out = sample(&[-20000.0, -20001.0, -19999.0], [1, 3], &[0.9], 3.0, 1.0).unwrap();
        let (index, _, token) = outputs(&out);
        assert_eq!(index, [2, 0, 1]);
        // Cumulative e^0, e^-1 over 1 + e^-1 + e^-2: 0.665241, 0.909969.
        assert_eq!(token, [0]);
        // The vocabulary of one token.
        assert_eq!(
            outputs(&sample(&[4.0], [1, 1], &[0.5], 1.0, 2.0).unwrap()),
            (vec![0], vec![1.0], vec![0])
        );
    }

    #[test]
    fn the_random_cases_draw_is_far_from_every_boundary_they_can_have() {
        // The generator's logits are integers and its temperature 1/32, so
        // any entry below the row's maximum weighs e^-32 or less: the
        // cumulative sums are j / g (g tied maxima, at most 64), give or
        // take 1e-12. Its u, 0.618034 as an f32, is far from all of them.
        let u = f64::from(0.618_034_f32);
        let nearest = (1..=MAX_K)
            .flat_map(|g| (0..=g).map(move |j| (u - j as f64 / g as f64).abs()))
            .fold(f64::INFINITY, f64::min);
        assert!(nearest > DRAW_MARGIN + 1e-9, "{nearest}");
    }

    #[test]
    fn top_k_says_what_a_case_gets_wrong() {
        let row = [1.0, 2.0, 3.0];
        let out_of_range = |r: Result<Outputs, ReferenceError>, name: &str| matches!(r, Err(ReferenceError::UniformOutOfRange { field, .. }) if field == name);
        assert!(out_of_range(sample(&row, [1, 3], &[0.5], 0.0, 1.0), "params.k"));
        assert!(out_of_range(sample(&row, [1, 3], &[0.5], 4.0, 1.0), "params.k"));
        assert!(out_of_range(sample(&[0.0; 70], [1, 70], &[0.5], 65.0, 1.0), "params.k"));
        assert!(out_of_range(sample(&row, [1, 3], &[0.5], 2.0, 0.0), "params.temperature"));
        assert!(out_of_range(sample(&row, [1, 3], &[0.5], 2.0, -1.0), "params.temperature"));
        assert!(matches!(
            sample(&row, [1, 3], &[0.5, 0.5], 2.0, 1.0),
            Err(ReferenceError::WrongLength { want: 1, .. })
        ));
        assert!(matches!(
            sample(&row, [1, 3], &[1.0], 2.0, 1.0),
            Err(ReferenceError::ValueOutOfRange { at: 0, .. })
        ));
        assert!(matches!(
            sample(&row, [1, 3], &[-0.25], 2.0, 1.0),
            Err(ReferenceError::ValueOutOfRange { at: 0, .. })
        ));
        assert!(matches!(
            sample(&[1.0, f32::NAN, 0.0], [1, 3], &[0.5], 2.0, 1.0),
            Err(ReferenceError::ValueOutOfRange { at: 1, .. })
        ));
        assert!(matches!(
            sample(&[1.0, 0.0, f32::NEG_INFINITY], [1, 3], &[0.5], 2.0, 1.0),
            Err(ReferenceError::ValueOutOfRange { at: 2, .. })
        ));
        // Two equal logits: the first boundary is exactly 0.5, and 0.50005 is
        // within the margin of it, so rounding could decide the token.
        assert!(matches!(
            sample(&[3.0, 3.0], [1, 2], &[0.5], 2.0, 1.0),
            Err(ReferenceError::DrawTooClose { row: 0, .. })
        ));
        assert!(matches!(
            sample(&[3.0, 3.0], [1, 2], &[0.500_05], 2.0, 1.0),
            Err(ReferenceError::DrawTooClose { .. })
        ));
        assert!(sample(&[3.0, 3.0], [1, 2], &[0.5002], 2.0, 1.0).is_ok());
        // The last boundary, 1, is never too close: past the others, the last entry.
        assert_eq!(
            outputs(&sample(&[3.0, 3.0], [1, 2], &[0.999_999_94], 2.0, 1.0).unwrap()).2,
            [1]
        );
        // params.vocab must match the shape.
        let config =
            CaseConfig { workgroup_size: [4, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let (logits, u) = (Values::F32(row.to_vec()), Values::F32(vec![0.5]));
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("logits", (&logits, Some([1, 3]))), ("u", (&u, None))]),
            uniforms: BTreeMap::from([(
                "params",
                BTreeMap::from([("vocab", 4.0), ("k", 2.0), ("temperature", 1.0)]),
            )]),
            output_lens: BTreeMap::new(),
        };
        assert!(matches!(
            top_k_sample(&input),
            Err(ReferenceError::UniformDisagrees { from_shapes: 3, .. })
        ));
        let input = ReferenceInput {
            uniforms: BTreeMap::from([(
                "params",
                BTreeMap::from([("vocab", 3.0), ("temperature", 1.0)]),
            )]),
            ..input
        };
        assert!(
            matches!(top_k_sample(&input), Err(ReferenceError::MissingUniform { name }) if name == "params.k")
        );
    }
}
