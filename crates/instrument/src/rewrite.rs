//! The walk over the IR: every access recorded where it happens, barriers
//! ending intervals, loops guarded, each entry point's prelude (its
//! invocation's numbers) and its counters stored before every `return`.
//! The state of the pass ([`Cx`]) lives here; what an access records is in
//! [`crate::record`].

use crate::access::{resolve, root, Resolved};
use crate::bounds::BoundsCheck;
use crate::builder::Builder;
use gpu_puzzles_verdict::trace::{header, AccessKind, Site, TraceLayout, LOOP_BUDGET};
use naga::{
    AtomicFunction, Barrier, BinaryOperator, Block, Expression, Function, GlobalVariable, Handle,
    Module, Scalar, ScalarKind, Span, Statement, Type,
};
use std::collections::HashMap;

mod prelude;

pub(crate) const U32: Scalar = Scalar { kind: ScalarKind::Uint, width: 4 };

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    Storage { space: u32 },
    Workgroup { space: u32, shadow_base: u32 },
}

impl Target {
    pub(crate) fn space(self) -> u32 {
        match self {
            Target::Storage { space } | Target::Workgroup { space, .. } => space,
        }
    }
}

/// The private variables the rewritten code keeps per invocation.
pub(crate) struct Vars {
    /// Row-major number over the dispatch.
    pub(crate) invocation: Handle<GlobalVariable>,
    /// `local_invocation_index`.
    pub(crate) local: Handle<GlobalVariable>,
    /// Linear workgroup number.
    pub(crate) workgroup: Handle<GlobalVariable>,
    /// Index of the entry point being dispatched.
    pub(crate) dispatch: Handle<GlobalVariable>,
    /// Barrier interval of storage (from 1).
    pub(crate) storage_epoch: Handle<GlobalVariable>,
    /// Barrier interval of workgroup memory (from 1).
    pub(crate) workgroup_epoch: Handle<GlobalVariable>,
    /// Per-invocation counters, in [`ic`] order.
    pub(crate) counters:
        [Handle<GlobalVariable>; gpu_puzzles_verdict::trace::INVOCATION_WORDS as usize],
    /// Per hazard kind, in [`gpu_puzzles_verdict::trace::HazardKind`] order:
    /// the hazards this invocation found (weighted), then the record of the
    /// first of them, in [`PENDING_HAZARD`] order. Stored into the trace
    /// once, when the invocation ends ([`Cx::flush_pending`]).
    pub(crate) hazards: [[Handle<GlobalVariable>; 7]; 3],
    /// Per access kind, in [`AccessKind`] order: the record of this
    /// invocation's first out-of-bounds access of that kind, in
    /// [`PENDING_OOB`] order, stored into the trace when it ends.
    pub(crate) oob: [[Handle<GlobalVariable>; 3]; 3],
}

/// The private variables of a hazard kind ([`Vars::hazards`]): the count,
/// then the first hazard's site (0 while there is none), space, word, key,
/// the other access's key and the other access's site word.
pub(crate) const PENDING_HAZARD: [&str; 7] =
    ["n", "site", "space", "word", "key", "other", "other_site"];

/// The private variables of an out-of-bounds kind ([`Vars::oob`]): the
/// first access's site (0 while there is none), space and index.
pub(crate) const PENDING_OOB: [&str; 3] = ["site", "space", "index"];

/// The pass's state while rewriting.
pub(crate) struct Cx<'s> {
    pub(crate) trace: Handle<GlobalVariable>,
    pub(crate) u32_ty: Handle<Type>,
    pub(crate) vars: Vars,
    pub(crate) targets: HashMap<Handle<GlobalVariable>, Target>,
    /// The bounds checks of the function being rewritten
    /// ([`crate::bounds::plan_bounds_checks`]).
    pub(crate) checks: HashMap<Handle<Expression>, BoundsCheck>,
    pub(crate) global_bytes: HashMap<Handle<GlobalVariable>, u32>,
    pub(crate) layout: TraceLayout,
    pub(crate) source: &'s str,
    pub(crate) sites: Vec<Site>,
    pub(crate) site_access: Vec<(u32, AccessKind)>,
    pub(crate) loop_lines: Vec<usize>,
    pub(crate) unchecked: Vec<String>,
    pub(crate) racecheck: bool,
    pub(crate) helpers: Helpers,
    /// Globals whose accesses all touch whole elements, by words per
    /// element ([`crate::access::whole_element_globals`]): the racecheck
    /// checks the first word of each access, counting it for all.
    pub(crate) whole_words: HashMap<Handle<GlobalVariable>, u32>,
    /// The print function ([`gpu_puzzles_core::print::PRINT_FUNCTION`]), if
    /// the shader prints.
    pub(crate) print_fn: Option<Handle<Function>>,
    /// The prints of the function being rewritten, by print number.
    pub(crate) prints: std::collections::BTreeMap<u32, crate::print::PrintValues>,
    /// What each print rewritten so far records, for the reader.
    pub(crate) print_shapes:
        std::collections::BTreeMap<u32, Vec<(gpu_puzzles_verdict::print::ScalarKind, u32)>>,
}

