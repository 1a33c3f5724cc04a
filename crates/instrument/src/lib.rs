//! The instrumentation pass: parse the substituted WGSL with naga, rewrite
//! the IR so that one dispatch records how its invocations touched memory,
//! validate, and write WGSL back for the same device to compile.
//!
//! What the rewritten shader records, in a trace buffer at
//! `@group(0) @binding(TRACE_BINDING)` (layout in
//! [`gpu_puzzles_core::trace`]):
//!
//! - **memcheck**: every load, store and atomic on a storage buffer or a
//!   workgroup variable is followed through its access chain (struct
//!   members, arrays, vectors, matrix columns) to the bytes it touches; an
//!   index at or past any level's bound is counted per space and kind, and
//!   the first few are kept with their invocation and line;
//! - **racecheck**: every non-atomic access to a writable storage buffer or
//!   to workgroup memory updates a shadow word per 4-byte word with
//!   `atomicMax` of a key `workgroup | barrier interval | local index`
//!   ([`gpu_puzzles_core::trace::KeyFormat`]) and looks, with a
//!   read-modify-write on the same shadow word, for an access by another
//!   invocation that nothing orders with it: another workgroup of the same
//!   dispatch, or the same workgroup in the same barrier interval
//!   (`workgroupBarrier` and `workgroupUniformLoad` end an interval of
//!   workgroup memory, `storageBarrier` one of storage). Whichever of two
//!   racing accesses runs second sees the first, so the check does not
//!   depend on the order the GPU chose. Shadows are per dispatch (entry
//!   point), since a dispatch boundary orders everything;
//! - per-element and per-invocation counts for the heat maps;
//! - a budget on every loop's iterations (a function-local counter, which
//!   is uniform wherever the loop is, so loops with barriers are guarded
//!   too without making their barriers non-uniform).
//!
//! Architecture invariant: this crate knows nothing of wgpu or the DOM; the
//! runner compiles and dispatches what it returns.

mod access;
mod builder;
mod uniformity;

pub use uniformity::{check_barriers, NonUniformBarrier};

use access::{outer_array, resolve, Index, Resolved};
use builder::Builder;
use gpu_puzzles_core::trace::{
    hazard_word as hw, header, invocation_counter as ic, race_array as ra, AccessKind, HazardKind, KeyFormat, Site, SpaceInfo, TraceLayout, TraceMeta,
    TraceSpec, HAZARD_RECORDS_PER_KIND, INVOCATION_WORDS, LOOP_BUDGET, OOB_RECORDS_PER_KIND, RACE_ARRAYS, SITE_KEY_BITS,
};
use gpu_puzzles_core::CaseConfig;
use naga::{
    AddressSpace, ArraySize, AtomicFunction, Barrier, BinaryOperator, Binding, Block, BuiltIn, Expression, Function, FunctionArgument, GlobalVariable, Handle,
    Module, ResourceBinding, Scalar, ScalarKind, Span, Statement, StorageAccess, Type, TypeInner,
};
use std::collections::HashMap;

/// The binding of the trace buffer in `@group(0)`; puzzles use lower ones.
pub const TRACE_BINDING: u32 = 15;

/// Words of one access recorded one by one; a larger access (a whole
/// workgroup array copied at once) records its first words and says so.
const MAX_TRACED_WORDS: u32 = 64;

/// An instrumented shader, ready to compile.
#[derive(Debug, Clone)]
pub struct Instrumented {
    /// WGSL written back by naga.
    pub wgsl: String,
    /// What the reader needs to turn the trace into findings.
    pub meta: TraceMeta,
}

/// A storage buffer to trace: its binding and length.
#[derive(Debug, Clone, Copy)]
pub struct Traced {
    /// `@binding(n)` in `@group(0)`.
    pub binding: u32,
    /// 4-byte words in the buffer this case.
    pub len: u32,
}

/// What to instrument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Add the racecheck (shadow memory for writable buffers and workgroup
    /// memory). Off when the trace would not fit the device.
    pub racecheck: bool,
}

