//! Bounds checks outside traced memory: every dynamic index into a
//! function-scope or private variable, a uniform buffer, a pointer
//! argument or a value (a `let` array, a vector, a matrix) is checked
//! against its length where the `Access` expression is evaluated, and
//! counted in a space of its own (no heat map, no racecheck). WGSL counts
//! such an index as out of bounds like any other (WGSL §8.5.3, §14.7), and
//! WebGPU hides it the same way, by clamping.

use crate::access::{checked_length, indexed_name, root};
use crate::builder::Builder;
use crate::rewrite::{Cx, Target};
use gpu_puzzles_verdict::trace::{AccessKind, MemoryKind, SpaceInfo};
use naga::{
    BinaryOperator, Block, Expression, Function, GlobalVariable, Handle, Module, Statement,
};
use std::collections::HashMap;

/// A bounds check the pass adds before an `Access` with a dynamic index
/// into something it does not trace (a function-scope or private variable,
/// a uniform buffer, a value): the index against the length, and nothing
/// else (no heat map, no racecheck).
#[derive(Debug, Clone, Copy)]
pub(crate) struct BoundsCheck {
    /// The space it counts in (after the workgroup variables).
    pub(crate) space: u32,
    /// Elements of the array, vector or matrix indexed.
    pub(crate) length: u32,
    /// How the element is used: a value's is read; a pointer's as the
    /// loads, stores and atomics through it use it.
    pub(crate) kind: AccessKind,
}

/// Finds the `Access` expressions of `f` that need a bounds check of their
/// own: a dynamic index (or a constant one naga cannot prove in bounds)
/// into an array, vector or matrix of known length, not rooted in a traced
/// global (`traced`: those are checked with their whole access chain where
/// they are loaded or stored). Each gets a space, shared by every access
/// that names the same thing ([`indexed_name`]), appended to `spaces` from
/// `first_space` on.
pub(crate) fn plan_bounds_checks(
    module: &Module,
    f: &Function,
    info: &naga::valid::FunctionInfo,
    traced: &HashMap<Handle<GlobalVariable>, Target>,
    first_space: u32,
    spaces: &mut Vec<SpaceInfo>,
) -> HashMap<Handle<Expression>, BoundsCheck> {
    let uses = pointer_uses(f);
    let mut checks = HashMap::new();
    for (h, e) in f.expressions.iter() {
        let Expression::Access { base, index } = *e else { continue };
        if let Expression::GlobalVariable(g) = f.expressions[root(f, base)] {
            if traced.contains_key(&g) {
                continue;
            }
        }
        let Some(length) = checked_length(module, f, info, base, index) else { continue };
        let (name, memory) = indexed_name(module, f, info, base);
        let space = match spaces
            .iter()
            .skip(first_space as usize)
            .position(|s| s.name == name && s.memory == memory && s.elements == length)
        {
            Some(k) => first_space + k as u32,
            None => {
                spaces.push(SpaceInfo {
                    name,
                    memory,
                    element_words: 0,
                    array_word: 0,
                    elements: length,
                    shadow_base: 0,
                    counted_words: 1,
                });
                (spaces.len() - 1) as u32
            }
        };
        let kind = if memory == MemoryKind::Value {
            AccessKind::Read
        } else {
            uses.get(&h).copied().unwrap_or(AccessKind::Read)
        };
        checks.insert(h, BoundsCheck { space, length, kind });
    }
    checks
}

/// How each pointer expression of `f` is used: loaded, stored or used
/// atomically through, directly or through a longer access chain built on
/// it. A pointer used more than one way counts as its strongest use
/// (atomic, then write), as a memory error reports writes before reads.
fn pointer_uses(f: &Function) -> HashMap<Handle<Expression>, AccessKind> {
    fn add(
        uses: &mut HashMap<Handle<Expression>, AccessKind>,
        h: Handle<Expression>,
        kind: AccessKind,
    ) {
        let e = uses.entry(h).or_insert(kind);
        if kind as u8 > *e as u8 {
            *e = kind;
        }
    }
    fn statements(b: &Block, uses: &mut HashMap<Handle<Expression>, AccessKind>) {
        for s in b.iter() {
            match s {
                Statement::Store { pointer, .. } => add(uses, *pointer, AccessKind::Write),
                Statement::Atomic { pointer, .. } => add(uses, *pointer, AccessKind::Atomic),
                Statement::Block(inner) => statements(inner, uses),
                Statement::If { accept, reject, .. } => {
                    statements(accept, uses);
                    statements(reject, uses);
                }
                Statement::Switch { cases, .. } => {
                    cases.iter().for_each(|c| statements(&c.body, uses))
                }
                Statement::Loop { body, continuing, .. } => {
                    statements(body, uses);
                    statements(continuing, uses);
                }
                _ => {}
            }
        }
    }
    let mut uses = HashMap::new();
    for (_, e) in f.expressions.iter() {
        if let Expression::Load { pointer } = *e {
            add(&mut uses, pointer, AccessKind::Read);
        }
    }
    statements(&f.body, &mut uses);
    // A chain's users come after it in the arena: walk it backwards.
    for (h, e) in f.expressions.iter().rev() {
        if let (
            Expression::Access { base, .. } | Expression::AccessIndex { base, .. },
            Some(&kind),
        ) = (e, uses.get(&h))
        {
            add(&mut uses, *base, kind);
        }
    }
    uses
}

impl Cx<'_> {
    /// The statements checking `Access` expression `h` against `check`'s
    /// length, to run just before `h` is evaluated.
    pub(crate) fn bounds_check(
        &mut self,
        f: &mut Function,
        h: Handle<Expression>,
        check: BoundsCheck,
    ) -> Block {
        let Expression::Access { index, .. } = f.expressions[h] else { return Block::new() };
        let site = self.site(f.expressions.get_span(h), check.space, check.kind);
        let mut b = Builder::new(f);
        // As u32, a negative i32 index is huge: out of bounds.
        let idx =
            b.emit(Expression::As { expr: index, kind: naga::ScalarKind::Uint, convert: Some(4) });
        let length = b.lit(check.length);
        let ok = b.bin(BinaryOperator::Less, idx, length);
        let reject = b.block(|b| self.call_oob(b, check.space, check.kind, idx, site));
        b.stmt(Statement::If { condition: ok, accept: Block::new(), reject });
        b.finish()
    }
}
