//! The capstone on a real adapter (lavapipe where there is no GPU): the
//! model of `models/generate/` written out by the chapter's reference
//! kernels gives the very tokens of the `f64` CPU pass
//! ([`gpu_puzzles_reference::lm::generate`]), every kernel checked at every
//! token; and a wrong kernel in place of each reference is named.

use gpu_puzzles_reference::lm::{self, Model};
use gpu_puzzles_runner::generate::{self, reference_kernels, Generator, Sampling, Weights};
use gpu_puzzles_tests::{gpu, root, shipped_set};
use std::sync::OnceLock;

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        let dir = root().join("models/generate");
        let manifest =
            std::fs::read_to_string(dir.join("model.toml")).expect("models/generate/model.toml");
        let bin = std::fs::read(dir.join("model.bin")).expect("models/generate/model.bin");
        Model::from_files(&manifest, &bin).expect("the shipped model loads")
    })
}

const SAMPLING: Sampling = Sampling { k: 8, temperature: 0.8, seed: 11 };

/// Generates `n` tokens after `prompt` with `kernels` in place of the
/// references.
fn run(prompt: &str, n: usize, replace: &[(&str, &str)], weights: Weights) -> generate::Generation {
    let gpu = gpu().expect("a GPU adapter");
    let set = shipped_set();
    let mut kernels = reference_kernels(&set).expect("the set has the references");
    for (slug, file) in replace {
        let path = root().join("tests/gpu/solutions").join(file);
        kernels.insert(slug.to_string(), std::fs::read_to_string(&path).expect("a held solution"));
    }
    let model = model();
    let prompt = lm::encode(&model.vocabulary, prompt).expect("the prompt is in the vocabulary");
    let mut g = pollster::block_on(Generator::new(gpu, model, &set, &kernels, weights))
        .expect("the kernels compile");
    pollster::block_on(generate::generate(gpu, &mut g, &prompt, n, &SAMPLING, |_| {}))
        .expect("the model runs")
}

#[test]
fn the_references_generate_the_cpu_passes_tokens() {
    let n = 48;
    let done = run("And God said", n, &[], Weights::Q8);
    assert!(done.faults.is_empty(), "faults: {:#?}", done.faults);
    let model = model();
    let prompt = lm::encode(&model.vocabulary, "And God said").unwrap();
    let cpu =
        lm::generate(model, &prompt, n, SAMPLING.k as usize, SAMPLING.temperature, SAMPLING.seed)
            .expect("the CPU pass runs");
    assert_eq!(
        done.tokens,
        cpu,
        "GPU {:?}\nCPU {:?}",
        lm::decode(&model.vocabulary, &done.tokens),
        lm::decode(&model.vocabulary, &cpu)
    );
    assert_eq!(done.cpu_agreed, n);
    assert!(done.tokens_per_second > 0.0);
}

/// The straightforward form, every weight dequantised to `f32` and
/// multiplied by the `gemv` puzzle's reference, gives the same tokens.
#[test]
fn f32_weights_give_the_same_tokens() {
    let q8 = run("And God said", 24, &[], Weights::Q8);
    let f32 = run("And God said", 24, &[], Weights::F32);
    assert!(f32.faults.is_empty(), "faults: {:#?}", f32.faults);
    assert_eq!(f32.tokens, q8.tokens);
}

/// Each held wrong kernel is named, and no other kernel is blamed.
#[test]
fn a_wrong_kernel_is_named() {
    for (slug, file, stage) in [
        ("rms-norm", "rms-norm--residual-not-written.wgsl", "the residual add before attention"),
        ("gemv-q8", "gemv-q8--bytes-big-endian.wgsl", "the query projection"),
        ("rope", "rope--sin-sign-flipped.wgsl", "the queries' rotation"),
        ("decode-attention", "decode-attention--no-scale.wgsl", "attention over the cache"),
        ("top-k-sampling", "top-k-sampling--ascending-walk.wgsl", "the sampled token"),
    ] {
        let done = run("In the beginning", 12, &[(slug, file)], Weights::Q8);
        let kernels: Vec<&str> = done.faults.iter().map(|f| f.kernel).collect();
        assert_eq!(kernels, [slug], "{file}: {:#?}", done.faults);
        let fault = &done.faults[0];
        assert_eq!(fault.stage, stage, "{file}: {fault}");
        assert!(fault.to_string().starts_with(&format!("your {slug} kernel differs")), "{fault}");
    }
}

/// Every correct kernel held for the five puzzles (`// expect: passed`,
/// written another way than the reference) runs the model with no fault:
/// the capstone's configurations (one workgroup per row, 64 invocations,
/// 32 keys a split) are ones a kernel that passes its puzzle must handle.
#[test]
fn every_held_correct_kernel_runs_the_model() {
    let dir = root().join("tests/gpu/solutions");
    let mut tried = 0;
    for slug in generate::KERNELS {
        for entry in std::fs::read_dir(&dir).expect("tests/gpu/solutions") {
            let name = entry.expect("a directory entry").file_name().into_string().unwrap();
            let path = dir.join(&name);
            if !name.starts_with(&format!("{slug}--")) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            if text.lines().next() != Some("// expect: passed") {
                continue;
            }
            let done = run("In the beginning", 12, &[(slug, &name)], Weights::Q8);
            assert!(done.faults.is_empty(), "{name}: {:#?}", done.faults);
            assert_eq!(done.cpu_agreed, 12, "{name}");
            tried += 1;
        }
    }
    assert!(tried >= 5, "only {tried} held correct kernels found");
}
