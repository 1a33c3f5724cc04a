//! The memory trace of an instrumented dispatch: where every counter lives in
//! the trace buffer ([`TraceLayout`]), how a racecheck key packs an
//! invocation and its barrier interval ([`KeyFormat`]), and the typed
//! [`Findings`] read back from it.
//!
//! The instrumentation pass (`gpu-puzzles-instrument`) writes the trace with
//! atomics into one `array<atomic<u32>>`; this module owns the layout, so
//! the pass and the reader agree, and reads it without a GPU. Layout, in
//! 32-bit words (every word starts at zero, so the trace needs no upload):
//!
//! | words | contents |
//! |---|---|
//! | [`header`] | runaway loop, hazard count, epoch overflow, out-of-bounds slot counters |
//! | `oob_total_base ..` | out-of-bounds accesses per space and [`AccessKind`] (all counted) |
//! | `oob_record_base ..` | the first [`OOB_RECORDS_PER_KIND`] of each kind: space, index, invocation, site |
//! | `hazard_base ..` | the first [`HAZARD_RECORDS_PER_KIND`] hazards of each kind, [`HAZARD_RECORD_WORDS`] each (see [`hazard_word`]) |
//! | per storage buffer | `reads[len]`, `writes[len]`, `largest writer + 1 [len]` (heat maps) |
//! | per invocation | global reads, global writes, workgroup-memory reads, workgroup-memory writes ([`invocation_counter`]) |
//! | print log | [`gpu_puzzles_core::print::LOG_WORDS`] words of lines (only for a shader that prints), each: print number + 1, entry point, invocation, values |
//! | per dispatch, per writable buffer | the racecheck shadow: [`RACE_ARRAYS`] arrays of `len` (see [`race_array`]) |
//! | per dispatch, per workgroup | the workgroup-memory shadow: [`RACE_ARRAYS`] arrays of the workgroup words |
//!
//! The shadows come last and stay on the GPU: only the first
//! [`TraceLayout::readback_words`] words are read back.
//!
//! Storage buffers are traced per 4-byte word (every puzzle element is one
//! word; a `vec4<f32>` access touches four). Invocations are numbered
//! row-major over the whole dispatch, `id = gid.x + gid.y * X + gid.z * X * Y`
//! with `X`, `Y` the dispatch's invocations along x and y ([`invocation`]).

mod findings;

pub use findings::*;

use gpu_puzzles_core::model::CaseConfig;

/// Named words of the trace header.
pub mod header {
    /// The runaway loop's id (from 1), or 0.
    pub const RUNAWAY_LOOP: u64 = 0;
    /// The row-major number of the invocation that stopped it, + 1.
    pub const RUNAWAY_INVOCATION: u64 = 1;
    /// Non-zero when some invocation passed more barriers than a key can
    /// number: hazards between invocations of one workgroup are then not
    /// reported, since their intervals could be confused.
    pub const EPOCH_OVERFLOW: u64 = 2;
    /// Three words: out-of-bounds records claimed of each
    /// [`super::AccessKind`], which is also the next free record slot: one
    /// per invocation that made such an access, claimed when it ends (the
    /// accesses themselves are counted per space).
    pub const OOB_SLOTS: u64 = 3;
    /// Three words: racecheck hazards of each [`super::HazardKind`] (all of
    /// them; the first few are recorded).
    pub const HAZARD_COUNTS: u64 = 6;
    /// Three words: hazard records claimed of each [`super::HazardKind`],
    /// which is also the next free record slot: one per invocation that
    /// found such a hazard, claimed when it ends.
    pub const HAZARD_SLOTS: u64 = 9;
    /// Words of the print log claimed (the log's cursor; it runs past the
    /// log's end when lines were dropped).
    pub const LOG_USED: u64 = 12;
    /// Lines printed, kept or not.
    pub const LOG_LINES: u64 = 13;
    /// Words in the header.
    pub const WORDS: u64 = 14;
}

/// How an access touched memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AccessKind {
    /// A load.
    Read = 0,
    /// A store.
    Write = 1,
    /// An atomic read-modify-write, load or store.
    Atomic = 2,
}

impl AccessKind {
    /// All kinds, in trace order.
    pub const ALL: [AccessKind; 3] = [AccessKind::Read, AccessKind::Write, AccessKind::Atomic];
}

