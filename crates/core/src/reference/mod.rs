//! CPU reference functions: the specification of each puzzle, in Rust.
//!
//! A manifest names one of these in `reference = "…"`. Expected outputs come
//! from here (or from literal values in the manifest), never from a GPU run.
//! Every function sums in `f32`, left to right, the same order a straightforward
//! shader uses; the classic puzzles use integer-valued inputs, for which every
//! order gives the same exact result. The kernels of modern models
//! (`kernels`) and of a language model (`language_model`) compute in `f64`
//! instead (Rotary Embedding in `f32`, as its shader does), and compare
//! with a tolerance.
//!
//! The functions live in modules by chapter of the puzzle set, each a small
//! pure function with its formula; [`REFERENCES`] registers them all by the
//! name a manifest uses (and [`SAMPLED`] their per-element forms).

use crate::model::{Case, CaseConfig, Puzzle, Values};
use std::collections::BTreeMap;

mod basics;
mod error;
mod irregular;
mod kernels;
mod language_model;
mod matrices;
mod quantised;
mod reductions;
mod sampling;
mod stencils;

pub use basics::{add_ten, broadcast_add, window_sum_3, zip_add};
pub use error::ReferenceError;
pub use irregular::{compact_positive, radix_sort_u8_keys, sort_keys, spmv_csr};
pub use kernels::{attention, attention_out, layer_norm_rows, softmax_rows};
pub use language_model::{decode_attention, matvec_q8, rms_norm_residual, rope_neox};
pub use matrices::{matmul, matmul_at, matvec, transpose};
pub use quantised::matvec_q4;
pub use reductions::{
    block_inclusive_scan, block_max_broadcast, block_sum, dot, histogram, inclusive_scan,
    inclusive_scan_blocks, row_sum,
};
pub use sampling::top_k_sample;
pub use stencils::{box_blur_3x3, branch_hash, conv1d, conv1d_i32, conv2d, BRANCH_HASH_ROUNDS};

/// What a reference function sees of a case.
#[derive(Debug, Clone)]
pub struct ReferenceInput<'a> {
    /// The dispatch configuration.
    pub config: &'a CaseConfig,
    /// Input and input-output buffers by name: initial contents and display
    /// shape `[rows, cols]`.
    pub buffers: BTreeMap<&'a str, (&'a Values, Option<[u32; 2]>)>,
    /// Uniform field values by uniform name, then field name.
    pub uniforms: BTreeMap<&'a str, BTreeMap<&'a str, f64>>,
    /// Element counts of the outputs whose case gives a `len` or `shape`.
    pub output_lens: BTreeMap<&'a str, usize>,
}

impl<'a> ReferenceInput<'a> {
    /// What the reference sees of a case: its configuration, its input and
    /// input-output buffers (`buffers` and `contents` aligned, in binding
    /// order), the uniform values given, and the length of every output that
    /// has one (outputs of zero length are sized by the reference itself).
    pub fn new(
        config: &'a CaseConfig,
        buffers: &'a [crate::model::Buffer],
        contents: &'a [crate::model::CaseBuffer],
        uniforms: &'a BTreeMap<String, BTreeMap<String, f64>>,
    ) -> Self {
        let pairs = || buffers.iter().zip(contents);
        ReferenceInput {
            config,
            buffers: pairs()
                .filter(|(b, _)| b.role != crate::Role::Output)
                .map(|(b, c)| (b.name.as_str(), (&*c.initial, c.shape)))
                .collect(),
            uniforms: uniforms
                .iter()
                .map(|(u, f)| (u.as_str(), f.iter().map(|(k, v)| (k.as_str(), *v)).collect()))
                .collect(),
            output_lens: pairs()
                .filter(|(b, c)| b.role == crate::Role::Output && !c.initial.is_empty())
                .map(|(b, c)| (b.name.as_str(), c.initial.len()))
                .collect(),
        }
    }

    /// What the reference sees of a loaded case ([`ReferenceInput::new`]).
    pub fn for_case(
        puzzle: &'a Puzzle,
        case: &'a Case,
        uniforms: &'a BTreeMap<String, BTreeMap<String, f64>>,
    ) -> Self {
        Self::new(&case.config, &puzzle.buffers, &case.buffers, uniforms)
    }

