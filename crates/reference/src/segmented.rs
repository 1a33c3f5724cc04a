//! Segmented scans: prefix sums that restart wherever a flag marks the
//! start of a new segment (Segmented Scan), which a GPU runs as an ordinary
//! scan over pairs `(flag, value)`.
//!
//! Values are `u32` and every sum wraps modulo 2³², as WGSL's `u32`
//! arithmetic does, so the expected values are exact and any order of
//! combining (a serial loop, Hillis–Steele rounds, a tree) gives the same
//! bits.

use crate::error::ReferenceError;
use crate::input::{Outputs, ReferenceInput};
use gpu_puzzles_values::Values;

/// The segmented-scan operator on pairs `(flag, value)`, `left` the earlier
/// one: `(f1, v1) ⊕ (f2, v2) = (f1 | f2, if f2 { v2 } else { v1 + v2 })`,
/// the sum wrapping. Associative, not commutative; `(0, 0)` is its
/// identity.
pub(crate) fn combine((f1, v1): (u32, u32), (f2, v2): (u32, u32)) -> (u32, u32) {
    (f1 | f2, if f2 != 0 { v2 } else { v1.wrapping_add(v2) })
}

/// The inclusive segmented scan of `values` under `flags` (`n` elements
/// each, every flag 0 or 1), with three outputs in binding order:
///
/// ```text
/// out[i]         = values[i]                  if i = 0 or flags[i] = 1
///                = out[i − 1] + values[i]     otherwise          (n elements)
/// block_flags[w] = flags[wW] | … | flags[wW + W − 1]              (groups elements)
/// block_sums[w]  = the value of (flags[wW], values[wW]) ⊕ … ⊕ (flags[wW + W − 1], values[wW + W − 1])
/// ```
///
/// where block `w` holds the elements `w·W … w·W + W − 1` below `n`, for the
/// case's `W = workgroup_size.x` and `groups = workgroups.x`: `block_sums[w]`
/// is the sum of the block's values from its last flag on (the whole block
/// when it has none), the total that the block hands on to the next. A block
/// past `n` holds the identity `(0, 0)`. Every sum wraps modulo 2³².
///
/// # Errors
/// A missing buffer, [`ReferenceError::LengthsDiffer`] when `values` and
/// `flags` differ in length, [`ReferenceError::ValueOutOfRange`] for a flag
/// other than 0 or 1, and [`ReferenceError::WrongLength`] when the
/// workgroups cannot cover `values` (`n` above `groups · W`, the `want`
/// given).
pub fn segmented_scan(input: &ReferenceInput) -> Result<Outputs, ReferenceError> {
    let (values, flags) = (input.u32s("values")?, input.u32s("flags")?);
    if values.len() != flags.len() {
        return Err(ReferenceError::LengthsDiffer { a: values.len(), b: flags.len() });
    }
    if let Some(at) = flags.iter().position(|&f| f > 1) {
        return Err(ReferenceError::ValueOutOfRange {
            name: "flags".to_string(),
            at,
            value: f64::from(flags[at]),
            want: "0 or 1",
        });
    }
    let width = (input.config.workgroup_size[0] as usize).max(1);
    let groups = input.config.workgroups[0] as usize;
    if values.len() > groups * width {
        return Err(ReferenceError::WrongLength {
            name: "values".to_string(),
            len: values.len(),
            want: groups * width,
        });
    }
    let pairs: Vec<(u32, u32)> = flags.iter().copied().zip(values.iter().copied()).collect();
    // Element 0 starts a segment whatever its flag: nothing comes before it.
    let mut sum = 0u32;
    let out: Vec<u32> = pairs
        .iter()
        .map(|&(f, v)| {
            sum = if f != 0 { v } else { sum.wrapping_add(v) };
            sum
        })
        .collect();
    let (mut block_flags, mut block_sums) = (Vec::with_capacity(groups), Vec::new());
    for w in 0..groups {
        let block = pairs.iter().skip(w * width).take(width);
        let (f, v) = block.fold((0, 0), |acc, &p| combine(acc, p));
        block_flags.push(f);
        block_sums.push(v);
    }
    Ok(vec![
        (Values::U32(out), None),
        (Values::U32(block_flags), None),
        (Values::U32(block_sums), None),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_puzzles_values::CaseConfig;
    use std::collections::BTreeMap;

    /// The three outputs: `out`, `block_flags`, `block_sums`.
    type Three = (Vec<u32>, Vec<u32>, Vec<u32>);

    /// `segmented_scan` on `values` and `flags` in blocks of `width`,
    /// `groups` workgroups: `(out, block_flags, block_sums)`.
    fn run(
        values: &[u32],
        flags: &[u32],
        width: u32,
        groups: u32,
    ) -> Result<Three, ReferenceError> {
        let config = CaseConfig {
            workgroup_size: [width, 1, 1],
            workgroups: [groups, 1, 1],
            workgroup_memory: None,
        };
        let (v, f) = (Values::U32(values.to_vec()), Values::U32(flags.to_vec()));
        let input = ReferenceInput {
            config: &config,
            buffers: BTreeMap::from([("values", (&v, None)), ("flags", (&f, None))]),
            uniforms: BTreeMap::new(),
            output_lens: BTreeMap::new(),
        };
        let out = segmented_scan(&input)?;
        let get = |k: usize| match &out[k].0 {
            Values::U32(x) => x.clone(),
            other => panic!("output {k} is not u32: {other:?}"),
        };
        Ok((get(0), get(1), get(2)))
    }

    #[test]
    fn the_statements_example_by_hand() {
        // Segments [3 1 4] [1 5 9] [2 6]: 3, 4, 8 | 1, 6, 15 | 2, 8. Block 0
        // ends in the segment that starts at its last element (1); block 1
        // hands on 2 + 6 = 8, from its flag at element 6.
        let values = [3, 1, 4, 1, 5, 9, 2, 6];
        let flags = [1, 0, 0, 1, 0, 0, 1, 0];
        let (out, block_flags, block_sums) = run(&values, &flags, 4, 2).unwrap();
        assert_eq!(out, [3, 4, 8, 1, 6, 15, 2, 8]);
        assert_eq!(block_flags, [1, 1]);
        assert_eq!(block_sums, [1, 8]);
    }

    #[test]
    fn no_flags_is_a_plain_scan_and_all_flags_copy_the_values() {
        let values = [5, 1, 2, 7, 3];
        // Element 0 starts a segment even with its flag 0.
        let (out, block_flags, block_sums) = run(&values, &[0; 5], 2, 3).unwrap();
        assert_eq!(out, [5, 6, 8, 15, 18]);
        assert_eq!(block_flags, [0, 0, 0]);
        assert_eq!(block_sums, [6, 9, 3]);
        let (out, block_flags, block_sums) = run(&values, &[1; 5], 2, 3).unwrap();
        assert_eq!(out, values);
        assert_eq!(block_flags, [1, 1, 1]);
        assert_eq!(block_sums, [1, 7, 3]);
    }

    #[test]
    fn a_segment_spans_three_blocks_and_sums_wrap() {
        // One segment from element 1 to 6 crosses blocks 0, 1 and 2; block
        // 1 has no flag and passes the carry on. Block 3 is past n.
        let values = [9, 1, 2, 3, 4, 5, 6, 7];
        let flags = [0, 1, 0, 0, 0, 0, 0, 1];
        let (out, block_flags, block_sums) = run(&values, &flags, 3, 4).unwrap();
        assert_eq!(out, [9, 1, 3, 6, 10, 15, 21, 7]);
        assert_eq!(block_flags, [1, 0, 1, 0]);
        assert_eq!(block_sums, [3, 12, 7, 0]);
        // u32 sums wrap, as WGSL's do.
        let (out, _, block_sums) = run(&[u32::MAX, 2, 7], &[0, 0, 1], 2, 2).unwrap();
        assert_eq!(out, [u32::MAX, 1, 7]);
        assert_eq!(block_sums, [1, 7]);
    }

    #[test]
    fn the_operator_is_associative_but_not_commutative() {
        let (a, b, c) = ((0, 4), (1, 2), (0, 9));
        assert_eq!(combine(combine(a, b), c), combine(a, combine(b, c)));
        assert_eq!(combine(a, b), (1, 2));
        assert_eq!(combine(b, a), (1, 6));
        assert_eq!(combine((0, 0), b), b);
        assert_eq!(combine(b, (0, 0)), b);
    }

    #[test]
    fn a_case_that_cannot_be_computed_is_refused() {
        assert_eq!(
            run(&[1; 3], &[0; 2], 4, 1).unwrap_err(),
            ReferenceError::LengthsDiffer { a: 3, b: 2 }
        );
        assert!(matches!(
            run(&[1; 3], &[0, 2, 0], 4, 1).unwrap_err(),
            ReferenceError::ValueOutOfRange { at: 1, .. }
        ));
        assert!(matches!(
            run(&[1; 9], &[0; 9], 4, 2).unwrap_err(),
            ReferenceError::WrongLength { len: 9, want: 8, .. }
        ));
    }
}
