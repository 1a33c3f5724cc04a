//! View models of the grids the site draws: input, expected and actual
//! values laid out in rows, with mismatches marked.

use crate::judge::close;
use gpu_puzzles_core::format::{CompareSpec, WordFormat};
use gpu_puzzles_core::model::Values;

/// Columns per row when a 1-D buffer is wrapped.
pub const WRAP_COLUMNS: usize = 16;
/// Most cells a grid shows; longer buffers show their first cells and say how
/// many there are.
pub const MAX_CELLS: usize = 1024;

/// A grid ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// Rows of cells, each at most `cols` long (the last row of a wrapped 1-D
    /// buffer may be shorter).
    pub rows: Vec<Vec<Cell>>,
    /// Columns of the layout.
    pub cols: usize,
    /// True for a 2-D shape (rows are matrix rows); false for a wrapped 1-D
    /// buffer (each row starts with its first flat index).
    pub matrix: bool,
    /// Elements in the buffer (more than the cells shown when truncated).
    pub len: usize,
    /// A label such as `"4 × 4"` or `"10 elements"`.
    pub label: String,
    /// Number of mismatching cells in the whole buffer.
    pub mismatches: usize,
    /// For a matrix, the row and column of its first cell in the whole
    /// buffer: `(0, 0)`, except for a region of one
    /// ([`crate::image::region`]), whose headers count from there.
    pub origin: (usize, usize),
}

/// One cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// Flat, row-major index.
    pub index: usize,
    /// The value as text.
    pub text: String,
    /// When the cell differs from the expected value: the expected value as
    /// text.
    pub expected: Option<String>,
}

impl Grid {
    /// True when some elements are not shown.
    pub fn truncated(&self) -> bool {
        self.rows.iter().map(Vec::len).sum::<usize>() < self.len
    }
}

/// Lays out `values` as a grid: a `[rows, cols]` shape as a matrix, 1-D as
/// rows of [`WRAP_COLUMNS`]. When `expected` is given, cells whose value is
/// not close to it (under `compare`) carry the expected value.
pub fn grid(
    values: &Values,
    shape: Option<[u32; 2]>,
    expected: Option<&Values>,
    compare: CompareSpec,
) -> Grid {
    grid_as(values, shape, expected, compare, WordFormat::Number)
}

/// [`grid`], with each word of a `u32` buffer written as `format` says
/// ([`crate::words::word_text`]; the label says so). Values are compared
/// as words whatever the format.
pub fn grid_as(
    values: &Values,
    shape: Option<[u32; 2]>,
    expected: Option<&Values>,
    compare: CompareSpec,
    format: WordFormat,
) -> Grid {
    let text = |v: &Values, i: usize| match v {
        Values::U32(w) => crate::words::word_text(format, w[i]),
        _ => v.format(i),
    };
    let len = values.len();
    let (cols, matrix, label) = match shape {
        Some([r, c]) if (r as usize) * (c as usize) == len && c > 0 => {
            (c as usize, true, format!("{r} × {c}"))
        }
        _ => (
            len.clamp(1, WRAP_COLUMNS),
            false,
            if len == 1 { "1 element".into() } else { format!("{len} elements") },
        ),
    };
    let differs = |i: usize| -> Option<String> {
        let e = expected?;
        if i >= e.len() {
            return Some("nothing".into());
        }
        (!close(e.get(i), values.get(i), compare)).then(|| text(e, i))
    };
    let mismatches = match expected {
        Some(e) => (0..len).filter(|&i| differs(i).is_some()).count() + e.len().saturating_sub(len),
        None => 0,
    };
    let shown = len.min(MAX_CELLS);
    let rows = (0..shown)
        .collect::<Vec<_>>()
        .chunks(cols)
        .map(|chunk| {
            chunk
                .iter()
                .map(|&i| Cell { index: i, text: text(values, i), expected: differs(i) })
                .collect()
        })
        .collect();
    let label = match crate::words::describe(format).filter(|_| matches!(values, Values::U32(_))) {
        Some(what) => format!("{label}, {what}"),
        None => label,
    };
    Grid { rows, cols, matrix, len, label, mismatches, origin: (0, 0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_keep_their_shape() {
        let g = grid(
            &Values::F32((0..6).map(|x| x as f32).collect()),
            Some([2, 3]),
            None,
            CompareSpec::default(),
        );
        assert_eq!((g.rows.len(), g.cols, g.matrix, g.label.as_str()), (2, 3, true, "2 × 3"));
        assert_eq!(g.rows[1][0].index, 3);
    }

    #[test]
    fn long_arrays_wrap_and_truncate() {
        let g = grid(&Values::U32((0..40).collect()), None, None, CompareSpec::default());
        assert_eq!(g.rows.iter().map(Vec::len).collect::<Vec<_>>(), [16, 16, 8]);
        let big = grid(&Values::U32((0..5000).collect()), None, None, CompareSpec::default());
        assert!(big.truncated());
        assert_eq!(big.rows.iter().map(Vec::len).sum::<usize>(), MAX_CELLS);
    }

    #[test]
    fn mismatches_carry_the_expected_value() {
        let actual = Values::F32(vec![1.0, 5.0, 3.0]);
        let expected = Values::F32(vec![1.0, 2.0, 3.0]);
        let g = grid(&actual, None, Some(&expected), CompareSpec::default());
        assert_eq!(g.mismatches, 1);
        assert_eq!(g.rows[0][1].expected.as_deref(), Some("2"));
        assert_eq!(g.rows[0][0].expected, None);
    }
}
