//! CPU reference functions: the specification of each puzzle, in Rust.
//!
//! A manifest names one of these in `reference = "…"`. Expected outputs come
//! from here (or from literal values in the manifest), never from a GPU run.
//! Every function sums in `f32`, left to right, the same order a straightforward
//! shader uses; the classic puzzles use integer-valued inputs, for which every
//! order gives the same exact result.

use crate::model::{CaseConfig, Values};
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
}

impl<'a> ReferenceInput<'a> {
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
];

/// The reference function called `name`.
pub fn lookup(name: &str) -> Option<ReferenceFn> {
    REFERENCES.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
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
    let out = (0..a.len())
        .map(|i| b.iter().enumerate().filter(|(j, _)| i + j < a.len()).map(|(j, w)| a[i + j] * w).sum())
        .collect();
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
    let (a, b) = (input.f32("a")?, input.f32("b")?);
    let ([m, k], [k2, n]) = (input.shape("a")?, input.shape("b")?);
    if k != k2 {
        return Err(format!("`a` is {m}×{k} and `b` is {k2}×{n}: inner sizes differ"));
    }
    let out = (0..m)
        .flat_map(|i| (0..n).map(move |j| (0..k).map(|l| a[i * k + l] * b[l * n + j]).sum()))
        .collect();
    Ok(shaped(out, m, n))
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
    fn block_sum_keeps_a_short_last_block() {
        let out = run(block_sum, &[("a", (0..10).map(|x| x as f32).collect(), None)], 8);
        assert_eq!(out, [28.0, 17.0]);
    }

    #[test]
    fn every_name_is_unique() {
        for (i, (n, _)) in REFERENCES.iter().enumerate() {
            assert!(REFERENCES[i + 1..].iter().all(|(m, _)| m != n), "{n} twice");
        }
    }
}
