//! Reductions, scans and histograms: many elements combined into few (Dot
//! Product, Prefix Sum, Axis Sum, Tree Reduction, Block Sum, Prefix Scan,
//! Scan Across Workgroups, Histogram, Histogram in Workgroup Memory, and the
//! Subgroups chapter's Subgroup Scan and Shuffle).

use crate::error::ReferenceError;
use crate::input::{flat, Outputs, ReferenceInput};
use gpu_puzzles_values::Values;
/// `out[0] = Σ a[i] · b[i]`, one element (Dot Product).
pub fn dot(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (a, b) = (input.f32("a")?, input.f32("b")?);
    if a.len() != b.len() {
        return Err(ReferenceError::LengthsDiffer { a: a.len(), b: b.len() });
    }
    Ok(flat(vec![a.iter().zip(b).map(|(x, y)| x * y).sum()]))
}

/// `out[k]` = the sum of `a` over block `k`, where a block is the
/// `workgroup_size.x` elements one workgroup covers; `ceil(len(a) / x)`
/// elements, the last block possibly short (Prefix Sum, as the public site
/// names it).
pub fn block_sum(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let block = input.config.workgroup_size[0] as usize;
    Ok(flat(a.chunks(block.max(1)).map(|c| c.iter().sum()).collect()))
}

/// `out[r]` = the sum of row `r` of `a` (shape `[rows, cols]`), `rows`
/// elements (Axis Sum).
pub fn row_sum(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let [rows, cols] = input.shape("a")?;
    Ok(flat(a.chunks(cols.max(1)).take(rows).map(|r| r.iter().sum()).collect()))
}

/// `out[i] = a[0] + … + a[i]`: the inclusive prefix sum, `len(a)` elements
/// (Prefix Scan).
pub fn inclusive_scan(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let out = a
        .iter()
        .scan(0.0f32, |acc, x| {
            *acc += x;
            Some(*acc)
        })
        .collect();
    Ok(flat(out))
}

/// `out[i]` = the inclusive prefix sum of `a` within its block: `a[s] + … +
/// a[i]`, where `s` starts the block of `workgroup_size.x` elements holding
/// `i` (the last block may be short); `len(a)` elements (Subgroup Scan).
pub fn block_inclusive_scan(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let block = (input.config.workgroup_size[0] as usize).max(1);
    let mut out = Vec::with_capacity(a.len());
    for c in a.chunks(block) {
        let mut acc = 0.0f32;
        out.extend(c.iter().map(|x| {
            acc += x;
            acc
        }));
    }
    Ok(flat(out))
}

/// `out[i]` = the largest element of the block holding `i`, blocks of
/// `workgroup_size.x` elements (the last may be short): every element of a
/// block gets the block's maximum; `len(a)` elements (Shuffle).
pub fn block_max_broadcast(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let block = (input.config.workgroup_size[0] as usize).max(1);
    let mut out = Vec::with_capacity(a.len());
    for c in a.chunks(block) {
        let m = c.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        out.extend(std::iter::repeat_n(m, c.len()));
    }
    Ok(flat(out))
}

/// Two outputs in binding order: `out`, the inclusive prefix sum of the whole
/// of `a`; and `block_sums[k]`, the total of block `k`, where a block is the
/// `workgroup_size.x` elements one workgroup covers (`ceil(len(a) / x)`
/// elements) (Scan Across Workgroups).
pub fn inclusive_scan_blocks(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let block = (input.config.workgroup_size[0] as usize).max(1);
    let mut scan = inclusive_scan(input)?;
    let sums = a.chunks(block).map(|c| c.iter().sum()).collect();
    scan.push((Values::F32(sums), None));
    Ok(scan)
}

/// `bins[b]` = how many elements of `a` have `floor(a[i]) == b`, for `b` below
/// the length the case gives `bins`; every element must fall in a bin
/// (Histogram puzzles). `u32` counts.
pub fn histogram(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let a = input.f32("a")?;
    let n = input.output_len("bins")?;
    let mut bins = vec![0u32; n];
    for (i, &x) in a.iter().enumerate() {
        let b = x.floor();
        if !(b >= 0.0 && (b as usize) < n) {
            return Err(ReferenceError::OutsideBins { index: i, value: x, bins: n });
        }
        bins[b as usize] += 1;
    }
    Ok(vec![(Values::U32(bins), None)])
}
