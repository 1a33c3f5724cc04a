//! The synccheck: every `workgroupBarrier()`, `storageBarrier()`,
//! `workgroupUniformLoad()` and subgroup built-in function (`subgroupAdd`,
//! `subgroupBallot`, …; WGSL's `subgroup_uniformity` rule, unless a
//! `diagnostic` directive relaxes it) must be reached in uniform control flow, by
//! every invocation of the workgroup or by none (WGSL § "Uniformity
//! Analysis"). Browsers' compilers (Tint, WebKit's) reject a shader that
//! breaks the rule; naga 30 does not check barriers, so the native runner
//! asks this module, and the command-line tool and the page agree.
//!
//! The analysis follows the specification's model on naga's IR, flow by
//! flow: a value is non-uniform when it comes from `local_invocation_id`,
//! `global_invocation_id`, `local_invocation_index`, a `read_write` storage
//! buffer, workgroup or private memory, or an atomic; a local variable is
//! non-uniform after a non-uniform store or a store in non-uniform control
//! flow; control flow is non-uniform inside an `if`, `switch` or loop whose
//! condition is non-uniform, after a `return`, `break` or `continue` taken
//! by only some invocations, and in a loop that only some invocations
//! leave. Helper functions are summarised: a barrier inside one requires
//! its call sites (and, when the barrier depends on a parameter, that
//! argument) to be uniform. Where it is unsure it errs towards accepting, so
//! it never rejects a shader the specification accepts.

use naga::{
    AddressSpace, Binding, BuiltIn, Expression, Function, Handle, Module, Span, StorageAccess,
    TypeInner,
};
use std::collections::HashMap;

/// A barrier that not every invocation of the workgroup reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NonUniformBarrier {
    /// Line of the barrier (or of the call that leads to it), from 1.
    pub line: usize,
    /// Its column, from 1, in bytes of the substituted text.
    pub column: usize,
    /// Byte offset of the barrier in the substituted text.
    pub offset: usize,
    /// Length of the marked span in bytes.
    pub length: usize,
    /// What was reached: `workgroupBarrier()`, or a call to a function with one.
    pub barrier: String,
    /// Why control flow is not uniform there.
    pub cause: Cause,
    /// The line of the cause, when known.
    pub cause_line: Option<usize>,
}

/// What made control flow non-uniform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// An `if`, `switch` or loop condition that can differ between
    /// invocations.
    Condition,
    /// A `return` that only some invocations take.
    Return,
    /// A `break` or `continue` that only some invocations take.
    Exit,
    /// An argument, passed to a function whose barrier depends on it, that
    /// can differ between invocations.
    Argument,
}

/// Checks every compute entry point of `source` (substituted WGSL).
/// `None` when every barrier is uniform, or when naga cannot parse the
/// shader (the compiler reports that).
pub fn check_barriers(source: &str) -> Option<NonUniformBarrier> {
    let mut text = source.to_string();
    gpu_puzzles_core::wgsl::blank_enables(&mut text);
    check_module(&naga::front::wgsl::parse_str(&text).ok()?, &text)
}

/// [`check_barriers`] on a module already parsed from `source`.
pub(crate) fn check_module(module: &Module, source: &str) -> Option<NonUniformBarrier> {
    let mut summaries: HashMap<Handle<Function>, Summary> = HashMap::new();
    for (h, f) in module.functions.iter() {
        let mut a = Analysis::new(module, f, source, None, &summaries);
        a.run();
        if let Some(e) = a.error {
            return Some(e);
        }
        summaries.insert(h, a.summary);
    }
    for ep in module.entry_points.iter().filter(|e| e.stage == naga::ShaderStage::Compute) {
        let mut a = Analysis::new(module, &ep.function, source, Some(()), &summaries);
        a.run();
        if a.error.is_some() {
            return a.error;
        }
    }
    None
}

/// Uniformity levels: uniform, uniform when the function's arguments are,
/// non-uniform.
const UNIFORM: u8 = 0;
const ARGS: u8 = 1;
const NON_UNIFORM: u8 = 2;

#[derive(Debug, Clone, Copy, PartialEq)]
struct Flow {
    level: u8,
    cause: Cause,
    span: Span,
}

impl Flow {
    const UNIFORM: Flow = Flow { level: UNIFORM, cause: Cause::Condition, span: Span::UNDEFINED };

    fn join(self, other: Flow) -> Flow {
        if other.level > self.level {
            other
        } else {
            self
        }
    }
}

/// What leaves a block early, at the flow where it happens.
#[derive(Debug, Clone, Copy)]
struct Exits {
    breaks: Flow,
    continues: Flow,
    returns: Flow,
}

