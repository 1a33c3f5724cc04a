//! Kernels of modern models: Softmax and Layer Norm, each a few reductions
//! over a row in workgroup memory, and Attention, which chains a matrix
//! product, a softmax and another product.
//!
//! Unlike the other chapters, these compute in `f64` and round to `f32`
//! once, so the expected value is the `f32` nearest the exact one: a kernel
//! may combine a row in any order, and `exp` and `inverseSqrt` are not
//! correctly rounded on a GPU, so their puzzles compare with a tolerance
//! derived in each `puzzle.toml` from WGSL's stated accuracy.

use crate::error::ReferenceError;
use crate::input::{check_dims, row_norm_eps, shaped, Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// The softmax of each row of `a` (shape `[rows, cols]`, row-major):
/// `out[r][c] = exp(a[r][c] - m_r) / Σ_j exp(a[r][j] - m_r)` with
/// `m_r = max_j a[r][j]`; `out` has `a`'s shape (Softmax).
///
/// Unlike the sums of the other chapters this is computed in `f64` and
/// rounded to `f32` once, so the expected value is the `f32` nearest the
/// exact one: no shader order is "the" order of an `exp` and a division, and
/// the puzzle compares with a tolerance for the GPU's `exp`, division and
/// `f32` sums instead. Subtracting `m_r` keeps every `exp` at most 1, as the
/// shader must. A `dims` uniform, when the puzzle has one, must give the
/// shape's `rows` and `cols`.
pub fn softmax_rows(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let [rows, cols] = input.shape("a")?;
    check_dims(input, &[("rows", rows), ("cols", cols)])?;
    let mut out = Vec::with_capacity(rows * cols);
    for row in a.chunks(cols.max(1)).take(rows) {
        let max = row.iter().fold(f64::NEG_INFINITY, |m, &x| m.max(f64::from(x)));
        let exps: Vec<f64> = row.iter().map(|&x| (f64::from(x) - max).exp()).collect();
        let sum: f64 = exps.iter().sum();
        out.extend(exps.iter().map(|&e| (e / sum) as f32));
    }
    Ok(shaped(out, rows, cols))
}

/// Layer normalization of every row of `a` (`shape = [rows, cols]`,
/// row-major), `rows × cols` elements in `a`'s shape (Layer Norm):
///
/// ```text
/// mean[r]   = Σ_c a[r][c] / cols
/// var[r]    = Σ_c (a[r][c] - mean[r])² / cols        (population variance)
/// out[r][c] = (a[r][c] - mean[r]) / sqrt(var[r] + eps) · gamma[c] + beta[c]
/// ```
///
/// `gamma` and `beta` have `cols` elements each. `eps` is the uniform field
/// `params.eps`, taken as the `f32` the shader receives; `params.cols`, when
/// the case gives it, must equal the shape's `cols`. Two passes in `f64`
/// (the mean, then the squared deviations from it), rounded to `f32` once.
///
/// # Errors
/// A missing buffer or shape, [`ReferenceError::MissingUniform`] without
/// `params.eps`, [`ReferenceError::UniformDisagrees`] when `params.cols` is
/// not the shape's `cols`, and [`ReferenceError::WrongLength`] when `gamma`
/// or `beta` does not have `cols` elements.
pub fn layer_norm_rows(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (a, gamma, beta) = (input.f32("a")?, input.f32("gamma")?, input.f32("beta")?);
    let [rows, cols] = input.shape("a")?;
    let eps = row_norm_eps(input, cols)?;
    for (name, v) in [("gamma", gamma), ("beta", beta)] {
        if v.len() != cols {
            return Err(ReferenceError::WrongLength {
                name: name.to_string(),
                len: v.len(),
                want: cols,
            });
        }
    }
    let n = cols as f64;
    let mut out = Vec::with_capacity(rows * cols);
    for row in a.chunks(cols.max(1)).take(rows) {
        let mean = row.iter().map(|&x| f64::from(x)).sum::<f64>() / n;
        let var = row.iter().map(|&x| (f64::from(x) - mean).powi(2)).sum::<f64>() / n;
        let inv_std = 1.0 / (var + eps).sqrt();
        out.extend(row.iter().zip(gamma).zip(beta).map(|((&x, &g), &b)| {
            ((f64::from(x) - mean) * inv_std * f64::from(g) + f64::from(b)) as f32
        }));
    }
    Ok(shaped(out, rows, cols))
}

/// Single-head scaled dot-product attention (Attention). `q`, `k` and `v`
/// are `n × d`, row-major, one row per position:
///
/// ```text
/// s[i][j]   = (Σ_c q[i][c] · k[j][c]) / sqrt(d)          (scores, n × n)
/// p[i][j]   = exp(s[i][j] - max_j s[i][j]) / Σ_j exp(…)   (row-wise softmax)
/// out[i][c] = Σ_j p[i][j] · v[j][c]                        (n × d)
/// ```
///
/// Two outputs, in binding order: `scores`, the attention weights `p`
/// (`n × n`), and `out` (`n × d`), each computed in `f64` and rounded to
/// `f32` once (Vaswani et al. 2017, "Attention Is All You Need", eq. 1).
///
/// # Errors
/// A missing buffer or shape; [`ReferenceError::WrongLength`] when `k` or `v`
/// does not have `q`'s `n × d` elements; [`ReferenceError::UniformDisagrees`]
/// when `dims.n` or `dims.d` differs from `q`'s shape.
pub fn attention(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (q, k, v) = (input.f32("q")?, input.f32("k")?, input.f32("v")?);
    let [n, d] = input.shape("q")?;
    for (name, x) in [("k", k), ("v", v)] {
        if x.len() != n * d {
            return Err(ReferenceError::WrongLength {
                name: name.to_string(),
                len: x.len(),
                want: n * d,
            });
        }
    }
    check_dims(input, &[("n", n), ("d", d)])?;
    let scale = 1.0 / (d as f64).sqrt();
    let (mut weights, mut out) = (Vec::with_capacity(n * n), Vec::with_capacity(n * d));
    for qi in q.chunks(d.max(1)).take(n) {
        let s: Vec<f64> = k
            .chunks(d.max(1))
            .take(n)
            .map(|kj| {
                qi.iter().zip(kj).map(|(&x, &y)| f64::from(x) * f64::from(y)).sum::<f64>() * scale
            })
            .collect();
        let max = s.iter().fold(f64::NEG_INFINITY, |m, &x| m.max(x));
        let e: Vec<f64> = s.iter().map(|&x| (x - max).exp()).collect();
        let total: f64 = e.iter().sum();
        let p: Vec<f64> = e.iter().map(|&x| x / total).collect();
        weights.extend(p.iter().map(|&x| x as f32));
        out.extend((0..d).map(|c| {
            p.iter().enumerate().map(|(j, &pj)| pj * f64::from(v[j * d + c])).sum::<f64>() as f32
        }));
    }
    Ok(vec![
        (Values::F32(weights), Some([n as u32, n as u32])),
        (Values::F32(out), Some([n as u32, d as u32])),
    ])
}

/// [`attention`]'s `out` alone (Fused Attention): `n × d`, in `q`'s shape,
/// for a kernel that never writes the `n × n` weights. Same formula, same
/// `f64` computation, same errors.
pub fn attention_out(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let mut outs = attention(input)?;
    Ok(vec![outs.remove(1)])
}

#[cfg(test)]
mod tests {
    use super::super::tests::run;
    use super::*;
    use gpu_puzzles_values::{CaseConfig, Values};
    use std::collections::BTreeMap;

    #[test]
    fn attention_of_equal_keys_averages_the_values() {
        // Every key equal: every score in a row is the same, so the weights are
        // 1/n and each output row is the mean of v's rows.
        let config =
            CaseConfig { workgroup_size: [1, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let (q, k, v) = (
            Values::F32(vec![1.0, 2.0, -3.0, 0.5, 4.0, 4.0]),
            Values::F32(vec![1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
            Values::F32(vec![1.0, 2.0, 3.0, 4.0, 8.0, 0.0]),
        );
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([
                ("q", (&q, Some([3, 2]))),
                ("k", (&k, Some([3, 2]))),
                ("v", (&v, Some([3, 2]))),
            ]),
            uniforms: BTreeMap::from([("dims", BTreeMap::from([("n", 3.0), ("d", 2.0)]))]),
            output_lens: BTreeMap::new(),
        };
        let outs = attention(&input).unwrap();
        assert_eq!(outs[0].1, Some([3, 3]));
        assert!(outs[0].0.as_f32().unwrap().iter().all(|&p| (p - 1.0 / 3.0).abs() < 1e-7));
        assert_eq!(outs[1].0.as_f32().unwrap(), [4.0, 2.0, 4.0, 2.0, 4.0, 2.0]);
        // One key far ahead takes (almost) all the weight: q·k/√d = 100/√2.
        let k2 = Values::F32(vec![0.0, 0.0, 50.0, 50.0, 0.0, 0.0]);
        let q2 = Values::F32(vec![1.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
        let input = ReferenceInput {
            buffers: BTreeMap::from([
                ("q", (&q2, Some([3, 2]))),
                ("k", (&k2, Some([3, 2]))),
                ("v", (&v, Some([3, 2]))),
            ]),
            ..input
        };
        let outs = attention(&input).unwrap();
        assert_eq!(outs[1].0.as_f32().unwrap()[..2], [3.0, 4.0]);
        let wrong = ReferenceInput {
            uniforms: BTreeMap::from([("dims", BTreeMap::from([("n", 3.0), ("d", 3.0)]))]),
            ..input
        };
        assert!(matches!(
            attention(&wrong).unwrap_err(),
            ReferenceError::UniformDisagrees { from_shapes: 2, .. }
        ));
    }

    #[test]
    fn softmax_rows_sum_to_one_and_survive_large_values() {
        // Row 0 is the statement's example. In row 1, exp(100) alone would
        // overflow f32 and exp(-100) underflow it; after subtracting the maximum
        // the two 100s share almost everything and -100 gets e^-200, which is 0
        // as an f32.
        let a = vec![1.0, 2.0, 3.0, 4.0, 90.0, 100.0, 100.0, -100.0];
        let out = run(softmax_rows, &[("a", a, Some([2, 4]))], 4);
        assert_eq!(out.len(), 8);
        for row in out.chunks(4) {
            assert!(row.iter().all(|x| x.is_finite() && (0.0..=1.0).contains(x)), "{row:?}");
            let sum: f32 = row.iter().sum();
            assert!((sum - 1.0).abs() < 1e-6, "{row:?} sums to {sum}");
        }
        let d = 1.0 + (-1f64).exp() + (-2f64).exp() + (-3f64).exp();
        for (c, x) in out[..4].iter().enumerate() {
            let want = (c as f64 - 3.0).exp() / d; // 0.0321, 0.0871, 0.2369, 0.6439
            assert!((f64::from(*x) - want).abs() < 1e-7, "column {c}: {x} for {want}");
        }
        let small = (-10f64).exp();
        assert!((f64::from(out[4]) - small / (2.0 + small)).abs() < 1e-11, "{}", out[4]);
        assert_eq!(out[5], out[6]);
        assert!((f64::from(out[5]) - 1.0 / (2.0 + small)).abs() < 1e-7, "{}", out[5]);
        assert_eq!(out[7], 0.0);
        // Equal values share evenly: 1 / cols each, whatever the value.
        assert_eq!(run(softmax_rows, &[("a", vec![7.0; 5], Some([1, 5]))], 1), [0.2f32; 5]);
        assert_eq!(run(softmax_rows, &[("a", vec![100.0; 4], Some([2, 2]))], 1), [0.5f32; 4]);
        // One column: always 1.
        assert_eq!(
            run(softmax_rows, &[("a", vec![-100.0, 0.0, 100.0], Some([3, 1]))], 1),
            [1.0f32; 3]
        );
    }

    #[test]
    fn softmax_rows_checks_dims_against_the_shape() {
        let config =
            CaseConfig { workgroup_size: [4, 1, 1], workgroups: [2, 1, 1], workgroup_memory: None };
        let a = Values::F32(vec![0.0; 6]);
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("a", (&a, Some([2, 3])))]),
            uniforms: BTreeMap::from([("dims", BTreeMap::from([("rows", 2.0), ("cols", 3.0)]))]),
            output_lens: BTreeMap::new(),
        };
        assert_eq!(
            softmax_rows(&input).unwrap()[0],
            (Values::F32(vec![1.0 / 3.0; 6]), Some([2, 3]))
        );
        let input = ReferenceInput {
            uniforms: BTreeMap::from([("dims", BTreeMap::from([("rows", 2.0), ("cols", 2.0)]))]),
            ..input
        };
        assert!(matches!(
            softmax_rows(&input).unwrap_err(),
            ReferenceError::UniformDisagrees { from_shapes: 3, .. }
        ));
        let unshaped = ReferenceInput { buffers: BTreeMap::from([("a", (&a, None))]), ..input };
        assert!(matches!(
            softmax_rows(&unshaped).unwrap_err(),
            ReferenceError::MissingShape { .. }
        ));
    }

    #[test]
    fn layer_norm_normalizes_each_row_then_scales_and_shifts() {
        let config =
            CaseConfig { workgroup_size: [4, 1, 1], workgroups: [2, 1, 1], workgroup_memory: None };
        let a = Values::F32(vec![1.0, 3.0, 5.0, 7.0, 2.0, 2.0, 2.0, 2.0]);
        let gamma = Values::F32(vec![1.0, 1.0, 2.0, 2.0]);
        let beta = Values::F32(vec![0.0, 0.0, 1.0, 1.0]);
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([
                ("a", (&a, Some([2, 4]))),
                ("gamma", (&gamma, None)),
                ("beta", (&beta, None)),
            ]),
            uniforms: BTreeMap::from([("params", BTreeMap::from([("cols", 4.0), ("eps", 1e-5)]))]),
            output_lens: BTreeMap::new(),
        };
        let out = layer_norm_rows(&input).unwrap();
        assert_eq!(out[0].1, Some([2, 4]));
        let v = out[0].0.as_f32().unwrap();
        // Row 0: mean 4 and variance 5 (divided by cols, not cols - 1), so
        // the normalized row is (-3, -1, 1, 3) / sqrt(5 + eps).
        let s = (5.0 + f64::from(1e-5f32)).sqrt();
        let want = [-3.0 / s, -1.0 / s, 2.0 / s + 1.0, 6.0 / s + 1.0];
        for (got, want) in v[..4].iter().zip(want) {
            assert!((f64::from(*got) - want).abs() < 1e-6, "{got} != {want}");
        }
        assert!((v[0] + 1.341_639_4).abs() < 1e-6, "{}", v[0]);
        // Row 1: all values equal, variance 0: eps keeps it finite, and the
        // output is beta exactly.
        assert_eq!(&v[4..], &[0.0, 0.0, 1.0, 1.0]);

        let uniforms = |fields: &[(&'static str, f64)]| {
            BTreeMap::from([("params", fields.iter().copied().collect::<BTreeMap<_, _>>())])
        };
        let no_eps = ReferenceInput { uniforms: uniforms(&[("cols", 4.0)]), ..input.clone() };
        assert_eq!(
            layer_norm_rows(&no_eps).unwrap_err(),
            ReferenceError::MissingUniform { name: "params.eps".to_string() }
        );
        let wrong_cols =
            ReferenceInput { uniforms: uniforms(&[("cols", 5.0), ("eps", 1e-5)]), ..input.clone() };
        assert!(matches!(
            layer_norm_rows(&wrong_cols).unwrap_err(),
            ReferenceError::UniformDisagrees { from_shapes: 4, .. }
        ));
        let short = Values::F32(vec![1.0, 1.0, 2.0]);
        let short_gamma = ReferenceInput {
            buffers: BTreeMap::from([
                ("a", (&a, Some([2, 4]))),
                ("gamma", (&short, None)),
                ("beta", (&beta, None)),
            ]),
            ..input
        };
        assert_eq!(
            layer_norm_rows(&short_gamma).unwrap_err(),
            ReferenceError::WrongLength { name: "gamma".to_string(), len: 3, want: 4 }
        );
    }
}