    /// The `u32` contents of input `name`.
    ///
    /// # Errors
    /// [`ReferenceError::MissingInput`] or [`ReferenceError::WrongType`].
    pub fn u32s(&self, name: &str) -> Result<&'a [u32], ReferenceError> {
        match self.buffers.get(name) {
            Some((Values::U32(v), _)) => Ok(v),
            Some(_) => Err(ReferenceError::WrongType { name: name.to_string(), wanted: "u32" }),
            None => Err(ReferenceError::MissingInput { name: name.to_string() }),
        }
    }

    /// The `i32` contents of input `name`.
    ///
    /// # Errors
    /// [`ReferenceError::MissingInput`] or [`ReferenceError::WrongType`].
    pub fn i32s(&self, name: &str) -> Result<&'a [i32], ReferenceError> {
        match self.buffers.get(name) {
            Some((Values::I32(v), _)) => Ok(v),
            Some(_) => Err(ReferenceError::WrongType { name: name.to_string(), wanted: "i32" }),
            None => Err(ReferenceError::MissingInput { name: name.to_string() }),
        }
    }

    /// The element count the case gives output `name` (`len` or `shape`).
    ///
    /// # Errors
    /// [`ReferenceError::MissingOutputLen`] when the case gives none.
    pub fn output_len(&self, name: &str) -> Result<usize, ReferenceError> {
        self.output_lens
            .get(name)
            .copied()
            .ok_or_else(|| ReferenceError::MissingOutputLen { name: name.to_string() })
    }

    /// The `f32` contents of input `name`.
    ///
    /// # Errors
    /// [`ReferenceError::MissingInput`] or [`ReferenceError::WrongType`].
    pub fn f32(&self, name: &str) -> Result<&'a [f32], ReferenceError> {
        let (values, _) = self
            .buffers
            .get(name)
            .ok_or_else(|| ReferenceError::MissingInput { name: name.to_string() })?;
        values
            .as_f32()
            .ok_or_else(|| ReferenceError::WrongType { name: name.to_string(), wanted: "f32" })
    }

    /// The `[rows, cols]` shape of input `name`.
    ///
    /// # Errors
    /// [`ReferenceError::MissingInput`] or [`ReferenceError::MissingShape`].
    pub fn shape(&self, name: &str) -> Result<[usize; 2], ReferenceError> {
        match self.buffers.get(name) {
            Some((_, Some([r, c]))) => Ok([*r as usize, *c as usize]),
            Some(_) => Err(ReferenceError::MissingShape { name: name.to_string() }),
            None => Err(ReferenceError::MissingInput { name: name.to_string() }),
        }
    }
}

/// A reference function: the expected contents of every compared buffer
/// (outputs and input-outputs), in binding order, with their display shapes.
///
/// # Errors
/// [`ReferenceError`]: what the case lacks (a buffer, a shape) or gets wrong.
pub type ReferenceFn = fn(&ReferenceInput) -> Result<Outputs, ReferenceError>;

/// Expected contents of each compared buffer, in binding order, with the
/// display shape `[rows, cols]` the reference gives it (if any).
pub type Outputs = Vec<(Values, Option<[u32; 2]>)>;

/// A reference function's per-element form, for cases too large to compute
/// whole on the CPU (a performance case's `sample`): the expected value of
/// each of `elements` (indices into the buffer, row-major), for every
/// compared buffer in binding order; `out[b][j]` is buffer `b`'s element
/// `elements[j]`. Must give exactly what the whole function gives there.
///
/// # Errors
/// As [`ReferenceFn`], and an element past the buffer's end.
pub type SampleFn = fn(&ReferenceInput, elements: &[usize]) -> Result<Vec<Values>, ReferenceError>;

/// A puzzle's reference: the whole function, and its per-element form when
/// it has one.
#[derive(Debug, Clone, Copy)]
pub struct Reference {
    /// The expected contents of every compared buffer.
    pub all: ReferenceFn,
    /// The expected values of chosen elements, for sampled cases.
    pub at: Option<SampleFn>,
}

