//! Choosing the next token: the `top-k-sampling` puzzle's rule on the `f64`
//! logits, one uniform number per token from the project's [`SplitMix64`],
//! and [`generate`], which runs the whole loop on the CPU.
//!
//! The rule is that of `reference::top_k_sample`, which cannot be called
//! here (it reads a puzzle case's `f32` buffers and refuses a draw near a
//! boundary); it is written again below for `f64` logits, in the same order
//! of operations, and a test checks the two agree.

use super::forward::{State, StepError};
use super::weights::Model;
use gpu_puzzles_values::SplitMix64;
use std::cmp::Ordering;

/// Why a row of logits cannot be sampled.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SampleError {
    /// `k` is 0 or more than the logits.
    #[error("k is {k}: it must be from 1 to the {vocab} logits")]
    K {
        /// The `k` asked for.
        k: usize,
        /// The number of logits.
        vocab: usize,
    },
    /// The temperature is not a finite number above 0.
    #[error("the temperature is {0}: it must be a finite number above 0")]
    Temperature(f32),
    /// The uniform number is outside `[0, 1)`.
    #[error("u is {0}: it must be in [0, 1)")]
    Uniform(f64),
    /// A logit is an infinity or NaN.
    #[error("logit {at} is {value}")]
    NotFinite {
        /// Its index.
        at: usize,
        /// Its value.
        value: f64,
    },
}

/// Why [`generate`] stopped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GenerateError {
    /// The forward pass refused a token or a position (the prompt or the
    /// generated text would run past the context).
    #[error(transparent)]
    Step(#[from] StepError),
    /// The sampling parameters are wrong.
    #[error(transparent)]
    Sample(#[from] SampleError),
    /// The prompt is empty: there are no logits to sample from.
    #[error("the prompt is empty")]
    EmptyPrompt,
}

/// The uniform number of one token: the top 24 bits of `rng`'s next output
/// over 2^24, `(next_u64() >> 40) / 16 777 216`, in `[0, 1)`. It is exact as
/// an `f32` as well as an `f64`, so the GPU's sampling kernel, which reads
/// an `f32`, sees the very number the CPU used.
pub fn uniform(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 40) as f64 / (1u64 << 24) as f64
}

/// Top-k sampling (the `top-k-sampling` puzzle's rule) of one row of
/// `logits` (`vocab` elements), `k` from 1 to `vocab`, `temperature` above 0
/// (an `f32`, as the puzzle reads it), `u` in `[0, 1)`:
///
/// ```text
/// top[0..k] = the indices of the k largest logits, by value descending,
///             equal values by index ascending
/// e[j]      = exp((logits[top[j]] − logits[top[0]]) / temperature)
/// token     = top[j] for the first j with (e[0] + … + e[j]) / Σe > u,
///             or top[k−1] when there is none
/// ```
///
/// (the cumulative sum adds the probabilities `e[j] / Σe` one by one).
///
/// # Errors
/// [`SampleError`] for a `k`, temperature or `u` out of range, or a logit
/// that is not finite.
pub fn sample(logits: &[f64], k: usize, temperature: f32, u: f64) -> Result<usize, SampleError> {
    if k == 0 || k > logits.len() {
        return Err(SampleError::K { k, vocab: logits.len() });
    }
    if !(temperature.is_finite() && temperature > 0.0) {
        return Err(SampleError::Temperature(temperature));
    }
    if !(0.0..1.0).contains(&u) {
        return Err(SampleError::Uniform(u));
    }
    if let Some(at) = logits.iter().position(|l| !l.is_finite()) {
        return Err(SampleError::NotFinite { at, value: logits[at] });
    }
    let top = top_k(logits, k, temperature);
    let at = top.cumulative.iter().position(|&c| c > u).unwrap_or(k - 1);
    Ok(top.tokens[at])
}

/// The part of [`sample`] that does not depend on `u`: the `k` candidates
/// and their cumulative probabilities, for a caller that must tell how near
/// `u` fell to a boundary between two of them (the capstone's check, which
/// forgives a GPU whose `f32` sum crossed one the `f64` sum did not).
#[derive(Debug, Clone, PartialEq)]
pub struct TopK {
    /// `top[0..k]`: the indices of the `k` largest logits, by value
    /// descending, equal values by index ascending.
    pub tokens: Vec<usize>,
    /// `(e[0] + … + e[j]) / Σe` for each `j` of `tokens` (the last is 1 up
    /// to rounding).
    pub cumulative: Vec<f64>,
}

/// [`TopK`] of `logits`, with `k` and `temperature` as [`sample`] checks
/// them (this does not check them again, and reads only finite logits).
pub fn top_k(logits: &[f64], k: usize, temperature: f32) -> TopK {
    let mut order: Vec<usize> = (0..logits.len()).collect();
    // No NaN is left, so this is a total order (−0 equals 0, as in WGSL).
    order.sort_by(|&a, &b| {
        logits[b].partial_cmp(&logits[a]).unwrap_or(Ordering::Equal).then(a.cmp(&b))
    });
    order.truncate(k);
    let t = f64::from(temperature);
    let e: Vec<f64> = order.iter().map(|&c| ((logits[c] - logits[order[0]]) / t).exp()).collect();
    let total: f64 = e.iter().sum();
    let cumulative = e
        .iter()
        .scan(0.0, |sum, e| {
            *sum += e / total;
            Some(*sum)
        })
        .collect();
    TopK { tokens: order, cumulative }
}

/// Runs `prompt` (token ids, at positions 0, 1, …) through the model, then
/// samples `n` tokens, each from the logits of the token before it with one
/// [`uniform`] draw of a [`SplitMix64`] seeded with `seed`, feeding each back
/// in at the next position. Returns the `n` generated ids.
///
/// # Errors
/// [`GenerateError`]: an empty prompt, a token outside the vocabulary, a
/// prompt and output longer than the context, or sampling parameters out
/// of range.
pub fn generate(
    model: &Model,
    prompt: &[u32],
    n: usize,
    k: usize,
    temperature: f32,
    seed: u64,
) -> Result<Vec<u32>, GenerateError> {
    let mut state = State::new(model);
    let mut logits = Vec::new();
    for (pos, &token) in prompt.iter().enumerate() {
        logits = state.step(token, pos)?;
    }
    if prompt.is_empty() {
        return Err(GenerateError::EmptyPrompt);
    }
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let token = sample(&logits, k, temperature, uniform(&mut rng))? as u32;
        out.push(token);
        if i + 1 < n {
            logits = state.step(token, prompt.len() + i)?;
        }
    }
    Ok(out)
}
