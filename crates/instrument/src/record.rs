//! What one access records: the bounds of every level (memcheck), the
//! heat-map counts, and the calls into the racecheck helpers, whose bodies
//! (with those recording hazards and out-of-bounds accesses) are built in
//! the `helpers` submodule.

use crate::access::{Index, Resolved};
use crate::builder::Builder;
use crate::rewrite::{Cx, RaceSide, Target};
use crate::MAX_TRACED_WORDS;
use gpu_puzzles_verdict::trace::{
    header, invocation_counter as ic, AccessKind, KeyFormat, RACE_ARRAYS,
};
use naga::{AtomicFunction, BinaryOperator, Expression, Handle, ScalarKind, Statement};

mod helpers;

impl Cx<'_> {
    /// Statements recording one access, built before the access itself.
    pub(crate) fn record(
        &mut self,
        b: &mut Builder,
        res: &Resolved,
        target: Target,
        kind: AccessKind,
        site: u32,
    ) {
        let (read_slot, write_slot) = match target {
            Target::Storage { .. } => (ic::GLOBAL_READS, ic::GLOBAL_WRITES),
            Target::Workgroup { .. } => (ic::WORKGROUP_READS, ic::WORKGROUP_WRITES),
        };
        let slots: &[u64] = match kind {
            AccessKind::Read => &[read_slot],
            AccessKind::Write => &[write_slot],
            AccessKind::Atomic => &[read_slot, write_slot],
        };
        for &s in slots {
            // counter += 1, in a private variable: no atomics.
            let v = b.load_global(self.vars.counters[s as usize]);
            let v1 = b.add_const(v, 1);
            b.store_global(self.vars.counters[s as usize], v1);
        }

        // Bounds of every level, and the byte offset.
        let mut in_bounds = None;
        let mut offset = None;
        let mut outer = None;
        for level in &res.levels {
            let idx = match level.index {
                Index::Constant(c) => b.lit(c),
                // Indices may be i32: as u32 a negative one is huge, so out of bounds.
                Index::Dynamic(h) => {
                    b.emit(Expression::As { expr: h, kind: ScalarKind::Uint, convert: Some(4) })
                }
            };
            outer.get_or_insert(idx);
            let bound = b.lit(level.bound);
            let ok = b.bin(BinaryOperator::Less, idx, bound);
            in_bounds = Some(match in_bounds {
                Some(prev) => b.bin(BinaryOperator::LogicalAnd, prev, ok),
                None => ok,
            });
            let stride = b.lit(level.stride);
            let term = b.mul(idx, stride);
            offset = Some(match offset {
                Some(prev) => b.add(prev, term),
                None => term,
            });
        }
        let space = match target {
            Target::Storage { space } | Target::Workgroup { space, .. } => space,
        };
        let words = res.size.div_ceil(4);
        if words > MAX_TRACED_WORDS {
            let line = self.sites.get(site as usize).map(|s| s.line).unwrap_or(0);
            self.unchecked.push(format!("all but the first {MAX_TRACED_WORDS} words of the {words}-word access at line {line}"));
        }
        let accept = |cx: &mut Self, b: &mut Builder| {
            let bytes = match offset {
                Some(o) => b.add_const(o, res.offset as u64),
                None => b.lit(res.offset),
            };
            let two = b.lit(2);
            let first = b.bin(BinaryOperator::ShiftRight, bytes, two);
            // A global touched only in whole elements has its counters and
            // racecheck on each element's first word, which stands for all
            // of them.
            let race_words = match cx.whole_words.get(&res.global) {
                Some(&c) if c == words => 1,
                _ => words.min(MAX_TRACED_WORDS),
            };
            cx.record_words(b, target, kind, first, words.min(MAX_TRACED_WORDS), race_words, site);
        };
        match in_bounds {
            None => accept(self, b),
            Some(cond) => {
                let outer = outer.expect("levels exist");
                let accept_block = b.block(|b| accept(self, b));
                let reject_block = b.block(|b| self.call_oob(b, space, kind, outer, site));
                b.stmt(Statement::If {
                    condition: cond,
                    accept: accept_block,
                    reject: reject_block,
                });
            }
        }
    }

    /// Heat-map counts and the racecheck for the first `race_words` of the
    /// `count` words from `first`: all, or 1 standing for the `count` of a
    /// whole element ([`crate::access::whole_element_globals`]; the reader
    /// copies its counts, [`SpaceInfo::counted_words`], and each hazard on
    /// it counts `count` times).
    ///
    /// [`SpaceInfo::counted_words`]: gpu_puzzles_verdict::trace::SpaceInfo::counted_words
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn record_words(
        &mut self,
        b: &mut Builder,
        target: Target,
        kind: AccessKind,
        first: Handle<Expression>,
        count: u32,
        race_words: u32,
        site: u32,
    ) {
        let weight = if race_words < count { count } else { 1 };
        let side = match kind {
            AccessKind::Read => Some(RaceSide::Read),
            AccessKind::Write => Some(RaceSide::Write),
            AccessKind::Atomic => None, // atomics are exempt from the racecheck
        };
        match target {
            Target::Storage { space } => {
                let k = space as usize;
                let race = self.layout.race_base[k].filter(|_| side.is_some());
                let key = race.map(|_| self.key(b, false));
                let region = race.map(|base| {
                    let d = b.load_global(self.vars.dispatch);
                    let stride = b.lit(self.layout.race_dispatch_stride as u32);
                    let off = b.mul(d, stride);
                    b.add_const(off, base)
                });
                for lane in 0..race_words {
                    let w = b.add_const(first, lane as u64);
                    let counters: &[(u64, AtomicFunction)] = match kind {
                        AccessKind::Read => &[(0, AtomicFunction::Add)],
                        AccessKind::Write => &[(1, AtomicFunction::Add), (2, AtomicFunction::Max)],
                        AccessKind::Atomic => &[(0, AtomicFunction::Add), (1, AtomicFunction::Add)],
                    };
                    for &(which, fun) in counters {
                        let at = b.add_const(w, self.layout.element_word(k, which, 0));
                        let value = if which == 2 {
                            let inv = b.load_global(self.vars.invocation);
                            b.add_const(inv, 1)
                        } else {
                            b.lit(1)
                        };
                        b.atomic(self.trace, at, fun, value);
                    }
                    // A race region exists only when storage keys do.
                    if let (Some(region), Some(key), Some(side)) = (region, key, side) {
                        let n = self.layout.lens[k];
                        self.call_race(b, false, side, region, n, w, key, space, site, weight);
                    }
                }
            }
            Target::Workgroup { space, shadow_base } => {
                let (Some(side), true) = (side, self.racecheck && self.layout.workgroup_words > 0)
                else {
                    return;
                };
                let key = self.key(b, true);
                let wg = b.load_global(self.vars.workgroup);
                let per_wg = b.lit((RACE_ARRAYS * self.layout.workgroup_words) as u32);
                let wg_off = b.mul(wg, per_wg);
                let d = b.load_global(self.vars.dispatch);
                let stride = b.lit(self.layout.workgroup_dispatch_stride as u32);
                let d_off = b.mul(d, stride);
                let sum = b.add(wg_off, d_off);
                let region = b.add_const(sum, self.layout.workgroup_race_base);
                let first = b.add_const(first, shadow_base as u64);
                for lane in 0..race_words {
                    let w = b.add_const(first, lane as u64);
                    let n = self.layout.workgroup_words as u32;
                    self.call_race(b, true, side, region, n, w, key, space, site, weight);
                }
            }
        }
    }

    /// This access's key: `workgroup | epoch | local` for storage, `epoch |
    /// local` for workgroup memory.
    pub(crate) fn key(&self, b: &mut Builder, workgroup_memory: bool) -> Handle<Expression> {
        let format = if workgroup_memory {
            self.layout.workgroup_keys
        } else {
            self.layout.storage_keys.expect("storage keys")
        };
        let epoch_var =
            if workgroup_memory { self.vars.workgroup_epoch } else { self.vars.storage_epoch };
        let local = b.load_global(self.vars.local);
        let epoch = b.load_global(epoch_var);
        let lb = b.lit(format.local_bits);
        let e = b.bin(BinaryOperator::ShiftLeft, epoch, lb);
        let mut key = b.bin(BinaryOperator::InclusiveOr, e, local);
        if format.workgroup_bits > 0 {
            let wg = b.load_global(self.vars.workgroup);
            let shift = b.lit(format.epoch_bits + format.local_bits);
            let w = b.bin(BinaryOperator::ShiftLeft, wg, shift);
            key = b.bin(BinaryOperator::InclusiveOr, w, key);
        }
        key
    }

    /// `a` and `key` can race: different workgroups, or one interval and
    /// different invocations.
    pub(crate) fn unordered(
        &self,
        b: &mut Builder,
        a: Handle<Expression>,
        key: Handle<Expression>,
        format: KeyFormat,
    ) -> Handle<Expression> {
        let lb = b.lit(format.local_bits);
        let ah = b.bin(BinaryOperator::ShiftRight, a, lb);
        let kh = b.bin(BinaryOperator::ShiftRight, key, lb);
        let same_interval = b.bin(BinaryOperator::Equal, ah, kh);
        let other = b.bin(BinaryOperator::NotEqual, a, key);
        let within = b.bin(BinaryOperator::LogicalAnd, same_interval, other);
        if format.workgroup_bits == 0 {
            return within;
        }
        let shift = b.lit(format.epoch_bits + format.local_bits);
        let aw = b.bin(BinaryOperator::ShiftRight, a, shift);
        let kw = b.bin(BinaryOperator::ShiftRight, key, shift);
        let across = b.bin(BinaryOperator::NotEqual, aw, kw);
        b.bin(BinaryOperator::LogicalOr, across, within)
    }

    /// A call of the racecheck helper for one word: `gp_race_*(region, n,
    /// w, key, space, site, weight)`, a hazard on it counted `weight` times.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn call_race(
        &self,
        b: &mut Builder,
        workgroup: bool,
        side: RaceSide,
        region: Handle<Expression>,
        n: u32,
        w: Handle<Expression>,
        key: Handle<Expression>,
        space: u32,
        site: u32,
        weight: u32,
    ) {
        let function = self.helpers.race[usize::from(workgroup)][side as usize];
        self.helpers.mark(function);
        let (n, space, site, weight) = (b.lit(n), b.lit(space), b.lit(site), b.lit(weight));
        b.stmt(Statement::Call {
            function,
            arguments: vec![region, n, w, key, space, site, weight],
            result: None,
        });
    }

    /// A call of the out-of-bounds helper.
    pub(crate) fn call_oob(
        &self,
        b: &mut Builder,
        space: u32,
        kind: AccessKind,
        index: Handle<Expression>,
        site: u32,
    ) {
        let args = [
            self.layout.oob_total_word(space as u64, kind) as u32,
            (header::OOB_SLOTS + kind as u64) as u32,
            space,
        ];
        let mut arguments: Vec<Handle<Expression>> = args.iter().map(|&v| b.lit(v)).collect();
        arguments.push(index);
        arguments.push(b.lit(site));
        self.helpers.mark(self.helpers.oob);
        b.stmt(Statement::Call { function: self.helpers.oob, arguments, result: None });
    }
}
