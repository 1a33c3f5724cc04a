//! The memory trace of an instrumented dispatch: its layout in the trace
//! buffer, and the findings read from it (heat-map counts, out-of-bounds
//! accesses, write conflicts, a runaway loop).
//!
//! The instrumentation pass (`gpu-puzzles-instrument`) writes counters with
//! atomics into one `array<atomic<u32>>`; this module owns where each counter
//! lives, so the pass and the reader agree, and turns the words into
//! [`Findings`]. Layout, in 32-bit words:
//!
//! | words | contents |
//! |---|---|
//! | `0` | number of out-of-bounds accesses |
//! | `1` | runaway loop: its id + 1, or 0 |
//! | `2` | the invocation that stopped it, + 1 |
//! | `HEADER_WORDS ..` | the first [`MAX_OOB_RECORDS`] out-of-bounds accesses, 4 words each: buffer, index, invocation, 1 for a write |
//! | per buffer | `reads[len]`, `writes[len]`, `u32::MAX - smallest writer`, `largest writer` |
//! | per invocation | global reads, global writes, workgroup-memory reads, workgroup-memory writes |
//!
//! Every word starts at zero, so the trace buffer needs no upload: the
//! smallest writer is kept as `u32::MAX - id` under `atomicMax`. The
//! per-invocation counters are kept in private variables and stored once,
//! when the invocation returns, so they cost no atomics.
//!
//! Invocations are numbered row-major over the whole dispatch:
//! `id = gid.x + gid.y * X + gid.z * X * Y`, where `X` and `Y` are the
//! dispatch's invocations along x and y (workgroups × workgroup size).
//! Two different invocations wrote an element exactly when its smallest and
//! largest writer differ, which two `atomicMax` track without any ordering
//! between invocations.

use crate::model::CaseConfig;
use serde::Serialize;

/// Words before the out-of-bounds records.
pub const HEADER_WORDS: u64 = 4;
/// Out-of-bounds accesses recorded in detail (all are counted).
pub const MAX_OOB_RECORDS: u64 = 16;
/// Words per out-of-bounds record.
pub const OOB_RECORD_WORDS: u64 = 4;
/// Counters per invocation.
pub const INVOCATION_WORDS: u64 = 4;
/// Iterations one execution of a loop may run in one invocation before the
/// instrumented shader stops it and reports it. Below the 65,535 iterations
/// after which llvmpipe (lavapipe) silently ends any loop, so a runaway loop is
/// reported there too instead of finishing with wrong values.
pub const LOOP_BUDGET: u32 = 1 << 15;

/// Where each counter lives in the trace buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceLayout {
    /// Element counts of the traced storage buffers, in the order the pass
    /// numbers them.
    pub lens: Vec<u32>,
    /// First word of each buffer's block of four counter arrays.
    pub buffer_base: Vec<u64>,
    /// First word of the per-invocation counters.
    pub invocation_base: u64,
    /// Invocations in the dispatch.
    pub invocations: u64,
    /// Total words (the trace buffer holds `4 * total_words` bytes).
    pub total_words: u64,
}

impl TraceLayout {
    /// The layout for buffers of `lens` elements and a dispatch of
    /// `config`.
    pub fn new(lens: &[u32], config: &CaseConfig) -> TraceLayout {
        let mut next = HEADER_WORDS + MAX_OOB_RECORDS * OOB_RECORD_WORDS;
        let buffer_base = lens
            .iter()
            .map(|&n| {
                let base = next;
                next += 4 * n as u64;
                base
            })
            .collect();
        let invocations = config.total_invocations();
        let invocation_base = next;
        next += INVOCATION_WORDS * invocations;
        TraceLayout { lens: lens.to_vec(), buffer_base, invocation_base, invocations, total_words: next }
    }

    /// Word of counter `which` (0 reads, 1 writes, 2 `u32::MAX` minus the
    /// smallest writer, 3 largest writer) of element `index` of buffer
    /// `buffer`.
    pub fn element_word(&self, buffer: usize, which: u64, index: u64) -> u64 {
        self.buffer_base[buffer] + which * self.lens[buffer] as u64 + index
    }

