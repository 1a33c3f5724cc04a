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

pub mod lm;

mod applications;
mod backward;
mod basics;
mod error;
mod input;
mod irregular;
mod jacobi;
mod kernels;
mod language_model;
mod loss;
mod matrices;
mod merge;
mod precision;
mod quantised;
mod recurrence;
mod reductions;
mod sampling;
mod segmented;
mod stencils;
mod weight_gradient;

pub use applications::{
    equalise_histogram, fft_rows, gaussian_blur_separable, gray_scott_steps, mandelbrot_counts,
    n_body_step, sobel_magnitude,
};
pub use backward::softmax_backward_rows;
pub use basics::{add_ten, broadcast_add, window_sum_3, zip_add};
pub use error::ReferenceError;
pub use input::{Outputs, Reference, ReferenceFn, ReferenceInput, SampleFn};
pub use irregular::{compact_positive, radix_sort_u8_keys, sort_keys, spmv_csr};
pub use jacobi::jacobi_steps;
pub use kernels::{attention, attention_out, layer_norm_rows, softmax_rows};
pub use language_model::{decode_attention, matvec_q8, rms_norm_residual, rope_neox};
pub use loss::cross_entropy_rows;
pub use matrices::{matmul, matmul_at, matvec, transpose};
pub use merge::merge_sorted;
pub use precision::{
    encode_e4m3, matvec_f16, matvec_w8a8, round_to_bf16, sum_rounded_once, sums_by_block,
};
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
    ("sobel_magnitude", sobel_magnitude),
    ("gaussian_blur_separable", gaussian_blur_separable),
    ("equalise_histogram", equalise_histogram),
    ("n_body_step", n_body_step),
    ("mandelbrot_counts", mandelbrot_counts),
    ("fft_rows", fft_rows),
    ("gray_scott_steps", gray_scott_steps),
    ("matvec_f16", matvec_f16),
    ("round_to_bf16", round_to_bf16),
    ("matvec_w8a8", matvec_w8a8),
    ("sum_rounded_once", sum_rounded_once),
    ("encode_e4m3", encode_e4m3),
    ("sums_by_block", sums_by_block),
];

/// The reference functions that also have a per-element form, by name.
pub const SAMPLED: &[(&str, SampleFn)] = &[("matmul", matmul_at)];

/// The reference called `name`, with its per-element form when it has one.
pub fn lookup(name: &str) -> Option<Reference> {
    let all = REFERENCES.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)?;
    Some(Reference { all, at: SAMPLED.iter().find(|(n, _)| *n == name).map(|(_, f)| *f) })
}

#[cfg(test)]
mod tests;
