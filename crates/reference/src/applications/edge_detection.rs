//! Edge Detection: the Sobel gradient magnitude of a grey-scale picture,
//! with the picture's edge pixels repeated outward (clamp-to-edge).

use crate::error::ReferenceError;
use crate::input::{check_dims, shaped, Outputs, ReferenceInput};

/// The Sobel gradient magnitude of a grey-scale picture (Edge Detection).
/// `img` is `rows × cols`, row-major, with its `shape`, every value an
/// integer from 0 to 255; `out` has the same shape. With `p(y, x)` the pixel
/// at row `y`, column `x`, read at `(clamp(y, 0, rows − 1), clamp(x, 0,
/// cols − 1))` where it falls outside the picture (clamp-to-edge), and the
/// two 3 × 3 Sobel kernels (Sobel and Feldman, 1968), applied as written
/// (entry `[i][j]` weighs `p(y + i − 1, x + j − 1)`, not flipped):
///
/// ```text
///        | −1  0  1 |          | −1 −2 −1 |
///   Kx = | −2  0  2 |     Ky = |  0  0  0 |
///        | −1  0  1 |          |  1  2  1 |
///
/// gx = Σ_{i,j} Kx[i][j] · p(y + i − 1, x + j − 1)   (right minus left)
/// gy = Σ_{i,j} Ky[i][j] · p(y + i − 1, x + j − 1)   (below minus above)
/// out[y][x] = sqrt(gx² + gy²)
/// ```
///
/// `gx` and `gy` are integers of at most 4 · 255 = 1020 in magnitude, so
/// they and `gx² + gy²` (at most 2 · 1020² < 2²⁴) are computed exactly, in
/// integers; the square root is taken in `f64` and rounded to `f32` once.
///
/// # Errors
/// A missing or mistyped `img`, or one without a shape;
/// [`ReferenceError::WrongLength`] when `img` has another length than its
/// shape; [`ReferenceError::ValueOutOfRange`] at a value that is not an
/// integer from 0 to 255 (the puzzle's tolerance rests on exact gradients);
/// [`ReferenceError::UniformDisagrees`] where `dims.rows` or `dims.cols`
/// differs from the shape.
pub fn sobel_magnitude(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let img = input.f32("img")?;
    let [rows, cols] = input.shape("img")?;
    if img.len() != rows * cols {
        return Err(ReferenceError::WrongLength {
            name: "img".into(),
            len: img.len(),
            want: rows * cols,
        });
    }
    check_dims(input, &[("rows", rows), ("cols", cols)])?;
    let mut pixels = Vec::with_capacity(img.len());
    for (at, &v) in img.iter().enumerate() {
        if !(0.0..=255.0).contains(&v) || v.fract() != 0.0 {
            return Err(ReferenceError::ValueOutOfRange {
                name: "img".into(),
                at,
                value: f64::from(v),
                want: "an integer from 0 to 255",
            });
        }
        pixels.push(v as i64);
    }
    // The pixel at (y, x), clamped into the picture.
    let p = |y: isize, x: isize| -> i64 {
        let y = y.clamp(0, rows as isize - 1) as usize;
        let x = x.clamp(0, cols as isize - 1) as usize;
        pixels[y * cols + x]
    };
    const KX: [[i64; 3]; 3] = [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]];
    const KY: [[i64; 3]; 3] = [[-1, -2, -1], [0, 0, 0], [1, 2, 1]];
    let mut out = Vec::with_capacity(rows * cols);
    for y in 0..rows as isize {
        for x in 0..cols as isize {
            let (mut gx, mut gy) = (0i64, 0i64);
            for i in 0..3 {
                for j in 0..3 {
                    let v = p(y + i as isize - 1, x + j as isize - 1);
                    gx += KX[i][j] * v;
                    gy += KY[i][j] * v;
                }
            }
            out.push(((gx * gx + gy * gy) as f64).sqrt() as f32);
        }
    }
    Ok(shaped(out, rows, cols))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::{CaseConfig, Values};
    use std::collections::BTreeMap;

    /// `sobel_magnitude` on `img` of `shape`, with `dims` as given.
    fn sobel(img: &[f32], shape: [u32; 2], dims: [f64; 2]) -> Result<Outputs, ReferenceError> {
        let config =
            CaseConfig { workgroup_size: [4, 4, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let img = Values::F32(img.to_vec());
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("img", (&img, Some(shape)))]),
            uniforms: BTreeMap::from([(
                "dims",
                BTreeMap::from([("rows", dims[0]), ("cols", dims[1])]),
            )]),
            output_lens: BTreeMap::new(),
        };
        sobel_magnitude(&input)
    }

    fn values(out: &Outputs) -> Vec<f32> {
        out[0].0.as_f32().unwrap().to_vec()
    }

    #[test]
    fn the_statements_vertical_edge() {
        // Every row 0 0 10 10: gy = 0 (the rows are equal, and the clamp
        // repeats them above and below); gx = 4 · (right − left), the clamp
        // repeating the first and last columns: 4 · 0, 4 · 10, 4 · 10, 4 · 0.
        let row = [0.0, 0.0, 10.0, 10.0];
        let img: Vec<f32> = row.iter().cycle().take(12).copied().collect();
        let out = sobel(&img, [3, 4], [3.0, 4.0]).unwrap();
        assert_eq!(out[0].1, Some([3, 4]));
        assert_eq!(values(&out), [0.0, 40.0, 40.0, 0.0].repeat(3));
    }

    #[test]
    fn one_bright_pixel_reaches_its_diagonal_neighbours() {
        // A 1 in the middle of a 3 × 3 of zeros. The pixels beside it see it
        // through a weight of ±2 in one kernel and 0 in the other: 2. Each
        // corner sees it through ±1 in both: √2. The middle's own weight is 0
        // and its neighbours are all 0: 0.
        let img = [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0];
        let out = values(&sobel(&img, [3, 3], [3.0, 3.0]).unwrap());
        let r2 = std::f32::consts::SQRT_2;
        assert_eq!(out, [r2, 2.0, r2, 2.0, 0.0, 2.0, r2, 2.0, r2]);
    }

    #[test]
    fn a_single_pixel_and_the_steepest_edge() {
        // One pixel: every neighbour is itself, both gradients 0.
        assert_eq!(values(&sobel(&[255.0], [1, 1], [1.0, 1.0]).unwrap()), [0.0]);
        // A column of 0 then 255, two rows: gx = 4 · 255 at both, gy = 0.
        let out = values(&sobel(&[0.0, 255.0, 0.0, 255.0], [2, 2], [2.0, 2.0]).unwrap());
        assert_eq!(out, [1020.0; 4]);
        // A checkerboard corner: the largest magnitude is still exact input
        // to the square root (gx² + gy² < 2²⁴).
        let out = values(&sobel(&[0.0, 255.0, 255.0, 0.0], [2, 2], [2.0, 2.0]).unwrap());
        // At (0, 0): left column 0, 0, 255 (clamped rows −1, 0, 1); right
        // 255, 255, 0: gx = (255 − 0) + 2·(255 − 0) + (0 − 255) = 510;
        // gy by symmetry 510. √(2 · 510²) = 510·√2.
        assert_eq!(out[0], (510.0f64 * 2f64.sqrt()) as f32);
    }

    #[test]
    fn a_case_that_disagrees_is_refused() {
        let img = [0.0; 6];
        assert!(matches!(
            sobel(&img, [2, 3], [3.0, 2.0]).unwrap_err(),
            ReferenceError::UniformDisagrees { from_shapes: 2, .. }
        ));
        assert!(matches!(
            sobel(&img[..5], [2, 3], [2.0, 3.0]).unwrap_err(),
            ReferenceError::WrongLength { len: 5, want: 6, .. }
        ));
        for bad in [256.0, -1.0, 0.5] {
            let img = [0.0, 0.0, bad, 0.0];
            assert!(matches!(
                sobel(&img, [2, 2], [2.0, 2.0]).unwrap_err(),
                ReferenceError::ValueOutOfRange { at: 2, .. }
            ));
        }
    }
}
