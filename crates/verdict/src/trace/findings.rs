//! Typed findings read out of a trace: out-of-bounds accesses, racecheck
//! hazards, a runaway loop, and the heat-map counts. Data only; the words
//! students read are made in [`crate::report`].

use super::{
    hazard_word as hw, header, invocation, invocation_in_workgroup, site_word, AccessKind,
    Invocation, TraceLayout, HAZARD_RECORDS_PER_KIND, OOB_RECORDS_PER_KIND, SITE_KEY_BITS,
};
use gpu_puzzles_core::model::CaseConfig;
use serde::{Deserialize, Serialize};

/// A place in the student's text, from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Site {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, in characters.
    pub column: usize,
}

/// What kind of memory (or value) an indexed space is, by WGSL's address
/// spaces (WGSL §7.3 "Address Spaces"), plus values, which WGSL indexes
/// too (§8.5.3 "Array Access Expression": a `let`, a function's result).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemoryKind {
    /// A `var<storage>` buffer.
    Storage,
    /// A `var<uniform>` buffer.
    Uniform,
    /// A `var<workgroup>` variable.
    Workgroup,
    /// A `var<private>` variable (one per invocation).
    Private,
    /// A function-scope `var`.
    Function,
    /// A value: a `let`, an argument, a function's result, an expression.
    Value,
}

impl MemoryKind {
    /// The noun for a space of this kind, e.g. "the {noun} `smem` has 4
    /// elements".
    pub fn noun(self) -> &'static str {
        match self {
            MemoryKind::Storage => "buffer",
            MemoryKind::Uniform => "uniform buffer",
            MemoryKind::Workgroup => "workgroup array",
            MemoryKind::Private => "private variable",
            MemoryKind::Function => "variable",
            MemoryKind::Value => "value",
        }
    }
}

/// A memory region the trace names: a storage buffer, a workgroup
/// variable, or (for bounds checks only: no heat map, no racecheck) another
/// indexed variable or value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpaceInfo {
    /// The name the shader gives it (`w`, `out.v`, `m[…]` for the rows of
    /// `m`); empty for an unnamed value.
    pub name: String,
    /// What it is.
    pub memory: MemoryKind,
    /// 4-byte words per element of its outermost array (1 for `f32`, 4 for
    /// `vec4<f32>`); 0 when it is not an array.
    pub element_words: u32,
    /// The word where that array starts: its struct member's byte offset
    /// divided by 4 when the array is wrapped in a struct, else 0.
    pub array_word: u32,
    /// Elements of its outermost array, as the shader declares it.
    pub elements: u32,
    /// First word in the per-workgroup shadow (workgroup variables).
    pub shadow_base: u32,
    /// A storage buffer's heat-map counters are kept for the first word of
    /// every `counted_words` and stand for all of them: `4` when the shader
    /// only ever reads and writes whole `vec4` elements of it (every word of
    /// an element then counts alike; the instrumentation keeps one counter
    /// in 4 so that software adapters compile it quickly), else `1`.
    pub counted_words: u32,
}

/// What the instrumentation pass tells the reader about a shader: where its
/// counters are and what the numbers in them mean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceMeta {
    /// Where the counters live.
    pub layout: TraceLayout,
    /// Storage buffers (the puzzle's, in binding order), then workgroup
    /// variables.
    pub spaces: Vec<SpaceInfo>,
    /// Access sites by number; number 0 is unused.
    pub sites: Vec<Site>,
    /// Per site (same numbering): the space it accesses and how.
    pub site_access: Vec<(u32, AccessKind)>,
    /// Line of each guarded loop, by loop id - 1.
    pub loop_lines: Vec<usize>,
    /// Entry points, in dispatch order.
    pub entry_points: Vec<String>,
    /// Parts of the racecheck the pass could not set up, and why.
    pub unchecked: Vec<String>,
    /// Per print number ([`gpu_puzzles_core::print::PrintSite::id`]) the pass
    /// recorded: the kind and component count of each printed value.
    pub prints: std::collections::BTreeMap<u32, Vec<(crate::print::ScalarKind, u32)>>,
}

/// Per-word counts of one traced storage buffer, for heat maps.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BufferTrace {
    /// Reads per word.
    pub reads: Vec<u32>,
    /// Writes per word (atomics count as reads and writes).
    pub writes: Vec<u32>,
    /// The largest row-major invocation number that wrote the word without
    /// an atomic; `None` when none did.
    pub writer: Vec<Option<u32>>,
}

/// One out-of-bounds access.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutOfBoundsAccess {
    /// The index into the outermost array (`out[index]`, `out.v[index]`).
    pub index: u32,
    /// Who accessed it.
    pub invocation: Invocation,
    /// Where, in the student's text.
    pub site: Option<Site>,
}