/// Out-of-bounds accesses recorded in detail per kind (all are counted).
pub const OOB_RECORDS_PER_KIND: u64 = 4;
/// Words per out-of-bounds record: space, index, invocation, site.
pub const OOB_RECORD_WORDS: u64 = 4;
/// Hazards recorded in detail per [`HazardKind`] (all are counted).
pub const HAZARD_RECORDS_PER_KIND: u64 = 6;
/// Words per hazard record.
pub const HAZARD_RECORD_WORDS: u64 = 10;
/// Counters per invocation, in [`invocation_counter`] order.
pub const INVOCATION_WORDS: u64 = 5;
/// Arrays of the racecheck shadow of one memory region.
pub const RACE_ARRAYS: u64 = 5;
/// Iterations one execution of a loop may run in one invocation before the
/// instrumented shader stops it and reports it. Below the 65,535 iterations
/// after which llvmpipe (lavapipe) silently ends any loop, so a runaway loop is
/// reported there too instead of finishing with wrong values.
pub const LOOP_BUDGET: u32 = 1 << 15;
/// Bits of a site word that hold the low bits of the accessing key; the
/// rest hold the site number (see [`site_word`]).
pub const SITE_KEY_BITS: u32 = 16;

/// The arrays of a racecheck shadow, per word of the memory it shadows.
pub mod race_array {
    /// Largest key of an invocation that wrote the word (`atomicMax`).
    pub const WRITER: u64 = 0;
    /// Largest key of an invocation that read it.
    pub const READER_HIGH: u64 = 1;
    /// Largest [`super::KeyFormat::low`] key of a reader: the smallest
    /// workgroup, its latest interval, its smallest local index.
    pub const READER_LOW: u64 = 2;
    /// Site word ([`super::site_word`]) of the latest write.
    pub const WRITE_SITE: u64 = 3;
    /// Site word of the latest read.
    pub const READ_SITE: u64 = 4;
}

/// The words of a hazard record.
pub mod hazard_word {
    /// The space: a storage buffer's index, or the number of storage
    /// buffers plus the workgroup variable's index.
    pub const SPACE: u64 = 0;
    /// The word within the space.
    pub const WORD: u64 = 1;
    /// Unused (the record's pool gives the kind).
    pub const RESERVED: u64 = 2;
    /// The key of the access that found the hazard.
    pub const KEY: u64 = 3;
    /// The key of the other access.
    pub const OTHER_KEY: u64 = 4;
    /// The site of the access that found the hazard.
    pub const SITE: u64 = 5;
    /// The site word of the other access, as its shadow held it.
    pub const OTHER_SITE: u64 = 6;
    /// The dispatch (entry point) index.
    pub const DISPATCH: u64 = 7;
    /// The linear workgroup number (workgroup-memory keys do not hold it).
    pub const WORKGROUP: u64 = 8;
}

/// The counters of one invocation.
pub mod invocation_counter {
    /// Storage-buffer reads.
    pub const GLOBAL_READS: u64 = 0;
    /// Storage-buffer writes.
    pub const GLOBAL_WRITES: u64 = 1;
    /// Workgroup-memory reads.
    pub const WORKGROUP_READS: u64 = 2;
    /// Workgroup-memory writes.
    pub const WORKGROUP_WRITES: u64 = 3;
    /// Barriers waited at: each control barrier (`workgroupBarrier()`,
    /// `storageBarrier()`, `textureBarrier()`; not `subgroupBarrier()`)
    /// passed, and one for each `workgroupUniformLoad` (WGSL runs a
    /// workgroup barrier before its load). Every invocation of a workgroup
    /// passes the same ones.
    pub const BARRIERS: u64 = 4;
}

/// A site word: the site number above the low [`SITE_KEY_BITS`] bits of the
/// key that accessed, so a reader can tell whether the site belongs to the
/// key it is reporting.
pub fn site_word(site: u32, key: u32) -> u32 {
    (site << SITE_KEY_BITS) | (key & ((1 << SITE_KEY_BITS) - 1))
}

