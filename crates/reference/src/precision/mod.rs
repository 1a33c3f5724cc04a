//! The chapter "Numbers and formats" (issue 84): kernels over half-precision,
//! bfloat16 and 8-bit integer data, and sums that hold their digits. One
//! module a puzzle, each a pure function of the case with its formula; the
//! formats' conversions are the `half` crate's (IEEE 754 binary16 and
//! bfloat16, round to nearest, ties to even).

mod bf16;
mod half_gemv;
mod int8_gemv;
mod pairwise_sum;

pub use bf16::round_to_bf16;
pub use half_gemv::matvec_f16;
pub use int8_gemv::matvec_w8a8;
pub use pairwise_sum::sum_rounded_once;
