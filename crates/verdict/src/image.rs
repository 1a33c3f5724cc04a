//! View models of the pictures the site draws: a 2-D buffer as an image
//! (grey scale for intensities, a diverging scale for signed values, colours
//! for RGBA8 pixels), the difference between an actual and an expected
//! image, and the numbers of a region of one as a grid.
//!
//! Pixels are RGBA, 8 bits a channel, row-major from the top-left element
//! (element `(r, c)` of a `[rows, cols]` buffer is pixel `(x = c, y = r)`),
//! the layout of the Canvas API's `ImageData` and of an RGBA PNG.

use crate::grid::{Cell, Grid};
use crate::judge::close;
use gpu_puzzles_core::format::{BufferView, CompareSpec};
use gpu_puzzles_core::model::Values;

/// Elements of a 2-D buffer above which it is drawn as an image rather than
/// as a grid of numbers: 32 × 32, the largest grid a student reads.
pub const IMAGE_ABOVE: usize = 32 * 32;

/// Rows and columns of the grid a region opens: 16 × 16 elements at most.
pub const REGION: usize = 16;

/// The colour of a NaN element (Okabe and Ito's reddish purple, `#cc79a7`:
/// on no scale here, and told apart by colour-blind readers).
pub const NAN_COLOUR: [u8; 3] = [0xcc, 0x79, 0xa7];
/// The colour of +∞ (Okabe and Ito's yellow, `#f0e442`).
pub const POS_INF_COLOUR: [u8; 3] = [0xf0, 0xe4, 0x42];
/// The colour of −∞ (Okabe and Ito's bluish green, `#009e73`).
pub const NEG_INF_COLOUR: [u8; 3] = [0x00, 0x9e, 0x73];
/// The colour of a wrong pixel in a difference image (Okabe and Ito's
/// vermilion, `#d55e00`, the site's mark for a mismatch).
pub const WRONG_COLOUR: [u8; 3] = [0xd5, 0x5e, 0x00];
/// The negative end of the diverging scale (Okabe and Ito's blue, `#0072b2`).
pub const NEGATIVE_COLOUR: [u8; 3] = [0x00, 0x72, 0xb2];
/// The positive end of the diverging scale (vermilion, as [`WRONG_COLOUR`]
/// is only used by difference images, which draw no diverging scale).
pub const POSITIVE_COLOUR: [u8; 3] = [0xd5, 0x5e, 0x00];

/// How values became colours: what the legend beside an image says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Palette {
    /// Black at `lo`, white at `hi`, linear between (values outside are
    /// clamped); `lo == hi` draws mid grey.
    Grey {
        /// The smallest finite value.
        lo: f64,
        /// The largest finite value.
        hi: f64,
    },
    /// Blue at `-bound`, white at 0, vermilion at `+bound`, linear between:
    /// for buffers holding values of both signs.
    Diverging {
        /// The largest finite magnitude.
        bound: f64,
    },
    /// Each `u32` is one pixel as WGSL's `pack4x8unorm(vec4f(r, g, b, a))`
    /// packs it: red in bits 0–7, green 8–15, blue 16–23, alpha 24–31. Drawn
    /// opaque (alpha is shown in the numbers, not blended).
    Rgba8,
    /// A difference image: matching pixels in a faded grey scale of the
    /// expected values (from `lo` to `hi`), wrong ones in [`WRONG_COLOUR`].
    Difference {
        /// The smallest finite expected value.
        lo: f64,
        /// The largest finite expected value.
        hi: f64,
    },
}

impl Palette {
    /// The legend in words, e.g. `"grey scale: black 0 … white 9"`.
    pub fn legend(&self) -> String {
        let f = |x: f64| gpu_puzzles_core::model::format_f32(x as f32);
        match *self {
            Palette::Grey { lo, hi } => format!("grey scale: black {} … white {}", f(lo), f(hi)),
            Palette::Diverging { bound } => {
                format!("blue {} … white 0 … orange {}", f(-bound), f(bound))
            }
            Palette::Rgba8 => {
                "RGBA8 pixels: pack4x8unorm(r, g, b, a), red in the lowest byte; drawn opaque"
                    .to_string()
            }
            Palette::Difference { lo, hi } => format!(
                "wrong pixels in orange; the others faded, grey scale {} … {}",
                f(lo),
                f(hi)
            ),
        }
    }
}

