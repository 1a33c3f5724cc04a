//! What every puzzle expects: CPU reference functions, the specification of
//! each puzzle in Rust, and the capstone's language model ([`lm`]).
//!
//! A manifest names one of these in `reference = "…"`. Expected outputs come
//! from here (or from literal values in the manifest), never from a GPU run.
//! Every function sums in `f32`, left to right, the same order a straightforward
//! shader uses; the classic puzzles use integer-valued inputs, for which every
//! order gives the same exact result. The kernels of modern models
//! (`kernels`), of a language model (`language_model`) and of training
//! (`loss`, `backward`) compute in `f64` instead (Rotary Embedding in `f32`, as its
//! shader does), and compare with a tolerance.
//!
//! The functions live in modules by chapter of the puzzle set, each a small
//! pure function with its formula; [`REFERENCES`] registers them all by the
//! name a manifest uses (and [`SAMPLED`] their per-element forms).
//!
//! What this crate may know: plain inputs ([`ReferenceInput`]: a dispatch's
//! sizes, buffers as [`Values`] by name, uniform fields by name) and plain
//! outputs. What it may not: the puzzle model, its files, the judge or a
//! GPU. The model (`gpu-puzzles-core`) looks a reference up by its name and
//! builds the input from a case; nothing here imports it back.

use gpu_puzzles_values::{CaseConfig, Values};
use std::collections::BTreeMap;

pub mod lm;

mod backward;
mod basics;
mod error;
mod irregular;
mod jacobi;
mod kernels;
mod language_model;
mod loss;
mod matrices;
mod merge;
mod quantised;
mod recurrence;
mod reductions;
mod sampling;
mod segmented;
mod stencils;
mod weight_gradient;

pub use backward::softmax_backward_rows;
pub use basics::{add_ten, broadcast_add, window_sum_3, zip_add};
pub use error::ReferenceError;
pub use irregular::{compact_positive, radix_sort_u8_keys, sort_keys, spmv_csr};
pub use jacobi::jacobi_steps;
pub use kernels::{attention, attention_out, layer_norm_rows, softmax_rows};
pub use language_model::{decode_attention, matvec_q8, rms_norm_residual, rope_neox};
pub use loss::cross_entropy_rows;
pub use matrices::{matmul, matmul_at, matvec, transpose};
pub use merge::merge_sorted;
pub use quantised::matvec_q4;
pub use recurrence::linear_recurrence;
pub use reductions::{
    block_inclusive_scan, block_max_broadcast, block_sum, dot, histogram, inclusive_scan,
    inclusive_scan_blocks, row_sum,
};
pub use sampling::top_k_sample;
pub use segmented::segmented_scan;
pub use stencils::{box_blur_3x3, branch_hash, conv1d, conv1d_i32, conv2d, BRANCH_HASH_ROUNDS};
pub use weight_gradient::weight_gradient;

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
    ("linear_recurrence", linear_recurrence),
    ("segmented_scan", segmented_scan),
    ("block_inclusive_scan", block_inclusive_scan),
    ("block_max_broadcast", block_max_broadcast),
    ("histogram", histogram),
    ("box_blur_3x3", box_blur_3x3),
    ("jacobi_steps", jacobi_steps),
    ("branch_hash", branch_hash),
    ("softmax_rows", softmax_rows),
    ("layer_norm_rows", layer_norm_rows),
    ("rms_norm_residual", rms_norm_residual),
    ("rope_neox", rope_neox),
    ("matvec_q8", matvec_q8),
    ("matvec_q4", matvec_q4),
    ("decode_attention", decode_attention),
    ("top_k_sample", top_k_sample),
    ("cross_entropy_rows", cross_entropy_rows),
    ("softmax_backward_rows", softmax_backward_rows),
    ("weight_gradient", weight_gradient),
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
    ("merge_sorted", merge_sorted),
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
mod tests;
