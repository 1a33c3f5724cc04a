//! Deterministic generators for buffer contents, and a buffer's initial
//! values from its `[[case]]` entry: literal, `arange`, `fill`, seeded
//! `random` or `offsets`, converted to the buffer's element type.

use crate::format::{BufferInit, ElementType, RandomSpec};
use gpu_puzzles_values::Values;

pub use gpu_puzzles_values::SplitMix64;

/// The values of a `random` generator, as `f64`: integers in `[min, max]`,
/// or with `float` reals in `[min, max)` already rounded to `f32` (so that a
/// value never rounds up to `max`, it is stepped down when it would).
pub fn random_values(spec: &RandomSpec) -> Vec<f64> {
    let mut rng = SplitMix64::new(spec.seed);
    if spec.float {
        let (lo, hi) = (spec.min as f64, spec.max as f64);
        return (0..spec.len)
            .map(|_| {
                let x = (lo + rng.unit_f64() * (hi - lo)) as f32;
                let x = if x as f64 >= hi && hi > lo { f32::from_bits(x.to_bits() - 1) } else { x };
                x as f64
            })
            .collect();
    }
    (0..spec.len).map(|_| rng.range_inclusive(spec.min, spec.max) as f64).collect()
}

/// The row offsets `spec` describes ([`crate::format::OffsetsSpec`]):
/// `rows + 1` non-decreasing values from 0 to `total`. `longest` entries go to row
/// `seed mod rows`, then each other entry to a row drawn uniformly (all
/// rows when `longest` is absent). `longest ≤ total` and `rows ≥ 1` are the
/// caller's to check.
pub fn row_offsets(spec: &crate::format::OffsetsSpec) -> Vec<f64> {
    let rows = spec.rows.max(1) as usize;
    let mut rng = SplitMix64::new(spec.seed);
    let mut counts = vec![0u64; rows];
    let longest = spec.longest.unwrap_or(0).min(spec.total);
    let heavy = (spec.seed % rows as u64) as usize;
    counts[heavy] = longest as u64;
    for _ in 0..spec.total - longest {
        counts[rng.range_inclusive(0, rows as i64 - 1) as usize] += 1;
    }
    let mut offsets = Vec::with_capacity(rows + 1);
    let mut at = 0u64;
    offsets.push(0.0);
    for c in counts {
        at += c;
        offsets.push(at as f64);
    }
    offsets
}

/// `start, start + 1, …, start + n - 1`.
pub fn arange(n: u32, start: f64) -> Vec<f64> {
    (0..n).map(|i| start + i as f64).collect()
}

/// Largest element count a case may give one buffer: 64 Mi elements
/// (256 MiB), above WebGPU's default `maxStorageBufferBindingSize` of 128 MiB,
/// so the limit check, not the loader, reports the realistic cases.
pub const MAX_ELEMENTS: u32 = 1 << 26;

/// Checks a generator without running it and returns the element count it
/// will give: [`initial_values`] on the first few elements, which meets
/// every check that does not depend on the length.
pub(crate) fn checked_len(init: &BufferInit, element: ElementType) -> Result<usize, String> {
    const PROBE: u32 = 16;
    let mut probe = init.clone();
    let len = if let Some(v) = &init.values {
        v.len()
    } else if let Some(n) = init.arange {
        check_len(n)?;
        probe.arange = Some(n.min(PROBE));
        // The largest value must fit the type as well as the first ones.
        convert(&[init.start.unwrap_or(0.0) + n.saturating_sub(1) as f64], element)?;
        n as usize
    } else if init.fill.is_some() {
        let n = init.len.ok_or("`fill` needs `len`")?;
        check_len(n)?;
        probe.len = Some(n.min(PROBE));
        n as usize
    } else if let Some(o) = init.offsets {
        check_len(o.rows.saturating_add(1))?;
        check_len(o.total)?;
        // The draw is checked whole: it costs one step per entry.
        o.rows as usize + 1
    } else if let Some(r) = init.random {
        check_len(r.len)?;
        probe.random = Some(crate::format::RandomSpec { len: r.len.min(PROBE), ..r });
        convert(&[r.min as f64, r.max as f64], if r.float { ElementType::F32 } else { element })?;
        r.len as usize
    } else {
        0
    };
    if init.fill.is_none() && init.values.is_none() {
        if let Some(l) = init.len {
            if l as usize != len {
                return Err(format!("`len` is {l} but the contents have {len} elements"));
            }
        }
        probe.len = None;
    }
    initial_values(&probe, element)?;
    Ok(len)
}