/// The out-of-bounds accesses of one kind to one space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutOfBounds {
    /// The buffer, variable or value ([`SpaceInfo::name`]).
    pub space: String,
    /// What it is.
    pub memory: MemoryKind,
    /// Read, write or atomic.
    pub kind: AccessKind,
    /// How many there were.
    pub total: u32,
    /// Elements the space has, as the shader declares it.
    pub elements: u32,
    /// The first few.
    pub first: Vec<OutOfBoundsAccess>,
}

/// The kind of a racecheck hazard, named by the order the GPU happened to
/// run the two accesses in (the other order is just as possible).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HazardKind {
    /// Two writes of one element by different invocations, unordered (a
    /// write conflict).
    WriteAfterWrite = 0,
    /// A read of an element another invocation wrote, unordered.
    ReadAfterWrite = 1,
    /// A write of an element another invocation read, unordered.
    WriteAfterRead = 2,
}

impl HazardKind {
    /// All kinds, in trace order (write conflicts first: they are the ones
    /// reported first).
    pub const ALL: [HazardKind; 3] =
        [HazardKind::WriteAfterWrite, HazardKind::ReadAfterWrite, HazardKind::WriteAfterRead];

    /// The access kinds of the first and the second access.
    pub fn accesses(self) -> (AccessKind, AccessKind) {
        match self {
            HazardKind::ReadAfterWrite => (AccessKind::Write, AccessKind::Read),
            HazardKind::WriteAfterRead => (AccessKind::Read, AccessKind::Write),
            HazardKind::WriteAfterWrite => (AccessKind::Write, AccessKind::Write),
        }
    }
}

/// One side of a hazard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HazardAccess {
    /// Who.
    pub invocation: Invocation,
    /// Read or write.
    pub kind: AccessKind,
    /// Where, when known.
    pub site: Option<Site>,
}

/// Two accesses to one element, at least one a write, by different
/// invocations with nothing ordering them: different workgroups of one
/// dispatch, or one workgroup within one barrier interval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hazard {
    /// Read-after-write, write-after-read or write-after-write.
    pub kind: HazardKind,
    /// The buffer or workgroup variable.
    pub space: String,
    /// In workgroup memory rather than a storage buffer.
    pub workgroup_memory: bool,
    /// Index into the space's outermost array; `None` when the space is not
    /// an array (a scalar `var<workgroup> total: f32`).
    pub element: Option<u32>,
    /// The entry point whose dispatch raced.
    pub entry_point: String,
    /// That dispatch's place in the case's dispatch order, from 0.
    #[serde(default)]
    pub dispatch: u32,
    /// The invocations are in different workgroups.
    pub across_workgroups: bool,
    /// The access the GPU ran first.
    pub first: HazardAccess,
    /// The access the GPU ran second.
    pub second: HazardAccess,
}

/// A loop stopped after [`super::LOOP_BUDGET`] iterations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunawayLoop {
    /// The loop's line in the student's text.
    pub line: Option<usize>,
    /// The invocation that hit the budget first.
    pub invocation: Invocation,
}

/// Everything the instrumented run saw.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Findings {
    /// Per traced buffer, per word counts (not in JSON reports).
    #[serde(skip)]
    pub buffers: Vec<BufferTrace>,
    /// Per invocation (row-major number), its counters in
    /// [`super::invocation_counter`] order: global reads, global writes,
    /// workgroup-memory reads, workgroup-memory writes, barriers (not in
    /// JSON reports).
    #[serde(skip)]
    pub invocations: Vec<[u32; super::INVOCATION_WORDS as usize]>,
    /// Out-of-bounds accesses, by space and kind, in space order.
    pub out_of_bounds: Vec<OutOfBounds>,
    /// The first racecheck hazards of each kind, write conflicts first.
    pub hazards: Vec<Hazard>,
    /// All hazards found (one element can count more than once).
    pub hazard_total: u32,
    /// A loop the budget stopped.
    pub runaway_loop: Option<RunawayLoop>,
    /// Parts of the racecheck that did not run for this case, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unchecked: Vec<String>,
    /// The `@workgroup_size` the shader ran with (its entry points' own, per
    /// dimension the largest when they differ), which numbers `invocations`
    /// and every invocation named here; `[0, 0, 0]` when unknown (the case's
    /// then). Not in JSON reports.
    #[serde(skip)]
    pub workgroup_size: [u32; 3],
    /// What the shader printed ([`crate::print`]).
    #[serde(default, skip_serializing_if = "crate::print::PrintLog::is_empty")]
    pub prints: crate::print::PrintLog,
}

impl Findings {
    /// The dispatch these findings number invocations by: `case`'s
    /// workgroups with the workgroup size the shader ran with.
    pub fn config(&self, case: &CaseConfig) -> CaseConfig {
        if self.workgroup_size == [0; 3] {
            *case
        } else {
            CaseConfig { workgroup_size: self.workgroup_size, ..*case }
        }
    }