/// The helper functions the rewritten code calls, so that each access site
/// costs a call rather than the whole check: the shader the device compiles
/// stays small.
pub(crate) struct Helpers {
    /// `gp_hazard(counter, base, space, word, key, other, site, other_site,
    /// weight)`.
    pub(crate) hazard: Handle<Function>,
    /// `gp_oob(total, slots, base, space, index, site)`.
    pub(crate) oob: Handle<Function>,
    /// `gp_race_*(region, n, w, key, space, site, weight)`, by [storage, workgroup
    /// memory] and [`RaceSide`].
    pub(crate) race: [[Handle<Function>; 2]; 2],
    /// Which ones the rewritten code calls (the others keep empty bodies).
    pub(crate) used: std::cell::Cell<[bool; 6]>,
}

impl Helpers {
    pub(crate) fn all(&self) -> [Handle<Function>; 6] {
        [self.hazard, self.oob, self.race[0][0], self.race[0][1], self.race[1][0], self.race[1][1]]
    }

    /// Notes that the code calls `f` (and what `f` calls).
    pub(crate) fn mark(&self, f: Handle<Function>) {
        let mut used = self.used.get();
        if let Some(k) = self.all().iter().position(|&h| h == f) {
            used[k] = true;
            if k >= 2 {
                used[0] = true; // the racecheck helpers record hazards
            }
        }
        self.used.set(used);
    }

    pub(crate) fn is_used(&self, f: Handle<Function>) -> bool {
        self.all().iter().position(|&h| h == f).is_some_and(|k| self.used.get()[k])
    }
}

/// Points every call at a function's new handle.
pub(crate) fn renumber_calls(
    f: &mut Function,
    renumbered: &HashMap<Handle<Function>, Handle<Function>>,
) {
    pub(crate) fn block(b: &mut Block, map: &HashMap<Handle<Function>, Handle<Function>>) {
        for s in b.iter_mut() {
            match s {
                Statement::Call { function, .. } => *function = map[function],
                Statement::Block(inner) => block(inner, map),
                Statement::If { accept, reject, .. } => {
                    block(accept, map);
                    block(reject, map);
                }
                Statement::Switch { cases, .. } => {
                    cases.iter_mut().for_each(|c| block(&mut c.body, map))
                }
                Statement::Loop { body, continuing, .. } => {
                    block(body, map);
                    block(continuing, map);
                }
                _ => {}
            }
        }
    }
    for (_, e) in f.expressions.iter_mut() {
        if let Expression::CallResult(function) = e {
            *function = renumbered[function];
        }
    }
    block(&mut f.body, renumbered);
}

/// What one access does, for the racecheck.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum RaceSide {
    Read,
    Write,
}