pub(crate) fn initial_values(init: &BufferInit, element: ElementType) -> Result<Values, String> {
    if init.image.is_some() {
        // The loader turns a written case's photograph into `values`.
        return Err(
            "`image`: a photograph is only for written cases; a random case draws `random` values"
                .into(),
        );
    }
    let given = [
        init.values.is_some(),
        init.arange.is_some(),
        init.fill.is_some(),
        init.random.is_some(),
        init.offsets.is_some(),
    ];
    match given.iter().filter(|&&g| g).count() {
        0 => return Err(
            "needs contents: one of `values`, `arange`, `fill` (with `len`), `random` or `offsets`"
                .into(),
        ),
        1 => {}
        _ => {
            return Err("give only one of `values`, `arange`, `fill`, `random` and `offsets`".into())
        }
    }
    let raw = if let Some(v) = &init.values {
        v.clone()
    } else if let Some(n) = init.arange {
        check_len(n)?;
        arange(n, init.start.unwrap_or(0.0))
    } else if let Some(x) = init.fill {
        let n = init.len.ok_or("`fill` needs `len`")?;
        check_len(n)?;
        vec![x; n as usize]
    } else if let Some(o) = init.offsets {
        check_len(o.rows.saturating_add(1))?;
        check_len(o.total)?;
        if o.rows == 0 {
            return Err("offsets: `rows` must be at least 1".into());
        }
        if o.longest.is_some_and(|l| l > o.total) {
            return Err(format!(
                "offsets: `longest` ({}) is more than `total` ({})",
                o.longest.unwrap_or(0),
                o.total
            ));
        }
        row_offsets(&o)
    } else {
        let r = init.random.expect("counted above");
        check_len(r.len)?;
        if r.min > r.max || (r.float && r.min == r.max) {
            return Err(format!("random: `min` ({}) must be below `max` ({})", r.min, r.max));
        }
        if r.float && element != ElementType::F32 {
            return Err(format!(
                "random: `float = true` needs an f32 buffer, not {}",
                element.wgsl()
            ));
        }
        random_values(&r)
    };
    if raw.is_empty() {
        return Err("a buffer needs at least one element (WebGPU has no empty bindings)".into());
    }
    if init.fill.is_none() {
        if let Some(len) = init.len {
            if len as usize != raw.len() {
                return Err(format!("`len` is {len} but the contents have {} elements", raw.len()));
            }
        }
    }
    convert(&raw, element)
}

pub(crate) fn check_len(n: u32) -> Result<(), String> {
    if n > MAX_ELEMENTS {
        Err(format!("{n} elements is more than the {MAX_ELEMENTS} a case may use"))
    } else {
        Ok(())
    }
}

/// Converts manifest numbers to typed values, refusing fractions and
/// out-of-range values for integer types.
pub(crate) fn convert(raw: &[f64], element: ElementType) -> Result<Values, String> {
    let bad = |i: usize, x: f64, what: &str| Err(format!("element {i} ({x}) is not {what}"));
    match element {
        ElementType::F32 => Ok(Values::F32(raw.iter().map(|&x| x as f32).collect())),
        ElementType::I32 => {
            let mut v = Vec::with_capacity(raw.len());
            for (i, &x) in raw.iter().enumerate() {
                if x.fract() != 0.0 || x < i32::MIN as f64 || x > i32::MAX as f64 {
                    return bad(i, x, "an i32");
                }
                v.push(x as i32);
            }
            Ok(Values::I32(v))
        }
        ElementType::U32 => {
            let mut v = Vec::with_capacity(raw.len());
            for (i, &x) in raw.iter().enumerate() {
                if x.fract() != 0.0 || x < 0.0 || x > u32::MAX as f64 {
                    return bad(i, x, "a u32");
                }
                v.push(x as u32);
            }
            Ok(Values::U32(v))
        }
    }
}

#[cfg(test)]
mod offsets_tests {
    use super::*;

    #[test]
    fn row_offsets_rise_from_zero_to_the_total_with_one_long_row() {
        let spec =
            crate::format::OffsetsSpec { rows: 50, total: 1000, seed: 7, longest: Some(600) };
        let o = row_offsets(&spec);
        assert_eq!((o.len(), o[0], o[50]), (51, 0.0, 1000.0));
        assert!(o.windows(2).all(|w| w[0] <= w[1]));
        let heavy = (spec.seed % 50) as usize;
        assert!(o[heavy + 1] - o[heavy] >= 600.0);
        assert_eq!(row_offsets(&spec), o, "the same seed gives the same offsets");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_published_sequence() {
        // First outputs for seed 0 from the reference C implementation.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn random_values_stay_in_range_and_cover_it() {
        let v = random_values(&RandomSpec { len: 2000, min: -3, max: 3, seed: 42, float: false });
        assert!(v.iter().all(|&x| (-3.0..=3.0).contains(&x) && x.fract() == 0.0));
        for k in -3..=3 {
            assert!(v.contains(&(k as f64)), "{k} never drawn");
        }
        let again =
            random_values(&RandomSpec { len: 2000, min: -3, max: 3, seed: 42, float: false });
        assert_eq!(v, again);
    }

    #[test]
    fn float_values_stay_below_max_and_have_fractions() {
        let v = random_values(&RandomSpec { len: 5000, min: 0, max: 16, seed: 7, float: true });
        assert!(v.iter().all(|&x| (0.0..16.0).contains(&x) && x as f32 as f64 == x));
        assert!(v.iter().any(|x| x.fract() != 0.0));
        for bin in 0..16 {
            assert!(v.iter().any(|&x| x.floor() == bin as f64), "bin {bin} never drawn");
        }
    }
}