/// How a racecheck key packs an access's workgroup, barrier interval
/// (epoch) and local invocation index into 32 bits, most significant first:
/// `workgroup | epoch | local`. Keys compare by workgroup, then interval,
/// then invocation, which is what makes `atomicMax` on one word enough to
/// find a hazard whichever access comes first (see ARCHITECTURE.md).
/// Epochs start at 1, so no key is 0 (an empty shadow word).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyFormat {
    /// Bits of the local invocation index.
    pub local_bits: u32,
    /// Bits of the interval number.
    pub epoch_bits: u32,
    /// Bits of the linear workgroup number (0 for workgroup memory, whose
    /// shadow is per workgroup).
    pub workgroup_bits: u32,
}

/// A decoded key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// Linear workgroup number.
    pub workgroup: u32,
    /// Barrier interval, from 1.
    pub epoch: u32,
    /// `local_invocation_index`.
    pub local: u32,
}

fn bits_for(values: u64) -> u32 {
    // Bits to number 0..values-1.
    if values <= 1 {
        0
    } else {
        64 - (values - 1).leading_zeros()
    }
}

impl KeyFormat {
    /// Keys for storage buffers in a dispatch of `config` (workgroups are
    /// told apart); `None` when fewer than 4 bits would be left for the
    /// interval (more than 2^28 invocations in all).
    pub fn storage(config: &CaseConfig) -> Option<KeyFormat> {
        let local_bits = bits_for(config.invocations_per_workgroup());
        let workgroup_bits = bits_for(config.workgroups.iter().map(|&w| w as u64).product());
        let used = local_bits + workgroup_bits;
        (used <= 28).then(|| KeyFormat { local_bits, epoch_bits: 32 - used, workgroup_bits })
    }

    /// Keys for workgroup memory (the shadow is per workgroup).
    pub fn workgroup(config: &CaseConfig) -> KeyFormat {
        let local_bits = bits_for(config.invocations_per_workgroup());
        KeyFormat { local_bits, epoch_bits: 32 - local_bits, workgroup_bits: 0 }
    }

    /// Largest interval a key can number.
    pub fn max_epoch(&self) -> u32 {
        ((1u64 << self.epoch_bits) - 1) as u32
    }

    fn field_max(bits: u32) -> u32 {
        ((1u64 << bits) - 1) as u32
    }

    /// Packs a key.
    pub fn pack(&self, k: Key) -> u32 {
        let wg = if self.workgroup_bits == 0 {
            0
        } else {
            k.workgroup << (self.epoch_bits + self.local_bits)
        };
        wg | (k.epoch << self.local_bits) | k.local
    }

    /// Unpacks a key.
    pub fn unpack(&self, word: u32) -> Key {
        let local = word & Self::field_max(self.local_bits);
        let epoch = (word >> self.local_bits) & Self::field_max(self.epoch_bits);
        let workgroup =
            if self.workgroup_bits == 0 { 0 } else { word >> (self.epoch_bits + self.local_bits) };
        Key { workgroup, epoch, local }
    }

    /// The "low" form of a key: workgroup and local index mirrored within
    /// their fields, so that `atomicMax` over low keys keeps the smallest
    /// workgroup and, within its latest interval, the smallest invocation.
    /// Its own inverse.
    pub fn low(&self, word: u32) -> u32 {
        let k = self.unpack(word);
        self.pack(Key {
            workgroup: Self::field_max(self.workgroup_bits) - k.workgroup,
            epoch: k.epoch,
            local: Self::field_max(self.local_bits) - k.local,
        })
    }

    /// True when accesses with keys `a` and `b` can race: different
    /// workgroups, or one workgroup, one barrier interval and different
    /// invocations.
    pub fn unordered(&self, a: u32, b: u32) -> bool {
        let (a, b) = (self.unpack(a), self.unpack(b));
        a.workgroup != b.workgroup || (a.epoch == b.epoch && a.local != b.local)
    }
}