    /// Reads the findings out of the trace buffer's words.
    pub fn findings(&self, words: &[u32], config: &CaseConfig, loop_lines: &[usize]) -> Findings {
        let w = |i: u64| words.get(i as usize).copied().unwrap_or(0);
        let mut buffers = Vec::new();
        let mut conflicts = Vec::new();
        let mut conflict_total = 0;
        for (b, &n) in self.lens.iter().enumerate() {
            let n = n as u64;
            let reads: Vec<u32> = (0..n).map(|i| w(self.element_word(b, 0, i))).collect();
            let writes: Vec<u32> = (0..n).map(|i| w(self.element_word(b, 1, i))).collect();
            let mut writer = Vec::with_capacity(n as usize);
            for i in 0..n {
                let lo_word = w(self.element_word(b, 2, i));
                let (lo, hi) = (u32::MAX - lo_word, w(self.element_word(b, 3, i)));
                // Atomic operations count as writes but record no writer (they
                // cannot conflict): an element only they touched has none.
                if writes[i as usize] == 0 || lo_word == 0 {
                    writer.push(None);
                    continue;
                }
                writer.push(Some(hi));
                if lo != hi {
                    conflict_total += 1;
                    if conflicts.len() < MAX_LISTED {
                        conflicts.push(Conflict { buffer: b, index: i as u32, first: invocation(lo, config), second: invocation(hi, config) });
                    }
                }
            }
            buffers.push(BufferTrace { reads, writes, writer });
        }
        let oob_total = w(0);
        let out_of_bounds = (0..(oob_total as u64).min(MAX_OOB_RECORDS))
            .map(|k| {
                let at = HEADER_WORDS + k * OOB_RECORD_WORDS;
                OutOfBounds { buffer: w(at) as usize, index: w(at + 1), invocation: invocation(w(at + 2), config), write: w(at + 3) == 1 }
            })
            .collect();
        let invocations = (0..self.invocations)
            .map(|i| {
                let at = self.invocation_base + i * INVOCATION_WORDS;
                [w(at), w(at + 1), w(at + 2), w(at + 3)]
            })
            .collect();
        let runaway_loop = match w(1) {
            0 => None,
            id => Some(RunawayLoop {
                line: loop_lines.get(id as usize - 1).copied(),
                invocation: invocation(w(2).saturating_sub(1), config),
            }),
        };
        Findings { buffers, invocations, out_of_bounds, oob_total, conflicts, conflict_total, runaway_loop }
    }
}

/// Most conflicts listed in detail (all are counted).
pub const MAX_LISTED: usize = 32;

/// An invocation's ids, from its row-major number over the dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Invocation {
    /// Row-major number over the whole dispatch.
    pub id: u32,
    /// `workgroup_id`.
    pub workgroup_id: [u32; 3],
    /// `local_invocation_id`.
    pub local_invocation_id: [u32; 3],
}

/// The ids of invocation number `id` of a dispatch of `config`.
pub fn invocation(id: u32, config: &CaseConfig) -> Invocation {
    let wg = config.workgroup_size;
    let x = wg[0] as u64 * config.workgroups[0] as u64;
    let y = wg[1] as u64 * config.workgroups[1] as u64;
    let id64 = id as u64;
    let gid = [id64 % x.max(1), (id64 / x.max(1)) % y.max(1), id64 / (x * y).max(1)];
    Invocation {
        id,
        workgroup_id: [0, 1, 2].map(|k| (gid[k] / wg[k].max(1) as u64) as u32),
        local_invocation_id: [0, 1, 2].map(|k| (gid[k] % wg[k].max(1) as u64) as u32),
    }
}

impl Invocation {
    /// E.g. `workgroup_id (1, 0, 0), local_invocation_id (3, 0, 0)`.
    pub fn describe(&self) -> String {
        let [a, b, c] = self.workgroup_id;
        let [x, y, z] = self.local_invocation_id;
        format!("workgroup_id ({a}, {b}, {c}), local_invocation_id ({x}, {y}, {z})")
    }
}

