//! The capstone, "Generate" (issue 47): the language model of
//! [`gpu_puzzles_reference::lm`] run on the GPU one token at a time by the
//! kernels of the chapter "Inside a language model": the student's own
//! solutions where they have them, the references where not.
//!
//! One token is one submission: for every layer RMS Norm (the residual add
//! fused in), three quantised GEMVs, RoPE, the KV cache append (a copy),
//! decode attention's two entry points, the output GEMV, RMS Norm again,
//! the MLP's GEMVs around the site's own SwiGLU kernel; then the final RMS
//! Norm, the LM head's GEMV and top-k sampling. Every kernel's output is
//! copied into one read-back buffer (about 20 KB a token), so the step can
//! be checked kernel by kernel against the `f64` CPU pass
//! ([`check`]): each kernel is recomputed on the CPU from the very inputs
//! the GPU gave it, so a fault is named where it is ("your RMS Norm differs
//! at layer 2, position 5") and rounding carried from earlier kernels is
//! never blamed on a later one. The CPU's own forward pass
//! ([`gpu_puzzles_reference::lm::State`]) runs beside it on the same tokens and
//! the same uniform numbers, and says whether it would have sampled the same
//! token.

mod check;
mod kernels;
mod plan;

use plan::SPLIT;

pub use check::{Drift, KernelFault, Probe};

use crate::{Gpu, RunnerError};
use gpu_puzzles_core::PuzzleSet;
use gpu_puzzles_reference::lm::{self, Model, State};
use gpu_puzzles_verdict::judge::Diagnostic;
use std::collections::BTreeMap;
use web_time::Instant;

/// The puzzles whose kernels the forward pass is made of, in the order a
/// token first meets them.
pub const KERNELS: [&str; 5] =
    ["rms-norm", "gemv-q8", "rope", "decode-attention", "top-k-sampling"];

/// Every puzzle the forward pass can take a kernel from: [`KERNELS`], and
/// `gemv`, whose kernel multiplies the weights in [`Weights::F32`].
pub fn puzzles() -> impl Iterator<Item = &'static str> {
    KERNELS.into_iter().chain(["gemv"])
}

/// The weights' format on the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Weights {
    /// As shipped: int8, four to a word, one `f32` scale per 32
    /// (1.125 bytes a weight), multiplied by the `gemv-q8` kernel.
    #[default]
    Q8,
    /// Dequantised to `f32` on upload (4 bytes a weight, the same values
    /// but for the product's rounding), multiplied by the `gemv` puzzle's
    /// kernel: the straightforward implementation the quantised one is
    /// measured against.
    F32,
}

/// The WGSL source of each kernel, by puzzle slug (every one of
/// [`KERNELS`]).
pub type Kernels = BTreeMap<String, String>;

/// The references of [`KERNELS`] and of `gemv` (for [`Weights::F32`])
/// from `set` (loaded with its solutions).
///
/// # Errors
/// The slug of a kernel the set has no reference for.
pub fn reference_kernels(set: &PuzzleSet) -> Result<Kernels, GenerateError> {
    puzzles()
        .map(|slug| {
            let source = set.get(slug).and_then(|p| p.solution.clone());
            source.map(|s| (slug.to_string(), s)).ok_or(GenerateError::NoKernel(slug))
        })
        .collect()
}

/// How tokens are drawn: the `top-k-sampling` puzzle's rule with these
/// settings, and one uniform number per generated token from
/// [`lm::sample::uniform`] of a [`gpu_puzzles_core::generate::SplitMix64`]
/// seeded with `seed`, as [`lm::generate`] draws them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampling {
    /// Candidates kept, from 1 to 64.
    pub k: u32,
    /// Divides the logits before the softmax; above 0.
    pub temperature: f32,
    /// Seeds the uniform numbers.
    pub seed: u64,
}

