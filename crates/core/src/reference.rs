//! CPU reference functions: the specification of each puzzle, in Rust.
//!
//! A manifest names one of these in `reference = "…"`. Expected outputs come
//! from here (or from literal values in the manifest), never from a GPU run.
//! Every function sums in `f32`, left to right, the same order a straightforward
//! shader uses; the classic puzzles use integer-valued inputs, for which every
//! order gives the same exact result.

use crate::model::{Case, CaseConfig, Puzzle, Values};
use std::collections::BTreeMap;

/// What a reference function sees of a case.
#[derive(Debug, Clone)]
pub struct ReferenceInput<'a> {
    /// The dispatch configuration.
    pub config: &'a CaseConfig,
    /// Input and input-output buffers by name: initial contents and display
    /// shape `[rows, cols]`.
    pub buffers: BTreeMap<&'a str, (&'a Values, Option<[u32; 2]>)>,
    /// Uniform field values by uniform name, then field name.
    pub uniforms: BTreeMap<&'a str, BTreeMap<&'a str, f64>>,
    /// Element counts of the outputs whose case gives a `len` or `shape`.
    pub output_lens: BTreeMap<&'a str, usize>,
}

impl<'a> ReferenceInput<'a> {
    /// What the reference sees of a case: its configuration, its input and
    /// input-output buffers (`buffers` and `contents` aligned, in binding
    /// order), the uniform values given, and the length of every output that
    /// has one (outputs of zero length are sized by the reference itself).
    pub fn new(
        config: &'a CaseConfig,
        buffers: &'a [crate::model::Buffer],
        contents: &'a [crate::model::CaseBuffer],
        uniforms: &'a BTreeMap<String, BTreeMap<String, f64>>,
    ) -> Self {
        let pairs = || buffers.iter().zip(contents);
        ReferenceInput {
            config,
            buffers: pairs().filter(|(b, _)| b.role != crate::Role::Output).map(|(b, c)| (b.name.as_str(), (&*c.initial, c.shape))).collect(),
            uniforms: uniforms.iter().map(|(u, f)| (u.as_str(), f.iter().map(|(k, v)| (k.as_str(), *v)).collect())).collect(),
            output_lens: pairs()
                .filter(|(b, c)| b.role == crate::Role::Output && !c.initial.is_empty())
                .map(|(b, c)| (b.name.as_str(), c.initial.len()))
                .collect(),
        }
    }

    /// What the reference sees of a loaded case ([`ReferenceInput::new`]).
    pub fn for_case(puzzle: &'a Puzzle, case: &'a Case, uniforms: &'a BTreeMap<String, BTreeMap<String, f64>>) -> Self {
        Self::new(&case.config, &puzzle.buffers, &case.buffers, uniforms)
    }

    /// The `u32` contents of input `name`.
    ///
    /// # Errors
    /// A message when the buffer is missing or not `u32`.
    pub fn u32s(&self, name: &str) -> Result<&'a [u32], String> {
        match self.buffers.get(name) {
            Some((Values::U32(v), _)) => Ok(v),
            Some(_) => Err(format!("the reference needs `{name}` to be a u32 buffer")),
            None => Err(format!("the reference needs an input buffer named `{name}`")),
        }
    }

    /// The element count the case gives output `name` (`len` or `shape`).
    ///
    /// # Errors
    /// A message when the case gives none.
    pub fn output_len(&self, name: &str) -> Result<usize, String> {
        self.output_lens.get(name).copied().ok_or_else(|| format!("the reference needs `len` on output `{name}`"))
    }

    /// The `f32` contents of input `name`.
    ///
    /// # Errors
    /// A message when the buffer is missing or not `f32`.
    pub fn f32(&self, name: &str) -> Result<&'a [f32], String> {
        let (values, _) = self.buffers.get(name).ok_or_else(|| format!("the reference needs an input buffer named `{name}`"))?;
        values.as_f32().ok_or_else(|| format!("the reference needs `{name}` to be an f32 buffer"))
    }

    /// The `[rows, cols]` shape of input `name`.
    ///
    /// # Errors
    /// A message when the buffer is missing or has no `shape`.
    pub fn shape(&self, name: &str) -> Result<[usize; 2], String> {
        match self.buffers.get(name) {
            Some((_, Some([r, c]))) => Ok([*r as usize, *c as usize]),
            Some(_) => Err(format!("the reference needs a `shape = [rows, cols]` on buffer `{name}`")),
            None => Err(format!("the reference needs an input buffer named `{name}`")),
        }
    }
}

/// A reference function: the expected contents of every compared buffer
/// (outputs and input-outputs), in binding order, with their display shapes.
///
/// # Errors
/// A message naming what the case lacks (a buffer, a shape).
pub type ReferenceFn = fn(&ReferenceInput) -> Result<Outputs, String>;

