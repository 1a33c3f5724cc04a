//! What a dispatch gathers as it runs: the [`Record`] of counts and
//! findings, and how each step's accesses are noted in it (heat-map counts,
//! per-invocation counters, out-of-bounds accesses, the race detector's
//! marks).

use super::Dispatch;
use crate::exec::Access;
use crate::value::Space;

/// Counts and findings gathered over a dispatch.
#[derive(Debug, Clone, Default)]
pub struct Record {
    /// Per storage buffer, reads per word.
    pub reads: Vec<Vec<u32>>,
    /// Per storage buffer, writes per word (atomics count as both).
    pub writes: Vec<Vec<u32>>,
    /// Per storage buffer and word, the largest row-major invocation
    /// number that wrote it without an atomic.
    pub writer: Vec<Vec<Option<u32>>>,
    /// Per invocation (row-major number): storage reads, storage writes,
    /// workgroup-memory reads, workgroup-memory writes (accesses, an
    /// atomic counting as one of each) and barriers waited at, as the
    /// instrumented run counts
    /// (`gpu_puzzles_verdict::trace::invocation_counter`).
    pub invocations: Vec<[u32; gpu_puzzles_verdict::trace::INVOCATION_WORDS as usize]>,
    /// Out-of-bounds accesses, in the order they happened, with the
    /// invocation's row-major number.
    pub out_of_bounds: Vec<(u32, Access)>,
    /// Races the detector found (when it ran), with the entry point's
    /// index in the module and the dispatch's place in the case's dispatch
    /// order (from 0).
    pub races: Vec<(crate::race::Race, usize, u32)>,
    /// All races found.
    pub race_total: u32,
    /// What the invocations printed, kept up to
    /// [`gpu_puzzles_core::print::LOG_WORDS`] words in the order workgroups
    /// finished (`entry_point` 0; the caller numbers dispatches).
    pub prints: Vec<gpu_puzzles_verdict::print::PrintLine>,
    /// Words of [`Record::prints`].
    pub print_words: u64,
    /// Lines printed past the log's bound and not kept.
    pub prints_dropped: u64,
}

impl Record {
    /// Keeps `line` if it fits the log's bound
    /// ([`gpu_puzzles_core::print::LOG_WORDS`]), else counts it as dropped.
    pub fn keep_print(&mut self, line: gpu_puzzles_verdict::print::PrintLine) {
        if self.print_words + line.words() <= gpu_puzzles_core::print::LOG_WORDS {
            self.print_words += line.words();
            self.prints.push(line);
        } else {
            self.prints_dropped += 1;
        }
    }
}

impl Dispatch {
    pub(super) fn note(&mut self, local: u32, accesses: &mut Vec<Access>) {
        use gpu_puzzles_verdict::trace::AccessKind;
        let id = self.invocations[local as usize].ids.id;
        for a in accesses.drain(..) {
            let base = match a.space {
                Space::Storage(_) => Some(0),
                Space::Workgroup(_) => Some(2),
                _ => None,
            };
            if let (Some(base), Some(c)) = (base, self.record.invocations.get_mut(id as usize)) {
                if a.kind != AccessKind::Write {
                    c[base] += 1;
                }
                if a.kind != AccessKind::Read {
                    c[base + 1] += 1;
                }
            }
            if let (Some(r), None, false) =
                (self.races.as_mut(), a.out_of_bounds, a.kind == AccessKind::Atomic)
            {
                let epoch = if matches!(a.space, Space::Workgroup(_)) {
                    self.epochs[0]
                } else {
                    self.epochs[1]
                };
                let mark = crate::race::Mark {
                    id,
                    workgroup: self.workgroup,
                    epoch,
                    kind: a.kind,
                    span: a.span,
                };
                r.access(a.space, a.offset / 4, a.bytes.div_ceil(4), mark);
            }
            if a.out_of_bounds.is_some() {
                self.record.out_of_bounds.push((id, a));
            } else if let Space::Storage(k) = a.space {
                let k = k as usize;
                for w in a.offset / 4..(a.offset + a.bytes).div_ceil(4) {
                    let w = w as usize;
                    if a.kind != AccessKind::Write {
                        if let Some(c) = self.record.reads[k].get_mut(w) {
                            *c += 1;
                        }
                    }
                    if a.kind != AccessKind::Read {
                        if let Some(c) = self.record.writes[k].get_mut(w) {
                            *c += 1;
                        }
                    }
                    if a.kind == AccessKind::Write {
                        if let Some(wr) = self.record.writer[k].get_mut(w) {
                            *wr = Some(wr.map_or(id, |x| x.max(id)));
                        }
                    }
                }
            }
            if self.keep_accesses {
                self.last_accesses.push((local, a));
            }
        }
    }
}
