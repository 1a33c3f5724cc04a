//! Histogram Equalisation: the histogram of a grey-scale picture's 256
//! levels, its running total (the cumulative distribution), and the picture
//! with every level moved so that the levels spread over 0 to 255.

use crate::error::ReferenceError;
use crate::input::{Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// The levels a pixel may have, 0 to 255: the bins of `hist` and `cdf`.
const LEVELS: usize = 256;

/// Histogram equalisation of a grey-scale picture (Histogram Equalisation),
/// in exact `u32` arithmetic. `img` is `rows × cols`, row-major, with its
/// `shape`, every value an integer level from 0 to 255; `N = rows · cols`.
/// Three outputs, in binding order:
///
/// ```text
/// hist[l] = how many pixels have level l                  (256 elements)
/// cdf[l]  = hist[0] + hist[1] + … + hist[l]                (256 elements)
/// out[i]  = ((cdf[v] − m) · 255 + (N − m) / 2) / (N − m)   (img's shape)
/// ```
///
/// with `v = img[i]`, `m` the first non-zero entry of `cdf` (the count of
/// the darkest level present) and `/` integer division, rounding down: the
/// last line is `(cdf[v] − m) · 255 / (N − m)` rounded to the nearest
/// integer, halves up. It is the classic mapping (Gonzalez and Woods,
/// *Digital Image Processing*, "histogram equalization"; the form with
/// `cdf_min` is the one image libraries use): the darkest level present
/// becomes 0, the brightest 255, and each level in between moves to where
/// its share of the pixels at or below it puts it. When the picture has one
/// level only (`N = m`, the denominator 0), every pixel keeps its level.
///
/// Every quantity is an integer of at most `N · 255 + N / 2`, exact in
/// `u64` here, and below 2³² in the shader for every picture of at most
/// 16,843,009 pixels (the puzzle's are far smaller).
///
/// # Errors
/// A missing or mistyped `img`, or one without a shape;
/// [`ReferenceError::WrongLength`] when `img` has another length than its
/// shape, or is empty; [`ReferenceError::ValueOutOfRange`] at a level above
/// 255.
pub fn equalise_histogram(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let img = input.u32s("img")?;
    let [rows, cols] = input.shape("img")?;
    let n = img.len();
    if n != rows * cols || n == 0 {
        return Err(ReferenceError::WrongLength {
            name: "img".into(),
            len: n,
            want: (rows * cols).max(1),
        });
    }
    let mut hist = vec![0u32; LEVELS];
    for (at, &v) in img.iter().enumerate() {
        if v as usize >= LEVELS {
            return Err(ReferenceError::ValueOutOfRange {
                name: "img".into(),
                at,
                value: f64::from(v),
                want: "a level from 0 to 255",
            });
        }
        hist[v as usize] += 1;
    }
    let cdf: Vec<u32> = hist
        .iter()
        .scan(0u32, |total, &h| {
            *total += h;
            Some(*total)
        })
        .collect();
    // The first non-zero entry: there is one, since cdf[255] = N ≥ 1.
    let m = u64::from(cdf.iter().copied().find(|&c| c > 0).unwrap_or(0));
    let d = n as u64 - m;
    let out: Vec<u32> = img
        .iter()
        .map(|&v| {
            // A picture of one level (d = 0) keeps its levels.
            let c = u64::from(cdf[v as usize]) - m;
            (c * 255 + d / 2).checked_div(d).map_or(v, |x| x as u32)
        })
        .collect();
    Ok(vec![
        (Values::U32(hist), None),
        (Values::U32(cdf), None),
        (Values::U32(out), Some([rows as u32, cols as u32])),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    /// `equalise_histogram` on `img` of `shape`.
    fn equalise(img: &[u32], shape: [u32; 2]) -> Result<Outputs, ReferenceError> {
        let config = CaseConfig {
            workgroup_size: [256, 1, 1],
            workgroups: [1, 1, 1],
            workgroup_memory: None,
        };
        let img = Values::U32(img.to_vec());
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("img", (&img, Some(shape)))]),
            uniforms: BTreeMap::new(),
            output_lens: BTreeMap::new(),
        };
        equalise_histogram(&input)
    }

    fn u32s(out: &Outputs, k: usize) -> Vec<u32> {
        match &out[k].0 {
            Values::U32(v) => v.clone(),
            other => panic!("not u32: {other:?}"),
        }
    }

    #[test]
    fn the_statements_example() {
        // Levels 10, 10, 11, 13, 13, 13, 12, 12 (2 × 4): hist 2, 1, 2, 3 at
        // 10..=13; cdf 2, 3, 5, 8; m = 2, N − m = 6. Level 10: 0. Level 11:
        // (1·255 + 3) / 6 = 43 (42.5, half up). Level 12: (3·255 + 3) / 6 =
        // 128 (127.5 up). Level 13: (6·255 + 3) / 6 = 255.
        let img = [10, 10, 11, 13, 13, 13, 12, 12];
        let out = equalise(&img, [2, 4]).unwrap();
        let hist = u32s(&out, 0);
        assert_eq!(hist[10..14], [2, 1, 2, 3]);
        assert_eq!(hist.iter().sum::<u32>(), 8);
        let cdf = u32s(&out, 1);
        assert_eq!(cdf[9], 0);
        assert_eq!(cdf[10..14], [2, 3, 5, 8]);
        assert_eq!(cdf[255], 8);
        assert_eq!(u32s(&out, 2), [0, 0, 43, 255, 255, 255, 128, 128]);
        assert_eq!((out[0].1, out[1].1, out[2].1), (None, None, Some([2, 4])));
    }

    #[test]
    fn one_level_keeps_its_value_and_two_levels_spread_to_the_ends() {
        // One level: N = m, every pixel stays.
        let out = equalise(&[77; 6], [2, 3]).unwrap();
        assert_eq!(u32s(&out, 2), [77; 6]);
        assert_eq!(u32s(&out, 1)[77], 6);
        assert_eq!(equalise(&[0], [1, 1]).map(|o| u32s(&o, 2)).unwrap(), [0]);
        // Two levels: the darker becomes 0, the brighter 255.
        assert_eq!(u32s(&equalise(&[100, 101, 101], [1, 3]).unwrap(), 2), [0, 255, 255]);
    }

    #[test]
    fn a_bad_case_is_refused() {
        assert!(matches!(
            equalise(&[1, 2, 3], [2, 2]).unwrap_err(),
            ReferenceError::WrongLength { len: 3, want: 4, .. }
        ));
        assert!(matches!(
            equalise(&[1, 256, 3, 4], [2, 2]).unwrap_err(),
            ReferenceError::ValueOutOfRange { at: 1, .. }
        ));
    }
}
