//! Merging sorted runs (the chapter "Training"): two ascending `u32` arrays
//! merged stably into one, each output with the place it came from, as the
//! sorted batches and top-k lists of a training step are combined.

use crate::error::ReferenceError;
use crate::input::{Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// The stable merge of two ascending `u32` arrays (Merge Path). The sizes
/// come from the uniform `sizes`: `na` elements of `a` and `nb` of `b`; each
/// buffer holds exactly that many, or one unused element where the size is
/// 0 (WebGPU has no empty buffers). Two `u32` outputs of `na + nb` elements
/// each, in binding order:
///
/// - `out`: the keys in ascending order; of equal keys, `a`'s come before
///   `b`'s, and each array's keep their own order (a stable merge);
/// - `src`: where each output came from, `i` for `a[i]` and `na + j` for
///   `b[j]`.
///
/// In closed form, `a[i]` lands at `i + #{j : b[j] < a[i]}` and `b[j]` at
/// `j + #{i : a[i] ≤ b[j]}`: the strict `<` on one side and `≤` on the other
/// is the tie rule.
///
/// # Errors
/// A missing or mistyped buffer or `sizes` field, a buffer of another length
/// than its size asks, no elements at all (`na + nb = 0`), or an array that
/// is not sorted ascending.
pub fn merge_sorted(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let size = |field: &str| -> Result<usize, ReferenceError> {
        input
            .uniforms
            .get("sizes")
            .and_then(|s| s.get(field))
            .map(|&v| v as usize)
            .ok_or_else(|| ReferenceError::MissingUniform { name: format!("sizes.{field}") })
    };
    let a = sorted_prefix(input, "a", size("na")?)?;
    let b = sorted_prefix(input, "b", size("nb")?)?;
    if a.is_empty() && b.is_empty() {
        return Err(ReferenceError::UniformOutOfRange {
            field: "sizes.na + sizes.nb".into(),
            want: "at least 1: the outputs cannot be empty",
        });
    }
    let na = a.len() as u32;
    let (mut out, mut src) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        // `a` goes first while its key is at most `b`'s: the tie rule.
        if j == b.len() || (i < a.len() && a[i] <= b[j]) {
            out.push(a[i]);
            src.push(i as u32);
            i += 1;
        } else {
            out.push(b[j]);
            src.push(na + j as u32);
            j += 1;
        }
    }
    Ok(vec![(Values::U32(out), None), (Values::U32(src), None)])
}

/// The first `n` elements of input `name`, after checking that the buffer
/// holds `max(n, 1)` elements and that they rise.
fn sorted_prefix<'a>(
    input: &ReferenceInput<'a>,
    name: &str,
    n: usize,
) -> Result<&'a [u32], ReferenceError> {
    let v = input.u32s(name)?;
    if v.len() != n.max(1) {
        return Err(ReferenceError::WrongLength {
            name: name.into(),
            len: v.len(),
            want: n.max(1),
        });
    }
    let v = &v[..n];
    if let Some(at) = (1..v.len()).find(|&k| v[k] < v[k - 1]) {
        return Err(ReferenceError::ValueOutOfRange {
            name: name.into(),
            at,
            value: f64::from(v[at]),
            want: "at least the element before it: the arrays must be sorted ascending",
        });
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    /// `merge_sorted` on `a` and `b` with the given sizes.
    fn merge(a: &[u32], b: &[u32], na: f64, nb: f64) -> Result<Outputs, ReferenceError> {
        let config =
            CaseConfig { workgroup_size: [4, 1, 1], workgroups: [3, 1, 1], workgroup_memory: None };
        let (va, vb) = (Values::U32(a.to_vec()), Values::U32(b.to_vec()));
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("a", (&va, None)), ("b", (&vb, None))]),
            uniforms: BTreeMap::from([("sizes", BTreeMap::from([("na", na), ("nb", nb)]))]),
            output_lens: BTreeMap::new(),
        };
        merge_sorted(&input)
    }

    #[test]
    fn merge_is_stable_and_records_where_each_key_came_from() {
        // The statement's example: the 3s of `a` before the 3 of `b`, the 8
        // of `a` before the 8 of `b`.
        let outs = merge(&[1, 3, 3, 6, 8], &[2, 3, 4, 8], 5.0, 4.0).unwrap();
        assert_eq!(outs[0].0, Values::U32(vec![1, 2, 3, 3, 3, 4, 6, 8, 8]));
        assert_eq!(outs[1].0, Values::U32(vec![0, 5, 1, 2, 6, 7, 3, 4, 8]));
        // All keys equal: all of `a`, then all of `b`.
        let outs = merge(&[5; 3], &[5; 2], 3.0, 2.0).unwrap();
        assert_eq!(outs[1].0, Values::U32(vec![0, 1, 2, 3, 4]));
        // The closed form agrees with the merge on a larger draw.
        let a: Vec<u32> = (0..40).map(|i| i / 3).collect();
        let b: Vec<u32> = (0..30).map(|j| j / 2 + 1).collect();
        let outs = merge(&a, &b, 40.0, 30.0).unwrap();
        let (Values::U32(out), Values::U32(src)) = (&outs[0].0, &outs[1].0) else { panic!() };
        for (i, &x) in a.iter().enumerate() {
            let at = i + b.iter().filter(|&&y| y < x).count();
            assert_eq!((out[at], src[at]), (x, i as u32));
        }
        for (j, &y) in b.iter().enumerate() {
            let at = j + a.iter().filter(|&&x| x <= y).count();
            assert_eq!((out[at], src[at]), (y, 40 + j as u32));
        }
    }

    #[test]
    fn an_empty_side_holds_one_unused_element() {
        let outs = merge(&[0], &[4, 9], 0.0, 2.0).unwrap();
        assert_eq!(outs[0].0, Values::U32(vec![4, 9]));
        assert_eq!(outs[1].0, Values::U32(vec![0, 1]));
        let outs = merge(&[4, 9], &[0], 2.0, 0.0).unwrap();
        assert_eq!(outs[1].0, Values::U32(vec![0, 1]));
    }

    #[test]
    fn bad_cases_are_refused() {
        assert!(matches!(
            merge(&[0], &[0], 0.0, 0.0).unwrap_err(),
            ReferenceError::UniformOutOfRange { .. }
        ));
        assert!(matches!(
            merge(&[1, 2, 3], &[4], 2.0, 1.0).unwrap_err(),
            ReferenceError::WrongLength { len: 3, want: 2, .. }
        ));
        assert!(matches!(
            merge(&[1, 2], &[4, 3], 2.0, 2.0).unwrap_err(),
            ReferenceError::ValueOutOfRange { at: 1, .. }
        ));
    }
}
