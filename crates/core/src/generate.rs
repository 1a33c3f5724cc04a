//! Deterministic generators for buffer contents.

use crate::format::RandomSpec;

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