/// Instruments `source` (already substituted) for a dispatch of `config`
/// over `buffers` (the puzzle's storage buffers in binding order). Every
/// entry point in `entry_points` is instrumented; the runner dispatches
/// them in order over one trace buffer.
///
/// # Errors
/// Why the pass cannot handle this shader (it does not parse or validate in
/// naga, has no such entry point, or uses the trace's binding). The caller
/// then judges without heat maps or memory checks, and says so.
pub fn instrument(source: &str, buffers: &[Traced], config: &CaseConfig, entry_points: &[&str], options: Options) -> Result<Instrumented, String> {
    let mut module = naga::front::wgsl::parse_str(source).map_err(|e| format!("naga could not parse the shader: {}", e.message()))?;
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::default())
        .validate(&module)
        .map_err(|e| format!("naga could not validate the shader: {}", chain(e.as_inner())))?;
    if module.global_variables.iter().any(|(_, g)| g.binding.as_ref().is_some_and(|b| b.group == 0 && b.binding == TRACE_BINDING)) {
        return Err(format!("the shader uses @binding({TRACE_BINDING}), which the instrumentation needs"));
    }
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).map_err(|e| format!("naga could not lay out the shader's types: {e}"))?;

    // Spaces: the puzzle's storage buffers in binding order, then the
    // workgroup variables in declaration order.
    let mut targets = HashMap::new();
    let mut global_bytes = HashMap::new();
    let mut spaces = Vec::new();
    let mut spec_buffers = Vec::new();
    let mut unchecked = Vec::new();
    for (k, b) in buffers.iter().enumerate() {
        let found = module
            .global_variables
            .iter()
            .find(|(_, g)| matches!(g.space, AddressSpace::Storage { .. }) && g.binding.as_ref().is_some_and(|rb| rb.group == 0 && rb.binding == b.binding));
        let bytes = b.len.saturating_mul(4);
        match found {
            Some((h, g)) => {
                let writable = matches!(g.space, AddressSpace::Storage { access } if access.contains(StorageAccess::STORE));
                let name = g.name.clone().unwrap_or_else(|| format!("binding {}", b.binding));
                let (name, element_words, elements) = match outer_array(&module, g.ty, bytes) {
                    Some((_, stride, n, member)) => (member.map(|m| format!("{name}.{m}")).unwrap_or(name), stride / 4, n),
                    None => (name, 0, b.len),
                };
                spaces.push(SpaceInfo { name, workgroup: false, element_words, elements, shadow_base: 0 });
                spec_buffers.push((b.len, writable && options.racecheck));
                targets.insert(h, Target::Storage { space: k as u32 });
                global_bytes.insert(h, bytes);
            }
            None => {
                spaces.push(SpaceInfo { name: format!("binding {}", b.binding), workgroup: false, element_words: 1, elements: b.len, shadow_base: 0 });
                spec_buffers.push((b.len, false));
            }
        }
    }
    let mut workgroup_words = 0u32;
    let mut workgroup_vars = 0u32;
    for (h, g) in module.global_variables.iter().filter(|(_, g)| g.space == AddressSpace::WorkGroup) {
        let bytes = layouter[g.ty].size;
        let (element_words, elements) = match outer_array(&module, g.ty, bytes) {
            Some((_, stride, n, _)) => (stride / 4, n),
            None => (0, 0),
        };
        let space = spaces.len() as u32;
        spaces.push(SpaceInfo {
            name: g.name.clone().unwrap_or_else(|| "workgroup variable".into()),
            workgroup: true,
            element_words,
            elements,
            shadow_base: workgroup_words,
        });
        targets.insert(h, Target::Workgroup { space, shadow_base: workgroup_words });
        global_bytes.insert(h, bytes);
        workgroup_words += bytes.div_ceil(4);
        workgroup_vars += 1;
    }
    let spec = TraceSpec {
        buffers: spec_buffers,
        workgroup_words: if options.racecheck { workgroup_words } else { 0 },
        workgroup_vars,
        dispatches: entry_points.len() as u32,
    };
    let layout = TraceLayout::new(&spec, config);
    if !options.racecheck {
        unchecked.push("races (the racecheck's shadow memory would not fit this device's buffer limit for this case)".to_string());
    } else if layout.storage_keys.is_none() {
        unchecked.push("races in storage buffers (the dispatch has too many invocations to number)".to_string());
    }

    // Types and globals the rewritten code uses.
    let u32_ty = module.types.insert(Type { name: None, inner: TypeInner::Scalar(U32) }, Span::UNDEFINED);
    let atomic_ty = module.types.insert(Type { name: None, inner: TypeInner::Atomic(U32) }, Span::UNDEFINED);
    let trace_ty = module.types.insert(Type { name: None, inner: TypeInner::Array { base: atomic_ty, size: ArraySize::Dynamic, stride: 4 } }, Span::UNDEFINED);
    let vec3_ty = module.types.insert(Type { name: None, inner: TypeInner::Vector { size: naga::VectorSize::Tri, scalar: U32 } }, Span::UNDEFINED);
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
    let mut private = |name: &str| {
        module.global_variables.append(
            GlobalVariable {
                name: Some(name.into()),
                space: AddressSpace::Private,
                binding: None,
                ty: u32_ty,
                init: None,
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        )
    };
    let vars = Vars {
        invocation: private("gp_invocation"),
        local: private("gp_local"),
        workgroup: private("gp_workgroup"),
        dispatch: private("gp_dispatch"),
        storage_epoch: private("gp_storage_epoch"),
        workgroup_epoch: private("gp_workgroup_epoch"),
        counters: ["gp_global_reads", "gp_global_writes", "gp_workgroup_reads", "gp_workgroup_writes"].map(&mut private),
    };

    // Helper functions first: naga's validator wants a function's callees
    // before it. Placeholders now (their handles go into the pass's state),
    // bodies once the state exists; the shader's own functions follow, and
    // every call to them is renumbered.
    let mut functions = naga::Arena::new();
    let mut placeholder = || functions.append(Function::default(), Span::UNDEFINED);
    let helpers =
        Helpers { hazard: placeholder(), oob: placeholder(), race: [[placeholder(), placeholder()], [placeholder(), placeholder()]], used: Default::default() };
    let mut renumbered = HashMap::new();
    for (old, f, span) in module.functions.drain() {
        renumbered.insert(old, functions.append(f, span));
    }
    module.functions = functions;
    for (_, f) in module.functions.iter_mut() {
        renumber_calls(f, &renumbered);
    }
    for ep in module.entry_points.iter_mut() {
        renumber_calls(&mut ep.function, &renumbered);
    }
    let own_functions: Vec<Handle<Function>> = {
        let mut v: Vec<_> = renumbered.values().copied().collect();
        v.sort_by_key(|h| h.index());
        v
    };

    let mut eps = Vec::with_capacity(entry_points.len());
    for name in entry_points {
        match module.entry_points.iter().position(|e| e.name == *name) {
            Some(ep) => eps.push(ep),
            None => return Err(format!("the shader has no entry point `{name}`")),
        }
    }

    let mut cx = Cx {
        trace,
        u32_ty,
        vars,
        targets,
        global_bytes,
        layout: layout.clone(),
        source,
        sites: vec![Site { line: 0, column: 0 }],
        site_access: vec![(u32::MAX, AccessKind::Read)],
        loop_lines: Vec::new(),
        unchecked,
        racecheck: options.racecheck,
        helpers,
    };
    for h in own_functions {
        let mut f = std::mem::take(&mut module.functions[h]);
        let body = std::mem::take(&mut f.body);
        f.body = cx.rewrite_block(&module, &layouter, &mut f, body);
        module.functions[h] = f;
    }
    for (dispatch, &ep) in eps.iter().enumerate() {
        let mut f = std::mem::take(&mut module.entry_points[ep].function);
        let body = std::mem::take(&mut f.body);
        let body = cx.rewrite_block(&module, &layouter, &mut f, body);
        let mut new_body = cx.prelude(&mut f, &module.types, vec3_ty, u32_ty, config, dispatch as u32);
        for (s, span) in body.span_into_iter() {
            new_body.push(s, span);
        }
        if !matches!(new_body.last(), Some(Statement::Return { .. })) {
            new_body.push(Statement::Return { value: None }, Span::UNDEFINED);
        }
        f.body = cx.store_counters_before_returns(&mut f, new_body);
        module.entry_points[ep].function = f;
    }
    cx.build_helpers(&mut module, u32_ty);

    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::default())
        .validate(&module)
        .map_err(|e| format!("the instrumented shader did not validate ({}); this is a gap in the pass", chain(e.as_inner())))?;
    let wgsl = naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty())
        .map_err(|e| format!("naga could not write the instrumented shader: {e}"))?;
    let meta = TraceMeta {
        layout,
        spaces,
        sites: cx.sites,
        site_access: cx.site_access,
        loop_lines: cx.loop_lines,
        entry_points: entry_points.iter().map(|s| s.to_string()).collect(),
        unchecked: cx.unchecked,
    };
    Ok(Instrumented { wgsl, meta })
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
    Storage { space: u32 },
    Workgroup { space: u32, shadow_base: u32 },
}

