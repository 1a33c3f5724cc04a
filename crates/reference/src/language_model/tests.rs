//! Tests of the language-model references (RMSNorm with residual, RoPE,
//! 8-bit GEMV and decode attention) on small cases worked by hand.

use super::*;
use gpu_puzzles_values::{CaseConfig, Values};
use std::collections::BTreeMap;

fn run(
    x: &[f32],
    residual: &[f32],
    weight: &[f32],
    shape: [u32; 2],
    eps: f64,
) -> Result<Outputs, ReferenceError> {
    let config = CaseConfig {
        workgroup_size: [4, 1, 1],
        workgroups: [shape[0], 1, 1],
        workgroup_memory: None,
    };
    let (x, residual, weight) =
        (Values::F32(x.to_vec()), Values::F32(residual.to_vec()), Values::F32(weight.to_vec()));
    let input = ReferenceInput {
        config: &config,
        buffers: BTreeMap::from([
            ("x", (&x, Some(shape))),
            ("residual", (&residual, Some(shape))),
            ("weight", (&weight, None)),
        ]),
        uniforms: BTreeMap::from([(
            "params",
            BTreeMap::from([("cols", f64::from(shape[1])), ("eps", eps)]),
        )]),
        output_lens: BTreeMap::new(),
    };
    rms_norm_residual(&input)
}

#[test]
fn rms_norm_adds_the_residual_then_divides_by_the_root_mean_square() {
    // Row 0: h = (1, 2, 2, 4) + (0, 1, -1, 0) = (1, 3, 1, 4), mean square
    // (1 + 9 + 1 + 16) / 4 = 6.75. Row 1: h = 0, so out = 0 (eps keeps
    // 0 / sqrt(0) from being NaN).
    let out = run(
        &[1.0, 2.0, 2.0, 4.0, 3.0, -3.0, 5.0, 0.0],
        &[0.0, 1.0, -1.0, 0.0, -3.0, 3.0, -5.0, 0.0],
        &[1.0, 2.0, 1.0, 0.5],
        [2, 4],
        1e-5,
    )
    .unwrap();
    assert_eq!(out.len(), 2);
    assert_eq!((out[0].1, out[1].1), (Some([2, 4]), Some([2, 4])));
    assert_eq!(out[0].0.as_f32().unwrap(), &[1.0, 3.0, 1.0, 4.0, 0.0, 0.0, 0.0, 0.0]);
    let rms = (6.75 + f64::from(1e-5f32)).sqrt();
    let want = [1.0 / rms, 6.0 / rms, 1.0 / rms, 2.0 / rms, 0.0, 0.0, 0.0, 0.0].map(|v| v as f32);
    assert_eq!(out[1].0.as_f32().unwrap(), &want);
    // No mean is subtracted: a constant row normalises to ±1 · weight.
    let out = run(&[2.0, 2.0, 2.0], &[3.0, 3.0, 3.0], &[1.0, 1.0, 3.0], [1, 3], 0.0).unwrap();
    assert_eq!(out[1].0.as_f32().unwrap(), &[1.0, 1.0, 3.0]);
}

#[test]
fn rms_norm_says_what_a_case_gets_wrong() {
    assert!(matches!(
        run(&[1.0, 2.0], &[1.0], &[1.0, 1.0], [1, 2], 1e-5),
        Err(ReferenceError::WrongLength { .. })
    ));
    assert!(matches!(
        run(&[1.0, 2.0], &[1.0, 2.0], &[1.0], [1, 2], 1e-5),
        Err(ReferenceError::WrongLength { .. })
    ));
}