    /// True when something fails the case: any out-of-bounds access (read,
    /// write or atomic), any hazard, or a runaway loop.
    pub fn fails(&self) -> bool {
        !self.out_of_bounds.is_empty() || self.hazard_total > 0 || self.runaway_loop.is_some()
    }

    /// Out-of-bounds accesses of `kind`, all spaces.
    pub fn out_of_bounds_of(&self, kind: AccessKind) -> impl Iterator<Item = &OutOfBounds> {
        self.out_of_bounds.iter().filter(move |o| o.kind == kind)
    }

    /// Out-of-bounds accesses in all.
    pub fn oob_total(&self) -> u32 {
        self.out_of_bounds.iter().map(|o| o.total).sum()
    }
}

impl TraceMeta {
    fn site(&self, n: u32) -> Option<Site> {
        (n != 0).then(|| self.sites.get(n as usize).copied()).flatten()
    }

    /// The one line of the shader that accesses `space` as `kind`, if there
    /// is exactly one: then the other side of a hazard is there, even when
    /// its site word was overwritten (invocations run in lock step store
    /// their site words together).
    fn only_line(&self, space: u32, kind: AccessKind) -> Option<Site> {
        let mut found: Option<Site> = None;
        for (n, &(s, k)) in self.site_access.iter().enumerate() {
            if s == space && k == kind {
                let site = self.sites.get(n).copied()?;
                match found {
                    Some(f) if f.line != site.line => return None,
                    Some(_) => {}
                    None => found = Some(site),
                }
            }
        }
        found
    }

    /// The hazard recorded at word `at`; `None` for a slot with no record
    /// written in it (a written record always names a site; site 0 is
    /// none), a record that makes no sense or one that an epoch overflow
    /// makes untrustworthy.
    fn hazard(
        &self,
        w: &impl Fn(u64) -> u32,
        at: u64,
        kind: HazardKind,
        overflow: bool,
        config: &CaseConfig,
    ) -> Option<Hazard> {
        if w(at + hw::SITE) == 0 {
            return None;
        }
        let l = &self.layout;
        let space = self.spaces.get(w(at + hw::SPACE) as usize)?;
        let workgroup_memory = space.memory == MemoryKind::Workgroup;
        let format = if workgroup_memory { Some(l.workgroup_keys) } else { l.storage_keys }?;
        let (key, other) = (w(at + hw::KEY), w(at + hw::OTHER_KEY));
        let (a, b) = (format.unpack(other), format.unpack(key));
        let across = a.workgroup != b.workgroup;
        if overflow && !across {
            return None;
        }
        let workgroup =
            |k: super::Key| if workgroup_memory { w(at + hw::WORKGROUP) } else { k.workgroup };
        let other_site_word = w(at + hw::OTHER_SITE);
        let (first_kind, second_kind) = kind.accesses();
        let space_n = w(at + hw::SPACE);
        let other_site = (other_site_word != 0
            && site_word(0, other_site_word) == site_word(0, other))
        .then(|| self.site(other_site_word >> SITE_KEY_BITS))
        .flatten()
        .or_else(|| self.only_line(space_n, first_kind));
        let word = w(at + hw::WORD);
        let in_space = if workgroup_memory { word.saturating_sub(space.shadow_base) } else { word };
        // Words before the array (other members of its struct) are no element.
        let element =
            in_space.checked_sub(space.array_word).and_then(|w| w.checked_div(space.element_words));
        Some(Hazard {
            kind,
            space: space.name.clone(),
            workgroup_memory,
            element,
            entry_point: self
                .entry_points
                .get(w(at + hw::DISPATCH) as usize)
                .cloned()
                .unwrap_or_default(),
            dispatch: w(at + hw::DISPATCH),
            across_workgroups: across,
            first: HazardAccess {
                invocation: invocation_in_workgroup(workgroup(a), a.local, config),
                kind: first_kind,
                site: other_site,
            },
            second: HazardAccess {
                invocation: invocation_in_workgroup(workgroup(b), b.local, config),
                kind: second_kind,
                site: self.site(w(at + hw::SITE)),
            },
        })
    }

