//! The instrumentation pass: parse the substituted WGSL with naga, rewrite
//! the IR so that one dispatch records how its invocations touched memory,
//! validate, and write WGSL back for the same device to compile.
//!
//! Every load, store and atomic on a traced storage buffer (the puzzle's
//! `@group(0)` buffers) gets, just before it, atomics on a trace buffer
//! (`@group(0) @binding(TRACE_BINDING)`, layout in
//! [`gpu_puzzles_core::trace`]): per-element read and write counts, the
//! smallest and largest writer (two different ones are a write conflict),
//! per-invocation counts, and a record of any index at or past the end.
//! Workgroup-memory accesses count per invocation. Every loop without a
//! barrier in it gets an iteration budget per execution: past it, the loop
//! breaks and records its id. Loops with barriers are left alone, because a
//! data-dependent `break` would make their barriers non-uniform.
//!
//! Architecture invariant: this crate knows nothing of wgpu or the DOM; the
//! runner compiles and dispatches what it returns.

use gpu_puzzles_core::trace::{TraceLayout, HEADER_WORDS, INVOCATION_WORDS, LOOP_BUDGET, MAX_OOB_RECORDS, OOB_RECORD_WORDS};
use gpu_puzzles_core::CaseConfig;
use naga::{
    AddressSpace, ArraySize, AtomicFunction, BinaryOperator, Binding, Block, BuiltIn, Expression, Function, FunctionArgument,
    GlobalVariable, Handle, Literal, ResourceBinding, Scalar, ScalarKind, Span, Statement, StorageAccess, Type, TypeInner,
};
use std::collections::HashMap;

/// The binding of the trace buffer in `@group(0)`; puzzles use lower ones.
pub const TRACE_BINDING: u32 = 15;

/// An instrumented shader, ready to compile.
#[derive(Debug, Clone)]
pub struct Instrumented {
    /// WGSL written back by naga.
    pub wgsl: String,
    /// Where the counters live.
    pub layout: TraceLayout,
    /// Line (in the substituted text, which has the student's lines) of each
    /// guarded loop, by loop id - 1.
    pub loop_lines: Vec<usize>,
}

/// A storage buffer to trace: its binding and element count.
#[derive(Debug, Clone, Copy)]
pub struct Traced {
    /// `@binding(n)` in `@group(0)`.
    pub binding: u32,
    /// Elements in the buffer this case.
    pub len: u32,
}