/// Expected contents of each compared buffer, in binding order, with the
/// display shape `[rows, cols]` the reference gives it (if any).
pub type Outputs = Vec<(Values, Option<[u32; 2]>)>;

/// A reference function's per-element form, for cases too large to compute
/// whole on the CPU (a performance case's `sample`): the expected value of
/// each of `elements` (indices into the buffer, row-major), for every
/// compared buffer in binding order; `out[b][j]` is buffer `b`'s element
/// `elements[j]`. Must give exactly what the whole function gives there.
///
/// # Errors
/// As [`ReferenceFn`], and an element past the buffer's end.
pub type SampleFn = fn(&ReferenceInput, elements: &[usize]) -> Result<Vec<Values>, String>;

/// A puzzle's reference: the whole function, and its per-element form when
/// it has one.
#[derive(Debug, Clone, Copy)]
pub struct Reference {
    /// The expected contents of every compared buffer.
    pub all: ReferenceFn,
    /// The expected values of chosen elements, for sampled cases.
    pub at: Option<SampleFn>,
}

/// Every reference function by the name a manifest uses.
pub const REFERENCES: &[(&str, ReferenceFn)] = &[
    ("add_ten", add_ten),
    ("zip_add", zip_add),
    ("broadcast_add", broadcast_add),
    ("window_sum_3", window_sum_3),
    ("dot", dot),
    ("conv1d", conv1d),
    ("block_sum", block_sum),
    ("row_sum", row_sum),
    ("matmul", matmul),
    ("inclusive_scan", inclusive_scan),
    ("inclusive_scan_blocks", inclusive_scan_blocks),
    ("histogram", histogram),
    ("box_blur_3x3", box_blur_3x3),
    ("branch_hash", branch_hash),
];

/// The reference functions that also have a per-element form, by name.
pub const SAMPLED: &[(&str, SampleFn)] = &[("matmul", matmul_at)];

/// The reference called `name`, with its per-element form when it has one.
pub fn lookup(name: &str) -> Option<Reference> {
    let all = REFERENCES.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)?;
    Some(Reference { all, at: SAMPLED.iter().find(|(n, _)| *n == name).map(|(_, f)| *f) })
}

fn flat(v: Vec<f32>) -> Outputs {
    vec![(Values::F32(v), None)]
}

fn shaped(v: Vec<f32>, rows: usize, cols: usize) -> Outputs {
    vec![(Values::F32(v), Some([rows as u32, cols as u32]))]
}

/// `out[i] = a[i] + 10` (Map, Guards, Map 2D, Blocks, Blocks 2D, Shared);
/// keeps `a`'s shape.
pub fn add_ten(input: &ReferenceInput) -> Result<Outputs, String> {
    let a = input.f32("a")?;
    let out = a.iter().map(|x| x + 10.0).collect();
    Ok(vec![(Values::F32(out), input.buffers["a"].1)])
}

/// `out[i] = a[i] + b[i]` (Zip).
pub fn zip_add(input: &ReferenceInput) -> Result<Outputs, String> {
    let (a, b) = (input.f32("a")?, input.f32("b")?);
    if a.len() != b.len() {
        return Err(format!("`a` has {} elements and `b` {}", a.len(), b.len()));
    }
    Ok(flat(a.iter().zip(b).map(|(x, y)| x + y).collect()))
}

/// `out[i][j] = a[i] + b[j]`: `a` is a column of `len(a)` rows, `b` a row of
/// `len(b)` columns, `out` is `len(a) × len(b)`, row-major (Broadcast).
pub fn broadcast_add(input: &ReferenceInput) -> Result<Outputs, String> {
    let (a, b) = (input.f32("a")?, input.f32("b")?);
    let out = a.iter().flat_map(|x| b.iter().map(move |y| x + y)).collect();
    Ok(shaped(out, a.len(), b.len()))
}

/// `out[i] = a[i - 2] + a[i - 1] + a[i]`, leaving out indices below 0
/// (Pooling).
pub fn window_sum_3(input: &ReferenceInput) -> Result<Outputs, String> {
    let a = input.f32("a")?;
    let out = (0..a.len()).map(|i| a[i.saturating_sub(2)..=i].iter().sum()).collect();
    Ok(flat(out))
}

/// `out[0] = Σ a[i] · b[i]`, one element (Dot Product).
pub fn dot(input: &ReferenceInput) -> Result<Outputs, String> {
    let (a, b) = (input.f32("a")?, input.f32("b")?);
    if a.len() != b.len() {
        return Err(format!("`a` has {} elements and `b` {}", a.len(), b.len()));
    }
    Ok(flat(vec![a.iter().zip(b).map(|(x, y)| x * y).sum()]))
}