/// The private variables the rewritten code keeps per invocation.
struct Vars {
    /// Row-major number over the dispatch.
    invocation: Handle<GlobalVariable>,
    /// `local_invocation_index`.
    local: Handle<GlobalVariable>,
    /// Linear workgroup number.
    workgroup: Handle<GlobalVariable>,
    /// Index of the entry point being dispatched.
    dispatch: Handle<GlobalVariable>,
    /// Barrier interval of storage (from 1).
    storage_epoch: Handle<GlobalVariable>,
    /// Barrier interval of workgroup memory (from 1).
    workgroup_epoch: Handle<GlobalVariable>,
    /// Per-invocation counters, in [`ic`] order.
    counters: [Handle<GlobalVariable>; 4],
}

/// The pass's state while rewriting.
struct Cx<'s> {
    trace: Handle<GlobalVariable>,
    u32_ty: Handle<Type>,
    vars: Vars,
    targets: HashMap<Handle<GlobalVariable>, Target>,
    global_bytes: HashMap<Handle<GlobalVariable>, u32>,
    layout: TraceLayout,
    source: &'s str,
    sites: Vec<Site>,
    site_access: Vec<(u32, AccessKind)>,
    loop_lines: Vec<usize>,
    unchecked: Vec<String>,
    racecheck: bool,
    helpers: Helpers,
}