/// Per-element counts of one traced storage buffer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BufferTrace {
    /// Reads per element.
    pub reads: Vec<u32>,
    /// Writes per element.
    pub writes: Vec<u32>,
    /// An invocation that wrote the element (the only one, unless the
    /// element is in a [`Conflict`]).
    pub writer: Vec<Option<u32>>,
}

/// An access at or past the end of a buffer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutOfBounds {
    /// Index of the buffer among the traced ones (the puzzle's storage
    /// buffers in binding order).
    pub buffer: usize,
    /// The element index accessed.
    pub index: u32,
    /// Who accessed it.
    pub invocation: Invocation,
    /// A write (fails the case) rather than a read (a warning).
    pub write: bool,
}

/// One element written by two different invocations without atomics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Conflict {
    /// Index of the buffer among the traced ones.
    pub buffer: usize,
    /// The element.
    pub index: u32,
    /// The writer with the smaller number.
    pub first: Invocation,
    /// The writer with the larger number.
    pub second: Invocation,
}

/// A loop stopped after [`LOOP_BUDGET`] iterations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunawayLoop {
    /// The loop's line in the student's text.
    pub line: Option<usize>,
    /// The invocation that hit the budget first.
    pub invocation: Invocation,
}

/// Everything the instrumented run saw.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Findings {
    /// Per traced buffer, per element counts (not in JSON reports).
    #[serde(skip)]
    pub buffers: Vec<BufferTrace>,
    /// Per invocation: global reads, global writes, workgroup-memory reads,
    /// workgroup-memory writes (not in JSON reports).
    #[serde(skip)]
    pub invocations: Vec<[u32; 4]>,
    /// The first out-of-bounds accesses.
    pub out_of_bounds: Vec<OutOfBounds>,
    /// All out-of-bounds accesses.
    pub oob_total: u32,
    /// The first write conflicts.
    pub conflicts: Vec<Conflict>,
    /// All elements with a write conflict.
    pub conflict_total: u32,
    /// A loop the budget stopped.
    pub runaway_loop: Option<RunawayLoop>,
}

impl Findings {
    /// True when an out-of-bounds write, a write conflict or a runaway loop
    /// was found: each fails the case.
    pub fn fails(&self) -> bool {
        self.out_of_bounds.iter().any(|o| o.write) || self.conflict_total > 0 || self.runaway_loop.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> CaseConfig {
        CaseConfig { workgroup_size: [4, 2, 1], workgroups: [2, 3, 1], workgroup_memory: None }
    }

    #[test]
    fn invocation_ids_round_trip() {
        // Dispatch: 8 × 6 invocations; id 8 * 3 + 5 is gid (5, 3, 0).
        let inv = invocation(29, &config());
        assert_eq!(inv.workgroup_id, [1, 1, 0]);
        assert_eq!(inv.local_invocation_id, [1, 1, 0]);
    }

    #[test]
    fn a_conflict_is_two_different_writers() {
        let layout = TraceLayout::new(&[3], &config());
        let mut words = vec![0; layout.total_words as usize];
        // Element 0 written once by invocation 5; element 2 by 1 and 7.
        for (i, lo, hi, n) in [(0u64, 5u32, 5u32, 1u32), (2, 1, 7, 2)] {
            words[layout.element_word(0, 1, i) as usize] = n;
            words[layout.element_word(0, 2, i) as usize] = u32::MAX - lo;
            words[layout.element_word(0, 3, i) as usize] = hi;
        }
        let f = layout.findings(&words, &config(), &[]);
        assert_eq!(f.buffers[0].writer, [Some(5), None, Some(7)]);
        assert_eq!(f.conflict_total, 1);
        assert_eq!((f.conflicts[0].first.id, f.conflicts[0].second.id), (1, 7));
        assert!(f.fails());
    }

    #[test]
    fn layout_has_room_for_everything() {
        let layout = TraceLayout::new(&[10, 4], &config());
        assert_eq!(layout.invocations, 48);
        assert_eq!(layout.total_words, HEADER_WORDS + 64 + 4 * 14 + 4 * 48);
    }
}