/// `out[i] = Σ_j a[i + j] · b[j]` over `j < len(b)` with `i + j < len(a)`:
/// a 1-D convolution whose window runs past the end of `a` into zeros
/// (1D Convolution). `out` has `len(a)` elements.
pub fn conv1d(input: &ReferenceInput) -> Result<Outputs, String> {
    let (a, b) = (input.f32("a")?, input.f32("b")?);
    let out = (0..a.len()).map(|i| b.iter().enumerate().filter(|(j, _)| i + j < a.len()).map(|(j, w)| a[i + j] * w).sum()).collect();
    Ok(flat(out))
}

/// `out[k]` = the sum of `a` over block `k`, where a block is the
/// `workgroup_size.x` elements one workgroup covers; `ceil(len(a) / x)`
/// elements, the last block possibly short (Prefix Sum, as the public site
/// names it).
pub fn block_sum(input: &ReferenceInput) -> Result<Outputs, String> {
    let a = input.f32("a")?;
    let block = input.config.workgroup_size[0] as usize;
    Ok(flat(a.chunks(block.max(1)).map(|c| c.iter().sum()).collect()))
}

/// `out[r]` = the sum of row `r` of `a` (shape `[rows, cols]`), `rows`
/// elements (Axis Sum).
pub fn row_sum(input: &ReferenceInput) -> Result<Outputs, String> {
    let a = input.f32("a")?;
    let [rows, cols] = input.shape("a")?;
    Ok(flat(a.chunks(cols.max(1)).take(rows).map(|r| r.iter().sum()).collect()))
}

/// `out = a · b`: `a` is `m × k`, `b` is `k × n`, `out` is `m × n`, all
/// row-major; `out[i][j] = Σ_l a[i][l] · b[l][j]` (Matrix Multiply).
pub fn matmul(input: &ReferenceInput) -> Result<Outputs, String> {
    let (a, b, [m, k, n]) = matmul_operands(input)?;
    // Row by row, accumulating over `l` in the inner-product order (so every
    // element is summed left to right) while walking `b` along its rows,
    // which keeps a 1024³ product to a fraction of a second.
    let mut out = vec![0.0f32; m * n];
    for i in 0..m {
        let row = &mut out[i * n..(i + 1) * n];
        for l in 0..k {
            let x = a[i * k + l];
            for (o, y) in row.iter_mut().zip(&b[l * n..(l + 1) * n]) {
                *o += x * y;
            }
        }
    }
    Ok(shaped(out, m, n))
}

/// `a` (`m × k`), `b` (`k × n`) and `[m, k, n]`.
type MatmulOperands<'a> = (&'a [f32], &'a [f32], [usize; 3]);

/// `a`, `b` and `[m, k, n]` of a matrix product, checked against each other
/// and against a `dims` uniform when the puzzle has one.
fn matmul_operands<'a>(input: &ReferenceInput<'a>) -> Result<MatmulOperands<'a>, String> {
    let (a, b) = (input.f32("a")?, input.f32("b")?);
    let ([m, k], [k2, n]) = (input.shape("a")?, input.shape("b")?);
    if k != k2 {
        return Err(format!("`a` is {m}×{k} and `b` is {k2}×{n}: inner sizes differ"));
    }
    // Puzzles that pass the sizes in a uniform must pass the shapes' sizes.
    if let Some(dims) = input.uniforms.get("dims") {
        for (name, want) in [("m", m), ("n", n), ("k", k)] {
            if dims.get(name).is_some_and(|&v| v != want as f64) {
                return Err(format!("uniform `dims.{name}` is {} but the shapes make it {want}", dims[name]));
            }
        }
    }
    Ok((a, b, [m, k, n]))
}

/// [`matmul`] at chosen elements of `out` (row-major, `i * n + j`), each
/// summed in the same order, so the values are bit-for-bit the same: `k`
/// multiply-adds per element instead of `m·n·k` for the whole product.
pub fn matmul_at(input: &ReferenceInput, elements: &[usize]) -> Result<Vec<Values>, String> {
    let (a, b, [m, k, n]) = matmul_operands(input)?;
    let mut out = Vec::with_capacity(elements.len());
    for &e in elements {
        if e >= m * n {
            return Err(format!("element {e} is past the end of the {m} × {n} output"));
        }
        let (i, j) = (e / n, e % n);
        out.push((0..k).fold(0.0f32, |s, l| s + a[i * k + l] * b[l * n + j]));
    }
    Ok(vec![Values::F32(out)])
}

