//! What one access records: the bounds of every level (memcheck), the
//! heat-map counts, and the calls into the racecheck helpers, whose bodies
//! (with those recording hazards and out-of-bounds accesses) are built here
//! too.

use crate::access::{Index, Resolved};
use crate::builder::Builder;
use crate::rewrite::{Cx, RaceSide, Target};
use crate::MAX_TRACED_WORDS;
use gpu_puzzles_core::trace::{
    hazard_word as hw, header, invocation_counter as ic, race_array as ra, AccessKind, HazardKind,
    KeyFormat, HAZARD_RECORDS_PER_KIND, HAZARD_RECORD_WORDS, INVOCATION_WORDS,
    OOB_RECORDS_PER_KIND, RACE_ARRAYS, SITE_KEY_BITS,
};
use naga::{
    AtomicFunction, BinaryOperator, Expression, Function, FunctionArgument, GlobalVariable, Handle,
    Module, ScalarKind, Statement, Type,
};

impl Cx<'_> {
    /// Writes the bodies of the helper functions the code calls into their
    /// placeholders (the others stay empty: less for the device to compile).
    pub(crate) fn build_helpers(&self, module: &mut Module, u32_ty: Handle<Type>) {
        let make = |handle: Handle<Function>,
                    name: &str,
                    arity: u32,
                    body: &dyn Fn(&mut Builder, &[Handle<Expression>])| {
            let mut f = Function {
                name: Some(name.into()),
                arguments: (0..arity)
                    .map(|i| FunctionArgument {
                        name: Some(format!("p{i}")),
                        ty: u32_ty,
                        binding: None,
                    })
                    .collect(),
                ..Function::default()
            };
            let mut b = Builder::new(&mut f);
            let args: Vec<_> = (0..arity).map(|i| b.pre(Expression::FunctionArgument(i))).collect();
            if self.helpers.is_used(handle) {
                body(&mut b, &args);
            }
            b.stmt(Statement::Return { value: None });
            f.body = b.finish();
            f
        };
        let h = &self.helpers;
        module.functions[h.hazard] = make(h.hazard, "gp_hazard", 8, &|b, a| self.hazard_body(b, a));
        module.functions[h.oob] = make(h.oob, "gp_oob", 5, &|b, a| self.oob_body(b, a));
        for (wg, formats) in [(0, self.layout.storage_keys), (1, Some(self.layout.workgroup_keys))]
        {
            for (side, label) in [(RaceSide::Read, "read"), (RaceSide::Write, "write")] {
                let handle = h.race[wg][side as usize];
                let name =
                    format!("gp_race_{label}_{}", if wg == 1 { "workgroup" } else { "storage" });
                module.functions[handle] = make(handle, &name, 7, &|b, a| {
                    // No storage keys (too many invocations): never called.
                    if let Some(format) = formats {
                        self.race_body(b, a[0], a[1], a[2], a[3], format, side, a[4], a[5], a[6]);
                    }
                });
            }
        }
    }

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
    /// [`SpaceInfo::counted_words`]: gpu_puzzles_core::trace::SpaceInfo::counted_words
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

    /// The body of a racecheck helper: one word `w` of a shadowed region of
    /// `n` words per array starting at word `region` of the trace; a hazard
    /// counts `weight` times.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn race_body(
        &self,
        b: &mut Builder,
        region: Handle<Expression>,
        n: Handle<Expression>,
        w: Handle<Expression>,
        key: Handle<Expression>,
        format: KeyFormat,
        side: RaceSide,
        space: Handle<Expression>,
        site: Handle<Expression>,
        weight: Handle<Expression>,
    ) {
        let at = |b: &mut Builder, array: u64| {
            let a = b.lit(array as u32);
            let off = b.mul(a, n);
            let base = b.add(region, off);
            b.add(base, w)
        };
        let zero = b.lit(0);
        let site_word = {
            let sixteen = b.lit(SITE_KEY_BITS);
            let s = b.bin(BinaryOperator::ShiftLeft, site, sixteen);
            let mask = b.lit((1 << SITE_KEY_BITS) - 1);
            let low = b.bin(BinaryOperator::And, key, mask);
            b.bin(BinaryOperator::InclusiveOr, s, low)
        };
        let hazard =
            |b: &mut Builder, kind: HazardKind, other: Handle<Expression>, site_array: u64| {
                let sa = at(b, site_array);
                let other_site = b.atomic_load(self.trace, sa);
                let counter = b.lit((header::HAZARD_COUNTS + kind as u64) as u32);
                b.stmt(Statement::Call {
                    function: self.helpers.hazard,
                    arguments: vec![counter, space, w, key, other, site, other_site, weight],
                    result: None,
                });
            };
        match side {
            RaceSide::Read => {
                let hi = at(b, ra::READER_HIGH);
                b.atomic(self.trace, hi, AtomicFunction::Max, key);
                let lo = at(b, ra::READER_LOW);
                let low_mask = b.lit(format.low(0));
                let low_key = b.bin(BinaryOperator::ExclusiveOr, key, low_mask);
                b.atomic(self.trace, lo, AtomicFunction::Max, low_key);
                // A read-modify-write, so that it is ordered with the writers'.
                let wr_at = at(b, ra::WRITER);
                let writer = b.atomic_result(
                    self.trace,
                    wr_at,
                    AtomicFunction::InclusiveOr,
                    zero,
                    self.u32_ty,
                );
                let some = b.bin(BinaryOperator::NotEqual, writer, zero);
                let racing = self.unordered(b, writer, key, format);
                let cond = b.bin(BinaryOperator::LogicalAnd, some, racing);
                b.if_(cond, |b| hazard(b, HazardKind::ReadAfterWrite, writer, ra::WRITE_SITE));
                let rs = at(b, ra::READ_SITE);
                b.atomic_store(self.trace, rs, site_word);
            }
            RaceSide::Write => {
                // The writer's shadow, then both readers' (read-modify-writes,
                // so they are ordered with the readers' `atomicMax`), then one
                // record of the first race found, in this order: another
                // writer, the highest reader, the lowest reader. One call of
                // `gp_hazard` per helper, not one per outcome: SwiftShader
                // inlines every call, and its compile time grows with the
                // trace accesses it inlines (docs/performance.md).
                let wr_at = at(b, ra::WRITER);
                let old = b.atomic_result(self.trace, wr_at, AtomicFunction::Max, key, self.u32_ty);
                let hi_at = at(b, ra::READER_HIGH);
                let hi = b.atomic_result(
                    self.trace,
                    hi_at,
                    AtomicFunction::InclusiveOr,
                    zero,
                    self.u32_ty,
                );
                let lo_at = at(b, ra::READER_LOW);
                let lo = b.atomic_result(
                    self.trace,
                    lo_at,
                    AtomicFunction::InclusiveOr,
                    zero,
                    self.u32_ty,
                );
                let low_mask = b.lit(format.low(0));
                let reader = b.bin(BinaryOperator::ExclusiveOr, lo, low_mask);
                let found =
                    |b: &mut Builder, shadow: Handle<Expression>, other: Handle<Expression>| {
                        let some = b.bin(BinaryOperator::NotEqual, shadow, zero);
                        let racing = self.unordered(b, other, key, format);
                        b.bin(BinaryOperator::LogicalAnd, some, racing)
                    };
                let after_write = found(b, old, old);
                let after_high = found(b, hi, hi);
                let after_low = found(b, lo, reader);
                let after_read = b.bin(BinaryOperator::LogicalOr, after_high, after_low);
                let any = b.bin(BinaryOperator::LogicalOr, after_write, after_read);
                b.if_(any, |b| {
                    let select = |b: &mut Builder, condition, accept, reject| {
                        b.emit(Expression::Select { condition, accept, reject })
                    };
                    let read_other = select(b, after_high, hi, reader);
                    let other = select(b, after_write, old, read_other);
                    let (waw, war) = (HazardKind::WriteAfterWrite, HazardKind::WriteAfterRead);
                    let pick = |b: &mut Builder, w: u64, r: u64| {
                        let (w, r) = (b.lit(w as u32), b.lit(r as u32));
                        select(b, after_write, w, r)
                    };
                    let site_array = pick(b, ra::WRITE_SITE, ra::READ_SITE);
                    let off = b.mul(site_array, n);
                    let base = b.add(region, off);
                    let sa = b.add(base, w);
                    let other_site = b.atomic_load(self.trace, sa);
                    let counter = pick(
                        b,
                        header::HAZARD_COUNTS + waw as u64,
                        header::HAZARD_COUNTS + war as u64,
                    );
                    b.stmt(Statement::Call {
                        function: self.helpers.hazard,
                        arguments: vec![counter, space, w, key, other, site, other_site, weight],
                        result: None,
                    });
                });
                let ws = at(b, ra::WRITE_SITE);
                b.atomic_store(self.trace, ws, site_word);
            }
        }
    }

    /// The body of `gp_hazard(counter, space, word, key, other, site,
    /// other_site, weight)`: notes a hazard of the kind whose count is
    /// header word `counter`, `weight` times, in the invocation's private
    /// variables ([`crate::rewrite::Vars::hazards`]); the first of each kind
    /// keeps its record. [`Cx::flush_pending`] stores them when the
    /// invocation ends.
    ///
    /// Why not into the trace here: every helper call is inlined where the
    /// access is, and llvmpipe's compile time grows much faster than the
    /// atomics and branches it inlines. Recording each hazard on the spot (an
    /// `atomicAdd`, a branch and eight `atomicStore`s per access) took it
    /// 75 s for Double-Buffered Matrix Multiply's reference, against under
    /// 1 s for these selects (docs/performance.md). Only the records
    /// change: one per kind and invocation, the first it met, where there
    /// used to be the first six anywhere; the counts are the same.
    pub(crate) fn hazard_body(&self, b: &mut Builder, args: &[Handle<Expression>]) {
        let [counter, space, word, key, other, site, other_site, weight] = args[..] else {
            unreachable!("eight arguments")
        };
        let zero = b.lit(0);
        for (k, vars) in self.vars.hazards.iter().enumerate() {
            let this = b.lit((header::HAZARD_COUNTS + k as u64) as u32);
            let is = b.bin(BinaryOperator::Equal, counter, this);
            let add = b.emit(Expression::Select { condition: is, accept: weight, reject: zero });
            let n = b.load_global(vars[0]);
            let n1 = b.add(n, add);
            b.store_global(vars[0], n1);
            self.keep_first(b, is, &vars[1..], &[site, space, word, key, other, other_site]);
        }
    }

    /// Stores `values` into `vars` when `is` holds and `vars[0]` (a site)
    /// is still 0: the first record of its kind.
    fn keep_first(
        &self,
        b: &mut Builder,
        is: Handle<Expression>,
        vars: &[Handle<GlobalVariable>],
        values: &[Handle<Expression>],
    ) {
        let zero = b.lit(0);
        let old_site = b.load_global(vars[0]);
        let none = b.bin(BinaryOperator::Equal, old_site, zero);
        let first = b.bin(BinaryOperator::LogicalAnd, is, none);
        for (&var, &value) in vars.iter().zip(values) {
            let old = b.load_global(var);
            let v = b.emit(Expression::Select { condition: first, accept: value, reject: old });
            b.store_global(var, v);
        }
    }

    /// The body of `gp_oob(total, slots, space, index, site)`: counts an
    /// out-of-bounds access in trace word `total`, and keeps the first of
    /// its kind (whose record slots header word `slots` counts) in the
    /// invocation's private variables ([`crate::rewrite::Vars::oob`]), for
    /// [`Cx::flush_pending`] to store when the invocation ends (why: see
    /// [`Cx::hazard_body`]).
    pub(crate) fn oob_body(&self, b: &mut Builder, args: &[Handle<Expression>]) {
        let [total, slots, space, index, site] = args[..] else { unreachable!("five arguments") };
        let one = b.lit(1);
        b.atomic(self.trace, total, AtomicFunction::Add, one);
        for (k, vars) in self.vars.oob.iter().enumerate() {
            let this = b.lit((header::OOB_SLOTS + k as u64) as u32);
            let is = b.bin(BinaryOperator::Equal, slots, this);
            self.keep_first(b, is, vars, &[site, space, index]);
        }
    }

    /// The statements that end an invocation: its counters added into its
    /// words of the trace, then its pending hazards (counted, and the first
    /// of each kind recorded while its kind has room) and out-of-bounds
    /// records. Called once, after the entry point's body returns. Each
    /// invocation claims one record slot per kind it has a record of
    /// (`header::HAZARD_SLOTS`, `header::OOB_SLOTS`), apart from the
    /// counts, so that one invocation with many hazards leaves room for
    /// the others'.
    pub(crate) fn flush_pending(&self, b: &mut Builder) {
        let inv = b.load_global(self.vars.invocation);
        let four = b.lit(INVOCATION_WORDS as u32);
        let scaled = b.mul(inv, four);
        let first = b.add_const(scaled, self.layout.invocation_base);
        for (k, &var) in self.vars.counters.iter().enumerate() {
            let v = b.load_global(var);
            let w = b.add_const(first, k as u64);
            b.atomic(self.trace, w, AtomicFunction::Add, v);
        }
        let zero = b.lit(0);
        if self.helpers.is_used(self.helpers.hazard) {
            for (kind, vars) in HazardKind::ALL.into_iter().zip(&self.vars.hazards) {
                let n = b.load_global(vars[0]);
                let some = b.bin(BinaryOperator::NotEqual, n, zero);
                b.if_(some, |b| {
                    let counter = b.lit((header::HAZARD_COUNTS + kind as u64) as u32);
                    b.atomic(self.trace, counter, AtomicFunction::Add, n);
                    // One record slot per invocation, whatever its count.
                    let slots = b.lit((header::HAZARD_SLOTS + kind as u64) as u32);
                    let one = b.lit(1);
                    let slot =
                        b.atomic_result(self.trace, slots, AtomicFunction::Add, one, self.u32_ty);
                    let max = b.lit(HAZARD_RECORDS_PER_KIND as u32);
                    let room = b.bin(BinaryOperator::Less, slot, max);
                    b.if_(room, |b| {
                        let words = b.lit(HAZARD_RECORD_WORDS as u32);
                        let scaled = b.mul(slot, words);
                        let at = b.add_const(scaled, self.layout.hazard_record_word(kind, 0));
                        let [site, space, word, key, other, other_site] =
                            [1, 2, 3, 4, 5, 6].map(|i| b.load_global(vars[i]));
                        let dispatch = b.load_global(self.vars.dispatch);
                        let workgroup = b.load_global(self.vars.workgroup);
                        for (offset, value) in [
                            (hw::SPACE, space),
                            (hw::WORD, word),
                            (hw::KEY, key),
                            (hw::OTHER_KEY, other),
                            (hw::SITE, site),
                            (hw::OTHER_SITE, other_site),
                            (hw::DISPATCH, dispatch),
                            (hw::WORKGROUP, workgroup),
                        ] {
                            let w = b.add_const(at, offset);
                            b.atomic_store(self.trace, w, value);
                        }
                    });
                });
            }
        }
        if self.helpers.is_used(self.helpers.oob) {
            for (kind, vars) in AccessKind::ALL.into_iter().zip(&self.vars.oob) {
                let site = b.load_global(vars[0]);
                let some = b.bin(BinaryOperator::NotEqual, site, zero);
                b.if_(some, |b| {
                    let slots = b.lit((header::OOB_SLOTS + kind as u64) as u32);
                    let one = b.lit(1);
                    let slot =
                        b.atomic_result(self.trace, slots, AtomicFunction::Add, one, self.u32_ty);
                    let max = b.lit(OOB_RECORDS_PER_KIND as u32);
                    let room = b.bin(BinaryOperator::Less, slot, max);
                    b.if_(room, |b| {
                        let words = b.lit(gpu_puzzles_core::trace::OOB_RECORD_WORDS as u32);
                        let scaled = b.mul(slot, words);
                        let at = b.add_const(scaled, self.layout.oob_record_word(kind, 0));
                        let space = b.load_global(vars[1]);
                        let index = b.load_global(vars[2]);
                        let inv = b.load_global(self.vars.invocation);
                        for (offset, value) in [space, index, inv, site].into_iter().enumerate() {
                            let w = b.add_const(at, offset as u64);
                            b.atomic_store(self.trace, w, value);
                        }
                    });
                });
            }
        }
    }
}
