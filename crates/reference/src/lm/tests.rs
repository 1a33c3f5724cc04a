//! Tests of the language model: the shipped files load, a malformed one is
//! refused with the error that names its fault, every stage follows its
//! puzzle's worked example, and the whole forward pass and sampling loop
//! reproduce the `f64` check file that `scripts/train-model.py` wrote.
//!
//! The real files are embedded here, in the tests only: the crate itself
//! never carries the model.

use super::forward::{attention, gemv_q8, rmsnorm_fused, rope, rope_table, swiglu, Stage};
use super::sample::{sample, uniform};
use super::*;
use crate::{top_k_sample, ReferenceInput};
use gpu_puzzles_values::SplitMix64;
use gpu_puzzles_values::{CaseConfig, Values};
use serde::Deserialize;
use std::collections::BTreeMap;

const MANIFEST: &str = include_str!("../../../../models/generate/model.toml");
const BIN: &[u8] = include_bytes!("../../../../models/generate/model.bin");
const CHECK: &str = include_str!("../../../../tests/data/generate-check.toml");

/// `tests/data/generate-check.toml`.
#[derive(Deserialize)]
struct Check {
    prompt: String,
    prompt_ids: Vec<u32>,
    logits_0_first8: Vec<f64>,
    logits_1_first8: Vec<f64>,
    logits_2_first8: Vec<f64>,
    logits_last: Vec<f64>,
    generation: Generation,
}

#[derive(Deserialize)]
struct Generation {
    k: usize,
    temperature: f64,
    seed: u64,
    tokens: usize,
    ids: Vec<u32>,
    text: String,
}

fn model() -> Model {
    Model::from_files(MANIFEST, BIN).expect("the shipped model loads")
}

fn check() -> Check {
    toml::from_str(CHECK).expect("the check file parses")
}

/// `got` equals `want` within 1e-9 relative (to `|want|`, or 1 for a smaller
/// value, so that a logit near 0 is not held to an absolute 1e-20).
fn assert_close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-9 * w.abs().max(1.0), "{what}[{i}]: {g} against {w}");
    }
}

