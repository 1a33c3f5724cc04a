//! The bodies of the helper functions the rewritten code calls (the
//! racecheck's `gp_race_*`, `gp_hazard`, `gp_oob`), and the statements that
//! store an invocation's counters and pending records when it ends.

use crate::builder::Builder;
use crate::rewrite::{Cx, RaceSide};
use gpu_puzzles_verdict::trace::{
    hazard_word as hw, header, race_array as ra, AccessKind, HazardKind, KeyFormat,
    HAZARD_RECORDS_PER_KIND, HAZARD_RECORD_WORDS, INVOCATION_WORDS, OOB_RECORDS_PER_KIND,
    SITE_KEY_BITS,
};
use naga::{
    AtomicFunction, BinaryOperator, Expression, Function, FunctionArgument, GlobalVariable, Handle,
    Module, Statement, Type,
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
                        let words = b.lit(gpu_puzzles_verdict::trace::OOB_RECORD_WORDS as u32);
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