/// Why the model could not run.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The kernels given lack one, or the set has no reference for it.
    #[error("no kernel for `{0}`: solve that puzzle first, or use the reference")]
    NoKernel(&'static str),
    /// A kernel did not compile or its bindings do not fit the puzzle.
    #[error("your `{slug}` kernel does not compile for the model: {}", first_message(.diagnostics))]
    Compile {
        /// The puzzle.
        slug: String,
        /// The compiler's messages, placed in the student's text.
        diagnostics: Vec<Diagnostic>,
    },
    /// The prompt or the sampling settings do not fit the model.
    #[error("{0}")]
    Input(String),
    /// The device failed.
    #[error(transparent)]
    Runner(#[from] RunnerError),
}

fn first_message(d: &[Diagnostic]) -> String {
    match d.first() {
        Some(Diagnostic { line: Some(l), column: Some(c), message, .. }) => {
            format!("line {l}, column {c}: {message}")
        }
        Some(d) => d.message.clone(),
        None => "no message".into(),
    }
}

/// What one token's step did.
#[derive(Debug, Clone, PartialEq)]
pub struct StepReport {
    /// The position the token was fed at.
    pub pos: usize,
    /// The token the GPU sampled from this step's logits.
    pub token: u32,
    /// The token the `f64` CPU pass samples from its own logits with the
    /// same uniform number.
    pub cpu_token: u32,
    /// Kernels whose output differs from the CPU's recomputation from the
    /// same inputs (empty when every kernel agrees).
    pub faults: Vec<KernelFault>,
    /// Wall time from submitting the step to its read-back, milliseconds.
    pub gpu_ms: f64,
}

/// The model on one device, with its KV cache: feed it tokens in order with
/// [`Generator::step`].
pub struct Generator<'m> {
    model: &'m Model,
    plan: plan::Plan,
    cpu: State<'m>,
    checker: check::Checker<'m>,
    pos: usize,
}

impl<'m> Generator<'m> {
    /// Uploads the model's weights in the format `weights` names and
    /// compiles `kernels` (source by slug: each of [`KERNELS`], and `gemv`
    /// for [`Weights::F32`]) for its shapes, with `set`'s puzzles for their
    /// bindings.
    ///
    /// # Errors
    /// [`GenerateError::NoKernel`], [`GenerateError::Compile`], or the
    /// device's error.
    pub async fn new(
        gpu: &Gpu,
        model: &'m Model,
        set: &PuzzleSet,
        kernels: &Kernels,
        weights: Weights,
    ) -> Result<Generator<'m>, GenerateError> {
        let plan = plan::Plan::new(gpu, model, set, kernels, weights).await?;
        Ok(Generator {
            model,
            plan,
            cpu: State::new(model),
            checker: check::Checker::new(model),
            pos: 0,
        })
    }

    /// Each kernel's largest deviation from the CPU over every step so
    /// far, against the tolerance of the check ([`Drift`]), by kernel name.
    pub fn drift(&self) -> Vec<Drift> {
        self.checker.drift()
    }

    /// Positions fed so far (the KV cache's length).
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Feeds `token` at the next position and samples the next token with
    /// uniform number `u` in `[0, 1)` (any value for a prompt token whose
    /// sample is not used), checking every kernel against the CPU.
    ///
    /// # Errors
    /// A token outside the vocabulary, a full context, or the device's error.
    pub async fn step(
        &mut self,
        gpu: &Gpu,
        token: u32,
        u: f32,
        sampling: &Sampling,
    ) -> Result<StepReport, GenerateError> {
        let c = &self.model.config;
        if token as usize >= c.vocab {
            return Err(GenerateError::Input(format!(
                "token {token} is outside the vocabulary of {}",
                c.vocab
            )));
        }
        if self.pos >= c.context {
            return Err(GenerateError::Input(format!(
                "the context is full: the model attends over at most {} positions",
                c.context
            )));
        }
        let started = Instant::now();
        let probes = self.plan.run(gpu, self.model, token, self.pos, u, sampling).await?;
        let gpu_ms = started.elapsed().as_secs_f64() * 1e3;
        let faults = self.checker.check(&probes, token, self.pos, u, sampling);
        let logits =
            self.cpu.step(token, self.pos).map_err(|e| GenerateError::Input(e.to_string()))?;
        let cpu_token =
            lm::sample::sample(&logits, sampling.k as usize, sampling.temperature, f64::from(u))
                .map_err(|e| GenerateError::Input(e.to_string()))? as u32;
        let report = StepReport { pos: self.pos, token: probes.token(), cpu_token, faults, gpu_ms };
        self.pos += 1;
        Ok(report)
    }
}

/// What [`generate`] produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Generation {
    /// The generated token ids, in order.
    pub tokens: Vec<u32>,
    /// Generated tokens the CPU pass sampled the same (a near tie between
    /// two candidates may differ after f32 rounding without a fault).
    pub cpu_agreed: usize,
    /// The first fault of each kernel that had one, in the order found
    /// (empty when every kernel agreed).
    pub faults: Vec<KernelFault>,
    /// Generated tokens per second of GPU steps (submit to read-back,
    /// checks not counted).
    pub tokens_per_second: f64,
}

