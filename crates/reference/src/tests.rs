//! The registry's and the reference functions' own checks: every name
//! registered once, and the functions against hand-computed values.

use super::*;
use gpu_puzzles_values::{CaseConfig, Values};
use std::collections::BTreeMap;

/// An `f32` input: its name, values and shape.
pub(super) type Input = (&'static str, Vec<f32>, Option<[u32; 2]>);

/// `f` on `f32` inputs, with no uniforms: the first output's values.
pub(super) fn run(f: ReferenceFn, bufs: &[Input], wg: u32) -> Vec<f32> {
    let config =
        CaseConfig { workgroup_size: [wg, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
    let values: Vec<_> = bufs.iter().map(|(n, v, s)| (*n, Values::F32(v.clone()), *s)).collect();
    let input = ReferenceInput {
        config: &config,
        buffers: values.iter().map(|(n, v, s)| (*n, (v, *s))).collect(),
        uniforms: BTreeMap::new(),
        output_lens: BTreeMap::from([("bins", 4)]),
    };
    f(&input).unwrap()[0].0.as_f32().unwrap().to_vec()
}

#[test]
fn broadcast_adds_a_row_index_to_a_column_index() {
    let out =
        run(broadcast_add, &[("a", vec![1.0, 2.0], None), ("b", vec![10.0, 20.0, 30.0], None)], 1);
    assert_eq!(out, [11.0, 21.0, 31.0, 12.0, 22.0, 32.0]);
}

#[test]
fn matmul_handles_non_square_shapes() {
    let a = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; // 2×3
    let b = vec![1.0, 0.0, 0.0, 1.0, 1.0, 1.0]; // 3×2
    let out = run(matmul, &[("a", a, Some([2, 3])), ("b", b, Some([3, 2]))], 1);
    assert_eq!(out, [4.0, 5.0, 10.0, 11.0]);
}

#[test]
fn every_per_element_form_agrees_with_its_whole_function() {
    // Non-integer inputs, so that a different summation order would show.
    let a: Vec<f32> = (0..35).map(|i| (i as f32 * 0.37).sin() * 3.1).collect();
    let b: Vec<f32> = (0..63).map(|i| (i as f32 * 0.91).cos() / 1.7).collect();
    let config =
        CaseConfig { workgroup_size: [1, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
    let (va, vb) = (Values::F32(a), Values::F32(b));
    let input = ReferenceInput {
        config: &config,
        buffers: BTreeMap::from([("a", (&va, Some([5, 7]))), ("b", (&vb, Some([7, 9])))]),
        uniforms: BTreeMap::new(),
        output_lens: BTreeMap::new(),
    };
    for (name, at) in SAMPLED {
        let whole = lookup(name).unwrap().all;
        let all = whole(&input).unwrap();
        let elements: Vec<usize> = (0..all[0].0.len()).rev().collect();
        let some = at(&input, &elements).unwrap();
        assert_eq!(some.len(), all.len(), "{name}");
        for (s, (w, _)) in some.iter().zip(&all) {
            for (j, &e) in elements.iter().enumerate() {
                assert_eq!(s.get(j).to_bits(), w.get(e).to_bits(), "{name}: element {e}");
            }
        }
        assert!(
            at(&input, &[all[0].0.len()]).is_err(),
            "{name}: an element past the end is an error"
        );
    }
}

#[test]
fn matvec_and_transpose_follow_row_major_shapes() {
    let a = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; // 2×3
    assert_eq!(
        run(matvec, &[("a", a.clone(), Some([2, 3])), ("x", vec![1.0, 0.0, -1.0], None)], 1),
        [-2.0, -2.0]
    );
    assert_eq!(run(transpose, &[("a", a, Some([2, 3]))], 1), [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
}

#[test]
fn conv1d_i32_sums_in_wrapping_integers() {
    let config =
        CaseConfig { workgroup_size: [1, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
    let (a, b) = (Values::I32(vec![1, 2, 3, i32::MAX]), Values::I32(vec![1, -1]));
    let input = ReferenceInput {
        config: &config,
        buffers: BTreeMap::from([("a", (&a, None)), ("b", (&b, None))]),
        uniforms: BTreeMap::new(),
        output_lens: BTreeMap::new(),
    };
    assert_eq!(conv1d_i32(&input).unwrap()[0].0, Values::I32(vec![-1, -1, 3 - i32::MAX, i32::MAX]));
}

#[test]
fn conv2d_centres_the_filter_and_pads_with_zeros() {
    // A 3×3 filter that picks the cell to the right: out[y][x] = a[y][x+1].
    let f = vec![0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
    let out =
        run(conv2d, &[("a", (1..=6).map(|x| x as f32).collect(), Some([2, 3])), ("f", f, None)], 1);
    assert_eq!(out, [2.0, 3.0, 0.0, 5.0, 6.0, 0.0]);
    // A 1×1 filter scales.
    assert_eq!(
        run(conv2d, &[("a", vec![1.0, 2.0], Some([1, 2])), ("f", vec![3.0], None)], 1),
        [3.0, 6.0]
    );
}

#[test]
fn block_sum_keeps_a_short_last_block() {
    let out = run(block_sum, &[("a", (0..10).map(|x| x as f32).collect(), None)], 8);
    assert_eq!(out, [28.0, 17.0]);
}

#[test]
fn spmv_sums_each_rows_entries() {
    // [[1, 0, 2], [0, 0, 0], [0, 3, 0]] · [1, 10, 100]
    let config =
        CaseConfig { workgroup_size: [1, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
    let (o, c, v, x) = (
        Values::U32(vec![0, 2, 2, 3]),
        Values::U32(vec![0, 2, 1]),
        Values::F32(vec![1.0, 2.0, 3.0]),
        Values::F32(vec![1.0, 10.0, 100.0]),
    );
    let input = ReferenceInput {
        config: &config,
        buffers: BTreeMap::from([
            ("row_offsets", (&o, None)),
            ("col_indices", (&c, None)),
            ("values", (&v, None)),
            ("x", (&x, None)),
        ]),
        uniforms: BTreeMap::new(),
        output_lens: BTreeMap::new(),
    };
    assert_eq!(spmv_csr(&input).unwrap()[0].0, Values::F32(vec![201.0, 0.0, 30.0]));
    let past = Values::U32(vec![0, 2, 3]);
    let input = ReferenceInput {
        buffers: BTreeMap::from([
            ("row_offsets", (&o, None)),
            ("col_indices", (&past, None)),
            ("values", (&v, None)),
            ("x", (&x, None)),
        ]),
        ..input
    };
    assert!(matches!(
        spmv_csr(&input).unwrap_err(),
        ReferenceError::IndexPastEnd { at: 2, index: 3, .. }
    ));
}

#[test]
fn block_scan_restarts_at_each_block() {
    assert_eq!(
        run(block_inclusive_scan, &[("a", vec![1.0, 2.0, 3.0, 4.0, 5.0], None)], 2),
        [1.0, 3.0, 3.0, 7.0, 5.0]
    );
}

#[test]
fn block_max_fills_each_block() {
    assert_eq!(
        run(block_max_broadcast, &[("a", vec![1.0, -2.0, 3.0, -4.0, -5.0], None)], 2),
        [1.0, 1.0, 3.0, 3.0, -5.0]
    );
}

#[test]
fn scan_sums_every_prefix() {
    assert_eq!(
        run(inclusive_scan, &[("a", vec![1.0, 2.0, 3.0, 4.0], None)], 4),
        [1.0, 3.0, 6.0, 10.0]
    );
}

#[test]
fn blur_counts_cells_past_the_edge_as_zero() {
    let out = run(box_blur_3x3, &[("a", vec![9.0; 9], Some([3, 3]))], 1);
    assert_eq!(out, [4.0, 6.0, 4.0, 6.0, 9.0, 6.0, 4.0, 6.0, 4.0]);
}

#[test]
fn histogram_floors_into_bins() {
    let config =
        CaseConfig { workgroup_size: [1, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
    let a = Values::F32(vec![0.5, 3.99, 3.0, 1.0, 0.0]);
    let input = ReferenceInput {
        config: &config,
        buffers: BTreeMap::from([("a", (&a, None))]),
        uniforms: BTreeMap::new(),
        output_lens: BTreeMap::from([("bins", 4)]),
    };
    assert_eq!(histogram(&input).unwrap()[0].0, Values::U32(vec![2, 1, 0, 2]));
    let outside = Values::F32(vec![4.0]);
    let input = ReferenceInput { buffers: BTreeMap::from([("a", (&outside, None))]), ..input };
    assert!(matches!(
        histogram(&input).unwrap_err(),
        ReferenceError::OutsideBins { index: 0, bins: 4, .. }
    ));
}

#[test]
fn every_name_is_unique() {
    for (i, (n, _)) in REFERENCES.iter().enumerate() {
        assert!(REFERENCES[i + 1..].iter().all(|(m, _)| m != n), "{n} twice");
    }
}