/// Instruments `source` (already substituted) for a dispatch of `config`
/// over `buffers` (the puzzle's storage buffers in binding order, lengths in
/// 4-byte elements; a buffer the shader declares as `array<vec4<f32>>` is
/// traced per `f32`, each vector access touching four).
///
/// # Errors
/// Why the pass cannot handle this shader (it does not parse or validate in
/// naga, uses a construct the pass does not follow, or has no `main`). The
/// caller then judges without heat maps.
///
/// Every entry point in `entry_points` is instrumented; the runner dispatches
/// them in order over one trace buffer, so counts add up across dispatches.
pub fn instrument(source: &str, buffers: &[Traced], config: &CaseConfig, entry_points: &[&str]) -> Result<Instrumented, String> {
    let mut module = naga::front::wgsl::parse_str(source).map_err(|e| format!("naga could not parse the shader: {}", e.message()))?;
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::default())
        .validate(&module)
        .map_err(|e| format!("naga could not validate the shader: {}", chain(e.as_inner())))?;
    let layout = TraceLayout::new(&buffers.iter().map(|b| b.len).collect::<Vec<_>>(), config);

    let u32_ty = module.types.insert(Type { name: None, inner: TypeInner::Scalar(U32) }, Span::UNDEFINED);
    let atomic_ty = module.types.insert(Type { name: None, inner: TypeInner::Atomic(U32) }, Span::UNDEFINED);
    let trace_ty = module.types.insert(
        Type { name: None, inner: TypeInner::Array { base: atomic_ty, size: ArraySize::Dynamic, stride: 4 } },
        Span::UNDEFINED,
    );
    let vec3_ty = module.types.insert(
        Type { name: None, inner: TypeInner::Vector { size: naga::VectorSize::Tri, scalar: U32 } },
        Span::UNDEFINED,
    );
    if module.global_variables.iter().any(|(_, g)| g.binding.as_ref().is_some_and(|b| b.group == 0 && b.binding == TRACE_BINDING)) {
        return Err(format!("the shader uses @binding({TRACE_BINDING}), which the instrumentation needs"));
    }
    let trace = module.global_variables.append(
        GlobalVariable {
            name: Some("gp_trace".into()),
            space: AddressSpace::Storage { access: StorageAccess::LOAD | StorageAccess::STORE },
            binding: Some(ResourceBinding { group: 0, binding: TRACE_BINDING }),
            ty: trace_ty,
            init: None,
            memory_decorations: Default::default(),
        },
        Span::UNDEFINED,
    );
    let private = |name: &str| GlobalVariable {
        name: Some(name.into()),
        space: AddressSpace::Private,
        binding: None,
        ty: u32_ty,
        init: None,
        memory_decorations: Default::default(),
    };
    let inv_var = module.global_variables.append(private("gp_invocation"), Span::UNDEFINED);
    let counters = ["gp_global_reads", "gp_global_writes", "gp_workgroup_reads", "gp_workgroup_writes"]
        .map(|name| module.global_variables.append(private(name), Span::UNDEFINED));

    // What each global is: a traced storage buffer (by index) or workgroup memory.
    let mut targets = HashMap::new();
    let mut widths = vec![1u32; buffers.len()];
    for (h, g) in module.global_variables.iter() {
        match g.space {
            AddressSpace::Storage { .. } => {
                if let Some(rb) = &g.binding {
                    if let Some(k) = buffers.iter().position(|b| rb.group == 0 && b.binding == rb.binding) {
                        targets.insert(h, Target::Storage(k));
                        if let TypeInner::Array { stride, .. } = module.types[g.ty].inner {
                            widths[k] = (stride / 4).clamp(1, 4);
                        }
                    }
                }
            }
            AddressSpace::WorkGroup => {
                targets.insert(h, Target::Workgroup);
            }
            _ => {}
        }
    }
    let ctx = Ctx { trace, inv_var, counters, u32_ty, targets, layout: layout.clone(), lens: buffers.iter().map(|b| b.len).collect(), widths };
    let mut loop_lines = Vec::new();

    let mut eps = Vec::with_capacity(entry_points.len());
    for name in entry_points {
        match module.entry_points.iter().position(|e| e.name == *name) {
            Some(ep) => eps.push(ep),
            None => return Err(format!("the shader has no entry point `{name}`")),
        }
    }
    for (_, f) in module.functions.iter_mut() {
        rewrite_function(f, &ctx, source, &mut loop_lines)?;
    }
    for ep in eps {
        let f = &mut module.entry_points[ep].function;
        rewrite_function(f, &ctx, source, &mut loop_lines)?;
        let (gid_arg, member) = global_invocation_id(f, vec3_ty, &module.types);
        // gp_invocation = gid.x + gid.y * X + gid.z * X * Y, first thing in main.
        let x = config.workgroup_size[0] * config.workgroups[0];
        let y = config.workgroup_size[1] * config.workgroups[1];
        let mut b = Builder::new(f);
        let gid = match member {
            Some(m) => b.emit(Expression::AccessIndex { base: gid_arg, index: m }),
            None => gid_arg,
        };
        let gx = b.emit(Expression::AccessIndex { base: gid, index: 0 });
        let gy = b.emit(Expression::AccessIndex { base: gid, index: 1 });
        let gz = b.emit(Expression::AccessIndex { base: gid, index: 2 });
        let cx = b.lit(x);
        let cxy = b.lit(x.wrapping_mul(y));
        let ty = b.emit(Expression::Binary { op: BinaryOperator::Multiply, left: gy, right: cx });
        let tz = b.emit(Expression::Binary { op: BinaryOperator::Multiply, left: gz, right: cxy });
        let s1 = b.emit(Expression::Binary { op: BinaryOperator::Add, left: gx, right: ty });
        let id = b.emit(Expression::Binary { op: BinaryOperator::Add, left: s1, right: tz });
        let ptr = b.pre(Expression::GlobalVariable(inv_var));
        b.stmt(Statement::Store { pointer: ptr, value: id });
        let prelude = b.finish();
        let body = std::mem::take(&mut f.body);
        let mut new_body = prelude;
        for (s, span) in body.span_into_iter() {
            new_body.push(s, span);
        }
        if !matches!(new_body.last(), Some(Statement::Return { .. })) {
            new_body.push(Statement::Return { value: None }, Span::UNDEFINED);
        }
        f.body = store_counters_before_returns(f, new_body, &ctx);
    }

    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::default())
        .validate(&module)
        .map_err(|e| format!("the instrumented shader did not validate ({}); this is a gap in the pass", chain(e.as_inner())))?;
    let wgsl = naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty())
        .map_err(|e| format!("naga could not write the instrumented shader: {e}"))?;
    Ok(Instrumented { wgsl, layout, loop_lines })
}

