//! A race detector for the interpreter's dispatches, with the rules of the
//! GPU run's racecheck (README, "memory checks"; WGSL §14.6 "Memory
//! Model"): two accesses to one word by different invocations, at least one
//! a non-atomic write, race unless something orders them. In workgroup
//! memory, a `workgroupBarrier()` (or `workgroupUniformLoad`) between them
//! orders them; in a storage buffer, a `storageBarrier()` between them
//! orders accesses of one workgroup, and nothing orders accesses of
//! different workgroups within a dispatch. Atomics never race, and
//! separate dispatches (entry points) are ordered.
//!
//! Each word has a shadow: its last write and its last two readers, each
//! with the invocation, workgroup and barrier interval ("epoch") it
//! happened in. An access is checked against the shadow, then recorded.
//! The accesses of one run are checked in the order they ran, so a race is
//! found whichever order the schedule gave them (then named by that order).

use crate::value::Space;
use gpu_puzzles_verdict::trace::{AccessKind, HazardKind};
use naga::Span;

/// Hazards kept in detail per kind (all are counted), as many as the GPU
/// run's racecheck records.
const KEPT_PER_KIND: usize = gpu_puzzles_verdict::trace::HAZARD_RECORDS_PER_KIND as usize;

/// One access, as the shadow remembers it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mark {
    /// The invocation's row-major number over the dispatch.
    pub id: u32,
    /// Its workgroup, by linear number.
    pub workgroup: u32,
    /// The barrier interval of its workgroup it happened in (of workgroup
    /// barriers for workgroup memory, of storage barriers for buffers).
    pub epoch: u32,
    /// Read or write.
    pub kind: AccessKind,
    /// The statement.
    pub span: Span,
}

#[derive(Debug, Clone, Copy, Default)]
struct Shadow {
    write: Option<Mark>,
    reads: [Option<Mark>; 2],
}

/// A race found: its kind, where, and both accesses in the order they ran.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Race {
    /// Write conflict, read-after-write or write-after-read.
    pub kind: HazardKind,
    /// The region.
    pub space: Space,
    /// The word.
    pub word: u32,
    /// The access that ran first.
    pub first: Mark,
    /// The access that ran second.
    pub second: Mark,
}

/// The detector of one dispatch.
#[derive(Debug, Clone, Default)]
pub struct Races {
    storage: Vec<Vec<Shadow>>,
    /// By global variable index, grown as accessed.
    workgroup: Vec<Vec<Shadow>>,
    /// The first few races of each kind, write conflicts first.
    pub found: Vec<Race>,
    /// All races found.
    pub total: u32,
}

impl Races {
    /// A detector for storage buffers of these lengths, in words.
    pub fn new(storage_words: &[usize]) -> Races {
        Races {
            storage: storage_words.iter().map(|&n| vec![Shadow::default(); n]).collect(),
            ..Races::default()
        }
    }

    /// A new workgroup starts: its workgroup memory is fresh.
    pub fn next_workgroup(&mut self) {
        self.workgroup.iter_mut().for_each(Vec::clear);
    }