/// `out[i] = a[0] + … + a[i]`: the inclusive prefix sum, `len(a)` elements
/// (Prefix Scan).
pub fn inclusive_scan(input: &ReferenceInput) -> Result<Outputs, String> {
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

/// Two outputs in binding order: `out`, the inclusive prefix sum of the whole
/// of `a`; and `block_sums[k]`, the total of block `k`, where a block is the
/// `workgroup_size.x` elements one workgroup covers (`ceil(len(a) / x)`
/// elements) (Scan Across Workgroups).
pub fn inclusive_scan_blocks(input: &ReferenceInput) -> Result<Outputs, String> {
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
pub fn histogram(input: &ReferenceInput) -> Result<Outputs, String> {
    let a = input.f32("a")?;
    let n = input.output_len("bins")?;
    let mut bins = vec![0u32; n];
    for (i, &x) in a.iter().enumerate() {
        let b = x.floor();
        if !(b >= 0.0 && (b as usize) < n) {
            return Err(format!("`a[{i}]` = {x} falls outside the {n} bins"));
        }
        bins[b as usize] += 1;
    }
    Ok(vec![(Values::U32(bins), None)])
}

/// `out[r][c]` = the sum of `a` over the 3×3 neighbourhood of `(r, c)` that
/// lies inside the grid, divided by 9 (cells past the edge count as 0);
/// same shape as `a` (Box Blur).
pub fn box_blur_3x3(input: &ReferenceInput) -> Result<Outputs, String> {
    let a = input.f32("a")?;
    let [rows, cols] = input.shape("a")?;
    let mut out = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let mut sum = 0.0f32;
            for rr in r.saturating_sub(1)..=(r + 1).min(rows - 1) {
                for cc in c.saturating_sub(1)..=(c + 1).min(cols - 1) {
                    sum += a[rr * cols + cc];
                }
            }
            out.push(sum / 9.0);
        }
    }
    Ok(shaped(out, rows, cols))
}

/// Rounds of each branch in [`branch_hash`].
pub const BRANCH_HASH_ROUNDS: u32 = 64;

/// `out[i]` hashes `a[i]` with one of two integer mixers, chosen by whether
/// `i` is even: [`BRANCH_HASH_ROUNDS`] rounds of a linear congruential step
/// (`x * 1664525 + 1013904223`, the constants of Numerical Recipes) for even
/// `i`, of xorshift (`x ^= x << 13; x ^= x >> 17; x ^= x << 5`, Marsaglia
/// 2003) for odd `i`. Wrapping `u32` arithmetic, as in WGSL (Divergence).
pub fn branch_hash(input: &ReferenceInput) -> Result<Outputs, String> {
    let a = input.u32s("a")?;
    let out = a
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let mut h = x;
            for _ in 0..BRANCH_HASH_ROUNDS {
                h = if i % 2 == 0 {
                    h.wrapping_mul(1_664_525).wrapping_add(1_013_904_223)
                } else {
                    h ^= h << 13;
                    h ^= h >> 17;
                    h ^ (h << 5)
                };
            }
            h
        })
        .collect();
    Ok(vec![(Values::U32(out), None)])
}

#[cfg(test)]
mod tests {
    use super::*;

    type Input = (&'static str, Vec<f32>, Option<[u32; 2]>);

    fn run(f: ReferenceFn, bufs: &[Input], wg: u32) -> Vec<f32> {
        let config = CaseConfig { workgroup_size: [wg, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
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
        let out = run(broadcast_add, &[("a", vec![1.0, 2.0], None), ("b", vec![10.0, 20.0, 30.0], None)], 1);
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
        let config = CaseConfig { workgroup_size: [1, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
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
            assert!(at(&input, &[all[0].0.len()]).is_err(), "{name}: an element past the end is an error");
        }
    }

    #[test]
    fn block_sum_keeps_a_short_last_block() {
        let out = run(block_sum, &[("a", (0..10).map(|x| x as f32).collect(), None)], 8);
        assert_eq!(out, [28.0, 17.0]);
    }

    #[test]
    fn scan_sums_every_prefix() {
        assert_eq!(run(inclusive_scan, &[("a", vec![1.0, 2.0, 3.0, 4.0], None)], 4), [1.0, 3.0, 6.0, 10.0]);
    }

    #[test]
    fn blur_counts_cells_past_the_edge_as_zero() {
        let out = run(box_blur_3x3, &[("a", vec![9.0; 9], Some([3, 3]))], 1);
        assert_eq!(out, [4.0, 6.0, 4.0, 6.0, 9.0, 6.0, 4.0, 6.0, 4.0]);
    }

    #[test]
    fn histogram_floors_into_bins() {
        let config = CaseConfig { workgroup_size: [1, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
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
        assert!(histogram(&input).unwrap_err().contains("outside"));
    }

    #[test]
    fn every_name_is_unique() {
        for (i, (n, _)) in REFERENCES.iter().enumerate() {
            assert!(REFERENCES[i + 1..].iter().all(|(m, _)| m != n), "{n} twice");
        }
    }
}