/// An error and its sources, joined: naga's top-level messages are vague.
fn chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut cur = e.source();
    while let Some(s) = cur {
        parts.push(s.to_string());
        cur = s.source();
    }
    parts.join(": ")
}

const U32: Scalar = Scalar { kind: ScalarKind::Uint, width: 4 };

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Storage(usize),
    Workgroup,
}

struct Ctx {
    trace: Handle<GlobalVariable>,
    inv_var: Handle<GlobalVariable>,
    /// Private per-invocation counters: global reads, global writes,
    /// workgroup-memory reads, workgroup-memory writes.
    counters: [Handle<GlobalVariable>; 4],
    u32_ty: Handle<Type>,
    targets: HashMap<Handle<GlobalVariable>, Target>,
    layout: TraceLayout,
    lens: Vec<u32>,
    /// Per traced buffer, 4-byte words per array element as the shader
    /// declares it: 1 for `array<f32>`, 4 for `array<vec4<f32>>`.
    widths: Vec<u32>,
}

/// Finds (or adds) the entry point's `global_invocation_id`: the argument
/// expression, and the struct member holding it when the argument is a
/// struct.
fn global_invocation_id(f: &mut Function, vec3_ty: Handle<Type>, types: &naga::UniqueArena<Type>) -> (Handle<Expression>, Option<u32>) {
    let is_gid = |b: &Option<Binding>| matches!(b, Some(Binding::BuiltIn(BuiltIn::GlobalInvocationId)));
    for (i, arg) in f.arguments.iter().enumerate() {
        if is_gid(&arg.binding) {
            return (f.expressions.append(Expression::FunctionArgument(i as u32), Span::UNDEFINED), None);
        }
        if let TypeInner::Struct { members, .. } = &types[arg.ty].inner {
            if let Some(m) = members.iter().position(|m| is_gid(&m.binding)) {
                return (f.expressions.append(Expression::FunctionArgument(i as u32), Span::UNDEFINED), Some(m as u32));
            }
        }
    }
    f.arguments.push(FunctionArgument {
        name: Some("gp_global_id".into()),
        ty: vec3_ty,
        binding: Some(Binding::BuiltIn(BuiltIn::GlobalInvocationId)),
    });
    (f.expressions.append(Expression::FunctionArgument(f.arguments.len() as u32 - 1), Span::UNDEFINED), None)
}

/// Appends expressions and statements to a function, wrapping emittable
/// expressions in `Emit` statements as naga requires.
struct Builder<'f> {
    f: &'f mut Function,
    out: Block,
    pending: Option<usize>,
}

impl<'f> Builder<'f> {
    fn new(f: &'f mut Function) -> Self {
        Self { f, out: Block::new(), pending: None }
    }

    fn flush(&mut self) {
        if let Some(start) = self.pending.take() {
            let range = self.f.expressions.range_from(start);
            self.out.push(Statement::Emit(range), Span::UNDEFINED);
        }
    }

    /// An expression that must be emitted before use.
    fn emit(&mut self, e: Expression) -> Handle<Expression> {
        if self.pending.is_none() {
            self.pending = Some(self.f.expressions.len());
        }
        self.f.expressions.append(e, Span::UNDEFINED)
    }

