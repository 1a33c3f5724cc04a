//! Irregular work, whose size or place is known only at run time: stream
//! compaction and the sparse matrix–vector product.

use super::{Outputs, ReferenceError, ReferenceInput, Values};

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
    Ok(vec![(Values::F32(out), None), (Values::U32(vec![count]), None), (Values::U32(blocks), None)])
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
        return Err(ReferenceError::WrongLength { name: "col_indices".into(), len: cols.len(), want: entries });
    }
    let rows = offsets.len().saturating_sub(1);
    let mut y = Vec::with_capacity(rows);
    for r in 0..rows {
        let (start, end) = (offsets[r] as usize, offsets[r + 1] as usize);
        if start > end || end > entries {
            return Err(ReferenceError::IndexPastEnd { name: "row_offsets".into(), at: r + 1, index: offsets[r + 1], len: entries });
        }
        let mut sum = 0.0f64;
        for k in start..end {
            let c = cols[k] as usize;
            let xc = *x.get(c).ok_or(ReferenceError::IndexPastEnd { name: "col_indices".into(), at: k, index: cols[k], len: x.len() })?;
            sum += values[k] as f64 * xc as f64;
        }
        y.push(sum as f32);
    }
    Ok(vec![(Values::F32(y), None)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CaseConfig;
    use std::collections::BTreeMap;

    #[test]
    fn compaction_keeps_positive_elements_in_order_and_counts_blocks() {
        let config = CaseConfig { workgroup_size: [3, 1, 1], workgroups: [3, 1, 1], workgroup_memory: None };
        let a = Values::F32(vec![-1.0, 4.0, 0.0, 2.0, 7.0, -3.0, 0.0]);
        let input = ReferenceInput { config: &config, buffers: BTreeMap::from([("a", (&a, None))]), uniforms: BTreeMap::new(), output_lens: BTreeMap::new() };
        let outs = compact_positive(&input).unwrap();
        assert_eq!(outs[0].0, Values::F32(vec![4.0, 2.0, 7.0, 0.0, 0.0, 0.0, 0.0]));
        assert_eq!(outs[1].0, Values::U32(vec![3]));
        assert_eq!(outs[2].0, Values::U32(vec![1, 2, 0]));
    }
}