impl Exits {
    const NONE: Exits =
        Exits { breaks: Flow::UNIFORM, continues: Flow::UNIFORM, returns: Flow::UNIFORM };

    fn join(self, o: Exits) -> Exits {
        Exits {
            breaks: self.breaks.join(o.breaks),
            continues: self.continues.join(o.continues),
            returns: self.returns.join(o.returns),
        }
    }

    fn any(&self) -> Flow {
        self.breaks.join(self.continues).join(self.returns)
    }
}

/// A function as its callers see it.
#[derive(Debug, Clone, Copy, Default)]
struct Summary {
    /// The function reaches a barrier: `Some(UNIFORM)` needs uniform call
    /// sites, `Some(ARGS)` also uniform arguments; with its line.
    barrier: Option<(u8, usize)>,
    /// Level of its result.
    result: u8,
}

struct Analysis<'a> {
    module: &'a Module,
    f: &'a Function,
    source: &'a str,
    entry: bool,
    summaries: &'a HashMap<Handle<Function>, Summary>,
    expr: Vec<Option<u8>>,
    vars: Vec<u8>,
    summary: Summary,
    error: Option<NonUniformBarrier>,
    /// `diagnostic(off, subgroup_uniformity)` (or `warning`, `info`): the
    /// shader asks that subgroup operations in non-uniform control flow be
    /// accepted, as WGSL lets it.
    subgroups_unchecked: bool,
}

impl<'a> Analysis<'a> {
    fn new(
        module: &'a Module,
        f: &'a Function,
        source: &'a str,
        entry: Option<()>,
        summaries: &'a HashMap<Handle<Function>, Summary>,
    ) -> Self {
        Analysis {
            module,
            f,
            source,
            entry: entry.is_some(),
            summaries,
            expr: vec![None; f.expressions.len()],
            vars: vec![UNIFORM; f.local_variables.len()],
            summary: Summary::default(),
            error: None,
            subgroups_unchecked: subgroup_uniformity_relaxed(source),
        }
    }

    fn run(&mut self) {
        // Initialisers: a local's `init` is a uniform constant or an
        // expression evaluated where it is declared (naga stores the latter
        // as a statement).
        for (h, v) in self.f.local_variables.iter() {
            if let Some(init) = v.init {
                self.vars[h.index()] = self.level(init);
            }
        }
        let f = self.f;
        self.block(&f.body, Flow::UNIFORM);
    }

    fn line(&self, span: Span) -> Option<usize> {
        span.is_defined().then(|| span.location(self.source).line_number as usize)
    }

    fn fail(&mut self, span: Span, barrier: String, flow: Flow) {
        if self.error.is_some() {
            return;
        }
        let loc = span.location(self.source);
        self.error = Some(NonUniformBarrier {
            line: loc.line_number as usize,
            column: loc.line_position as usize,
            offset: loc.offset as usize,
            length: loc.length as usize,
            barrier,
            cause: flow.cause,
            cause_line: self.line(flow.span),
        });
    }

    fn argument_level(&self, i: u32) -> u8 {
        if !self.entry {
            return ARGS;
        }
        let arg = &self.f.arguments[i as usize];
        match &arg.binding {
            Some(b) => binding_level(b),
            None => match &self.module.types[arg.ty].inner {
                TypeInner::Struct { members, .. } => members
                    .iter()
                    .map(|m| m.binding.as_ref().map_or(NON_UNIFORM, binding_level))
                    .max()
                    .unwrap_or(UNIFORM),
                _ => NON_UNIFORM,
            },
        }
    }