/// The helper functions the rewritten code calls, so that each access site
/// costs a call rather than the whole check: the shader the device compiles
/// stays small.
struct Helpers {
    /// `gp_hazard(counter, base, space, word, key, other, site, other_site)`.
    hazard: Handle<Function>,
    /// `gp_oob(total, slots, base, space, index, site)`.
    oob: Handle<Function>,
    /// `gp_race_*(region, n, w, key, space, site)`, by [storage, workgroup
    /// memory] and [`RaceSide`].
    race: [[Handle<Function>; 2]; 2],
    /// Which ones the rewritten code calls (the others keep empty bodies).
    used: std::cell::Cell<[bool; 6]>,
}

impl Helpers {
    fn all(&self) -> [Handle<Function>; 6] {
        [self.hazard, self.oob, self.race[0][0], self.race[0][1], self.race[1][0], self.race[1][1]]
    }

    /// Notes that the code calls `f` (and what `f` calls).
    fn mark(&self, f: Handle<Function>) {
        let mut used = self.used.get();
        if let Some(k) = self.all().iter().position(|&h| h == f) {
            used[k] = true;
            if k >= 2 {
                used[0] = true; // the racecheck helpers record hazards
            }
        }
        self.used.set(used);
    }

    fn is_used(&self, f: Handle<Function>) -> bool {
        self.all().iter().position(|&h| h == f).is_some_and(|k| self.used.get()[k])
    }
}

