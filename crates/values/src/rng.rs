//! A seeded pseudo-random generator that gives the same numbers everywhere.

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): a 64-bit generator that gives the same sequence
/// on every platform, so a seed in a manifest always means the same data.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 pseudo-random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An integer uniform in `[min, max]` (inclusive). Uses the widening
    /// multiply reduction (Lemire 2019), whose bias is below 2^-32 for the
    /// ranges used here. `min <= max` is the caller's responsibility.
    pub fn range_inclusive(&mut self, min: i64, max: i64) -> i64 {
        let span = (max as i128 - min as i128 + 1) as u128;
        let r = ((self.next_u64() as u128 * span) >> 64) as i128;
        (min as i128 + r) as i64
    }

    /// A real uniform in `[0, 1)` from the top 53 bits (the usual
    /// construction of a double from 64 random bits).
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}