/// Every reference function by the name a manifest uses.
pub const REFERENCES: &[(&str, ReferenceFn)] = &[
    ("add_ten", add_ten),
    ("zip_add", zip_add),
    ("broadcast_add", broadcast_add),
    ("window_sum_3", window_sum_3),
    ("dot", dot),
    ("conv1d", conv1d),
    ("block_sum", block_sum),
    ("row_sum", row_sum),
    ("matmul", matmul),
    ("inclusive_scan", inclusive_scan),
    ("inclusive_scan_blocks", inclusive_scan_blocks),
    ("block_inclusive_scan", block_inclusive_scan),
    ("block_max_broadcast", block_max_broadcast),
    ("histogram", histogram),
    ("box_blur_3x3", box_blur_3x3),
    ("branch_hash", branch_hash),
    ("softmax_rows", softmax_rows),
    ("layer_norm_rows", layer_norm_rows),
    ("rms_norm_residual", rms_norm_residual),
    ("rope_neox", rope_neox),
    ("matvec_q8", matvec_q8),
    ("matvec_q4", matvec_q4),
    ("decode_attention", decode_attention),
    ("top_k_sample", top_k_sample),
    ("attention", attention),
    ("attention_out", attention_out),
    ("conv1d_i32", conv1d_i32),
    ("conv2d", conv2d),
    ("matvec", matvec),
    ("transpose", transpose),
    ("compact_positive", compact_positive),
    ("spmv_csr", spmv_csr),
    ("radix_sort_u8_keys", radix_sort_u8_keys),
    ("sort_keys", sort_keys),
];

/// The reference functions that also have a per-element form, by name.
pub const SAMPLED: &[(&str, SampleFn)] = &[("matmul", matmul_at)];

/// The reference called `name`, with its per-element form when it has one.
pub fn lookup(name: &str) -> Option<Reference> {
    let all = REFERENCES.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)?;
    Some(Reference { all, at: SAMPLED.iter().find(|(n, _)| *n == name).map(|(_, f)| *f) })
}

/// Checks the fields of the `dims` uniform, when the puzzle has one, against
/// the sizes the buffers' shapes give: `want` pairs a field name with its size.
/// A field the case leaves out is not checked.
///
/// # Errors
/// [`ReferenceError::UniformDisagrees`] at the first field that differs.
pub(crate) fn check_dims(
    input: &ReferenceInput,
    want: &[(&str, usize)],
) -> Result<(), ReferenceError> {
    let Some(dims) = input.uniforms.get("dims") else { return Ok(()) };
    for &(name, size) in want {
        if let Some(&given) = dims.get(name) {
            if given != size as f64 {
                return Err(ReferenceError::UniformDisagrees {
                    field: format!("dims.{name}"),
                    given,
                    from_shapes: size,
                });
            }
        }
    }
    Ok(())
}

pub(crate) fn flat(v: Vec<f32>) -> Outputs {
    vec![(Values::F32(v), None)]
}

/// The `eps` of a row normalisation's `params` uniform, as the shader reads
/// it (an `f32`: 0.00001 arrives as 1.0000000e-5, not the `f64` written in
/// the manifest), after checking that `params.cols`, if given, is the
/// shape's `cols`. Layer Norm and RMS Norm.
pub(crate) fn row_norm_eps(input: &ReferenceInput, cols: usize) -> Result<f64, ReferenceError> {
    let params = input.uniforms.get("params");
    let eps = params
        .and_then(|p| p.get("eps"))
        .ok_or_else(|| ReferenceError::MissingUniform { name: "params.eps".to_string() })?;
    if let Some(&given) = params.and_then(|p| p.get("cols")) {
        if given != cols as f64 {
            return Err(ReferenceError::UniformDisagrees {
                field: "params.cols".to_string(),
                given,
                from_shapes: cols,
            });
        }
    }
    Ok(f64::from(*eps as f32))
}