#[test]
fn the_shipped_model_loads_with_its_dimensions() {
    let m = model();
    let c = &m.config;
    assert_eq!(
        (c.d_model, c.layers, c.heads, c.kv_heads, c.head_dim, c.ffn_hidden, c.context),
        (128, 4, 4, 2, 32, 384, 256)
    );
    assert_eq!((c.eps, c.rope_theta), (1e-5, 10000.0));
    assert!(c.vocab <= 96 && m.vocabulary.len() == c.vocab);
    assert!(m.vocabulary.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
    assert_eq!((m.layers.len(), m.embed.len()), (4, c.vocab * 128));
    let l = &m.layers[3];
    assert_eq!((l.wq.rows, l.wq.cols, l.wk.rows, l.wo.cols), (128, 128, 64, 128));
    assert_eq!((l.w_down.rows, l.w_down.cols, l.w_down.scales.len()), (128, 384, 128 * 12));
    assert_eq!((m.lm_head.rows, m.lm_head.words.len()), (c.vocab, c.vocab * 32));
    assert!(BIN.len() <= 1_500_000, "{} bytes", BIN.len());
}

/// The error of loading the shipped files with `edit` applied to the
/// manifest's text (replacing its first `from` by `to`).
fn load_edited(from: &str, to: &str) -> WeightsError {
    assert!(MANIFEST.contains(from), "the manifest has no {from:?}");
    Model::from_files(&MANIFEST.replacen(from, to, 1), BIN).expect_err("an edited manifest")
}

#[test]
fn a_malformed_model_names_what_is_wrong() {
    let m = model();
    let (vocab, d) = (m.config.vocab, m.config.d_model);
    // model.bin cut short: the last tensor runs past its end.
    let short = Model::from_files(MANIFEST, &BIN[..BIN.len() - 4]).unwrap_err();
    match &short {
        WeightsError::PastEnd { name, file_len, .. } => {
            assert_eq!((name.as_str(), *file_len), ("lm_head.scales", BIN.len() - 4));
        }
        other => panic!("{other}"),
    }
    assert!(short.to_string().contains("lm_head.scales"), "{short}");
    // A tensor whose byte count is shorter than its shape.
    let bytes = format!("bytes = {}", vocab * d * 4);
    let err = load_edited(&bytes, &format!("bytes = {}", vocab * d * 4 - 4));
    assert!(matches!(&err, WeightsError::WrongByteLength { name, .. } if name == "embed"), "{err}");
    assert!(err.to_string().contains("embed"), "{err}");
    let err = load_edited(&format!("shape = [{vocab}, {d}]"), &format!("shape = [{d}, {vocab}]"));
    assert!(matches!(&err, WeightsError::WrongShape { name, .. } if name == "embed"), "{err}");
    let err = load_edited("name = \"final_norm\"", "name = \"final_nrom\"");
    assert!(matches!(&err, WeightsError::MissingTensor { name } if name == "final_norm"), "{err}");
    let err = load_edited("dtype = \"u32\"", "dtype = \"f32\"");
    assert!(matches!(&err, WeightsError::WrongType { name, .. } if name == "layers.0.wq"), "{err}");
    let err = load_edited("head_dim = 32", "head_dim = 31");
    let want =
        WeightsError::Dimension { field: "dims.head_dim", value: 31.0, want: "even, from 2" };
    assert_eq!(err, want);
    let err = load_edited(&format!("vocab = {vocab}"), &format!("vocab = {}", vocab + 1));
    assert!(matches!(err, WeightsError::VocabularyLength { chars, .. } if chars == vocab));
    assert!(matches!(load_edited("format = 1", "format = 2"), WeightsError::Format { found: 2 }));
    assert!(matches!(load_edited("[dims]", "[dims"), WeightsError::Manifest(_)));
    // A tensor listed twice, and one the model does not have.
    let block = r#"
[[tensor]]
name = "embed"
dtype = "f32"
shape = [1]
offset = 0
bytes = 4
"#;
    let twice = format!("{MANIFEST}{block}");
    assert!(matches!(
        Model::from_files(&twice, BIN),
        Err(WeightsError::UnexpectedTensor { why: "is listed twice", .. })
    ));
    let extra = format!("{MANIFEST}{}", block.replace("embed", "bias"));
    assert!(matches!(
        Model::from_files(&extra, BIN),
        Err(WeightsError::UnexpectedTensor { name, .. }) if name == "bias"
    ));
    // A NaN in the embedding (the first tensor, at byte 0).
    let mut bin = BIN.to_vec();
    bin[..4].copy_from_slice(&f32::NAN.to_le_bytes());
    assert!(matches!(
        Model::from_files(MANIFEST, &bin),
        Err(WeightsError::NotFinite { name, at: 0, .. }) if name == "embed"
    ));
}

#[test]
fn each_stage_follows_its_puzzles_worked_example() {
    // gemv-q8: 2 rows of 64 columns, four non-zero words, scales [[0.5, 2], [1, 0.25]].
    let mut words = vec![0u32; 32];
    (words[0], words[8], words[16 + 3], words[16 + 15]) =
        (0xFD02_FF01, 0x01FE_0004, 0x0200_03FB, 0xFFFF_FFFF);
    let m = Q8Matrix { rows: 2, cols: 64, words, scales: vec![0.5, 2.0, 1.0, 0.25] };
    let x: Vec<f64> = (0..64).map(|i| (i % 4 + 1) as f64).collect();
    assert_eq!(gemv_q8(&m, &x), [0.5, 6.5]);
    assert_eq!((m.weight(0, 1), m.weight(0, 3), m.weight(1, 63)), (-1, -3, -1));
    // rms-norm: h = [1, 3, 1, 4], ms = 6.75.
    let mut residual = [0.0, 1.0, -1.0, 0.0];
    let out = rmsnorm_fused(&mut residual, &[1.0, 2.0, 2.0, 4.0], &[1.0, 2.0, 1.0, 3.0], 1e-5);
    assert_eq!(residual, [1.0, 3.0, 1.0, 4.0]);
    let r = (6.75f64 + 1e-5).sqrt();
    assert_close(&out, &[1.0 / r, 6.0 / r, 1.0 / r, 12.0 / r], "rmsnorm");
    // rope: θ = (1, 0.1) is base 100 with head_dim 4; position 1 turns
    // [1, 2, 3, 4] into [−1.9842, 1.5908, 2.4624, 4.1796] (the statement
    // rounds its table to four decimals), position 0 not at all.
    let table = rope_table(2, 4, 100.0);
    let mut v = vec![1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0];
    rope(&mut v, 4, &table[4..8]);
    let (c1, s1, c2, s2) = (1.0f64.cos(), 1.0f64.sin(), 0.1f64.cos(), 0.1f64.sin());
    let want = [c1 - 3.0 * s1, 2.0 * c2 - 4.0 * s2, 3.0 * c1 + s1, 4.0 * c2 + 2.0 * s2];
    assert_close(&v[..4], &want, "rope");
    for (got, want) in v.iter().zip([-1.9842, 1.5908, 2.4624, 4.1796]) {
        assert!((got - want).abs() < 2e-4, "{v:?}");
    }
    assert_eq!(v[..4], v[4..]);
    let before = v.clone();
    rope(&mut v, 4, &table[..4]);
    assert_eq!((&table[..4], v), (&[1.0, 1.0, 0.0, 0.0][..], before));
    // attention: 2 query heads on 1 kv head, capacity 3, t = 2. Head 0's
    // query is orthogonal to both keys (equal weights: the mean of the
    // values); head 1's prefers key 1 by e^1 (scores 0 and 2/sqrt(4)).
    let (k, vals) = (
        [1.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 9.0, 9.0, 9.0, 9.0],
        [2.0, 4.0, 0.0, 0.0, 4.0, 0.0, 0.0, 8.0, 9.0, 9.0, 9.0, 9.0],
    );
    let q = [0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
    let out = attention(&q, &k, &vals, 1, 4, 2);
    let w = 1.0f64.exp() / (1.0 + 1.0f64.exp());
    let want = [3.0, 2.0, 0.0, 4.0, 2.0 + 2.0 * w, 4.0 - 4.0 * w, 0.0, 8.0 * w];
    assert_close(&out, &want, "attention");
    // swiglu: silu(0) = 0, silu(g) = g / (1 + e^−g).
    let got = swiglu(&[0.0, 1.0, -2.0], &[5.0, 2.0, 3.0]);
    assert_close(
        &got,
        &[0.0, 2.0 / (1.0 + (-1.0f64).exp()), -6.0 / (1.0 + 2.0f64.exp())],
        "swiglu",
    );
}

#[test]
fn the_tokenizer_maps_characters_to_ids_and_names_a_stranger() {
    let (m, c) = (model(), check());
    let ids = m.encode(&c.prompt).unwrap();
    assert_eq!(ids, c.prompt_ids);
    assert_eq!(m.decode(&ids).unwrap(), c.prompt);
    let err = m.encode("In the €uro").unwrap_err();
    assert_eq!(err, TokenError::UnknownCharacter { ch: '€', position: 7 });
    assert!(err.to_string().contains("'€' at position 7"), "{err}");
    let vocab = m.config.vocab;
    assert_eq!(
        m.decode(&[0, vocab as u32]).unwrap_err(),
        TokenError::UnknownId { id: vocab as u32, position: 1, vocab }
    );
}

#[test]
fn the_logits_match_the_python_float64_check() {
    let (m, c) = (model(), check());
    let mut state = State::new(&m);
    let rows: Vec<Vec<f64>> =
        c.prompt_ids.iter().enumerate().map(|(pos, &t)| state.step(t, pos).unwrap()).collect();
    assert_close(&rows[0][..8], &c.logits_0_first8, "logits after token 0");
    assert_close(&rows[1][..8], &c.logits_1_first8, "logits after token 1");
    assert_close(&rows[2][..8], &c.logits_2_first8, "logits after token 2");
    assert_close(rows.last().unwrap(), &c.logits_last, "logits after the prompt");
    assert_eq!(state.cached(), c.prompt_ids.len());
    // Running again from position 1 drops the cache from there, and gives
    // the same logits.
    assert_close(&state.step(c.prompt_ids[1], 1).unwrap(), &rows[1], "position 1 again");
    assert_eq!(state.cached(), 2);
}

#[test]
fn the_generated_tokens_match_the_python_check() {
    let (m, c) = (model(), check());
    let g = &c.generation;
    let temperature = g.temperature as f32;
    assert_eq!(f64::from(temperature), g.temperature, "the check's temperature is an f32");
    let ids = generate(&m, &c.prompt_ids, g.tokens, g.k, temperature, g.seed).unwrap();
    assert_eq!(ids, g.ids);
    assert_eq!(m.decode(&ids).unwrap(), g.text);
}

#[test]
fn a_step_refuses_a_stranger_and_a_gap_and_traces_every_stage() {
    let m = model();
    let mut state = State::new(&m);
    let vocab = m.config.vocab;
    assert_eq!(
        state.step(vocab as u32, 0).unwrap_err(),
        StepError::UnknownToken { token: vocab as u32, vocab }
    );
    assert_eq!(
        state.step(0, 1).unwrap_err(),
        StepError::Position { pos: 1, cached: 0, context: 256 }
    );
    let mut stages = Vec::new();
    let logits = state.step_traced(5, 0, &mut |s, v| stages.push((s, v.to_vec()))).unwrap();
    assert_eq!(stages.len(), 4 * 10 + 2);
    assert_eq!(stages[0].0, Stage::AttnNorm(0));
    assert_eq!(stages[stages.len() - 1], (Stage::Logits, logits));
    // At position 0 attention sees one value: its output is that value,
    // each query head its kv head's.
    let value = &stages[3];
    assert_eq!(value.0, Stage::Value(0));
    let att = &stages[4].1;
    assert_close(&att[..64], &[&value.1[..32], &value.1[..32]].concat(), "attention at 0");
    assert_close(&att[64..], &[&value.1[32..], &value.1[32..]].concat(), "attention at 0");
    assert_close(&state.values(0)[..32], &value.1[..32], "the cached value");
    // A full context: position 256 is refused.
    assert!(matches!(
        generate(&m, &[1; 250], 10, 4, 1.0, 0),
        Err(GenerateError::Step(StepError::Position { pos: 256, .. }))
    ));
    assert_eq!(generate(&m, &[], 1, 4, 1.0, 0), Err(GenerateError::EmptyPrompt));
}

/// `reference::top_k_sample`'s token for one row of `f32` logits, or `None`
/// where it refuses `u` as too close to a cumulative probability.
fn reference_token(logits: &[f32], k: usize, temperature: f32, u: f32) -> Option<u32> {
    let config =
        CaseConfig { workgroup_size: [1, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
    let (l, uv) = (Values::F32(logits.to_vec()), Values::F32(vec![u]));
    let params = BTreeMap::from([("k", k as f64), ("temperature", f64::from(temperature))]);
    let input = ReferenceInput {
        config: &config,
        buffers: BTreeMap::from([
            ("logits", (&l, Some([1, logits.len() as u32]))),
            ("u", (&uv, None)),
        ]),
        uniforms: BTreeMap::from([("params", params)]),
        output_lens: BTreeMap::new(),
    };
    match top_k_sample(&input) {
        Err(crate::ReferenceError::DrawTooClose { .. }) => None,
        Ok(out) => match &out[2].0 {
            Values::U32(t) => Some(t[0]),
            other => panic!("not u32: {other:?}"),
        },
        Err(e) => panic!("{e:?}"),
    }
}

#[test]
fn sampling_follows_the_top_k_puzzles_rule() {
    // Against the puzzle's own reference, on rows of f32 logits with ties,
    // at uniform numbers drawn as generate draws them (none near a boundary).
    let (mut rng, mut compared) = (SplitMix64::new(11), 0);
    for row in 0..200 {
        let logits: Vec<f32> = (0..20).map(|_| rng.range_inclusive(-6, 6) as f32 / 2.0).collect();
        let wide: Vec<f64> = logits.iter().map(|&l| f64::from(l)).collect();
        let (k, temperature, u) = (1 + row % 20, [0.8f32, 1.0, 2.5][row % 3], uniform(&mut rng));
        let ours = sample(&wide, k, temperature, u).unwrap() as u32;
        if let Some(theirs) = reference_token(&logits, k, temperature, u as f32) {
            assert_eq!(ours, theirs, "row {row}");
            compared += 1;
        }
    }
    assert!(compared > 190, "{compared}");
    // Equal logits go by index; k = 1 is greedy; the last of the top k when u
    // passes every sum short of 1.
    assert_eq!(sample(&[1.0, 3.0, 3.0, 0.0], 2, 1.0, 0.49), Ok(1));
    assert_eq!(sample(&[1.0, 3.0, 3.0, 0.0], 2, 1.0, 0.51), Ok(2));
    assert_eq!(sample(&[1.0, 3.0, -0.0, 0.0], 4, 1.0, 0.999_999), Ok(3));
    assert_eq!(sample(&[1.0, 3.0, 2.0], 1, 1.0, 0.99), Ok(1));
    assert_eq!(sample(&[1.0], 0, 1.0, 0.5), Err(SampleError::K { k: 0, vocab: 1 }));
    assert_eq!(sample(&[1.0], 1, 0.0, 0.5), Err(SampleError::Temperature(0.0)));
    assert_eq!(sample(&[1.0], 1, 1.0, 1.0), Err(SampleError::Uniform(1.0)));
    assert!(matches!(
        sample(&[1.0, f64::NAN], 1, 1.0, 0.5),
        Err(SampleError::NotFinite { at: 1, .. })
    ));
    // The uniform numbers: 24 bits, exact as f32, in [0, 1).
    let mut rng = SplitMix64::new(0);
    let first = uniform(&mut rng);
    assert_eq!(first, (0xE220_A839_7B1D_CDAF_u64 >> 40) as f64 / 16_777_216.0);
    assert!((0..1000)
        .map(|_| uniform(&mut rng))
        .all(|u| (0.0..1.0).contains(&u) && f64::from(u as f32) == u));
}