/// What the pass traces for one case: the storage buffers (in the puzzle's
/// binding order) and the workgroup variables, and the dispatch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceSpec {
    /// Per storage buffer: its length in 4-byte words, and whether the
    /// racecheck shadows it (the shader can write it).
    pub buffers: Vec<(u32, bool)>,
    /// Words of workgroup memory shadowed per workgroup (0: no racecheck of
    /// workgroup memory).
    pub workgroup_words: u32,
    /// Workgroup variables (spaces after the buffers).
    pub workgroup_vars: u32,
    /// Spaces checked for bounds only, after the workgroup variables:
    /// function-scope and private variables, uniform buffers and values
    /// indexed by a dynamic index.
    pub bounds_only: u32,
    /// Entry points dispatched in order (each has its own shadows).
    pub dispatches: u32,
    /// The shader prints ([`crate::print`]): the trace holds a log.
    pub prints: bool,
}

/// Where each counter lives in the trace buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceLayout {
    /// Lengths in words of the traced storage buffers.
    pub lens: Vec<u32>,
    /// Spaces: the storage buffers, the workgroup variables, then the
    /// spaces checked for bounds only.
    pub spaces: u64,
    /// First word of the per-space, per-kind out-of-bounds totals.
    pub oob_total_base: u64,
    /// First word of the out-of-bounds records.
    pub oob_record_base: u64,
    /// First word of the hazard records.
    pub hazard_base: u64,
    /// First word of each buffer's three heat-map arrays.
    pub buffer_base: Vec<u64>,
    /// First word of each writable buffer's racecheck shadow in dispatch 0.
    pub race_base: Vec<Option<u64>>,
    /// Words between one dispatch's storage shadows and the next's.
    pub race_dispatch_stride: u64,
    /// First word of the workgroup-memory shadows in dispatch 0.
    pub workgroup_race_base: u64,
    /// Words of workgroup memory shadowed per workgroup.
    pub workgroup_words: u64,
    /// Words between one dispatch's workgroup shadows and the next's.
    pub workgroup_dispatch_stride: u64,
    /// First word of the per-invocation counters.
    pub invocation_base: u64,
    /// Invocations in the dispatch.
    pub invocations: u64,
    /// First word of the print log.
    pub log_base: u64,
    /// Words of the print log: [`gpu_puzzles_core::print::LOG_WORDS`] for a shader
    /// that prints, else 0.
    pub log_words: u64,
    /// Total words (the trace buffer holds `4 * total_words` bytes).
    pub total_words: u64,
    /// Words the reader needs, from the start (everything but the shadows).
    pub readback_words: u64,
    /// Keys of storage accesses; `None` when the dispatch is too large to
    /// number (no storage racecheck then).
    pub storage_keys: Option<KeyFormat>,
    /// Keys of workgroup-memory accesses.
    pub workgroup_keys: KeyFormat,
    /// The dispatch the layout numbers invocations by: the workgroup size
    /// the shader declares and the case's workgroups
    /// ([`CaseConfig::as_declared`]).
    pub config: CaseConfig,
}

impl TraceLayout {
    /// The layout for `spec` and a dispatch of `config`, whose workgroup
    /// size must be the shader's own ([`CaseConfig::as_declared`]): every
    /// invocation the GPU runs needs its own counters.
    pub fn new(spec: &TraceSpec, config: &CaseConfig) -> TraceLayout {
        let spaces =
            spec.buffers.len() as u64 + spec.workgroup_vars as u64 + spec.bounds_only as u64;
        let oob_total_base = header::WORDS;
        let oob_record_base = oob_total_base + 3 * spaces;
        let hazard_base = oob_record_base + 3 * OOB_RECORDS_PER_KIND * OOB_RECORD_WORDS;
        let mut next = hazard_base + 3 * HAZARD_RECORDS_PER_KIND * HAZARD_RECORD_WORDS;
        let buffer_base = spec
            .buffers
            .iter()
            .map(|&(n, _)| {
                let base = next;
                next += 3 * n as u64;
                base
            })
            .collect();
        let invocations = config.total_invocations();
        let invocation_base = next;
        next += INVOCATION_WORDS * invocations;
        let log_base = next;
        let log_words = if spec.prints { gpu_puzzles_core::print::LOG_WORDS } else { 0 };
        next += log_words;
        let readback_words = next;
        let storage_keys = KeyFormat::storage(config);
        let mut stride = 0u64;
        let race_base: Vec<Option<u64>> = spec
            .buffers
            .iter()
            .map(|&(n, race)| {
                (race && storage_keys.is_some()).then(|| {
                    let base = next + stride;
                    stride += RACE_ARRAYS * n as u64;
                    base
                })
            })
            .collect();
        next += stride * spec.dispatches as u64;
        let workgroups: u64 = config.workgroups.iter().map(|&w| w as u64).product();
        let workgroup_race_base = next;
        let workgroup_words = spec.workgroup_words as u64;
        let workgroup_dispatch_stride = workgroups * RACE_ARRAYS * workgroup_words;
        next += workgroup_dispatch_stride * spec.dispatches as u64;
        TraceLayout {
            lens: spec.buffers.iter().map(|b| b.0).collect(),
            spaces,
            oob_total_base,
            oob_record_base,
            hazard_base,
            buffer_base,
            race_base,
            race_dispatch_stride: stride,
            workgroup_race_base,
            workgroup_words,
            workgroup_dispatch_stride,
            invocation_base,
            invocations,
            log_base,
            log_words,
            total_words: next,
            readback_words,
            storage_keys,
            workgroup_keys: KeyFormat::workgroup(config),
            config: *config,
        }
    }