pub(crate) fn shaped(v: Vec<f32>, rows: usize, cols: usize) -> Outputs {
    vec![(Values::F32(v), Some([rows as u32, cols as u32]))]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An `f32` input: its name, values and shape.
    pub(super) type Input = (&'static str, Vec<f32>, Option<[u32; 2]>);

    /// `f` on `f32` inputs, with no uniforms: the first output's values.
    pub(super) fn run(f: ReferenceFn, bufs: &[Input], wg: u32) -> Vec<f32> {
        let config = CaseConfig {
            workgroup_size: [wg, 1, 1],
            workgroups: [1, 1, 1],
            workgroup_memory: None,
        };
        let values: Vec<_> =
            bufs.iter().map(|(n, v, s)| (*n, Values::F32(v.clone()), *s)).collect();
        let input = ReferenceInput {
            config: &config,
            buffers: values.iter().map(|(n, v, s)| (*n, (v, *s))).collect(),
            uniforms: BTreeMap::new(),
            output_lens: BTreeMap::from([("bins", 4)]),
        };
        f(&input).unwrap()[0].0.as_f32().unwrap().to_vec()
    }

    #[test]
    fn broadcast_adds_a_row_index_to_a_column_index() {
        let out = run(
            broadcast_add,
            &[("a", vec![1.0, 2.0], None), ("b", vec![10.0, 20.0, 30.0], None)],
            1,
        );
        assert_eq!(out, [11.0, 21.0, 31.0, 12.0, 22.0, 32.0]);
    }

    #[test]
    fn matmul_handles_non_square_shapes() {
        let a = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; // 2×3
        let b = vec![1.0, 0.0, 0.0, 1.0, 1.0, 1.0]; // 3×2
        let out = run(matmul, &[("a", a, Some([2, 3])), ("b", b, Some([3, 2]))], 1);
        assert_eq!(out, [4.0, 5.0, 10.0, 11.0]);
    }

    #[test]
    fn every_per_element_form_agrees_with_its_whole_function() {
        // Non-integer inputs, so that a different summation order would show.
        let a: Vec<f32> = (0..35).map(|i| (i as f32 * 0.37).sin() * 3.1).collect();
        let b: Vec<f32> = (0..63).map(|i| (i as f32 * 0.91).cos() / 1.7).collect();
        let config =
            CaseConfig { workgroup_size: [1, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let (va, vb) = (Values::F32(a), Values::F32(b));
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("a", (&va, Some([5, 7]))), ("b", (&vb, Some([7, 9])))]),
            uniforms: BTreeMap::new(),
            output_lens: BTreeMap::new(),
        };
        for (name, at) in SAMPLED {
            let whole = lookup(name).unwrap().all;
            let all = whole(&input).unwrap();
            let elements: Vec<usize> = (0..all[0].0.len()).rev().collect();
            let some = at(&input, &elements).unwrap();
            assert_eq!(some.len(), all.len(), "{name}");
            for (s, (w, _)) in some.iter().zip(&all) {
                for (j, &e) in elements.iter().enumerate() {
                    assert_eq!(s.get(j).to_bits(), w.get(e).to_bits(), "{name}: element {e}");
                }
            }
            assert!(
                at(&input, &[all[0].0.len()]).is_err(),
                "{name}: an element past the end is an error"
            );
        }
    }

    #[test]
    fn matvec_and_transpose_follow_row_major_shapes() {
        let a = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; // 2×3
        assert_eq!(
            run(matvec, &[("a", a.clone(), Some([2, 3])), ("x", vec![1.0, 0.0, -1.0], None)], 1),
            [-2.0, -2.0]
        );
        assert_eq!(run(transpose, &[("a", a, Some([2, 3]))], 1), [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    }

    #[test]
    fn conv1d_i32_sums_in_wrapping_integers() {
        let config =
            CaseConfig { workgroup_size: [1, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let (a, b) = (Values::I32(vec![1, 2, 3, i32::MAX]), Values::I32(vec![1, -1]));
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("a", (&a, None)), ("b", (&b, None))]),
            uniforms: BTreeMap::new(),
            output_lens: BTreeMap::new(),
        };
        assert_eq!(
            conv1d_i32(&input).unwrap()[0].0,
            Values::I32(vec![-1, -1, 3 - i32::MAX, i32::MAX])
        );
    }

    #[test]
    fn conv2d_centres_the_filter_and_pads_with_zeros() {
        // A 3×3 filter that picks the cell to the right: out[y][x] = a[y][x+1].
        let f = vec![0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
        let out = run(
            conv2d,
            &[("a", (1..=6).map(|x| x as f32).collect(), Some([2, 3])), ("f", f, None)],
            1,
        );
        assert_eq!(out, [2.0, 3.0, 0.0, 5.0, 6.0, 0.0]);
        // A 1×1 filter scales.
        assert_eq!(
            run(conv2d, &[("a", vec![1.0, 2.0], Some([1, 2])), ("f", vec![3.0], None)], 1),
            [3.0, 6.0]
        );
    }

    #[test]
    fn block_sum_keeps_a_short_last_block() {
        let out = run(block_sum, &[("a", (0..10).map(|x| x as f32).collect(), None)], 8);
        assert_eq!(out, [28.0, 17.0]);
    }

    #[test]
    fn spmv_sums_each_rows_entries() {
        // [[1, 0, 2], [0, 0, 0], [0, 3, 0]] · [1, 10, 100]
        let config =
            CaseConfig { workgroup_size: [1, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let (o, c, v, x) = (
            Values::U32(vec![0, 2, 2, 3]),
            Values::U32(vec![0, 2, 1]),
            Values::F32(vec![1.0, 2.0, 3.0]),
            Values::F32(vec![1.0, 10.0, 100.0]),
        );
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([
                ("row_offsets", (&o, None)),
                ("col_indices", (&c, None)),
                ("values", (&v, None)),
                ("x", (&x, None)),
            ]),
            uniforms: BTreeMap::new(),
            output_lens: BTreeMap::new(),
        };
        assert_eq!(spmv_csr(&input).unwrap()[0].0, Values::F32(vec![201.0, 0.0, 30.0]));
        let past = Values::U32(vec![0, 2, 3]);
        let input = ReferenceInput {
            buffers: BTreeMap::from([
                ("row_offsets", (&o, None)),
                ("col_indices", (&past, None)),
                ("values", (&v, None)),
                ("x", (&x, None)),
            ]),
            ..input
        };
        assert!(matches!(
            spmv_csr(&input).unwrap_err(),
            ReferenceError::IndexPastEnd { at: 2, index: 3, .. }
        ));
    }

    #[test]
    fn block_scan_restarts_at_each_block() {
        assert_eq!(
            run(block_inclusive_scan, &[("a", vec![1.0, 2.0, 3.0, 4.0, 5.0], None)], 2),
            [1.0, 3.0, 3.0, 7.0, 5.0]
        );
    }

    #[test]
    fn block_max_fills_each_block() {
        assert_eq!(
            run(block_max_broadcast, &[("a", vec![1.0, -2.0, 3.0, -4.0, -5.0], None)], 2),
            [1.0, 1.0, 3.0, 3.0, -5.0]
        );
    }

    #[test]
    fn scan_sums_every_prefix() {
        assert_eq!(
            run(inclusive_scan, &[("a", vec![1.0, 2.0, 3.0, 4.0], None)], 4),
            [1.0, 3.0, 6.0, 10.0]
        );
    }

    #[test]
    fn blur_counts_cells_past_the_edge_as_zero() {
        let out = run(box_blur_3x3, &[("a", vec![9.0; 9], Some([3, 3]))], 1);
        assert_eq!(out, [4.0, 6.0, 4.0, 6.0, 9.0, 6.0, 4.0, 6.0, 4.0]);
    }

    #[test]
    fn histogram_floors_into_bins() {
        let config =
            CaseConfig { workgroup_size: [1, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
        let a = Values::F32(vec![0.5, 3.99, 3.0, 1.0, 0.0]);
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("a", (&a, None))]),
            uniforms: BTreeMap::new(),
            output_lens: BTreeMap::from([("bins", 4)]),
        };
        assert_eq!(histogram(&input).unwrap()[0].0, Values::U32(vec![2, 1, 0, 2]));
        let outside = Values::F32(vec![4.0]);
        let input = ReferenceInput { buffers: BTreeMap::from([("a", (&outside, None))]), ..input };
        assert!(matches!(
            histogram(&input).unwrap_err(),
            ReferenceError::OutsideBins { index: 0, bins: 4, .. }
        ));
    }

    #[test]
    fn every_name_is_unique() {
        for (i, (n, _)) in REFERENCES.iter().enumerate() {
            assert!(REFERENCES[i + 1..].iter().all(|(m, _)| m != n), "{n} twice");
        }
    }
}
