//! The orders a dispatch's invocations can run in ([`Schedule`]), and the
//! seeded shuffle of the random one.

/// An order for running a dispatch's invocations, all legal under WGSL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schedule {
    /// Every invocation of a workgroup runs one statement per round, in
    /// `local_invocation_index` order; workgroups in order. What the
    /// debugger shows, statement by statement ([`super::Dispatch::step`]). Run to
    /// a barrier (a judged run, [`super::Dispatch::run`]), a round gives each
    /// invocation its next statement and the ones after it that touch only
    /// its own memory, so what others can see (storage buffers, workgroup
    /// memory) is touched in the same order as statement by statement for
    /// invocations on one path, at a fraction of the rounds.
    Lockstep,
    /// Each invocation runs alone up to its next barrier, in
    /// `local_invocation_index` order; workgroups in order.
    Forward,
    /// As [`Schedule::Forward`], invocations and workgroups in reverse.
    Reverse,
    /// As [`Schedule::Forward`], invocations in a random order drawn again
    /// for every barrier interval and workgroups shuffled, from a seed.
    Random(u64),
}

impl Schedule {
    /// In words, for a report: "in lock step", "one by one in order", …
    pub fn describe(self) -> String {
        match self {
            Schedule::Lockstep => "all invocations of a workgroup together, each taking its next access to shared memory in turn (lock step)".into(),
            Schedule::Forward => "invocations one after another, each up to its next barrier, in index order".into(),
            Schedule::Reverse => "invocations one after another, each up to its next barrier, in reverse index order, last workgroup first".into(),
            Schedule::Random(seed) => format!("invocations one after another, each up to its next barrier, in a shuffled order (seed {seed})"),
        }
    }
}

/// A small, fast, seeded generator (SplitMix64) for shuffles.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub(super) fn shuffle(v: &mut [u32], state: &mut u64) {
    for i in (1..v.len()).rev() {
        let j = (next(state) % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}