    /// The racecheck's shadows of dispatch `dispatch` (an index into the
    /// instrumented entry points), as `(first word, words)` ranges: zeroed
    /// before an entry point is dispatched again in the same case, so that
    /// the accesses of its earlier dispatch, which the end of that dispatch
    /// ordered, do not count as a race with the new one's.
    pub fn shadow_ranges(&self, dispatch: u32) -> Vec<(u64, u64)> {
        let d = u64::from(dispatch);
        let storage = self
            .race_base
            .iter()
            .flatten()
            .min()
            .map(|&base| (base + d * self.race_dispatch_stride, self.race_dispatch_stride));
        let workgroup = (self.workgroup_dispatch_stride > 0).then(|| {
            (
                self.workgroup_race_base + d * self.workgroup_dispatch_stride,
                self.workgroup_dispatch_stride,
            )
        });
        storage.into_iter().chain(workgroup).filter(|r| r.1 > 0).collect()
    }

    /// Word of heat-map counter `which` (0 reads, 1 writes, 2 largest
    /// writer + 1) of word `index` of buffer `buffer`.
    pub fn element_word(&self, buffer: usize, which: u64, index: u64) -> u64 {
        self.buffer_base[buffer] + which * self.lens[buffer] as u64 + index
    }

    /// Word of the out-of-bounds total of `space` and `kind`.
    pub fn oob_total_word(&self, space: u64, kind: AccessKind) -> u64 {
        self.oob_total_base + 3 * space + kind as u64
    }

    /// First word of hazard record `slot` of `kind`.
    pub fn hazard_record_word(&self, kind: HazardKind, slot: u64) -> u64 {
        self.hazard_base + (kind as u64 * HAZARD_RECORDS_PER_KIND + slot) * HAZARD_RECORD_WORDS
    }

    /// First word of out-of-bounds record `slot` of `kind`.
    pub fn oob_record_word(&self, kind: AccessKind, slot: u64) -> u64 {
        self.oob_record_base + (kind as u64 * OOB_RECORDS_PER_KIND + slot) * OOB_RECORD_WORDS
    }
}

/// An invocation's ids, from its row-major number over the dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

/// The invocation with linear workgroup number `workgroup`
/// (`x + y * X + z * X * Y` over the workgroup grid) and
/// `local_invocation_index` `local`.
pub fn invocation_in_workgroup(workgroup: u32, local: u32, config: &CaseConfig) -> Invocation {
    let [wx, wy, _] = config.workgroups.map(|w| w.max(1));
    let [sx, sy, _] = config.workgroup_size.map(|s| s.max(1));
    let wid = [workgroup % wx, (workgroup / wx) % wy, workgroup / (wx * wy)];
    let lid = [local % sx, (local / sx) % sy, local / (sx * sy)];
    let gid = [0, 1, 2].map(|k| wid[k] as u64 * config.workgroup_size[k] as u64 + lid[k] as u64);
    let x = sx as u64 * wx as u64;
    let y = sy as u64 * wy as u64;
    Invocation {
        id: (gid[0] + gid[1] * x + gid[2] * x * y) as u32,
        workgroup_id: wid,
        local_invocation_id: lid,
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

#[cfg(test)]
mod tests;
