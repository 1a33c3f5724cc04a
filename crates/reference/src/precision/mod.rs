//! The chapter "Numbers and formats" (issue 84): kernels over half-precision,
//! bfloat16, FP8 (E4M3) and 8-bit integer data, a sum that holds its
//! digits and one that is the same bits on every Run. One module a puzzle,
//! each a pure function of the case with its formula; half precision is decoded with the `half` crate (IEEE 754
//! binary16), bfloat16 and E4M3 are rounded by their rules written out on
//! the bits (round to nearest, ties to even), each tested against an
//! independent form.

mod bf16;
mod deterministic_sum;
mod fp8;
mod half_gemv;
mod int8_gemv;
mod pairwise_sum;

pub use bf16::round_to_bf16;
pub use deterministic_sum::sums_by_block;
pub use fp8::encode_e4m3;
pub use half_gemv::matvec_f16;
pub use int8_gemv::matvec_w8a8;
pub use pairwise_sum::sum_rounded_once;
