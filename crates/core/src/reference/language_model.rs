//! Inside a language model: the kernels a decoder-only transformer runs for
//! every token. Like the chapter before (`kernels`), these compute in `f64`
//! and round to `f32` once, and their puzzles compare with a tolerance
//! derived in each `puzzle.toml`.

use super::{row_norm_eps, shaped, Outputs, ReferenceError, ReferenceInput};

/// RMSNorm with the residual add fused before it (RMS Norm): `x` and
/// `residual` are `rows × cols`, row-major (`x` gives the shape), `weight`
/// has `cols` elements, and `params` holds `eps` (and `cols`, which must
/// match the shape). For row `r` and column `c`:
///
/// ```text
/// h[r][c]   = residual[r][c] + x[r][c]                 (the new residual stream, f32)
/// ms[r]     = (h[r][0]² + … + h[r][cols-1]²) / cols    (mean square)
/// out[r][c] = h[r][c] / sqrt(ms[r] + eps) · weight[c]
/// ```
///
/// Two outputs, in binding order: `residual` holds `h` (the add is one
/// `f32` addition, rounded as the shader's is), and `out` the normalised
/// row, computed in `f64` from `h` and rounded to `f32` once. RMSNorm is
/// Zhang and Sennrich 2019, "Root Mean Square Layer Normalization", eq. 4
/// (without the optional bias), as LLaMA applies it before each sublayer;
/// `eps` is read as the shader reads it, an `f32`.
pub fn rms_norm_residual(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (x, residual, weight) = (input.f32("x")?, input.f32("residual")?, input.f32("weight")?);
    let [rows, cols] = input.shape("x")?;
    let eps = row_norm_eps(input, cols)?;
    if residual.len() != x.len() {
        return Err(ReferenceError::WrongLength { name: "residual".to_string(), len: residual.len(), want: x.len() });
    }
    if weight.len() != cols {
        return Err(ReferenceError::WrongLength { name: "weight".to_string(), len: weight.len(), want: cols });
    }
    let h: Vec<f32> = residual.iter().zip(x).map(|(&r, &x)| r + x).take(rows * cols).collect();
    let mut out = Vec::with_capacity(rows * cols);
    for row in h.chunks(cols.max(1)) {
        let ms = row.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() / cols as f64;
        let inv_rms = 1.0 / (ms + eps).sqrt();
        out.extend(row.iter().zip(weight).map(|(&v, &w)| (f64::from(v) * inv_rms * f64::from(w)) as f32));
    }
    let mut outputs = shaped(h, rows, cols);
    outputs.extend(shaped(out, rows, cols));
    Ok(outputs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CaseConfig, Values};
    use std::collections::BTreeMap;

    fn run(x: &[f32], residual: &[f32], weight: &[f32], shape: [u32; 2], eps: f64) -> Result<Outputs, ReferenceError> {
        let config = CaseConfig { workgroup_size: [4, 1, 1], workgroups: [shape[0], 1, 1], workgroup_memory: None };
        let (x, residual, weight) = (Values::F32(x.to_vec()), Values::F32(residual.to_vec()), Values::F32(weight.to_vec()));
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("x", (&x, Some(shape))), ("residual", (&residual, Some(shape))), ("weight", (&weight, None))]),
            uniforms: BTreeMap::from([("params", BTreeMap::from([("cols", f64::from(shape[1])), ("eps", eps)]))]),
            output_lens: BTreeMap::new(),
        };
        rms_norm_residual(&input)
    }

    #[test]
    fn rms_norm_adds_the_residual_then_divides_by_the_root_mean_square() {
        // Row 0: h = (1, 2, 2, 4) + (0, 1, -1, 0) = (1, 3, 1, 4), mean square
        // (1 + 9 + 1 + 16) / 4 = 6.75. Row 1: h = 0, so out = 0 (eps keeps
        // 0 / sqrt(0) from being NaN).
        let out = run(&[1.0, 2.0, 2.0, 4.0, 3.0, -3.0, 5.0, 0.0], &[0.0, 1.0, -1.0, 0.0, -3.0, 3.0, -5.0, 0.0], &[1.0, 2.0, 1.0, 0.5], [2, 4], 1e-5).unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!((out[0].1, out[1].1), (Some([2, 4]), Some([2, 4])));
        assert_eq!(out[0].0.as_f32().unwrap(), &[1.0, 3.0, 1.0, 4.0, 0.0, 0.0, 0.0, 0.0]);
        let rms = (6.75 + f64::from(1e-5f32)).sqrt();
        let want = [1.0 / rms, 6.0 / rms, 1.0 / rms, 2.0 / rms, 0.0, 0.0, 0.0, 0.0].map(|v| v as f32);
        assert_eq!(out[1].0.as_f32().unwrap(), &want);
        // No mean is subtracted: a constant row normalises to ±1 · weight.
        let out = run(&[2.0, 2.0, 2.0], &[3.0, 3.0, 3.0], &[1.0, 1.0, 3.0], [1, 3], 0.0).unwrap();
        assert_eq!(out[1].0.as_f32().unwrap(), &[1.0, 1.0, 3.0]);
    }

    #[test]
    fn rms_norm_says_what_a_case_gets_wrong() {
        assert!(matches!(run(&[1.0, 2.0], &[1.0], &[1.0, 1.0], [1, 2], 1e-5), Err(ReferenceError::WrongLength { .. })));
        assert!(matches!(run(&[1.0, 2.0], &[1.0, 2.0], &[1.0], [1, 2], 1e-5), Err(ReferenceError::WrongLength { .. })));
    }
}