/// `rope_neox` on one case: `params` as `[tokens, q_heads, kv_heads, head_dim]`.
fn rope(
    q: &[f32],
    k: &[f32],
    positions: &[u32],
    cos_sin: &[f32],
    params: [u32; 4],
) -> Result<Outputs, ReferenceError> {
    let config =
        CaseConfig { workgroup_size: [4, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
    let (q, k) = (Values::F32(q.to_vec()), Values::F32(k.to_vec()));
    let (positions, cos_sin) = (Values::U32(positions.to_vec()), Values::F32(cos_sin.to_vec()));
    let fields =
        ["tokens", "q_heads", "kv_heads", "head_dim"].into_iter().zip(params.map(f64::from));
    let input = ReferenceInput {
        config: &config,
        buffers: BTreeMap::from([
            ("q", (&q, None)),
            ("k", (&k, None)),
            ("positions", (&positions, None)),
            ("cos_sin", (&cos_sin, None)),
        ]),
        uniforms: BTreeMap::from([("params", fields.collect())]),
        output_lens: BTreeMap::new(),
    };
    rope_neox(&input)
}

#[test]
fn rope_rotates_the_halves_of_each_head_by_its_tokens_row_of_the_cache() {
    // head_dim 4: element i pairs with i + 2. Row 0 of the cache is the
    // identity (cos 1, sin 0); row 1 turns pair 0 by a quarter turn
    // (cos 0, sin 1) and pair 1 by the 3-4-5 angle (cos 0.6, sin 0.8),
    // values whose products and sums are exact in f32.
    let cos_sin = [1.0, 1.0, 0.0, 0.0, 0.0, 0.6, 1.0, 0.8];
    // Two tokens at positions 1 and 0 (not their indices), two q heads,
    // one kv head: every q head of a token and its one k head use the
    // token's row.
    let q = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    let k = [-1.0, 0.5, 2.0, 5.0, 9.0, 9.0, 9.0, 9.0];
    let out = rope(&q, &k, &[1, 0], &cos_sin, [2, 2, 1, 4]).unwrap();
    assert_eq!(out.len(), 2);
    assert_eq!((out[0].1, out[1].1), (Some([2, 8]), Some([2, 4])));
    // (x1, x2) = (1, 3) by a quarter turn: (1·0 − 3·1, 3·0 + 1·1) = (−3, 1);
    // (2, 4) by (0.6, 0.8): (1.2 − 3.2, 2.4 + 1.6) = (−2, 4).
    let token0 = [-3.0, 2.0f32 * 0.6 - 4.0 * 0.8, 1.0, 4.0 * 0.6 + 2.0 * 0.8];
    assert_eq!(out[0].0.as_f32().unwrap()[..4], token0);
    assert_eq!(out[0].0.as_f32().unwrap()[4..6], [-7.0, 6.0f32 * 0.6 - 8.0 * 0.8]);
    // Token 1 is at position 0: unchanged, in q and in k.
    assert_eq!(out[0].0.as_f32().unwrap()[8..], q[8..]);
    assert_eq!(
        out[1].0.as_f32().unwrap(),
        &[-2.0, 0.5f32 * 0.6 - 5.0 * 0.8, -1.0, 5.0f32 * 0.6 + 0.5 * 0.8, 9.0, 9.0, 9.0, 9.0]
    );
    // head_dim 2: one pair, (x1, x2) = (3, 4) by (0.6, 0.8), about (−1.4, 4.8).
    let out = rope(&[3.0, 4.0], &[3.0, 4.0], &[0], &[0.6, 0.8], [1, 1, 1, 2]).unwrap();
    assert_eq!(out[0].0.as_f32().unwrap(), &[3.0f32 * 0.6 - 4.0 * 0.8, 4.0f32 * 0.6 + 3.0 * 0.8]);
}

#[test]
fn rope_says_what_a_case_gets_wrong() {
    let cos_sin = [1.0, 0.0, 0.0, 1.0];
    assert!(matches!(
        rope(&[1.0, 2.0], &[1.0, 2.0], &[0], &cos_sin, [1, 1, 1, 3]),
        Err(ReferenceError::UniformOutOfRange { .. })
    ));
    assert!(matches!(
        rope(&[1.0, 2.0], &[1.0, 2.0], &[0], &cos_sin, [1, 2, 1, 2]),
        Err(ReferenceError::WrongLength { .. })
    ));
    assert!(matches!(
        rope(&[1.0, 2.0], &[1.0, 2.0], &[0], &cos_sin[..3], [1, 1, 1, 2]),
        Err(ReferenceError::WrongLength { .. })
    ));
    assert!(matches!(
        rope(&[1.0, 2.0], &[1.0, 2.0], &[2], &cos_sin, [1, 1, 1, 2]),
        Err(ReferenceError::IndexPastEnd { at: 0, index: 2, len: 2, .. })
    ));
}

/// `matvec_q8` on `rows` rows of `w` (`u32` words) with `scales` and `x`,
/// and a `dims` uniform of `[rows, cols]`.
fn q8(
    w: &[u32],
    rows: u32,
    scales: &[f32],
    x: &[f32],
    dims: [u32; 2],
) -> Result<Vec<f32>, ReferenceError> {
    let config =
        CaseConfig { workgroup_size: [4, 1, 1], workgroups: [rows, 1, 1], workgroup_memory: None };
    let words = w.len() as u32 / rows;
    let (w, scales, x) =
        (Values::U32(w.to_vec()), Values::F32(scales.to_vec()), Values::F32(x.to_vec()));
    let input = ReferenceInput {
        config: &config,
        buffers: BTreeMap::from([
            ("w", (&w, Some([rows, words]))),
            ("scales", (&scales, None)),
            ("x", (&x, None)),
        ]),
        uniforms: BTreeMap::from([(
            "dims",
            BTreeMap::from([("rows", f64::from(dims[0])), ("cols", f64::from(dims[1]))]),
        )]),
        output_lens: BTreeMap::new(),
    };
    Ok(matvec_q8(&input)?[0].0.as_f32().unwrap().to_vec())
}

#[test]
fn q8_sign_extends_each_byte_and_scales_each_block() {
    // The statement's worked example: 2 rows of 64 weights (16 words, two
    // blocks), x = 1, 2, 3, 4 over and over. Row 0: word 0 holds the bytes
    // 01 FF 02 FD from the lowest up, the weights 1, -1, 2, -3, and word 8
    // (block 1) holds 04 00 FE 01, the weights 4, 0, -2, 1:
    // 0.5 · (1 - 2 + 6 - 12) + 2 · (4 + 0 - 6 + 4) = -3.5 + 4 = 0.5.
    // Row 1: word 3 holds FB 03 00 02, the weights -5, 3, 0, 2 (block 0);
    // word 15 holds four -1 (block 1): 1 · (-5 + 6 + 0 + 8) + 0.25 · -10 = 6.5.
    let mut w = [0u32; 32];
    (w[0], w[8], w[16 + 3], w[16 + 15]) = (0xFD02_FF01, 0x01FE_0004, 0x0200_03FB, 0xFFFF_FFFF);
    let x: Vec<f32> = (0..64).map(|c| (c % 4 + 1) as f32).collect();
    assert_eq!(q8(&w, 2, &[0.5, 2.0, 1.0, 0.25], &x, [2, 64]).unwrap(), [0.5, 6.5]);
    // The extremes: bytes FF 01 7F 80 are -1, 1, 127, -128 (not 255 and
    // 128): (-1 · 1 + 1 · 2 + 127 · 3 - 128 · 4) · 0.5 = -130 · 0.5.
    let mut w = [0u32; 8];
    w[0] = 0x807F_01FF;
    assert_eq!(q8(&w, 1, &[0.5], &x[..32], [1, 32]).unwrap(), [-65.0]);
    // A zero scale silences its block, whatever its weights.
    assert_eq!(q8(&[0x7F7F_7F7F; 8], 1, &[0.0], &x[..32], [1, 32]).unwrap(), [0.0]);
}

#[test]
fn q8_says_what_a_case_gets_wrong() {
    let x = [1.0; 32];
    // Rows of 4 words are 16 weights, half a block.
    assert!(matches!(
        q8(&[0; 4], 1, &[1.0], &x[..16], [1, 16]),
        Err(ReferenceError::WrongLength { want: 8, .. })
    ));
    assert!(matches!(
        q8(&[0; 8], 1, &[1.0], &x[..31], [1, 32]),
        Err(ReferenceError::WrongLength { want: 32, .. })
    ));
    assert!(matches!(
        q8(&[0; 16], 2, &[1.0], &x, [2, 32]),
        Err(ReferenceError::WrongLength { want: 2, .. })
    ));
    assert!(matches!(
        q8(&[0; 8], 1, &[1.0], &x, [1, 64]),
        Err(ReferenceError::UniformDisagrees { .. })
    ));
}

/// `decode_attention` on one case: `params` as `[heads, kv_heads, d, t, capacity]`.
fn decode(q: &[f32], k: &[f32], v: &[f32], params: [u32; 5]) -> Result<Vec<f32>, ReferenceError> {
    let config = CaseConfig {
        workgroup_size: [4, 1, 1],
        workgroups: [1, params[0], 1],
        workgroup_memory: None,
    };
    let (q, k, v) = (Values::F32(q.to_vec()), Values::F32(k.to_vec()), Values::F32(v.to_vec()));
    let fields = ["heads", "kv_heads", "d", "t", "capacity"].into_iter().zip(params.map(f64::from));
    let input = ReferenceInput {
        config: &config,
        buffers: BTreeMap::from([
            ("q", (&q, None)),
            ("k_cache", (&k, None)),
            ("v_cache", (&v, None)),
        ]),
        uniforms: BTreeMap::from([("params", fields.chain([("split", 3.0)]).collect())]),
        output_lens: BTreeMap::new(),
    };
    let out = decode_attention(&input)?;
    assert_eq!(out[0].1, Some([params[0], params[2]]));
    Ok(out[0].0.as_f32().unwrap().to_vec())
}

#[test]
fn decode_attention_weighs_the_first_t_rows_of_each_heads_kv_head() {
    // The statement's worked example: d = 4 (scale 1/2), t = 4 of 6 rows.
    // Head 0 (q = 2 on element 0) scores the keys 1, 0, 2, 1; head 1
    // (q = 2 on element 3) 3, -1, 0, 2. Both read the one kv head. The
    // stale rows 4 and 5 would dominate any output they got into.
    let k = [
        1.0, 0.0, 0.0, 3.0, 0.0, 1.0, 0.0, -1.0, 2.0, 0.0, 1.0, 0.0, 1.0, -1.0, 0.0, 2.0, 77.0,
        -58.0, 91.0, 64.0, -83.0, 95.0, 60.0, 88.0,
    ];
    let v = [
        1.0, 0.0, 4.0, -1.0, 2.0, 1.0, 0.0, -1.0, 3.0, 0.0, 0.0, 1.0, 4.0, -1.0, 2.0, 1.0, 99.0,
        -99.0, 99.0, -99.0, -87.0, 92.0, -75.0, 81.0,
    ];
    let q = [2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0];
    let out = decode(&q, &k, &v, [2, 1, 4, 4, 6]).unwrap();
    // Weights exp(s - max s) over their sum, times the rows of v.
    let expected = |scores: [f64; 4]| -> Vec<f64> {
        let e = scores.map(|s| (s - 3.0f64).exp());
        let total: f64 = e.iter().sum();
        (0..4)
            .map(|c| (0..4).map(|j| e[j] * f64::from(v[j * 4 + c])).sum::<f64>() / total)
            .collect()
    };
    let want: Vec<f64> = [expected([1.0, 0.0, 2.0, 1.0]), expected([3.0, -1.0, 0.0, 2.0])].concat();
    for (got, want) in out.iter().zip(&want) {
        assert!((f64::from(*got) - want).abs() < 1e-6, "{out:?} against {want:?}");
    }
    // Head 0's first element, by hand: (e⁻¹·1 + e⁻²·2 + 3 + e⁻¹·4) / (e⁻¹ + e⁻² + 1 + e⁻¹).
    assert!((out[0] - 2.7311).abs() < 1e-4);
    // Every score equal (every key the same): out is the mean of v's first t rows.
    let out = decode(
        &[0.5, -1.0],
        &[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 50.0, 50.0],
        &[1.0, 2.0, 2.0, 4.0, 3.0, 6.0, 99.0, 99.0],
        [1, 1, 2, 3, 4],
    )
    .unwrap();
    assert_eq!(out, [2.0, 4.0]);
}

#[test]
fn decode_attention_groups_consecutive_query_heads_on_a_kv_head() {
    // d = 1, t = 1: each head's output is the one row of its kv head's v.
    let (k, v) = ([1.0, 1.0, 1.0], [10.0, 20.0, 30.0]);
    // 6 query heads on 3 kv heads: heads 0 and 1 read kv head 0, 2 and 3
    // kv head 1, 4 and 5 kv head 2 (not h % kv_heads).
    assert_eq!(
        decode(&[1.0; 6], &k, &v, [6, 3, 1, 1, 1]).unwrap(),
        [10.0, 10.0, 20.0, 20.0, 30.0, 30.0]
    );
    // As many kv heads as query heads: one each.
    assert_eq!(decode(&[1.0; 3], &k, &v, [3, 3, 1, 1, 1]).unwrap(), [10.0, 20.0, 30.0]);
}

#[test]
fn decode_attention_says_what_a_case_gets_wrong() {
    let (q, kv) = ([1.0; 4], [1.0; 8]);
    let out_of_range = |r: Result<Vec<f32>, ReferenceError>, name: &str| matches!(r, Err(ReferenceError::UniformOutOfRange { field, .. }) if field == name);
    assert!(out_of_range(decode(&q, &kv, &kv, [4, 1, 0, 2, 2]), "params.d"));
    assert!(out_of_range(decode(&q, &kv, &kv, [4, 3, 1, 2, 2]), "params.kv_heads"));
    assert!(out_of_range(decode(&q, &kv, &kv, [4, 0, 1, 2, 2]), "params.kv_heads"));
    assert!(out_of_range(decode(&q, &kv, &kv, [4, 1, 2, 0, 4]), "params.t"));
    assert!(out_of_range(decode(&q, &kv, &kv, [4, 1, 2, 5, 4]), "params.t"));
    // 4 heads of d = 2 need 8 elements of q; 1 kv head of 4 rows of 2, 8 of each cache.
    assert!(matches!(
        decode(&q, &kv, &kv, [4, 1, 2, 3, 4]),
        Err(ReferenceError::WrongLength { want: 8, .. })
    ));
    assert!(matches!(
        decode(&q, &kv[..6], &kv, [2, 1, 2, 3, 4]),
        Err(ReferenceError::WrongLength { len: 6, want: 8, .. })
    ));
    assert!(matches!(
        decode(&q, &kv, &kv[..7], [2, 1, 2, 3, 4]),
        Err(ReferenceError::WrongLength { len: 7, want: 8, .. })
    ));
}