/// An image ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    /// Pixels across: the buffer's columns.
    pub width: usize,
    /// Pixels down: the buffer's rows.
    pub height: usize,
    /// `width × height` pixels, 4 bytes each (R, G, B, A), row-major.
    pub rgba: Vec<u8>,
    /// How the values became colours.
    pub palette: Palette,
    /// NaN elements, drawn in [`NAN_COLOUR`].
    pub nan: usize,
    /// Infinite elements, drawn in [`POS_INF_COLOUR`] or [`NEG_INF_COLOUR`].
    pub infinite: usize,
    /// For a difference image, the elements that differ (missing ones
    /// included); `None` otherwise.
    pub wrong: Option<usize>,
}

impl Image {
    /// What the image's counts say, e.g. `"3 NaN, 1 infinite"`; empty when
    /// every value is finite.
    pub fn special_counts(&self) -> String {
        let mut parts = Vec::new();
        if self.nan > 0 {
            parts.push(format!("{} NaN", self.nan));
        }
        if self.infinite > 0 {
            parts.push(format!("{} infinite", self.infinite));
        }
        parts.join(", ")
    }
}

/// True when `values`, with `shape`, are drawn as an image: a `[rows, cols]`
/// matrix (`rows × cols == len`) whose puzzle marks it (`view = "image"` or
/// `"rgba8"`), or, unmarked, an `f32` or `i32` matrix of more than
/// [`IMAGE_ABOVE`] elements with at least 16 along each side (a thinner one
/// reads better as numbers).
pub fn shows_image(view: BufferView, shape: Option<[u32; 2]>, values: &Values) -> bool {
    let Some([r, c]) = shape else { return false };
    let len = values.len();
    if r as usize * c as usize != len || len == 0 {
        return false;
    }
    match view {
        BufferView::Image | BufferView::Rgba8 => true,
        BufferView::Grid => false,
        BufferView::Auto => {
            !matches!(values, Values::U32(_)) && len > IMAGE_ABOVE && r.min(c) >= 16
        }
    }
}

/// True when a buffer also (or only) shows its grid of numbers: one not
/// drawn as an image, or a marked one small enough to read.
pub fn shows_grid(view: BufferView, shape: Option<[u32; 2]>, values: &Values) -> bool {
    !shows_image(view, shape, values) || values.len() <= IMAGE_ABOVE
}

fn put(rgba: &mut Vec<u8>, [r, g, b]: [u8; 3]) {
    rgba.extend_from_slice(&[r, g, b, 255]);
}

/// The colour of a non-finite value, counting it.
fn special(x: f64, nan: &mut usize, infinite: &mut usize) -> Option<[u8; 3]> {
    if x.is_nan() {
        *nan += 1;
        Some(NAN_COLOUR)
    } else if x.is_infinite() {
        *infinite += 1;
        Some(if x > 0.0 { POS_INF_COLOUR } else { NEG_INF_COLOUR })
    } else {
        None
    }
}

/// The finite values' smallest and largest, `(0, 0)` when there are none.
fn finite_range(values: &Values) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for i in 0..values.len() {
        let x = values.get(i);
        if x.is_finite() {
            lo = lo.min(x);
            hi = hi.max(x);
        }
    }
    if lo > hi {
        (0.0, 0.0)
    } else {
        (lo, hi)
    }
}

fn grey(x: f64, lo: f64, hi: f64) -> u8 {
    if hi > lo {
        (((x - lo) / (hi - lo)).clamp(0.0, 1.0) * 255.0).round() as u8
    } else {
        128
    }
}

fn mix(a: [u8; 3], b: [u8; 3], t: f64) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0);
    std::array::from_fn(|k| (a[k] as f64 + (b[k] as f64 - a[k] as f64) * t).round() as u8)
}

/// Draws `values`, a `[rows, cols]` buffer (`rows × cols == values.len()`,
/// else `None`), as `view` asks: RGBA8 pixels for `BufferView::Rgba8` (a
/// `u32` buffer), else a grey scale over the finite values' range when none
/// is negative and a diverging scale when some are. NaN and infinities get
/// colours of their own and are counted.
pub fn image(values: &Values, shape: [u32; 2], view: BufferView) -> Option<Image> {
    image_on(values, shape, view, None)
}