    /// An expression that is always in scope (literal, global, argument).
    fn pre(&mut self, e: Expression) -> Handle<Expression> {
        self.flush();
        self.f.expressions.append(e, Span::UNDEFINED)
    }

    fn lit(&mut self, v: u32) -> Handle<Expression> {
        self.pre(Expression::Literal(Literal::U32(v)))
    }

    fn stmt(&mut self, s: Statement) {
        self.flush();
        self.out.push(s, Span::UNDEFINED);
    }

    /// The statements built so far, with any pending `Emit`.
    fn finish(mut self) -> Block {
        self.flush();
        self.out
    }

    fn add(&mut self, left: Handle<Expression>, right: Handle<Expression>) -> Handle<Expression> {
        self.emit(Expression::Binary { op: BinaryOperator::Add, left, right })
    }

    fn mul(&mut self, left: Handle<Expression>, right: Handle<Expression>) -> Handle<Expression> {
        self.emit(Expression::Binary { op: BinaryOperator::Multiply, left, right })
    }

    /// `atomicOp(&gp_trace[word], value)`.
    fn atomic(&mut self, trace: Handle<GlobalVariable>, word: Handle<Expression>, fun: AtomicFunction, value: Handle<Expression>) {
        let base = self.pre(Expression::GlobalVariable(trace));
        let ptr = self.emit(Expression::Access { base, index: word });
        self.stmt(Statement::Atomic { pointer: ptr, fun, value, result: None });
    }

    /// A block built by `f` with a fresh builder on the same function.
    fn block(&mut self, build: impl FnOnce(&mut Builder)) -> Block {
        self.flush();
        let mut inner = Builder { f: &mut *self.f, out: Block::new(), pending: None };
        build(&mut inner);
        inner.finish()
    }
}

/// An access found in the IR: what it touches and the element index.
#[derive(Clone, Copy)]
struct Access {
    target: Target,
    index: Option<Index>,
}

#[derive(Clone, Copy)]
enum Index {
    Dynamic(Handle<Expression>),
    Constant(u32),
}

