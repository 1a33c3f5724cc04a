//! Why a case's expected values could not be had, and which elements a
//! sampled case checks.

/// Why a case's expected values could not be had: the reference function
/// failed on the case, or gave outputs that do not fit the puzzle's.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExpectedError {
    /// The reference function refused the case's inputs.
    #[error("{0}")]
    Reference(gpu_puzzles_reference::ReferenceError),
    /// A sampled case of a reference without a per-element form.
    #[error("the reference function has no per-element form for a sampled case")]
    NoSampledForm,
    /// The reference gives another number of outputs than the puzzle compares.
    #[error("the reference function gives {given} outputs but the puzzle compares {compared}")]
    OutputCount {
        /// Outputs the reference gives.
        given: usize,
        /// Buffers the puzzle compares.
        compared: usize,
    },
    /// An output of another type or length than the buffer's.
    #[error("the reference gives {len} {ty} values for `{buffer}`, which has {want} {want_ty} elements to check")]
    OutputShape {
        /// The compared buffer.
        buffer: String,
        /// Elements the reference gives, and their WGSL type.
        len: usize,
        /// Their WGSL type.
        ty: &'static str,
        /// Elements to check, and the buffer's WGSL type.
        want: usize,
        /// The buffer's WGSL type.
        want_ty: &'static str,
    },
    /// A written case whose expected values the loader left to be computed
    /// where it is judged (a deserialised puzzle holds no reference).
    #[error("this case's expected values are computed where it is judged, not here")]
    NotComputedHere,
}

impl From<gpu_puzzles_reference::ReferenceError> for ExpectedError {
    fn from(e: gpu_puzzles_reference::ReferenceError) -> Self {
        ExpectedError::Reference(e)
    }
}

/// `count` distinct element indices below `len`, ascending: the first and
/// the last, and the rest uniformly at random from `seed`; every index when
/// `count >= len`.
pub fn sample_elements(len: usize, count: usize, seed: u64) -> Vec<usize> {
    if count >= len {
        return (0..len).collect();
    }
    let mut rng = crate::generate::SplitMix64::new(seed);
    let mut chosen = std::collections::BTreeSet::from([0, len - 1]);
    while chosen.len() < count.max(2) {
        // Multiply-shift maps 64 random bits onto 0..len without a modulo bias
        // worth speaking of (len is far below 2^32).
        chosen.insert((((rng.next_u64() >> 32) * len as u64) >> 32) as usize);
    }
    chosen.into_iter().collect()
}