/// The fixed grey scale a buffer's manifest gives (`scale = [lo, hi]`),
/// for [`image_on`]; `None` where each image spans its own values.
pub fn scale_of(buffer: &gpu_puzzles_core::model::Buffer) -> Option<Palette> {
    buffer.scale.map(|[lo, hi]| Palette::Grey { lo, hi })
}

/// As [`image`], on the buffer's fixed scale where its manifest gives one
/// ([`scale_of`]).
pub fn image_of(
    values: &Values,
    shape: [u32; 2],
    buffer: &gpu_puzzles_core::model::Buffer,
) -> Option<Image> {
    image_on(values, shape, buffer.view, scale_of(buffer))
}

/// As [`image`], on the scale of `like` when it is a grey or diverging one
/// (an actual image drawn on its expected image's scale, so that the same
/// grey means the same value in both; values beyond it are clamped).
pub fn image_on(
    values: &Values,
    shape: [u32; 2],
    view: BufferView,
    like: Option<Palette>,
) -> Option<Image> {
    let [rows, cols] = shape.map(|x| x as usize);
    if rows * cols != values.len() || values.is_empty() {
        return None;
    }
    let mut rgba = Vec::with_capacity(values.len() * 4);
    let (mut nan, mut infinite) = (0, 0);
    let palette = match (view, values) {
        (BufferView::Rgba8, Values::U32(pixels)) => {
            for &p in pixels {
                let [r, g, b, _] = p.to_le_bytes();
                put(&mut rgba, [r, g, b]);
            }
            Palette::Rgba8
        }
        _ => {
            let (lo, hi) = finite_range(values);
            let palette = match like {
                Some(p @ (Palette::Grey { .. } | Palette::Diverging { .. })) => p,
                _ if lo < 0.0 => Palette::Diverging { bound: lo.abs().max(hi.abs()) },
                _ => Palette::Grey { lo, hi },
            };
            for i in 0..values.len() {
                let x = values.get(i);
                let colour = special(x, &mut nan, &mut infinite).unwrap_or_else(|| match palette {
                    Palette::Diverging { bound } if x < 0.0 => {
                        mix([255; 3], NEGATIVE_COLOUR, -x / bound.max(f64::MIN_POSITIVE))
                    }
                    Palette::Diverging { bound } => {
                        mix([255; 3], POSITIVE_COLOUR, x / bound.max(f64::MIN_POSITIVE))
                    }
                    Palette::Grey { lo, hi } => [grey(x, lo, hi); 3],
                    _ => [grey(x, lo, hi); 3],
                });
                put(&mut rgba, colour);
            }
            palette
        }
    };
    Some(Image { width: cols, height: rows, rgba, palette, nan, infinite, wrong: None })
}

/// The difference of `actual` from `expected` (both `[rows, cols]`): each
/// element that is not close under `compare` (or is missing from `actual`)
/// in [`WRONG_COLOUR`], NaN and infinities of `actual` in their colours,
/// the rest a faded grey scale of the expected values, so the wrong pixels
/// stand out where they are. Counts the wrong ones; `None` when `expected`
/// does not have the shape.
pub fn difference(
    actual: &Values,
    expected: &Values,
    shape: [u32; 2],
    compare: CompareSpec,
) -> Option<Image> {
    let [rows, cols] = shape.map(|x| x as usize);
    if rows * cols != expected.len() || expected.is_empty() {
        return None;
    }
    let (lo, hi) = finite_range(expected);
    let mut rgba = Vec::with_capacity(expected.len() * 4);
    let (mut nan, mut infinite, mut wrong) = (0, 0, 0);
    for i in 0..expected.len() {
        let e = expected.get(i);
        let right = i < actual.len() && close(e, actual.get(i), compare);
        let colour = if right {
            // Faded: a quarter of the way from white to the grey level.
            let g = grey(e, lo, hi);
            [(255.0 - (255.0 - g as f64) * 0.35).round() as u8; 3]
        } else {
            wrong += 1;
            let a = if i < actual.len() { actual.get(i) } else { 0.0 };
            special(a, &mut nan, &mut infinite).unwrap_or(WRONG_COLOUR)
        };
        put(&mut rgba, colour);
    }
    Some(Image {
        width: cols,
        height: rows,
        rgba,
        palette: Palette::Difference { lo, hi },
        nan,
        infinite,
        wrong: Some(wrong),
    })
}

