//! The capstone's messages ("Generate", issue 47): the page asks the judge's
//! worker to load the model, to open a generation with the student's
//! kernels, and then for the next few characters, one request per chunk,
//! so the text appears as it is produced although each request gets one
//! reply. Plain data only: the model, its forward pass and the runner's
//! generator stay in the worker's wasm ([`crate::generation`]).

use serde::{Deserialize, Serialize};

/// What the worker says of the model once it has loaded it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// Positions the model attends over: the prompt and the new characters
    /// together fit in this many.
    pub context: u32,
    /// The characters it knows, one token each, in token order.
    pub vocabulary: String,
    /// Layers of the transformer.
    pub layers: u32,
    /// Width of the residual stream.
    pub d_model: u32,
    /// Bytes of `model.bin` as fetched.
    pub bytes: u64,
}

/// How the next characters are drawn (the CLI's `--k`, `--temperature`
/// and `--seed`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SamplingSettings {
    /// Candidates kept, from 1 to 64.
    pub k: u32,
    /// Divides the logits before the softmax; above 0.
    pub temperature: f32,
    /// Seeds the uniform numbers, one per new character.
    pub seed: u64,
}

/// Opens a generation: the model's kernels compiled, the prompt fed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenerateRequest {
    /// The text fed first, as typed.
    pub prompt: String,
    /// New characters to generate after it.
    pub count: u32,
    /// How they are drawn.
    pub sampling: SamplingSettings,
    /// The student's own kernels, `(puzzle slug, WGSL)`; every kernel of
    /// the model not listed is the reference (none in a build without
    /// reference solutions, which then refuses to start).
    pub kernels: Vec<(String, String)>,
    /// The query that versions the model's files (`?v=` and a hash of
    /// them, written into `index.html` by the build), empty when the page
    /// names none.
    pub model_version: String,
    /// The query that versions our solutions' files
    /// ([`crate::solutions`]), from which the worker fetches ours for the
    /// kernels not listed in `kernels`; empty in a build without them.
    pub solutions: String,
}

/// One reply of a generation: what changed since the last.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct GenerateChunk {
    /// The characters generated since the last chunk (none for the reply
    /// that opens a generation).
    pub text: String,
    /// Characters generated so far, this chunk's included.
    pub generated: u32,
    /// Of those, how many the `f64` CPU pass sampled the same.
    pub cpu_agreed: u32,
    /// Every character asked for was generated.
    pub done: bool,
    /// Tokens per second of GPU steps so far (submit to read-back).
    pub tokens_per_second: f64,
    /// The first fault of each kernel that had one so far.
    pub faults: Vec<Fault>,
}

/// A kernel that differs from the CPU's recomputation, or that could not
/// be used: its puzzle, for a link, and what happened, in words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fault {
    /// The puzzle whose kernel it is, or `"swiglu"` for the site's own.
    pub kernel: String,
    /// `runner::generate::KernelFault`'s sentence ("your rms-norm kernel
    /// differs at layer 2, position 5 (the norm before attention): …").
    pub text: String,
}

/// Why a generation could not open or go on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenerateFailure {
    /// What happened and what to try.
    pub message: String,
    /// The puzzle whose kernel is to blame (one that did not compile, or
    /// that has no reference), for a link.
    pub kernel: Option<String>,
}

impl GenerateFailure {
    /// A failure no kernel is to blame for.
    pub fn plain(message: impl Into<String>) -> Self {
        GenerateFailure { message: message.into(), kernel: None }
    }
}