impl Cx<'_> {
    /// Numbers an access site: where it is, what it accesses and how.
    pub(crate) fn site(&mut self, span: Span, space: u32, kind: AccessKind) -> u32 {
        if !span.is_defined() {
            return 0;
        }
        let loc = span.location(self.source);
        self.sites
            .push(Site { line: loc.line_number as usize, column: loc.line_position as usize });
        self.site_access.push((space, kind));
        (self.sites.len() - 1) as u32
    }

    pub(crate) fn rewrite_block(
        &mut self,
        module: &Module,
        layouter: &naga::proc::Layouter,
        f: &mut Function,
        block: Block,
    ) -> Block {
        let mut out = Block::with_capacity(block.len());
        for (stmt, span) in block.span_into_iter() {
            match stmt {
                Statement::Emit(range) => {
                    // Split the range before each traced load, recording it,
                    // and before each access with a bounds check of its own.
                    let mut pending: Vec<Handle<Expression>> = Vec::new();
                    for h in range.clone() {
                        let access = match f.expressions[h] {
                            Expression::Load { pointer } => {
                                self.resolve(module, layouter, f, pointer)
                            }
                            _ => None,
                        };
                        let check = self.checks.get(&h).copied();
                        if access.is_some() || check.is_some() {
                            if let (Some(&first), Some(&last)) = (pending.first(), pending.last()) {
                                out.push(
                                    Statement::Emit(naga::Range::new_from_bounds(first, last)),
                                    span,
                                );
                            }
                            pending.clear();
                        }
                        if let Some(check) = check {
                            out.extend_block(self.bounds_check(f, h, check));
                        }
                        if let Some((res, target)) = access {
                            let kind =
                                if res.atomic { AccessKind::Atomic } else { AccessKind::Read };
                            let site = self.site(f.expressions.get_span(h), target.space(), kind);
                            let mut b = Builder::new(f);
                            self.record(&mut b, &res, target, kind, site);
                            out.extend_block(b.finish());
                        }
                        pending.push(h);
                    }
                    if let (Some(&first), Some(&last)) = (pending.first(), pending.last()) {
                        out.push(Statement::Emit(naga::Range::new_from_bounds(first, last)), span);
                    }
                }
                Statement::Store { pointer, value } => {
                    if let Some((res, target)) = self.resolve(module, layouter, f, pointer) {
                        let kind = if res.atomic { AccessKind::Atomic } else { AccessKind::Write };
                        let site = self.site(span, target.space(), kind);
                        let mut b = Builder::new(f);
                        self.record(&mut b, &res, target, kind, site);
                        out.extend_block(b.finish());
                    }
                    out.push(Statement::Store { pointer, value }, span);
                }
                Statement::Atomic { pointer, fun, value, result } => {
                    if let Some((res, target)) = self.resolve(module, layouter, f, pointer) {
                        let site = self.site(span, target.space(), AccessKind::Atomic);
                        let mut b = Builder::new(f);
                        self.record(&mut b, &res, target, AccessKind::Atomic, site);
                        out.extend_block(b.finish());
                    }
                    out.push(Statement::Atomic { pointer, fun, value, result }, span);
                }
                Statement::WorkGroupUniformLoad { pointer, result } => {
                    // A barrier, the load in an interval of its own, a barrier;
                    // counted as one barrier, as WGSL defines it.
                    let mut b = Builder::new(f);
                    self.count_barrier(&mut b);
                    self.next_epoch(&mut b, true);
                    if let Some((res, target)) = self.resolve(module, layouter, b.f, pointer) {
                        let site = self.site(span, target.space(), AccessKind::Read);
                        self.record(&mut b, &res, target, AccessKind::Read, site);
                    }
                    out.extend_block(b.finish());
                    out.push(Statement::WorkGroupUniformLoad { pointer, result }, span);
                    let mut b = Builder::new(f);
                    self.next_epoch(&mut b, true);
                    out.extend_block(b.finish());
                }
                Statement::ControlBarrier(barrier) => {
                    out.push(Statement::ControlBarrier(barrier), span);
                    let mut b = Builder::new(f);
                    if barrier != Barrier::SUB_GROUP {
                        self.count_barrier(&mut b);
                    }
                    if barrier.contains(Barrier::WORK_GROUP) {
                        self.next_epoch(&mut b, true);
                    }
                    if barrier.contains(Barrier::STORAGE) {
                        self.next_epoch(&mut b, false);
                    }
                    out.extend_block(b.finish());
                }
                Statement::Block(inner) => {
                    out.push(Statement::Block(self.rewrite_block(module, layouter, f, inner)), span)
                }
                Statement::If { condition, accept, reject } => {
                    let accept = self.rewrite_block(module, layouter, f, accept);
                    let reject = self.rewrite_block(module, layouter, f, reject);
                    out.push(Statement::If { condition, accept, reject }, span);
                }
                Statement::Switch { selector, cases } => {
                    let cases = cases
                        .into_iter()
                        .map(|mut c| {
                            c.body = self.rewrite_block(module, layouter, f, c.body);
                            c
                        })
                        .collect();
                    out.push(Statement::Switch { selector, cases }, span);
                }
                Statement::Loop { body, continuing, break_if } => {
                    let body = self.rewrite_block(module, layouter, f, body);
                    let continuing = self.rewrite_block(module, layouter, f, continuing);
                    self.loop_lines.push(span.location(self.source).line_number as usize);
                    let id = self.loop_lines.len() as u32;
                    // A counter per loop, zeroed each time the loop starts. It
                    // is uniform wherever the loop is, so the guard's `break`
                    // keeps every barrier in the loop uniform.
                    let counter = f.local_variables.append(
                        naga::LocalVariable {
                            name: Some(format!("gp_loop{id}")),
                            ty: self.u32_ty,
                            init: None,
                        },
                        Span::UNDEFINED,
                    );
                    let mut b = Builder::new(f);
                    let ptr = b.pre(Expression::LocalVariable(counter));
                    let zero = b.lit(0);
                    b.stmt(Statement::Store { pointer: ptr, value: zero });
                    out.extend_block(b.finish());
                    let mut b = Builder::new(f);
                    self.loop_guard(&mut b, id, ptr);
                    let mut guarded = b.finish();
                    guarded.extend_block(body);
                    out.push(Statement::Loop { body: guarded, continuing, break_if }, span);
                }
                Statement::Call { function, arguments, .. } if Some(function) == self.print_fn => {
                    // A print: its record in the log instead of the call.
                    if let Some(site) = crate::print::site_of(f, &arguments) {
                        let values = self.prints.get(&site).cloned().unwrap_or_default();
                        self.print_shapes
                            .insert(site, values.iter().map(|&(_, kind, n)| (kind, n)).collect());
                        let mut b = Builder::new(f);
                        self.print_record(&mut b, site, &values);
                        out.extend_block(b.finish());
                    }
                }
                other => out.push(other, span),
            }
        }
        out
    }

    /// The traced access `pointer` makes, if it points into a traced global.
    /// A pointer into one that the pass cannot follow is noted as
    /// unchecked, never passed over in silence.
    pub(crate) fn resolve(
        &mut self,
        module: &Module,
        layouter: &naga::proc::Layouter,
        f: &Function,
        pointer: Handle<Expression>,
    ) -> Option<(Resolved, Target)> {
        let Some(res) =
            resolve(module, layouter, f, pointer, &|g| self.global_bytes.get(&g).copied())
        else {
            if let Expression::GlobalVariable(g) = f.expressions[root(f, pointer)] {
                if self.targets.contains_key(&g) {
                    let line = f.expressions.get_span(pointer).location(self.source).line_number;
                    let name = module.global_variables[g].name.clone().unwrap_or_default();
                    self.unchecked.push(format!("an access to `{name}` at line {line}, which the memory checks cannot follow"));
                }
            }
            return None;
        };
        let target = *self.targets.get(&res.global)?;
        Some((res, target))
    }

    /// A barrier passed: one more in the invocation's barrier counter (a
    /// private variable, stored with the other counters when it ends).
    pub(crate) fn count_barrier(&self, b: &mut Builder) {
        let counter =
            self.vars.counters[gpu_puzzles_verdict::trace::invocation_counter::BARRIERS as usize];
        let v = b.load_global(counter);
        let v1 = b.add_const(v, 1);
        b.store_global(counter, v1);
    }

    /// After a barrier: the next interval of workgroup memory (or storage).
    pub(crate) fn next_epoch(&self, b: &mut Builder, workgroup_memory: bool) {
        let (var, max) = if workgroup_memory {
            (self.vars.workgroup_epoch, self.layout.workgroup_keys.max_epoch())
        } else {
            match self.layout.storage_keys {
                Some(f) => (self.vars.storage_epoch, f.max_epoch()),
                None => return,
            }
        };
        let e = b.load_global(var);
        let limit = b.lit(max);
        let room = b.bin(BinaryOperator::Less, e, limit);
        b.if_else(
            room,
            |b| {
                let e1 = b.add_const(e, 1);
                b.store_global(var, e1);
            },
            |b| {
                let w = b.lit(header::EPOCH_OVERFLOW as u32);
                let one = b.lit(1);
                b.atomic(self.trace, w, AtomicFunction::Max, one);
            },
        );
    }

    /// `counter += 1; if counter > BUDGET { record; break; }`
    pub(crate) fn loop_guard(&self, b: &mut Builder, id: u32, ptr: Handle<Expression>) {
        let n = b.emit(Expression::Load { pointer: ptr });
        let n1 = b.add_const(n, 1);
        b.stmt(Statement::Store { pointer: ptr, value: n1 });
        let budget = b.lit(LOOP_BUDGET);
        let over = b.bin(BinaryOperator::Greater, n1, budget);
        b.if_(over, |b| {
            let id_v = b.lit(id);
            let w1 = b.lit(header::RUNAWAY_LOOP as u32);
            b.atomic(self.trace, w1, AtomicFunction::Max, id_v);
            let inv = b.load_global(self.vars.invocation);
            let inv1 = b.add_const(inv, 1);
            let w2 = b.lit(header::RUNAWAY_INVOCATION as u32);
            b.atomic(self.trace, w2, AtomicFunction::Max, inv1);
            b.stmt(Statement::Break);
        });
    }
}