/// The numbers of the region of a `[rows, cols]` buffer whose top-left
/// element is `(top, left)`: at most [`REGION`] × [`REGION`] elements, cut
/// at the buffer's edges, as a grid whose cells keep their flat indices in
/// the whole buffer. With `expected`, the cells not close to it (under
/// `compare`) carry the expected value, as in [`crate::grid::grid`].
pub fn region(
    values: &Values,
    shape: [u32; 2],
    expected: Option<&Values>,
    compare: CompareSpec,
    top: usize,
    left: usize,
) -> Grid {
    let [rows, cols] = shape.map(|x| x as usize);
    let top = top.min(rows.saturating_sub(1));
    let left = left.min(cols.saturating_sub(1));
    let bottom = (top + REGION).min(rows);
    let right = (left + REGION).min(cols);
    let mut mismatches = 0;
    let grid_rows = (top..bottom)
        .map(|r| {
            (left..right)
                .map(|c| {
                    let i = r * cols + c;
                    let differs = expected.and_then(|e| {
                        if i >= e.len() {
                            return None;
                        }
                        (i >= values.len() || !close(e.get(i), values.get(i), compare))
                            .then(|| e.format(i))
                    });
                    mismatches += usize::from(differs.is_some());
                    let text = if i < values.len() { values.format(i) } else { "—".into() };
                    Cell { index: i, text, expected: differs }
                })
                .collect()
        })
        .collect();
    Grid {
        rows: grid_rows,
        cols: right - left,
        matrix: true,
        len: (bottom - top) * (right - left),
        label: format!(
            "rows {}–{}, columns {}–{} of {rows} × {cols}",
            top,
            bottom.saturating_sub(1),
            left,
            right.saturating_sub(1)
        ),
        mismatches,
        origin: (top, left),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixel(img: &Image, x: usize, y: usize) -> [u8; 3] {
        let at = (y * img.width + x) * 4;
        [img.rgba[at], img.rgba[at + 1], img.rgba[at + 2]]
    }

    #[test]
    fn intensities_are_grey_from_the_smallest_to_the_largest() {
        let v = Values::F32(vec![0.0, 4.5, 9.0, 9.0, 0.0, 0.0]);
        let img = image(&v, [2, 3], BufferView::Grid).unwrap();
        assert_eq!((img.width, img.height, img.rgba.len()), (3, 2, 24));
        assert_eq!(img.palette, Palette::Grey { lo: 0.0, hi: 9.0 });
        assert_eq!(pixel(&img, 0, 0), [0; 3]);
        assert_eq!(pixel(&img, 1, 0), [128; 3]);
        assert_eq!(pixel(&img, 2, 0), [255; 3]);
        // Element (1, 0) is pixel (x 0, y 1).
        assert_eq!(pixel(&img, 0, 1), [255; 3]);
        assert_eq!(img.palette.legend(), "grey scale: black 0 … white 9");
    }

    #[test]
    fn an_actual_image_takes_its_expected_images_scale() {
        let expected = image(&Values::F32(vec![0.0, 10.0]), [1, 2], BufferView::Grid).unwrap();
        let actual = Values::F32(vec![5.0, 20.0]);
        let img = image_on(&actual, [1, 2], BufferView::Grid, Some(expected.palette)).unwrap();
        assert_eq!(img.palette, Palette::Grey { lo: 0.0, hi: 10.0 });
        assert_eq!(pixel(&img, 0, 0), [128; 3]);
        assert_eq!(pixel(&img, 1, 0), [255; 3], "beyond the scale, clamped");
    }

    #[test]
    fn signed_values_take_the_diverging_scale_around_zero() {
        let v = Values::F32(vec![-2.0, 0.0, 1.0, 2.0]);
        let img = image(&v, [2, 2], BufferView::Grid).unwrap();
        assert_eq!(img.palette, Palette::Diverging { bound: 2.0 });
        assert_eq!(pixel(&img, 0, 0), NEGATIVE_COLOUR);
        assert_eq!(pixel(&img, 1, 0), [255; 3]);
        assert_eq!(pixel(&img, 1, 1), POSITIVE_COLOUR);
    }

    #[test]
    fn packed_pixels_unpack_red_from_the_lowest_byte() {
        // pack4x8unorm(vec4f(1, 0.5, 0, 1)) = 0xff00_80ff.
        let v = Values::U32(vec![0xff00_80ff, 0x0000_0000]);
        let img = image(&v, [1, 2], BufferView::Rgba8).unwrap();
        assert_eq!(img.palette, Palette::Rgba8);
        assert_eq!(pixel(&img, 0, 0), [0xff, 0x80, 0x00]);
        assert_eq!(img.rgba[3], 255, "drawn opaque");
    }

    #[test]
    fn nan_and_infinities_get_their_own_colours_and_are_counted() {
        let v = Values::F32(vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1.0]);
        let img = image(&v, [2, 2], BufferView::Grid).unwrap();
        assert_eq!((img.nan, img.infinite), (1, 2));
        assert_eq!(pixel(&img, 0, 0), NAN_COLOUR);
        assert_eq!(pixel(&img, 1, 0), POS_INF_COLOUR);
        assert_eq!(pixel(&img, 0, 1), NEG_INF_COLOUR);
        assert_eq!(img.special_counts(), "1 NaN, 2 infinite");
        // Nothing finite but one value: no division by a zero range.
        let flat = image(&Values::F32(vec![f32::NAN, 3.0]), [1, 2], BufferView::Grid).unwrap();
        assert_eq!(pixel(&flat, 1, 0), [128; 3]);
    }

    #[test]
    fn a_difference_marks_the_wrong_pixels_and_counts_them() {
        let expected = Values::F32(vec![0.0, 1.0, 2.0, 3.0]);
        let actual = Values::F32(vec![0.0, 1.5, f32::NAN]);
        let img = difference(&actual, &expected, [2, 2], CompareSpec::default()).unwrap();
        // 1.5 is wrong, NaN is wrong, and the fourth element is missing.
        assert_eq!(img.wrong, Some(3));
        assert_eq!(img.nan, 1);
        assert_eq!(pixel(&img, 1, 0), WRONG_COLOUR);
        assert_eq!(pixel(&img, 0, 1), NAN_COLOUR);
        assert_eq!(pixel(&img, 1, 1), WRONG_COLOUR);
        assert_ne!(pixel(&img, 0, 0), WRONG_COLOUR);
    }

    #[test]
    fn large_matrices_and_marked_buffers_are_images() {
        let f = |n: usize| Values::F32(vec![0.0; n]);
        assert!(!shows_image(BufferView::Auto, Some([32, 32]), &f(1024)));
        assert!(shows_image(BufferView::Auto, Some([32, 33]), &f(1056)));
        assert!(!shows_grid(BufferView::Auto, Some([32, 33]), &f(1056)));
        // Thin matrices and u32 words (packed, indices) stay numbers.
        assert!(!shows_image(BufferView::Auto, Some([168, 8]), &f(1344)));
        assert!(!shows_image(BufferView::Auto, Some([40, 40]), &Values::U32(vec![0; 1600])));
        assert!(!shows_image(BufferView::Grid, Some([40, 40]), &f(1600)));
        assert!(shows_image(BufferView::Image, Some([4, 4]), &f(16)));
        assert!(shows_grid(BufferView::Image, Some([4, 4]), &f(16)));
        // A 1-D buffer is never an image, however long.
        assert!(!shows_image(BufferView::Image, None, &f(5000)));
    }

    #[test]
    fn a_region_opens_its_numbers_with_their_mismatches() {
        let expected = Values::F32((0..40 * 40).map(|x| x as f32).collect());
        let mut actual = expected.clone();
        if let Values::F32(v) = &mut actual {
            v[35 * 40 + 39] = -1.0;
        }
        let g = region(&actual, [40, 40], Some(&expected), CompareSpec::default(), 30, 30);
        // Cut at the edges: rows 30–39, columns 30–39.
        assert_eq!((g.rows.len(), g.cols, g.len), (10, 10, 100));
        assert_eq!(g.rows[0][0].index, 30 * 40 + 30);
        assert_eq!(g.mismatches, 1);
        assert_eq!(g.rows[5][9].expected.as_deref(), Some("1439"));
        assert_eq!(g.label, "rows 30–39, columns 30–39 of 40 × 40");
        assert_eq!(g.origin, (30, 30), "its headers count from the region's corner");
    }
}