    /// Reads the findings out of the trace buffer's words. Invocations are
    /// numbered by the dispatch the layout was made for
    /// ([`TraceLayout::config`]).
    pub fn findings(&self, words: &[u32]) -> Findings {
        let l = &self.layout;
        let config = &l.config;
        let w = |i: u64| words.get(i as usize).copied().unwrap_or(0);
        let buffers = l
            .lens
            .iter()
            .enumerate()
            .map(|(b, &n)| {
                let n = n as u64;
                // The word whose counters stand for word `i`.
                let c = self.spaces.get(b).map_or(1, |s| s.counted_words.max(1)) as u64;
                let at = |which: u64, i: u64| w(l.element_word(b, which, i - i % c));
                BufferTrace {
                    reads: (0..n).map(|i| at(0, i)).collect(),
                    writes: (0..n).map(|i| at(1, i)).collect(),
                    writer: (0..n).map(|i| at(2, i).checked_sub(1)).collect(),
                }
            })
            .collect();

        let mut out_of_bounds = Vec::new();
        for (s, space) in self.spaces.iter().enumerate() {
            for kind in AccessKind::ALL {
                let total = w(l.oob_total_word(s as u64, kind));
                if total == 0 {
                    continue;
                }
                let slots = (w(header::OOB_SLOTS + kind as u64) as u64).min(OOB_RECORDS_PER_KIND);
                let first = (0..slots)
                    .map(|slot| l.oob_record_word(kind, slot))
                    .filter(|&at| w(at) as usize == s)
                    .map(|at| OutOfBoundsAccess {
                        index: w(at + 1),
                        invocation: invocation(w(at + 2), config),
                        site: self.site(w(at + 3)),
                    })
                    .collect();
                out_of_bounds.push(OutOfBounds {
                    space: space.name.clone(),
                    memory: space.memory,
                    kind,
                    total,
                    elements: space.elements,
                    first,
                });
            }
        }

        let overflow = w(header::EPOCH_OVERFLOW);
        let mut unchecked = self.unchecked.clone();
        if overflow != 0 {
            unchecked.push(
                "some invocation passed more barriers than the racecheck can number, so races between invocations of one workgroup were not checked".into(),
            );
        }
        let mut hazard_total = 0;
        let mut hazards = Vec::new();
        for kind in HazardKind::ALL {
            hazard_total += w(header::HAZARD_COUNTS + kind as u64);
            let slots = w(header::HAZARD_SLOTS + kind as u64) as u64;
            for k in 0..slots.min(HAZARD_RECORDS_PER_KIND) {
                if let Some(h) =
                    self.hazard(&w, l.hazard_record_word(kind, k), kind, overflow != 0, config)
                {
                    hazards.push(h);
                }
            }
        }
        let hazard_total = if overflow != 0 { hazards.len() as u32 } else { hazard_total };

        let invocations = (0..l.invocations)
            .map(|i| {
                let at = l.invocation_base + i * super::INVOCATION_WORDS;
                std::array::from_fn(|k| w(at + k as u64))
            })
            .collect();
        let runaway_loop = match w(header::RUNAWAY_LOOP) {
            0 => None,
            id => Some(RunawayLoop {
                line: self.loop_lines.get(id as usize - 1).copied(),
                invocation: invocation(w(header::RUNAWAY_INVOCATION).saturating_sub(1), config),
            }),
        };
        let prints = self.print_log(&w);
        Findings {
            buffers,
            invocations,
            out_of_bounds,
            hazards,
            hazard_total,
            runaway_loop,
            unchecked,
            workgroup_size: config.workgroup_size,
            prints,
        }
    }

    /// The print log's lines, read in the order the GPU claimed them, then
    /// put in the log's order ([`crate::print::PrintLog::sort`]). A line
    /// that did not fit is not written, nor is any after it (the cursor
    /// only grows), so the kept lines are the words before the first empty
    /// one.
    fn print_log(&self, w: &impl Fn(u64) -> u32) -> crate::print::PrintLog {
        use crate::print::{PrintLine, PrintLog, PrintValue};
        use gpu_puzzles_core::print::LINE_HEADER_WORDS;
        let l = &self.layout;
        let mut log = PrintLog::default();
        if l.log_words == 0 {
            return log;
        }
        let end = (w(header::LOG_USED) as u64).min(l.log_words);
        let mut at = 0;
        while at + LINE_HEADER_WORDS <= end {
            let site = w(l.log_base + at);
            let Some(shape) = site.checked_sub(1).and_then(|s| self.prints.get(&s)) else { break };
            let mut next = l.log_base + at + LINE_HEADER_WORDS;
            let values = shape
                .iter()
                .map(|&(kind, n)| {
                    let v = PrintValue((0..n as u64).map(|c| kind.read(w(next + c))).collect());
                    next += n as u64;
                    v
                })
                .collect();
            log.lines.push(PrintLine {
                site: site - 1,
                entry_point: w(l.log_base + at + 1),
                invocation: invocation(w(l.log_base + at + 2), &l.config),
                values,
            });
            at = next - l.log_base;
        }
        log.dropped = (w(header::LOG_LINES) as u64).saturating_sub(log.lines.len() as u64);
        log.sort();
        log
    }
}

#[cfg(test)]
mod tests;