/// Feeds `prompt` (ids) and generates `n` tokens after it, calling
/// `on_token` with each generated id as it comes; the uniform numbers are
/// drawn as [`lm::generate`] draws them, so with kernels that agree the
/// tokens are the CPU's.
///
/// # Errors
/// An empty prompt, a prompt and output longer than the context, or the
/// device's error.
pub async fn generate(
    gpu: &Gpu,
    generator: &mut Generator<'_>,
    prompt: &[u32],
    n: usize,
    sampling: &Sampling,
    mut on_token: impl FnMut(u32),
) -> Result<Generation, GenerateError> {
    let mut stream = Stream::start(gpu, generator, prompt, n, sampling).await?;
    while !stream.done() {
        for t in stream.advance(gpu, generator, 1).await? {
            on_token(t);
        }
    }
    Ok(stream.into_generation())
}

/// A generation in progress, advanced a few tokens at a time (the page's
/// worker answers each request for more with the next chunk): the state
/// [`generate`] keeps between tokens, apart from the [`Generator`] it
/// drives, which the caller keeps and passes to each call.
#[derive(Debug, Clone)]
pub struct Stream {
    sampling: Sampling,
    rng: gpu_puzzles_core::generate::SplitMix64,
    /// The token to feed next.
    next: u32,
    /// Tokens still to generate.
    remaining: usize,
    out: Generation,
    /// Milliseconds of GPU steps over the generated tokens.
    gpu_ms: f64,
}

impl Stream {
    /// Checks that `prompt` (ids) and `n` new tokens fit the context after
    /// what `generator` was fed already, and feeds every prompt token but
    /// the last (whose step samples the first new token).
    ///
    /// # Errors
    /// An empty prompt, a prompt and output longer than the context, or the
    /// device's error.
    pub async fn start(
        gpu: &Gpu,
        generator: &mut Generator<'_>,
        prompt: &[u32],
        n: usize,
        sampling: &Sampling,
    ) -> Result<Stream, GenerateError> {
        let Some((&last, fed)) = prompt.split_last() else {
            return Err(GenerateError::Input(
                "the prompt is empty: type at least one character".into(),
            ));
        };
        let context = generator.model.config.context;
        if generator.position() + prompt.len() + n > context {
            return Err(GenerateError::Input(format!(
                "the prompt ({} characters) and {n} new ones do not fit the model's context of {context}",
                prompt.len()
            )));
        }
        let mut stream = Stream {
            sampling: *sampling,
            rng: gpu_puzzles_core::generate::SplitMix64::new(sampling.seed),
            next: last,
            remaining: n,
            out: Generation {
                tokens: Vec::new(),
                cpu_agreed: 0,
                faults: Vec::new(),
                tokens_per_second: 0.0,
            },
            gpu_ms: 0.0,
        };
        for &token in fed {
            let report = generator.step(gpu, token, 0.0, sampling).await?;
            stream.note_faults(report.faults);
        }
        Ok(stream)
    }

    /// Generates up to `count` more tokens with `generator` (the one
    /// [`Stream::start`] was given) and returns them.
    ///
    /// # Errors
    /// The device's error.
    pub async fn advance(
        &mut self,
        gpu: &Gpu,
        generator: &mut Generator<'_>,
        count: usize,
    ) -> Result<Vec<u32>, GenerateError> {
        let mut new = Vec::new();
        for _ in 0..count.min(self.remaining) {
            let u = lm::sample::uniform(&mut self.rng) as f32;
            let report = generator.step(gpu, self.next, u, &self.sampling).await?;
            self.note_faults(report.faults);
            self.gpu_ms += report.gpu_ms;
            self.out.tokens.push(report.token);
            self.out.cpu_agreed += usize::from(report.token == report.cpu_token);
            self.next = report.token;
            self.remaining -= 1;
            new.push(report.token);
        }
        let n = self.out.tokens.len() as f64;
        self.out.tokens_per_second = if self.gpu_ms > 0.0 { n / (self.gpu_ms / 1e3) } else { 0.0 };
        Ok(new)
    }

    /// Every token asked for was generated.
    pub fn done(&self) -> bool {
        self.remaining == 0
    }

    /// What was generated so far: tokens, agreement with the CPU, the first
    /// fault of each kernel, tokens per second.
    pub fn generation(&self) -> &Generation {
        &self.out
    }

    /// [`Stream::generation`], taken.
    pub fn into_generation(self) -> Generation {
        self.out
    }

    /// Keeps the first fault of each kernel: the same fault repeats at
    /// every later position.
    fn note_faults(&mut self, faults: Vec<KernelFault>) {
        for f in faults {
            if !self.out.faults.iter().any(|g| g.kernel == f.kernel) {
                self.out.faults.push(f);
            }
        }
    }
}