/// Follows a pointer expression to a traced global: `g[i]`, `g[i].x`,
/// `g[i][j]` (element `i`), or `g` itself (workgroup scalars).
fn resolve(f: &Function, ptr: Handle<Expression>, ctx: &Ctx) -> Option<Access> {
    let mut cur = ptr;
    let mut index = None;
    loop {
        match f.expressions[cur] {
            Expression::Access { base, index: i } => {
                index = Some(Index::Dynamic(i));
                cur = base;
            }
            Expression::AccessIndex { base, index: i } => {
                index = Some(Index::Constant(i));
                cur = base;
            }
            Expression::GlobalVariable(g) => {
                let target = *ctx.targets.get(&g)?;
                return Some(Access { target, index });
            }
            _ => return None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Read,
    Write,
    Atomic,
}

/// Statements recording one access, built before the access itself.
fn record(b: &mut Builder, ctx: &Ctx, access: Access, kind: Kind) {
    let (read_slot, write_slot) = match access.target {
        Target::Storage(_) => (0, 1),
        Target::Workgroup => (2, 3),
    };
    let slots: &[usize] = match kind {
        Kind::Read => &[read_slot],
        Kind::Write => &[write_slot],
        Kind::Atomic => &[read_slot, write_slot],
    };
    for &s in slots {
        // counter += 1, in a private variable: no atomics.
        let ptr = b.pre(Expression::GlobalVariable(ctx.counters[s]));
        let v = b.emit(Expression::Load { pointer: ptr });
        let one = b.lit(1);
        let v1 = b.add(v, one);
        b.stmt(Statement::Store { pointer: ptr, value: v1 });
    }
    let Target::Storage(buf) = access.target else { return };
    let inv_ptr = b.pre(Expression::GlobalVariable(ctx.inv_var));
    let inv = b.emit(Expression::Load { pointer: inv_ptr });
    let Some(index) = access.index else { return };
    let idx = match index {
        Index::Constant(i) => b.lit(i),
        // Indices may be i32: as u32 a negative one is huge, so out of bounds.
        Index::Dynamic(h) => b.emit(Expression::As { expr: h, kind: ScalarKind::Uint, convert: Some(4) }),
    };
    let width = ctx.widths[buf];
    let len = b.lit(ctx.lens[buf] / width);
    let in_bounds = b.emit(Expression::Binary { op: BinaryOperator::Less, left: idx, right: len });
    let accept = b.block(|b| {
        let counters: &[(u64, AtomicFunction)] = match kind {
            Kind::Read => &[(0, AtomicFunction::Add)],
            Kind::Write => &[(1, AtomicFunction::Add), (2, AtomicFunction::Max), (3, AtomicFunction::Max)],
            Kind::Atomic => &[(0, AtomicFunction::Add), (1, AtomicFunction::Add)],
        };
        let first = if width == 1 {
            idx
        } else {
            let w = b.lit(width);
            b.mul(idx, w)
        };
        // A vector element covers `width` words: record each of them.
        for lane in 0..width {
            for &(which, fun) in counters {
                let base = b.lit(ctx.layout.element_word(buf, which, 0) as u32 + lane);
                let w = b.add(base, first);
                let value = match which {
                    0 | 1 => b.lit(1),
                    // The smallest writer as u32::MAX - id, so zeroed words work.
                    2 => {
                        let max = b.lit(u32::MAX);
                        b.emit(Expression::Binary { op: BinaryOperator::Subtract, left: max, right: inv })
                    }
                    _ => inv,
                };
                b.atomic(ctx.trace, w, fun, value);
            }
        }
    });
    let reject = b.block(|b| {
        // slot = atomicAdd(&gp_trace[0], 1); if slot < MAX { record it }.
        let base = b.pre(Expression::GlobalVariable(ctx.trace));
        let zero = b.lit(0);
        let counter = b.emit(Expression::Access { base, index: zero });
        b.flush();
        let one = b.lit(1);
        let slot = b.f.expressions.append(Expression::AtomicResult { ty: ctx.u32_ty, comparison: false }, Span::UNDEFINED);
        b.out.push(Statement::Atomic { pointer: counter, fun: AtomicFunction::Add, value: one, result: Some(slot) }, Span::UNDEFINED);
        let max = b.lit(MAX_OOB_RECORDS as u32);
        let room = b.emit(Expression::Binary { op: BinaryOperator::Less, left: slot, right: max });
        let store = b.block(|b| {
            let rec_words = b.lit(OOB_RECORD_WORDS as u32);
            let header = b.lit(HEADER_WORDS as u32);
            let scaled = b.mul(slot, rec_words);
            let at = b.add(header, scaled);
            let buf_v = b.lit(buf as u32);
            let write_v = b.lit(u32::from(kind != Kind::Read));
            for (k, value) in [buf_v, idx, inv, write_v].into_iter().enumerate() {
                let off = b.lit(k as u32);
                let w = b.add(at, off);
                // The slot is this invocation's alone and starts at 0, so max stores.
                b.atomic(ctx.trace, w, AtomicFunction::Max, value);
            }
        });
        b.stmt(Statement::If { condition: room, accept: store, reject: Block::new() });
    });
    b.stmt(Statement::If { condition: in_bounds, accept, reject });
}

fn rewrite_function(f: &mut Function, ctx: &Ctx, source: &str, loop_lines: &mut Vec<usize>) -> Result<(), String> {
    let body = std::mem::take(&mut f.body);
    f.body = rewrite_block(f, body, ctx, source, loop_lines)?;
    Ok(())
}

fn contains_barrier(block: &Block) -> bool {
    block.iter().any(|s| match s {
        Statement::ControlBarrier(_) | Statement::MemoryBarrier(_) | Statement::WorkGroupUniformLoad { .. } => true,
        Statement::Block(b) => contains_barrier(b),
        Statement::If { accept, reject, .. } => contains_barrier(accept) || contains_barrier(reject),
        Statement::Switch { cases, .. } => cases.iter().any(|c| contains_barrier(&c.body)),
        Statement::Loop { body, continuing, .. } => contains_barrier(body) || contains_barrier(continuing),
        Statement::Call { .. } => true, // a callee may hold a barrier: do not guard
        _ => false,
    })
}

fn rewrite_block(f: &mut Function, block: Block, ctx: &Ctx, source: &str, loop_lines: &mut Vec<usize>) -> Result<Block, String> {
    let mut out = Block::with_capacity(block.len());
    for (stmt, span) in block.span_into_iter() {
        match stmt {
            Statement::Emit(range) => {
                // Split the range before each traced load, recording it.
                let mut pending: Vec<Handle<Expression>> = Vec::new();
                for h in range.clone() {
                    let access = match f.expressions[h] {
                        Expression::Load { pointer } => resolve(f, pointer, ctx),
                        _ => None,
                    };
                    if let Some(access) = access {
                        if let (Some(&first), Some(&last)) = (pending.first(), pending.last()) {
                            out.push(Statement::Emit(naga::Range::new_from_bounds(first, last)), span);
                        }
                        pending.clear();
                        let mut b = Builder::new(f);
                        record(&mut b, ctx, access, Kind::Read);
                        out.extend_block(b.finish());
                    }
                    pending.push(h);
                }
                if let (Some(&first), Some(&last)) = (pending.first(), pending.last()) {
                    out.push(Statement::Emit(naga::Range::new_from_bounds(first, last)), span);
                }
            }
            Statement::Store { pointer, value } => {
                if let Some(access) = resolve(f, pointer, ctx) {
                    let mut b = Builder::new(f);
                    record(&mut b, ctx, access, Kind::Write);
                    out.extend_block(b.finish());
                }
                out.push(Statement::Store { pointer, value }, span);
            }
            Statement::Atomic { pointer, fun, value, result } => {
                if let Some(access) = resolve(f, pointer, ctx) {
                    let mut b = Builder::new(f);
                    record(&mut b, ctx, access, Kind::Atomic);
                    out.extend_block(b.finish());
                }
                out.push(Statement::Atomic { pointer, fun, value, result }, span);
            }
            Statement::Block(b) => out.push(Statement::Block(rewrite_block(f, b, ctx, source, loop_lines)?), span),
            Statement::If { condition, accept, reject } => {
                let accept = rewrite_block(f, accept, ctx, source, loop_lines)?;
                let reject = rewrite_block(f, reject, ctx, source, loop_lines)?;
                out.push(Statement::If { condition, accept, reject }, span);
            }
            Statement::Switch { selector, cases } => {
                let mut new_cases = Vec::with_capacity(cases.len());
                for mut c in cases {
                    c.body = rewrite_block(f, c.body, ctx, source, loop_lines)?;
                    new_cases.push(c);
                }
                out.push(Statement::Switch { selector, cases: new_cases }, span);
            }
            Statement::Loop { body, continuing, break_if } => {
                let guard = !contains_barrier(&body) && !contains_barrier(&continuing);
                let body = rewrite_block(f, body, ctx, source, loop_lines)?;
                let continuing = rewrite_block(f, continuing, ctx, source, loop_lines)?;
                let body = if guard {
                    loop_lines.push(span.location(source).line_number as usize);
                    let id = loop_lines.len() as u32;
                    // A counter per loop, zeroed each time the loop starts.
                    let counter = f.local_variables.append(
                        naga::LocalVariable { name: Some(format!("gp_loop{id}")), ty: ctx.u32_ty, init: None },
                        Span::UNDEFINED,
                    );
                    let mut b = Builder::new(f);
                    let ptr = b.pre(Expression::LocalVariable(counter));
                    let zero = b.lit(0);
                    b.stmt(Statement::Store { pointer: ptr, value: zero });
                    out.extend_block(b.finish());
                    let mut b = Builder::new(f);
                    loop_guard(&mut b, ctx, id, ptr);
                    let mut guarded = b.finish();
                    guarded.extend_block(body);
                    guarded
                } else {
                    body
                };
                out.push(Statement::Loop { body, continuing, break_if }, span);
            }
            other => out.push(other, span),
        }
    }
    Ok(out)
}

/// Before every `return` of the entry point, stores the private counters
/// into the invocation's words of the trace.
fn store_counters_before_returns(f: &mut Function, block: Block, ctx: &Ctx) -> Block {
    let mut out = Block::with_capacity(block.len());
    for (stmt, span) in block.span_into_iter() {
        match stmt {
            Statement::Return { value } => {
                let mut b = Builder::new(f);
                let inv_ptr = b.pre(Expression::GlobalVariable(ctx.inv_var));
                let inv = b.emit(Expression::Load { pointer: inv_ptr });
                let four = b.lit(INVOCATION_WORDS as u32);
                let base = b.lit(ctx.layout.invocation_base as u32);
                let scaled = b.mul(inv, four);
                let first = b.add(base, scaled);
                for (k, &var) in ctx.counters.iter().enumerate() {
                    let ptr = b.pre(Expression::GlobalVariable(var));
                    let v = b.emit(Expression::Load { pointer: ptr });
                    let off = b.lit(k as u32);
                    let w = b.add(first, off);
                    let trace = b.pre(Expression::GlobalVariable(ctx.trace));
                    let target = b.emit(Expression::Access { base: trace, index: w });
                    // Added, not stored: a puzzle with several entry points
                    // dispatches them over one trace, and counts add up.
                    b.stmt(Statement::Atomic { pointer: target, fun: AtomicFunction::Add, value: v, result: None });
                }
                out.extend_block(b.finish());
                out.push(Statement::Return { value }, span);
            }
            Statement::Block(inner) => out.push(Statement::Block(store_counters_before_returns(f, inner, ctx)), span),
            Statement::If { condition, accept, reject } => {
                let accept = store_counters_before_returns(f, accept, ctx);
                let reject = store_counters_before_returns(f, reject, ctx);
                out.push(Statement::If { condition, accept, reject }, span);
            }
            Statement::Switch { selector, cases } => {
                let cases = cases
                    .into_iter()
                    .map(|mut c| {
                        c.body = store_counters_before_returns(f, c.body, ctx);
                        c
                    })
                    .collect();
                out.push(Statement::Switch { selector, cases }, span);
            }
            Statement::Loop { body, continuing, break_if } => {
                let body = store_counters_before_returns(f, body, ctx);
                out.push(Statement::Loop { body, continuing, break_if }, span);
            }
            other => out.push(other, span),
        }
    }
    out
}

/// `counter += 1; if counter > BUDGET { record; break; }`
fn loop_guard(b: &mut Builder, ctx: &Ctx, id: u32, ptr: Handle<Expression>) {
    let n = b.emit(Expression::Load { pointer: ptr });
    let one = b.lit(1);
    let n1 = b.add(n, one);
    b.stmt(Statement::Store { pointer: ptr, value: n1 });
    let budget = b.lit(LOOP_BUDGET);
    let over = b.emit(Expression::Binary { op: BinaryOperator::Greater, left: n1, right: budget });
    let accept = b.block(|b| {
        let id_v = b.lit(id);
        let w1 = b.lit(1);
        b.atomic(ctx.trace, w1, AtomicFunction::Max, id_v);
        let inv_ptr = b.pre(Expression::GlobalVariable(ctx.inv_var));
        let inv = b.emit(Expression::Load { pointer: inv_ptr });
        let one = b.lit(1);
        let inv1 = b.add(inv, one);
        let w2 = b.lit(2);
        b.atomic(ctx.trace, w2, AtomicFunction::Max, inv1);
        b.stmt(Statement::Break);
    });
    b.stmt(Statement::If { condition: over, accept, reject: Block::new() });
}

/// Bytes of workgroup memory the shader declares (`var<workgroup>`), laid
/// out as WGSL lays them out (naga's layouter); `None` when naga cannot
/// parse the shader. Some drivers accept more than WebGPU's limit, so the
/// runner checks this itself to give every device the same answer.
pub fn workgroup_memory_bytes(source: &str) -> Option<u64> {
    let module = naga::front::wgsl::parse_str(source).ok()?;
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).ok()?;
    Some(
        module
            .global_variables
            .iter()
            .filter(|(_, g)| g.space == AddressSpace::WorkGroup)
            .map(|(_, g)| layouter[g.ty].size as u64)
            .sum(),
    )
}