    fn level(&mut self, h: Handle<Expression>) -> u8 {
        if let Some(l) = self.expr[h.index()] {
            return l;
        }
        let f = self.f;
        let l = match &f.expressions[h] {
            Expression::Literal(_)
            | Expression::Constant(_)
            | Expression::Override(_)
            | Expression::ZeroValue(_) => UNIFORM,
            Expression::GlobalVariable(_)
            | Expression::LocalVariable(_)
            | Expression::ArrayLength(_) => UNIFORM,
            Expression::FunctionArgument(i) => self.argument_level(*i),
            Expression::Load { pointer } => self.load_level(*pointer),
            Expression::Access { base, index } => {
                let (b, i) = (*base, *index);
                self.level(b).max(self.level(i))
            }
            Expression::AccessIndex { base, index } => match (&f.expressions[*base], self.entry) {
                (Expression::FunctionArgument(a), true) => {
                    let arg = &f.arguments[*a as usize];
                    match &self.module.types[arg.ty].inner {
                        TypeInner::Struct { members, .. } => members
                            .get(*index as usize)
                            .and_then(|m| m.binding.as_ref())
                            .map_or(NON_UNIFORM, binding_level),
                        _ => self.argument_level(*a),
                    }
                }
                _ => {
                    let b = *base;
                    self.level(b)
                }
            },
            Expression::Splat { value, .. } => {
                let v = *value;
                self.level(v)
            }
            Expression::Swizzle { vector, .. } => {
                let v = *vector;
                self.level(v)
            }
            Expression::Compose { components, .. } => {
                components.iter().map(|&c| self.level(c)).max().unwrap_or(UNIFORM)
            }
            Expression::Unary { expr, .. } | Expression::As { expr, .. } => {
                let e = *expr;
                self.level(e)
            }
            Expression::Relational { argument, .. } => {
                let a = *argument;
                self.level(a)
            }
            Expression::Binary { left, right, .. } => {
                let (a, b) = (*left, *right);
                self.level(a).max(self.level(b))
            }
            Expression::Select { condition, accept, reject } => {
                let (c, a, r) = (*condition, *accept, *reject);
                self.level(c).max(self.level(a)).max(self.level(r))
            }
            Expression::Math { arg, arg1, arg2, arg3, .. } => {
                let args = [Some(*arg), *arg1, *arg2, *arg3];
                args.into_iter().flatten().map(|a| self.level(a)).max().unwrap_or(UNIFORM)
            }
            Expression::WorkGroupUniformLoadResult { .. } => UNIFORM,
            // Results of calls are set when the call is analysed.
            _ => NON_UNIFORM,
        };
        self.expr[h.index()] = Some(l);
        l
    }

    /// The level of `*pointer`: its indices and what it points into.
    fn load_level(&mut self, pointer: Handle<Expression>) -> u8 {
        let f = self.f;
        let mut cur = pointer;
        let mut level = UNIFORM;
        loop {
            match f.expressions[cur] {
                Expression::Access { base, index } => {
                    level = level.max(self.level(index));
                    cur = base;
                }
                Expression::AccessIndex { base, .. } => cur = base,
                Expression::LocalVariable(v) => return level.max(self.vars[v.index()]),
                Expression::GlobalVariable(g) => {
                    let space = self.module.global_variables[g].space;
                    let root = match space {
                        AddressSpace::Uniform | AddressSpace::Handle => UNIFORM,
                        AddressSpace::Storage { access }
                            if !access.contains(StorageAccess::STORE) =>
                        {
                            UNIFORM
                        }
                        _ => NON_UNIFORM,
                    };
                    return level.max(root);
                }
                Expression::FunctionArgument(i) => return level.max(self.argument_level(i)),
                _ => return NON_UNIFORM,
            }
        }
    }

    /// The local variable a pointer is rooted in, and whether it is the
    /// whole variable.
    fn local_root(&mut self, pointer: Handle<Expression>) -> Option<(usize, bool, u8)> {
        let f = self.f;
        let mut cur = pointer;
        let mut whole = true;
        let mut level = UNIFORM;
        loop {
            match f.expressions[cur] {
                Expression::Access { base, index } => {
                    level = level.max(self.level(index));
                    whole = false;
                    cur = base;
                }
                Expression::AccessIndex { base, .. } => {
                    whole = false;
                    cur = base;
                }
                Expression::LocalVariable(v) => return Some((v.index(), whole, level)),
                _ => return None,
            }
        }
    }

    /// A subgroup built-in function must be called in uniform control flow
    /// (WGSL's `subgroup_uniformity` rule, an error unless a `diagnostic`
    /// directive turns it down).
    fn require_subgroup(&mut self, span: Span, name: &str, flow: Flow) {
        if !self.subgroups_unchecked {
            self.require(span, format!("`{name}()`"), flow);
        }
    }

    fn require(&mut self, span: Span, barrier: String, flow: Flow) {
        match flow.level {
            NON_UNIFORM => self.fail(span, barrier, flow),
            level => {
                let line = self.line(span).unwrap_or(0);
                let need = self.summary.barrier.map_or(level, |(l, _)| l.max(level));
                self.summary.barrier = Some((need, self.summary.barrier.map_or(line, |(_, l)| l)));
            }
        }
    }
}

fn binding_level(b: &Binding) -> u8 {
    match b {
        Binding::BuiltIn(BuiltIn::WorkGroupId | BuiltIn::NumWorkGroups | BuiltIn::SubgroupSize) => {
            UNIFORM
        }
        _ => NON_UNIFORM,
    }
}

mod message;
mod statements;
mod subgroups;
use subgroups::subgroup_uniformity_relaxed;

#[cfg(test)]
mod tests;
