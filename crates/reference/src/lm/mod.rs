//! The capstone's language model ("Generate", issue 47): a tiny Llama-shaped,
//! character-level, decoder-only transformer, and its `f64` forward pass on
//! the CPU, which the page's GPU run (the student's own kernels) is checked
//! against token by token.
//!
//! The model is data, not code: `models/generate/model.toml` gives its
//! dimensions, vocabulary and tensor table, and `models/generate/model.bin`
//! the tensors. `scripts/train-model.py` trains it with numpy on the King
//! James Version of the Bible (Debian's `bible-kjv-text`) and writes both,
//! with a check file of `f64` logits and sampled tokens that this module's
//! tests reproduce; `docs/model.md` describes it. Its shape is what the
//! chapter "Inside a language model" teaches: RMSNorm with the residual add
//! fused before it, rotary embedding in the half-split pairing, grouped-query
//! attention over a KV cache, a SwiGLU MLP, every matrix in the `gemv-q8`
//! format, and top-k sampling.
//!
//! This crate never embeds the files (the page fetches them when the
//! capstone opens); [`Model::from_files`] reads them from text and bytes.
//!
//! - [`weights`]: [`Model`], read with [`Model::from_files`];
//! - [`forward`]: [`State`] (the KV cache) and every stage of the pass;
//! - [`tokenizer`]: text to ids and back;
//! - [`sample`]: top-k sampling and [`generate`].

pub mod forward;
pub mod sample;
pub mod tokenizer;
pub mod weights;

pub use forward::{State, StepError};
pub use sample::{generate, GenerateError, SampleError};
pub use tokenizer::{decode, encode, TokenError};
pub use weights::{Config, Layer, Model, Q8Matrix, WeightsError};

#[cfg(test)]
mod tests;