/// Points every call at a function's new handle.
fn renumber_calls(f: &mut Function, renumbered: &HashMap<Handle<Function>, Handle<Function>>) {
    fn block(b: &mut Block, map: &HashMap<Handle<Function>, Handle<Function>>) {
        for s in b.iter_mut() {
            match s {
                Statement::Call { function, .. } => *function = map[function],
                Statement::Block(inner) => block(inner, map),
                Statement::If { accept, reject, .. } => {
                    block(accept, map);
                    block(reject, map);
                }
                Statement::Switch { cases, .. } => cases.iter_mut().for_each(|c| block(&mut c.body, map)),
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
enum RaceSide {
    Read,
    Write,
}

impl Cx<'_> {
    /// Writes the bodies of the helper functions the code calls into their
    /// placeholders (the others stay empty: less for the device to compile).
    fn build_helpers(&self, module: &mut Module, u32_ty: Handle<Type>) {
        let make = |handle: Handle<Function>, name: &str, arity: u32, body: &dyn Fn(&mut Builder, &[Handle<Expression>])| {
            let mut f = Function {
                name: Some(name.into()),
                arguments: (0..arity).map(|i| FunctionArgument { name: Some(format!("p{i}")), ty: u32_ty, binding: None }).collect(),
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
        module.functions[h.oob] = make(h.oob, "gp_oob", 6, &|b, a| self.oob_body(b, a));
        for (wg, formats) in [(0, self.layout.storage_keys), (1, Some(self.layout.workgroup_keys))] {
            for (side, label) in [(RaceSide::Read, "read"), (RaceSide::Write, "write")] {
                let handle = h.race[wg][side as usize];
                let name = format!("gp_race_{label}_{}", if wg == 1 { "workgroup" } else { "storage" });
                module.functions[handle] = make(handle, &name, 6, &|b, a| {
                    // No storage keys (too many invocations): never called.
                    if let Some(format) = formats {
                        self.race_body(b, a[0], a[1], a[2], a[3], format, side, a[4], a[5]);
                    }
                });
            }
        }
    }

    /// Numbers an access site: where it is, what it accesses and how.
    fn site(&mut self, span: Span, target: Target, kind: AccessKind) -> u32 {
        if !span.is_defined() {
            return 0;
        }
        let loc = span.location(self.source);
        let space = match target {
            Target::Storage { space } | Target::Workgroup { space, .. } => space,
        };
        self.sites.push(Site { line: loc.line_number as usize, column: loc.line_position as usize });
        self.site_access.push((space, kind));
        (self.sites.len() - 1) as u32
    }

    fn rewrite_block(&mut self, module: &Module, layouter: &naga::proc::Layouter, f: &mut Function, block: Block) -> Block {
        let mut out = Block::with_capacity(block.len());
        for (stmt, span) in block.span_into_iter() {
            match stmt {
                Statement::Emit(range) => {
                    // Split the range before each traced load, recording it.
                    let mut pending: Vec<Handle<Expression>> = Vec::new();
                    for h in range.clone() {
                        let access = match f.expressions[h] {
                            Expression::Load { pointer } => self.resolve(module, layouter, f, pointer),
                            _ => None,
                        };
                        if let Some((res, target)) = access {
                            if let (Some(&first), Some(&last)) = (pending.first(), pending.last()) {
                                out.push(Statement::Emit(naga::Range::new_from_bounds(first, last)), span);
                            }
                            pending.clear();
                            let kind = if res.atomic { AccessKind::Atomic } else { AccessKind::Read };
                            let site = self.site(f.expressions.get_span(h), target, kind);
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
                        let site = self.site(span, target, kind);
                        let mut b = Builder::new(f);
                        self.record(&mut b, &res, target, kind, site);
                        out.extend_block(b.finish());
                    }
                    out.push(Statement::Store { pointer, value }, span);
                }
                Statement::Atomic { pointer, fun, value, result } => {
                    if let Some((res, target)) = self.resolve(module, layouter, f, pointer) {
                        let site = self.site(span, target, AccessKind::Atomic);
                        let mut b = Builder::new(f);
                        self.record(&mut b, &res, target, AccessKind::Atomic, site);
                        out.extend_block(b.finish());
                    }
                    out.push(Statement::Atomic { pointer, fun, value, result }, span);
                }
                Statement::WorkGroupUniformLoad { pointer, result } => {
                    // A barrier, the load in an interval of its own, a barrier.
                    let mut b = Builder::new(f);
                    self.next_epoch(&mut b, true);
                    if let Some((res, target)) = self.resolve(module, layouter, b.f, pointer) {
                        let site = self.site(span, target, AccessKind::Read);
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
                    if barrier.contains(Barrier::WORK_GROUP) {
                        self.next_epoch(&mut b, true);
                    }
                    if barrier.contains(Barrier::STORAGE) {
                        self.next_epoch(&mut b, false);
                    }
                    out.extend_block(b.finish());
                }
                Statement::Block(inner) => out.push(Statement::Block(self.rewrite_block(module, layouter, f, inner)), span),
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
                    let counter =
                        f.local_variables.append(naga::LocalVariable { name: Some(format!("gp_loop{id}")), ty: self.u32_ty, init: None }, Span::UNDEFINED);
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
                other => out.push(other, span),
            }
        }
        out
    }

    fn resolve(&self, module: &Module, layouter: &naga::proc::Layouter, f: &Function, pointer: Handle<Expression>) -> Option<(Resolved, Target)> {
        let res = resolve(module, layouter, f, pointer, &|g| self.global_bytes.get(&g).copied())?;
        let target = *self.targets.get(&res.global)?;
        Some((res, target))
    }

    /// Statements recording one access, built before the access itself.
    fn record(&mut self, b: &mut Builder, res: &Resolved, target: Target, kind: AccessKind, site: u32) {
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
                Index::Dynamic(h) => b.emit(Expression::As { expr: h, kind: ScalarKind::Uint, convert: Some(4) }),
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
            cx.record_words(b, target, kind, first, words.min(MAX_TRACED_WORDS), site);
        };
        match in_bounds {
            None => accept(self, b),
            Some(cond) => {
                let outer = outer.expect("levels exist");
                let accept_block = b.block(|b| accept(self, b));
                let reject_block = b.block(|b| self.call_oob(b, space, kind, outer, site));
                b.stmt(Statement::If { condition: cond, accept: accept_block, reject: reject_block });
            }
        }
    }

    /// Heat-map counts and the racecheck for `count` words from `first`.
    fn record_words(&mut self, b: &mut Builder, target: Target, kind: AccessKind, first: Handle<Expression>, count: u32, site: u32) {
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
                for lane in 0..count {
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
                    if let (Some(region), Some(key), Some(side), Some(format)) = (region, key, side, self.layout.storage_keys) {
                        let n = self.layout.lens[k];
                        let _ = format;
                        self.call_race(b, false, side, region, n, w, key, space, site);
                    }
                }
            }
            Target::Workgroup { space, shadow_base } => {
                let (Some(side), true) = (side, self.racecheck && self.layout.workgroup_words > 0) else { return };
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
                for lane in 0..count {
                    let w = b.add_const(first, lane as u64);
                    let n = self.layout.workgroup_words as u32;
                    self.call_race(b, true, side, region, n, w, key, space, site);
                }
            }
        }
    }

    /// This access's key: `workgroup | epoch | local` for storage, `epoch |
    /// local` for workgroup memory.
    fn key(&self, b: &mut Builder, workgroup_memory: bool) -> Handle<Expression> {
        let format = if workgroup_memory { self.layout.workgroup_keys } else { self.layout.storage_keys.expect("storage keys") };
        let epoch_var = if workgroup_memory { self.vars.workgroup_epoch } else { self.vars.storage_epoch };
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
    fn unordered(&self, b: &mut Builder, a: Handle<Expression>, key: Handle<Expression>, format: KeyFormat) -> Handle<Expression> {
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
    /// w, key, space, site)`.
    #[allow(clippy::too_many_arguments)]
    fn call_race(
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
    ) {
        let function = self.helpers.race[usize::from(workgroup)][side as usize];
        self.helpers.mark(function);
        let (n, space, site) = (b.lit(n), b.lit(space), b.lit(site));
        b.stmt(Statement::Call { function, arguments: vec![region, n, w, key, space, site], result: None });
    }

    /// A call of the out-of-bounds helper.
    fn call_oob(&self, b: &mut Builder, space: u32, kind: AccessKind, index: Handle<Expression>, site: u32) {
        let args = [
            self.layout.oob_total_word(space as u64, kind) as u32,
            (header::OOB_SLOTS + kind as u64) as u32,
            self.layout.oob_record_word(kind, 0) as u32,
            space,
        ];
        let mut arguments: Vec<Handle<Expression>> = args.iter().map(|&v| b.lit(v)).collect();
        arguments.push(index);
        arguments.push(b.lit(site));
        self.helpers.mark(self.helpers.oob);
        b.stmt(Statement::Call { function: self.helpers.oob, arguments, result: None });
    }

    /// The body of a racecheck helper: one word `w` of a shadowed region of
    /// `n` words per array starting at word `region` of the trace.
    #[allow(clippy::too_many_arguments)]
    fn race_body(
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
        let hazard = |b: &mut Builder, kind: HazardKind, other: Handle<Expression>, site_array: u64| {
            let sa = at(b, site_array);
            let other_site = b.atomic_load(self.trace, sa);
            let counter = b.lit((header::HAZARD_COUNTS + kind as u64) as u32);
            let base = b.lit(self.layout.hazard_record_word(kind, 0) as u32);
            b.stmt(Statement::Call { function: self.helpers.hazard, arguments: vec![counter, base, space, w, key, other, site, other_site], result: None });
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
                let writer = b.atomic_result(self.trace, wr_at, AtomicFunction::InclusiveOr, zero, self.u32_ty);
                let some = b.bin(BinaryOperator::NotEqual, writer, zero);
                let racing = self.unordered(b, writer, key, format);
                let cond = b.bin(BinaryOperator::LogicalAnd, some, racing);
                b.if_(cond, |b| hazard(b, HazardKind::ReadAfterWrite, writer, ra::WRITE_SITE));
                let rs = at(b, ra::READ_SITE);
                b.atomic_store(self.trace, rs, site_word);
            }
            RaceSide::Write => {
                let wr_at = at(b, ra::WRITER);
                let old = b.atomic_result(self.trace, wr_at, AtomicFunction::Max, key, self.u32_ty);
                let some = b.bin(BinaryOperator::NotEqual, old, zero);
                let racing = self.unordered(b, old, key, format);
                let cond = b.bin(BinaryOperator::LogicalAnd, some, racing);
                b.if_else(
                    cond,
                    |b| hazard(b, HazardKind::WriteAfterWrite, old, ra::WRITE_SITE),
                    |b| {
                        let hi_at = at(b, ra::READER_HIGH);
                        let hi = b.atomic_result(self.trace, hi_at, AtomicFunction::InclusiveOr, zero, self.u32_ty);
                        let some = b.bin(BinaryOperator::NotEqual, hi, zero);
                        let racing = self.unordered(b, hi, key, format);
                        let cond = b.bin(BinaryOperator::LogicalAnd, some, racing);
                        b.if_else(
                            cond,
                            |b| hazard(b, HazardKind::WriteAfterRead, hi, ra::READ_SITE),
                            |b| {
                                let lo_at = at(b, ra::READER_LOW);
                                let lo = b.atomic_result(self.trace, lo_at, AtomicFunction::InclusiveOr, zero, self.u32_ty);
                                let some = b.bin(BinaryOperator::NotEqual, lo, zero);
                                let low_mask = b.lit(format.low(0));
                                let reader = b.bin(BinaryOperator::ExclusiveOr, lo, low_mask);
                                let racing = self.unordered(b, reader, key, format);
                                let cond = b.bin(BinaryOperator::LogicalAnd, some, racing);
                                b.if_(cond, |b| hazard(b, HazardKind::WriteAfterRead, reader, ra::READ_SITE));
                            },
                        );
                    },
                );
                let ws = at(b, ra::WRITE_SITE);
                b.atomic_store(self.trace, ws, site_word);
            }
        }
    }

    /// The body of `gp_hazard(counter, base, space, word, key, other, site,
    /// other_site)`: counts a hazard in header word `counter` and, while its
    /// kind has room, records it from trace word `base`.
    fn hazard_body(&self, b: &mut Builder, args: &[Handle<Expression>]) {
        let [counter, base, space, word, key, other, site, other_site] = args[..] else { unreachable!("eight arguments") };
        let one = b.lit(1);
        let slot = b.atomic_result(self.trace, counter, AtomicFunction::Add, one, self.u32_ty);
        let max = b.lit(HAZARD_RECORDS_PER_KIND as u32);
        let room = b.bin(BinaryOperator::Less, slot, max);
        b.if_(room, |b| {
            let words = b.lit(gpu_puzzles_core::trace::HAZARD_RECORD_WORDS as u32);
            let scaled = b.mul(slot, words);
            let at = b.add(scaled, base);
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
    }

    /// The body of `gp_oob(total, slots, base, space, index, site)`: counts
    /// an out-of-bounds access in word `total` and, while its kind has room
    /// (slot counter `slots`), records it from word `base`.
    fn oob_body(&self, b: &mut Builder, args: &[Handle<Expression>]) {
        let [total, slots, base, space, index, site] = args[..] else { unreachable!("six arguments") };
        let one = b.lit(1);
        b.atomic(self.trace, total, AtomicFunction::Add, one);
        let slot = b.atomic_result(self.trace, slots, AtomicFunction::Add, one, self.u32_ty);
        let max = b.lit(OOB_RECORDS_PER_KIND as u32);
        let room = b.bin(BinaryOperator::Less, slot, max);
        b.if_(room, |b| {
            let words = b.lit(gpu_puzzles_core::trace::OOB_RECORD_WORDS as u32);
            let scaled = b.mul(slot, words);
            let at = b.add(scaled, base);
            let inv = b.load_global(self.vars.invocation);
            for (offset, value) in [space, index, inv, site].into_iter().enumerate() {
                let w = b.add_const(at, offset as u64);
                b.atomic_store(self.trace, w, value);
            }
        });
    }

    /// After a barrier: the next interval of workgroup memory (or storage).
    fn next_epoch(&self, b: &mut Builder, workgroup_memory: bool) {
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
    fn loop_guard(&self, b: &mut Builder, id: u32, ptr: Handle<Expression>) {
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

    /// The entry point's first statements: its invocation's numbers, its
    /// dispatch and its first barrier intervals.
    fn prelude(
        &self,
        f: &mut Function,
        types: &naga::UniqueArena<Type>,
        vec3_ty: Handle<Type>,
        u32_ty: Handle<Type>,
        config: &CaseConfig,
        dispatch: u32,
    ) -> Block {
        let gid = builtin(f, types, BuiltIn::GlobalInvocationId, vec3_ty);
        let wid = builtin(f, types, BuiltIn::WorkGroupId, vec3_ty);
        let lidx = builtin(f, types, BuiltIn::LocalInvocationIndex, u32_ty);
        let mut b = Builder::new(f);
        let linear = |b: &mut Builder, (arg, member): (Handle<Expression>, Option<u32>), x: u32, y: u32| {
            let v = match member {
                Some(m) => b.emit(Expression::AccessIndex { base: arg, index: m }),
                None => arg,
            };
            let vx = b.emit(Expression::AccessIndex { base: v, index: 0 });
            let vy = b.emit(Expression::AccessIndex { base: v, index: 1 });
            let vz = b.emit(Expression::AccessIndex { base: v, index: 2 });
            let cx = b.lit(x);
            let cxy = b.lit(x.wrapping_mul(y));
            let ty = b.mul(vy, cx);
            let tz = b.mul(vz, cxy);
            let s = b.add(vx, ty);
            b.add(s, tz)
        };
        // gp_invocation = gid.x + gid.y * X + gid.z * X * Y
        let id = linear(&mut b, gid, config.workgroup_size[0] * config.workgroups[0], config.workgroup_size[1] * config.workgroups[1]);
        b.store_global(self.vars.invocation, id);
        let wg = linear(&mut b, wid, config.workgroups[0], config.workgroups[1]);
        b.store_global(self.vars.workgroup, wg);
        let local = match lidx.1 {
            Some(m) => b.emit(Expression::AccessIndex { base: lidx.0, index: m }),
            None => lidx.0,
        };
        b.store_global(self.vars.local, local);
        let d = b.lit(dispatch);
        b.store_global(self.vars.dispatch, d);
        let one = b.lit(1);
        b.store_global(self.vars.storage_epoch, one);
        b.store_global(self.vars.workgroup_epoch, one);
        b.finish()
    }

    /// Before every `return` of the entry point, adds the private counters
    /// into the invocation's words of the trace (added, so that several
    /// entry points dispatched over one trace sum up).
    fn store_counters_before_returns(&self, f: &mut Function, block: Block) -> Block {
        let mut out = Block::with_capacity(block.len());
        for (stmt, span) in block.span_into_iter() {
            match stmt {
                Statement::Return { value } => {
                    let mut b = Builder::new(f);
                    let inv = b.load_global(self.vars.invocation);
                    let four = b.lit(INVOCATION_WORDS as u32);
                    let scaled = b.mul(inv, four);
                    let first = b.add_const(scaled, self.layout.invocation_base);
                    for (k, &var) in self.vars.counters.iter().enumerate() {
                        let v = b.load_global(var);
                        let w = b.add_const(first, k as u64);
                        b.atomic(self.trace, w, AtomicFunction::Add, v);
                    }
                    out.extend_block(b.finish());
                    out.push(Statement::Return { value }, span);
                }
                Statement::Block(inner) => out.push(Statement::Block(self.store_counters_before_returns(f, inner)), span),
                Statement::If { condition, accept, reject } => {
                    let accept = self.store_counters_before_returns(f, accept);
                    let reject = self.store_counters_before_returns(f, reject);
                    out.push(Statement::If { condition, accept, reject }, span);
                }
                Statement::Switch { selector, cases } => {
                    let cases = cases
                        .into_iter()
                        .map(|mut c| {
                            c.body = self.store_counters_before_returns(f, c.body);
                            c
                        })
                        .collect();
                    out.push(Statement::Switch { selector, cases }, span);
                }
                Statement::Loop { body, continuing, break_if } => {
                    let body = self.store_counters_before_returns(f, body);
                    out.push(Statement::Loop { body, continuing, break_if }, span);
                }
                other => out.push(other, span),
            }
        }
        out
    }
}

/// Finds (or adds) the entry point's argument for `which`: the argument
/// expression, and the struct member holding it when the argument is a
/// struct.
fn builtin(f: &mut Function, types: &naga::UniqueArena<Type>, which: BuiltIn, ty: Handle<Type>) -> (Handle<Expression>, Option<u32>) {
    let is = |b: &Option<Binding>| matches!(b, Some(Binding::BuiltIn(x)) if *x == which);
    for (i, arg) in f.arguments.iter().enumerate() {
        if is(&arg.binding) {
            return (f.expressions.append(Expression::FunctionArgument(i as u32), Span::UNDEFINED), None);
        }
        if let TypeInner::Struct { members, .. } = &types[arg.ty].inner {
            if let Some(m) = members.iter().position(|m| is(&m.binding)) {
                return (f.expressions.append(Expression::FunctionArgument(i as u32), Span::UNDEFINED), Some(m as u32));
            }
        }
    }
    f.arguments.push(FunctionArgument { name: Some(format!("gp_{which:?}").to_lowercase()), ty, binding: Some(Binding::BuiltIn(which)) });
    (f.expressions.append(Expression::FunctionArgument(f.arguments.len() as u32 - 1), Span::UNDEFINED), None)
}

/// Bytes of workgroup memory the shader declares (`var<workgroup>`), laid
/// out as WGSL lays them out (naga's layouter); `None` when naga cannot
/// parse the shader. Some drivers accept more than WebGPU's limit, so the
/// runner checks this itself to give every device the same answer.
pub fn workgroup_memory_bytes(source: &str) -> Option<u64> {
    let module = naga::front::wgsl::parse_str(source).ok()?;
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).ok()?;
    Some(module.global_variables.iter().filter(|(_, g)| g.space == AddressSpace::WorkGroup).map(|(_, g)| layouter[g.ty].size as u64).sum())
}