    /// Checks and records a non-atomic access of `words` words at word
    /// `first_word` (atomics never race and are not passed here).
    pub fn access(&mut self, space: Space, first_word: u32, words: u32, mark: Mark) {
        let workgroup_memory = matches!(space, Space::Workgroup(_));
        let shadows = match space {
            Space::Storage(k) => match self.storage.get_mut(k as usize) {
                Some(s) => s,
                None => return,
            },
            Space::Workgroup(g) => {
                let g = g as usize;
                if self.workgroup.len() <= g {
                    self.workgroup.resize(g + 1, Vec::new());
                }
                &mut self.workgroup[g]
            }
            _ => return,
        };
        let unordered =
            |a: &Mark| a.id != mark.id && (a.workgroup != mark.workgroup || a.epoch == mark.epoch);
        let mut races = Vec::new();
        for w in first_word..first_word + words {
            let w_us = w as usize;
            if workgroup_memory && shadows.len() <= w_us {
                shadows.resize(w_us + 1, Shadow::default());
            }
            let Some(s) = shadows.get_mut(w_us) else { continue };
            let race = |kind, first: Mark| Race { kind, space, word: w, first, second: mark };
            match mark.kind {
                AccessKind::Write => {
                    if let Some(prev) = s.write.filter(unordered) {
                        races.push(race(HazardKind::WriteAfterWrite, prev));
                    } else if let Some(prev) = s.reads.iter().flatten().copied().find(unordered) {
                        races.push(race(HazardKind::WriteAfterRead, prev));
                    }
                    s.write = Some(mark);
                    s.reads = [None, None];
                }
                _ => {
                    if let Some(prev) = s.write.filter(unordered) {
                        races.push(race(HazardKind::ReadAfterWrite, prev));
                    }
                    if s.reads[0].is_none_or(|r| r.id != mark.id) {
                        s.reads = [Some(mark), s.reads[0]];
                    } else {
                        s.reads[0] = Some(mark);
                    }
                }
            }
        }
        for r in races {
            self.total += 1;
            if self.found.iter().filter(|f| f.kind == r.kind).count() < KEPT_PER_KIND {
                self.found.push(r);
            }
        }
    }

    /// The races found, write conflicts first, each kind in the order found.
    pub fn sorted(&self) -> Vec<Race> {
        let mut v = self.found.clone();
        v.sort_by_key(|r| r.kind as u8);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(id: u32, workgroup: u32, epoch: u32, kind: AccessKind) -> Mark {
        Mark { id, workgroup, epoch, kind, span: Span::default() }
    }

    #[test]
    fn a_barrier_orders_one_workgroup_and_nothing_orders_two() {
        let mut r = Races::new(&[4]);
        r.access(Space::Storage(0), 1, 1, mark(0, 0, 0, AccessKind::Write));
        r.access(Space::Storage(0), 1, 1, mark(1, 0, 1, AccessKind::Read));
        assert_eq!(r.total, 0, "a storage barrier between them orders them");
        r.access(Space::Storage(0), 1, 1, mark(5, 1, 1, AccessKind::Read));
        assert_eq!(r.total, 1, "another workgroup reads what workgroup 0 wrote");
        assert_eq!(r.found[0].kind, HazardKind::ReadAfterWrite);
        r.access(Space::Storage(0), 2, 1, mark(3, 0, 0, AccessKind::Read));
        r.access(Space::Storage(0), 2, 1, mark(2, 0, 0, AccessKind::Read));
        r.access(Space::Storage(0), 2, 1, mark(3, 0, 0, AccessKind::Write));
        assert_eq!(
            r.found.last().map(|f| (f.kind, f.first.id)),
            Some((HazardKind::WriteAfterRead, 2)),
            "invocation 2's read is remembered"
        );
    }

    #[test]
    fn workgroup_memory_starts_fresh_and_one_invocation_never_races_itself() {
        let mut r = Races::new(&[]);
        r.access(Space::Workgroup(0), 0, 1, mark(0, 0, 0, AccessKind::Write));
        r.access(Space::Workgroup(0), 0, 1, mark(0, 0, 0, AccessKind::Read));
        r.access(Space::Workgroup(0), 0, 1, mark(0, 0, 0, AccessKind::Write));
        assert_eq!(r.total, 0);
        r.access(Space::Workgroup(0), 0, 1, mark(1, 0, 0, AccessKind::Write));
        assert_eq!(r.found[0].kind, HazardKind::WriteAfterWrite);
        r.next_workgroup();
        r.access(Space::Workgroup(0), 0, 1, mark(9, 1, 0, AccessKind::Read));
        assert_eq!(r.total, 1, "the next workgroup's memory is its own");
    }
}
