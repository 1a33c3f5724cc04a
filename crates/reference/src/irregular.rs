//! Irregular work, whose size or place is known only at run time: stream
//! compaction, the sparse matrix–vector product, a radix sort and a sort of
//! blocks merged by rank.

use crate::error::ReferenceError;
use crate::input::{Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// Stream compaction of the positive elements of `a` (Stream Compaction),
/// for a dispatch of `workgroup_size.x`-element blocks. Three outputs, in
/// binding order:
///
/// - `out`, `len(a)` elements: the elements of `a` that are above 0, in
///   their order in `a`, then zeros (the buffer's initial contents, which a
///   kernel leaves alone);
/// - `count`, 1 element (`u32`): how many elements are above 0;
/// - `block_counts`, one `u32` per block of `workgroup_size.x` consecutive
///   elements (the last block may be short): how many of the block's
///   elements are above 0, `ceil(len(a) / workgroup_size.x)` in all.
///
/// # Errors
/// A missing `a`, or one that is not `f32`.
pub fn compact_positive(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let block = (input.config.workgroup_size[0] as usize).max(1);
    let mut out: Vec<f32> = a.iter().copied().filter(|&x| x > 0.0).collect();
    let count = out.len() as u32;
    out.resize(a.len(), 0.0);
    let blocks = a.chunks(block).map(|b| b.iter().filter(|&&x| x > 0.0).count() as u32).collect();
    Ok(vec![
        (Values::F32(out), None),
        (Values::U32(vec![count]), None),
        (Values::U32(blocks), None),
    ])
}

/// `y = A·x` for a sparse matrix `A` in compressed sparse row form (Sparse
/// Matrix–Vector Product): `row_offsets` (`u32`, rows + 1 elements,
/// non-decreasing from 0), `col_indices` (`u32`, one per stored entry, each
/// below `len(x)`), `values` (`f32`, one per stored entry) and `x` (`f32`).
/// `y[r] = Σ values[k] · x[col_indices[k]]` over `k` in
/// `row_offsets[r] .. row_offsets[r + 1]`, summed in `f64` and rounded
/// once; `rows` elements.
///
/// # Errors
/// A missing or mistyped buffer, offsets that decrease or do not end at the
/// number of stored entries, or a column index past the end of `x`.
pub fn spmv_csr(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let offsets = input.u32s("row_offsets")?;
    let cols = input.u32s("col_indices")?;
    let values = input.f32("values")?;
    let x = input.f32("x")?;
    let entries = values.len();
    if cols.len() != entries {
        return Err(ReferenceError::WrongLength {
            name: "col_indices".into(),
            len: cols.len(),
            want: entries,
        });
    }
    let rows = offsets.len().saturating_sub(1);
    let mut y = Vec::with_capacity(rows);
    for r in 0..rows {
        let (start, end) = (offsets[r] as usize, offsets[r + 1] as usize);
        if start > end || end > entries {
            return Err(ReferenceError::IndexPastEnd {
                name: "row_offsets".into(),
                at: r + 1,
                index: offsets[r + 1],
                len: entries,
            });
        }
        let mut sum = 0.0f64;
        for k in start..end {
            let c = cols[k] as usize;
            let xc = *x.get(c).ok_or(ReferenceError::IndexPastEnd {
                name: "col_indices".into(),
                at: k,
                index: cols[k],
                len: x.len(),
            })?;
            sum += values[k] as f64 * xc as f64;
        }
        y.push(sum as f32);
    }
    Ok(vec![(Values::F32(y), None)])
}

/// LSD radix sort of `u32` keys below 256 in two passes of 4-bit digits
/// (Radix Sort), for a dispatch of `workgroup_size.x`-element blocks. Each
/// pass sorts stably by one digit: the low pass by `key & 15` from `keys`
/// into `tmp`, the high pass by `key >> 4` from `tmp` into `out`. Three
/// outputs, in binding order:
///
/// - `tmp`, `len(keys)` elements: the keys sorted by their low digit, keys
///   with the same low digit in their order in `keys`;
/// - `out`, `len(keys)` elements: the keys sorted ascending (the high pass
///   on `tmp`);
/// - `block_counts`, 16 `u32` per block of `workgroup_size.x` consecutive
///   elements of `tmp` (the last block may be short), `ceil(len(keys) /
///   workgroup_size.x)` blocks, shown one row per block:
///   `block_counts[16·k + d]` is how many keys of block `k` have high digit
///   `d`. These are the high pass's counts, which overwrite the low pass's.
///
/// # Errors
/// A missing `keys`, one that is not `u32`, or a key above 255.
pub fn radix_sort_u8_keys(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let keys = input.u32s("keys")?;
    if let Some(at) = keys.iter().position(|&k| k > 255) {
        return Err(ReferenceError::KeyAboveLimit {
            name: "keys".into(),
            at,
            key: keys[at],
            limit: 255,
        });
    }
    let block = (input.config.workgroup_size[0] as usize).max(1);
    // `sort_by_key` is stable: equal digits keep their order.
    let pass = |from: &[u32], shift: u32| {
        let mut to = from.to_vec();
        to.sort_by_key(|&k| (k >> shift) & 15);
        to
    };
    let tmp = pass(keys, 0);
    let out = pass(&tmp, 4);
    let mut counts = Vec::with_capacity(16 * tmp.len().div_ceil(block));
    for b in tmp.chunks(block) {
        let mut c = [0u32; 16];
        for &k in b {
            c[((k >> 4) & 15) as usize] += 1;
        }
        counts.extend(c);
    }
    let rows = (counts.len() / 16) as u32;
    let shape = (rows > 0).then_some([rows, 16]);
    Ok(vec![(Values::U32(tmp), None), (Values::U32(out), None), (Values::U32(counts), shape)])
}

/// Sorting: `out`, `len(keys)` elements, the `u32` keys of `keys` sorted
/// ascending (the one compared output of Bitonic Sort, whatever blocks and
/// dispatches the kernel sorts them in).
///
/// # Errors
/// A missing `keys`, or one that is not `u32`.
pub fn sort_keys(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let mut out = input.u32s("keys")?.to_vec();
    out.sort_unstable();
    Ok(vec![(Values::U32(out), None)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    #[test]
    fn compaction_keeps_positive_elements_in_order_and_counts_blocks() {
        let config =
            CaseConfig { workgroup_size: [3, 1, 1], workgroups: [3, 1, 1], workgroup_memory: None };
        let a = Values::F32(vec![-1.0, 4.0, 0.0, 2.0, 7.0, -3.0, 0.0]);
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("a", (&a, None))]),
            uniforms: BTreeMap::new(),
            output_lens: BTreeMap::new(),
        };
        let outs = compact_positive(&input).unwrap();
        assert_eq!(outs[0].0, Values::F32(vec![4.0, 2.0, 7.0, 0.0, 0.0, 0.0, 0.0]));
        assert_eq!(outs[1].0, Values::U32(vec![3]));
        assert_eq!(outs[2].0, Values::U32(vec![1, 2, 0]));
    }

    #[test]
    fn radix_sort_passes_are_stable_and_count_the_high_digits() {
        // The statement's example: 4 keys per block.
        let config =
            CaseConfig { workgroup_size: [4, 1, 1], workgroups: [2, 1, 1], workgroup_memory: None };
        let keys = Values::U32(vec![37, 19, 33, 21, 18, 35]);
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("keys", (&keys, None))]),
            uniforms: BTreeMap::new(),
            output_lens: BTreeMap::new(),
        };
        let outs = radix_sort_u8_keys(&input).unwrap();
        assert_eq!(outs[0].0, Values::U32(vec![33, 18, 19, 35, 37, 21]));
        assert_eq!(outs[1].0, Values::U32(vec![18, 19, 21, 33, 35, 37]));
        let mut counts = vec![0; 32];
        counts[1] = 2;
        counts[2] = 2;
        counts[17] = 1;
        counts[18] = 1;
        assert_eq!(outs[2], (Values::U32(counts), Some([2, 16])));
        // Every key from 255 down to 0, twice: sorted, whatever the blocks.
        let keys = Values::U32((0..512).map(|i| 255 - i / 2).collect());
        let input = ReferenceInput { buffers: BTreeMap::from([("keys", (&keys, None))]), ..input };
        assert_eq!(
            radix_sort_u8_keys(&input).unwrap()[1].0,
            Values::U32((0..512).map(|i| i / 2).collect())
        );
        let big = Values::U32(vec![3, 256]);
        let input = ReferenceInput { buffers: BTreeMap::from([("keys", (&big, None))]), ..input };
        assert!(matches!(
            radix_sort_u8_keys(&input).unwrap_err(),
            ReferenceError::KeyAboveLimit { at: 1, key: 256, limit: 255, .. }
        ));
    }

    #[test]
    fn sorting_keeps_duplicates_and_the_largest_u32() {
        let config = CaseConfig {
            workgroup_size: [2, 1, 1],
            workgroups: [4, 1, 1],
            workgroup_memory: Some([4, 1, 1]),
        };
        let keys = Values::U32(vec![7, 3, 9, 3, 0, 8, 5, 1, u32::MAX, 3]);
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("keys", (&keys, None))]),
            uniforms: BTreeMap::new(),
            output_lens: BTreeMap::new(),
        };
        let outs = sort_keys(&input).unwrap();
        assert_eq!(outs.len(), 1);
        assert_eq!(outs[0].0, Values::U32(vec![0, 1, 3, 3, 3, 5, 7, 8, 9, u32::MAX]));
    }
}
