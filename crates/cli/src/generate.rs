//! `gpu-puzzles generate`: the capstone natively. The model of
//! `models/generate/` runs on the GPU with the chapter's reference kernels,
//! or a student's solution files in their place, and every token is
//! checked against the `f64` CPU pass, kernel by kernel.

use anyhow::{bail, Context, Result};
use gpu_puzzles_reference::lm::{self, Model};
use gpu_puzzles_runner::generate::{
    self, reference_kernels, Generator, Sampling, Weights, KERNELS,
};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What to generate, and with which kernels.
pub struct Options {
    /// The text fed first.
    pub prompt: String,
    /// Characters to generate after it.
    pub tokens: usize,
    /// Top-k sampling's `k`.
    pub k: u32,
    /// Sampling's temperature.
    pub temperature: f32,
    /// Seeds the uniform numbers.
    pub seed: u64,
    /// `slug=file.wgsl` pairs: a student's kernel in place of the reference.
    pub kernels: Vec<String>,
    /// Print a JSON report instead of the text.
    pub json: bool,
    /// The weights' format on the GPU.
    pub weights: Weights,
}

/// Reads the model from `root/models/generate/`.
///
/// # Errors
/// A missing file, or what [`Model::from_files`] finds wrong.
pub fn read_model(root: &Path) -> Result<Model> {
    let dir = root.join("models/generate");
    let manifest = std::fs::read_to_string(dir.join("model.toml"))
        .with_context(|| format!("cannot read {}", dir.join("model.toml").display()))?;
    let bin = std::fs::read(dir.join("model.bin"))
        .with_context(|| format!("cannot read {}", dir.join("model.bin").display()))?;
    Model::from_files(&manifest, &bin).map_err(|e| anyhow::anyhow!("models/generate: {e}"))
}

/// Generates text; `Ok(false)` when a kernel differed from the CPU.
pub fn generate(root: &Path, o: &Options) -> Result<bool> {
    let set = crate::load(root)?;
    let model = read_model(root)?;
    let mut kernels = reference_kernels(&set)?;
    let gpu = crate::gpu()?;
    for pair in &o.kernels {
        let Some((slug, file)) = pair.split_once('=') else {
            bail!("`{pair}`: write a kernel as SLUG=FILE.wgsl, e.g. rms-norm=my-rms-norm.wgsl");
        };
        if !KERNELS.contains(&slug) && slug != "gemv" {
            bail!("`{slug}` is not one of the model's kernels: {}", KERNELS.join(", "));
        }
        let path = PathBuf::from(file);
        let source = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let puzzle = set.get(slug).with_context(|| format!("no puzzle `{slug}` in this set"))?;
        refuse_unless_solved(&gpu, puzzle, &path, &source)?;
        kernels.insert(slug.to_string(), source);
    }
    let prompt =
        lm::encode(&model.vocabulary, &o.prompt).map_err(|e| anyhow::anyhow!("the prompt: {e}"))?;
    let sampling = Sampling { k: o.k, temperature: o.temperature, seed: o.seed };
    let mut generator =
        pollster::block_on(Generator::new(&gpu, &model, &set, &kernels, o.weights))?;
    if !o.json {
        print!("{}", o.prompt);
    }
    let vocabulary = model.vocabulary.clone();
    let json = o.json;
    let done = pollster::block_on(generate::generate(
        &gpu,
        &mut generator,
        &prompt,
        o.tokens,
        &sampling,
        |t| {
            if !json {
                print!("{}", vocabulary.get(t as usize).copied().unwrap_or('\u{FFFD}'));
                let _ = std::io::stdout().flush();
            }
        },
    ))?;
    let text = lm::decode(&model.vocabulary, &done.tokens).map_err(|e| anyhow::anyhow!("{e}"))?;
    let drift = generator.drift();
    if o.json {
        let report = serde_json::json!({
            "prompt": o.prompt,
            "text": text,
            "tokens": done.tokens,
            "cpu_agreed": done.cpu_agreed,
            "tokens_per_second": done.tokens_per_second,
            "faults": done.faults.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "drift": drift.iter().map(|d| serde_json::json!({
                "kernel": d.kernel,
                "deviation": d.deviation,
                "allowed": d.allowed,
                "share": d.share(),
                "stage": d.stage,
                "layer": d.layer.map(|l| l + 1),
                "position": d.pos,
                "element": d.element,
            })).collect::<Vec<_>>(),
            "adapter": gpu.adapter().name,
            "weights": format!("{:?}", o.weights),
        });
        println!("{report}");
    } else {
        println!();
        eprintln!(
            "{} tokens at {:.1} tokens/s on {}; the CPU's f64 pass sampled {} of them the same",
            done.tokens.len(),
            done.tokens_per_second,
            gpu.adapter().name,
            done.cpu_agreed
        );
        eprintln!("each kernel's largest deviation from the CPU, against the difference the check allows:");
        for d in &drift {
            eprintln!("  {d}");
        }
        for f in &done.faults {
            eprintln!("{f}");
        }
    }
    Ok(done.faults.is_empty())
}

/// The page runs a student's kernel in the capstone only once it has solved
/// its puzzle; so does the command line. A kernel whose drift is too small
/// to change a token (RMS Norm with `eps` outside the square root, say)
/// would otherwise write the same text as the CPU and never be named.
///
/// # Errors
/// The kernel fails a case of its puzzle (the first failing case's
/// summary, and the command that gives the whole report), or our own
/// failure while judging it.
fn refuse_unless_solved(
    gpu: &gpu_puzzles_runner::Gpu,
    puzzle: &gpu_puzzles_core::Puzzle,
    path: &Path,
    source: &str,
) -> Result<()> {
    use gpu_puzzles_verdict::judge::{verdict, Verdict};
    let results = pollster::block_on(gpu_puzzles_runner::judge_puzzle(
        gpu,
        puzzle,
        source,
        gpu_puzzles_runner::RunOptions::default(),
    ))?;
    if verdict(&results) == Verdict::Passed {
        return Ok(());
    }
    let first = results.iter().find(|r| r.outcome.failed());
    let why = first
        .map(|r| format!("case {}: {}", r.case, r.outcome.summary()))
        .unwrap_or_else(|| "a case did not pass".into());
    bail!(
        "{file} does not solve {title} ({why}). The capstone runs a kernel only once it passes its puzzle, as the page does; `gpu-puzzles check --puzzle {slug} --solution {file}` gives the whole report",
        file = path.display(),
        title = puzzle.title,
        slug = puzzle.slug,
    )
}
