//! One invocation: its built-in values, call stack and private memory, and
//! how it runs one step (one statement) against the shared memory.

use crate::expr::value_pointee;
use crate::layout::Ty;
use crate::lower::Inst;
use crate::value::{Pointer, Scalar, Space, Value};
use crate::{FuncId, Program, Stop};
use gpu_puzzles_verdict::trace::AccessKind;
use naga::{AddressSpace, BuiltIn, Expression, Handle, Span, TypeInner};

mod inst;

/// An invocation's built-in values (WGSL §13.3.1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ids {
    /// `global_invocation_id`.
    pub global: [u32; 3],
    /// `local_invocation_id`.
    pub local: [u32; 3],
    /// `workgroup_id`.
    pub workgroup: [u32; 3],
    /// `num_workgroups`.
    pub num_workgroups: [u32; 3],
    /// `local_invocation_index`.
    pub local_index: u32,
    /// Row-major number over the whole dispatch (x fastest), as
    /// [`gpu_puzzles_verdict::trace::invocation`] numbers invocations.
    pub id: u32,
    /// `subgroup_size`: lanes per subgroup ([`crate::subgroup`]).
    pub subgroup_size: u32,
    /// `subgroup_invocation_id`: `local_index mod subgroup_size`.
    pub subgroup_invocation_id: u32,
    /// `subgroup_id`: `local_index / subgroup_size`.
    pub subgroup_id: u32,
    /// `num_subgroups`: the workgroup's invocations over `subgroup_size`,
    /// rounded up.
    pub num_subgroups: u32,
}

/// Where an invocation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Status {
    /// It has more to run.
    Running,
    /// It waits at a barrier for the rest of its workgroup.
    Waiting,
    /// It returned from the entry point.
    Done,
}

/// One function call in progress.
#[derive(Debug, Clone)]
pub struct Frame {
    /// The function.
    pub func: FuncId,
    /// The next instruction.
    pub pc: usize,
    pub(crate) values: Vec<Option<Value>>,
    locals: Vec<Vec<u32>>,
    pub(crate) args: Vec<Value>,
    /// The caller's expression that receives the result.
    result: Option<Handle<Expression>>,
    loop_counts: Vec<u32>,
}

impl Frame {
    /// The value of expression `h`, if it has been evaluated in this call.
    pub fn value(&self, h: Handle<Expression>) -> Option<&Value> {
        self.values.get(h.index()).and_then(Option::as_ref)
    }

    /// The words of local variable `k`.
    pub fn local(&self, k: usize) -> &[u32] {
        &self.locals[k]
    }
}

/// Memory every invocation of a workgroup shares: storage and uniform
/// buffers (shared by the whole dispatch) and the workgroup's variables.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    /// Storage buffers' words, in the order of [`Memory::bindings`].
    pub storage: Vec<Vec<u32>>,
    /// Uniform buffers' words.
    pub uniforms: Vec<Vec<u32>>,
    /// Workgroup variables' words, by global variable index (empty for
    /// other globals).
    pub workgroup: Vec<Vec<u32>>,
    /// Per global variable index, the buffer a `var<storage>` or
    /// `var<uniform>` is bound to ([`Space::Storage`], [`Space::Uniform`]).
    pub bindings: Vec<Option<Space>>,
}

/// One memory access of a step, for heat maps, the memory checks and the
/// debugger's highlights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Access {
    /// Where.
    pub space: Space,
    /// First byte.
    pub offset: u32,
    /// Bytes accessed.
    pub bytes: u32,
    /// How.
    pub kind: AccessKind,
    /// Set when an index was out of bounds: nothing was accessed.
    pub out_of_bounds: Option<crate::value::OutOfBoundsIndex>,
    /// The statement's span.
    pub span: Span,
}

/// One invocation.
#[derive(Debug, Clone)]
pub struct Invocation {
    /// Its built-in values.
    pub ids: Ids,
    /// Its call stack, the entry point first.
    pub frames: Vec<Frame>,
    /// Its `var<private>` words, by global variable index.
    pub private: Vec<Vec<u32>>,
    /// Running, waiting at a barrier, or done.
    pub status: Status,
    /// Steps run so far.
    pub steps: u64,
    /// What it offers the subgroup operation it waits at, if it waits at one.
    pub(crate) offer: Option<crate::subgroup::Offer>,
    /// What it printed and the dispatch has not collected yet: print
    /// number and values, in the order it printed them.
    pub prints: Vec<(u32, Vec<gpu_puzzles_verdict::print::PrintValue>)>,
    /// Iterations one execution of a loop may run before the run stops with
    /// [`Stop::RunawayLoop`] ([`crate::dispatch::Dispatch::set_loop_budget`]):
    /// [`gpu_puzzles_verdict::trace::LOOP_BUDGET`], the instrumented GPU run's,
    /// unless set.
    pub loop_budget: u32,
    /// Frames of calls that returned, kept so that the next call reuses
    /// their buffers instead of allocating (a helper function called in a
    /// loop would otherwise allocate its expression values on every call).
    spare: Vec<Frame>,
}

/// Frames an invocation keeps for reuse ([`Invocation::spare`]): deeper
/// call stacks than this are rare in a compute shader.
const SPARE_FRAMES: usize = 8;

impl Invocation {
    /// An invocation about to start entry point `entry`.
    ///
    /// # Errors
    /// An entry point argument the interpreter does not provide.
    pub fn new(program: &Program, entry: usize, ids: Ids) -> Result<Invocation, Stop> {
        Invocation::reusing(program, entry, ids, None)
    }

    /// [`Invocation::new`], reusing the buffers of `old` (any invocation:
    /// all of its state is set afresh), so that the workgroups of a
    /// dispatch do not allocate their invocations' state again one after
    /// another.
    ///
    /// # Errors
    /// As [`Invocation::new`].
    pub fn reusing(
        program: &Program,
        entry: usize,
        ids: Ids,
        old: Option<Invocation>,
    ) -> Result<Invocation, Stop> {
        let module = &program.module;
        let (mut private, spare) = match old {
            Some(mut old) => {
                old.spare.append(&mut old.frames);
                old.spare.truncate(SPARE_FRAMES);
                (old.private, old.spare)
            }
            None => (Vec::new(), Vec::new()),
        };
        private.resize(module.global_variables.len(), Vec::new());
        for (h, g) in module.global_variables.iter() {
            let words = &mut private[h.index()];
            words.clear();
            if g.space == AddressSpace::Private {
                words.resize(program.layouts.size(g.ty).div_ceil(4) as usize, 0);
                if let Some(init) = g.init {
                    let v = crate::eval::constant(program, &module.global_expressions, init, &[])?;
                    program.layouts.store(module, words, 0, Ty::Handle(g.ty), &v)?;
                }
            }
        }
        let f = &module.entry_points[entry].function;
        let mut args = Vec::with_capacity(f.arguments.len());
        for a in &f.arguments {
            args.push(match &a.binding {
                Some(naga::Binding::BuiltIn(b)) => builtin(*b, &ids)?,
                Some(naga::Binding::Location { .. }) => {
                    return Err(Stop::unsupported("a `@location` input"))
                }
                None => match &module.types[a.ty].inner {
                    TypeInner::Struct { members, .. } => Value::Composite(
                        members
                            .iter()
                            .map(|m| match &m.binding {
                                Some(naga::Binding::BuiltIn(b)) => builtin(*b, &ids),
                                _ => Err(Stop::unsupported(
                                    "an entry point input that is not a built-in value",
                                )),
                            })
                            .collect::<Result<_, _>>()?,
                    ),
                    _ => return Err(Stop::unsupported("an entry point input without a binding")),
                },
            });
        }
        let mut inv = Invocation {
            ids,
            frames: Vec::new(),
            private,
            status: Status::Running,
            steps: 0,
            offer: None,
            prints: Vec::new(),
            loop_budget: gpu_puzzles_verdict::trace::LOOP_BUDGET,
            spare,
        };
        let mut frame = inv.take_frame();
        frame.args = args;
        inv.push_frame(program, FuncId::Entry(entry as u32), frame, None)?;
        Ok(inv)
    }

    /// A frame to call a function with: a returned call's, whose buffers
    /// are reused, or a new one; its arguments are empty.
    pub(crate) fn take_frame(&mut self) -> Frame {
        let mut frame = self.spare.pop().unwrap_or_else(|| Frame {
            func: FuncId::Entry(0),
            pc: 0,
            values: Vec::new(),
            locals: Vec::new(),
            args: Vec::new(),
            result: None,
            loop_counts: Vec::new(),
        });
        frame.args.clear();
        frame
    }

    /// Keeps a returned call's frame for [`Invocation::take_frame`].
    pub(crate) fn keep_frame(&mut self, frame: Frame) {
        if self.spare.len() < SPARE_FRAMES {
            self.spare.push(frame);
        }
    }

    /// Starts a call of `func` in `frame` (from [`Invocation::take_frame`],
    /// its arguments filled in): every expression unevaluated, loop counts
    /// at 0, local variables zeroed or set to their initialisers.
    fn push_frame(
        &mut self,
        program: &Program,
        func: FuncId,
        mut frame: Frame,
        result: Option<Handle<Expression>>,
    ) -> Result<(), Stop> {
        let f = program.function(func);
        frame.func = func;
        frame.pc = 0;
        frame.result = result;
        frame.values.clear();
        frame.values.resize(f.expressions.len(), None);
        frame.loop_counts.clear();
        frame.loop_counts.resize(program.code(func).loops.len(), 0);
        frame.locals.truncate(f.local_variables.len());
        for (k, (_, l)) in f.local_variables.iter().enumerate() {
            let len = program.layouts.size(l.ty).div_ceil(4) as usize;
            if k == frame.locals.len() {
                frame.locals.push(Vec::new());
            }
            let words = &mut frame.locals[k];
            words.clear();
            words.resize(len, 0);
            if let Some(init) = l.init {
                let v = crate::eval::constant(program, &f.expressions, init, &[])?;
                program.layouts.store(&program.module, words, 0, Ty::Handle(l.ty), &v)?;
            }
        }
        self.frames.push(frame);
        Ok(())
    }

    /// The current instruction's function and index, and its span.
    pub fn position(&self, program: &Program) -> Option<(FuncId, usize, Span)> {
        let f = self.frames.last()?;
        let code = program.code(f.func);
        Some((f.func, f.pc, code.spans.get(f.pc).copied().unwrap_or_default()))
    }

    /// Where a waiting invocation waits: call depth, function and the
    /// barrier's instruction index (two invocations at the same barrier
    /// have the same).
    pub fn barrier(&self) -> Option<(usize, FuncId, usize)> {
        let f = self.frames.last()?;
        (self.status == Status::Waiting)
            .then(|| (self.frames.len(), f.func, f.pc.saturating_sub(1)))
    }

    /// Runs instructions up to and including the next step (a statement
    /// the student wrote), or until the invocation waits at a barrier or
    /// returns. Memory accesses are appended to `accesses`.
    ///
    /// # Errors
    /// A construct the interpreter cannot run, a runaway loop, or an
    /// internal error, placed at the statement.
    pub fn step(
        &mut self,
        program: &Program,
        memory: &mut Memory,
        accesses: &mut Vec<Access>,
    ) -> Result<(), Stop> {
        while self.status == Status::Running {
            let depth = self.frames.len() - 1;
            let frame = &self.frames[depth];
            let code = program.code(frame.func);
            let pc = frame.pc;
            let inst = &code.insts[pc];
            let span = code.spans[pc];
            self.frames[depth].pc += 1;
            self.exec(program, memory, accesses, inst, span).map_err(|e| e.at(span))?;
            if inst.is_step() {
                self.steps += 1;
                break;
            }
        }
        Ok(())
    }

    /// Hands the invocation the result of the subgroup operation it waits
    /// at, and lets it run on.
    pub(crate) fn receive(&mut self, program: &Program, result: Option<Value>) {
        self.offer = None;
        self.status = Status::Running;
        let Some(f) = self.frames.last_mut() else { return };
        let target = match program.code(f.func).insts.get(f.pc.saturating_sub(1)) {
            Some(Inst::Subgroup(op)) => op.result(),
            _ => None,
        };
        if let (Some(h), Some(v)) = (target, result) {
            f.values[h.index()] = Some(v);
        }
    }

    /// The subgroup operation this invocation waits at, if it waits at one.
    pub fn subgroup_wait<'p>(&self, program: &'p Program) -> Option<&'p crate::lower::SubgroupOp> {
        let f = self.frames.last()?;
        match (self.status, program.code(f.func).insts.get(f.pc.saturating_sub(1))) {
            (Status::Waiting, Some(Inst::Subgroup(op))) => Some(op),
            _ => None,
        }
    }

    /// Where the invocation is, as the program counters of its call stack
    /// from the entry point in: two invocations at the same place have the
    /// same, and one earlier in program order compares less.
    pub fn place(&self) -> Vec<usize> {
        self.frames.iter().map(|f| f.pc).collect()
    }

    /// The type a pointer expression points at.
    #[inline]
    pub(crate) fn pointee<'p>(
        &self,
        program: &'p Program,
        pointer: Handle<Expression>,
    ) -> Result<Ty<'p>, Stop> {
        let info = program.function_info(self.frames.last().expect("running").func);
        match &info[pointer].ty {
            naga::proc::TypeResolution::Handle(h) => match &program.module.types[*h].inner {
                TypeInner::Pointer { base, .. } => Ok(Ty::Handle(*base)),
                other => Err(Stop::internal(format!("a pointer of type {other:?}"))),
            },
            naga::proc::TypeResolution::Value(TypeInner::Pointer { base, .. }) => {
                Ok(Ty::Handle(*base))
            }
            naga::proc::TypeResolution::Value(inner @ TypeInner::ValuePointer { .. }) => {
                Ok(value_pointee(inner))
            }
            other => Err(Stop::internal(format!("a pointer of type {other:?}"))),
        }
    }

    /// The words of the region a pointer points into.
    #[inline]
    pub fn region<'m>(&'m self, memory: &'m Memory, space: Space) -> &'m [u32] {
        match space {
            Space::Storage(k) => &memory.storage[k as usize],
            Space::Uniform(k) => &memory.uniforms[k as usize],
            Space::Workgroup(g) => &memory.workgroup[g as usize],
            Space::Private(g) => &self.private[g as usize],
            Space::Function { frame, local } => &self.frames[frame as usize].locals[local as usize],
            Space::Value => &[],
        }
    }

    /// `None` for [`Space::Value`], which no pointer points into.
    fn region_mut<'m>(
        &'m mut self,
        memory: &'m mut Memory,
        space: Space,
    ) -> Option<&'m mut Vec<u32>> {
        Some(match space {
            Space::Storage(k) => &mut memory.storage[k as usize],
            Space::Uniform(k) => &mut memory.uniforms[k as usize],
            Space::Workgroup(g) => &mut memory.workgroup[g as usize],
            Space::Private(g) => &mut self.private[g as usize],
            Space::Function { frame, local } => {
                &mut self.frames[frame as usize].locals[local as usize]
            }
            Space::Value => return None,
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn read(
        &self,
        program: &Program,
        memory: &Memory,
        accesses: &mut Vec<Access>,
        p: Pointer,
        ty: Ty<'_>,
        kind: AccessKind,
        span: Span,
    ) -> Result<Value, Stop> {
        let bytes = program.layouts.size_of(ty);
        accesses.push(Access {
            space: p.space,
            offset: p.offset,
            bytes,
            kind,
            out_of_bounds: p.out_of_bounds,
            span,
        });
        if p.out_of_bounds.is_some() {
            return program.layouts.zero(&program.module, &ty.inner(&program.module));
        }
        program.layouts.load(&program.module, self.region(memory, p.space), p.offset, ty)
    }

    #[allow(clippy::too_many_arguments)]
    fn write(
        &mut self,
        program: &Program,
        memory: &mut Memory,
        accesses: &mut Vec<Access>,
        p: Pointer,
        ty: Ty<'_>,
        v: &Value,
        kind: AccessKind,
        span: Span,
    ) -> Result<(), Stop> {
        let bytes = program.layouts.size_of(ty);
        accesses.push(Access {
            space: p.space,
            offset: p.offset,
            bytes,
            kind,
            out_of_bounds: p.out_of_bounds,
            span,
        });
        if p.out_of_bounds.is_some() {
            return Ok(());
        }
        let words = self
            .region_mut(memory, p.space)
            .ok_or_else(|| Stop::internal("a store into a value".into()))?;
        program.layouts.store(&program.module, words, p.offset, ty, v)
    }
}

/// A built-in input value.
fn builtin(b: BuiltIn, ids: &Ids) -> Result<Value, Stop> {
    let vec3 = |v: [u32; 3]| Value::Vector(v.iter().map(|x| Scalar::U32(*x)).collect());
    Ok(match b {
        BuiltIn::GlobalInvocationId => vec3(ids.global),
        BuiltIn::LocalInvocationId => vec3(ids.local),
        BuiltIn::WorkGroupId => vec3(ids.workgroup),
        BuiltIn::NumWorkGroups => vec3(ids.num_workgroups),
        BuiltIn::LocalInvocationIndex => Value::Scalar(Scalar::U32(ids.local_index)),
        BuiltIn::SubgroupSize => Value::Scalar(Scalar::U32(ids.subgroup_size)),
        BuiltIn::SubgroupInvocationId => Value::Scalar(Scalar::U32(ids.subgroup_invocation_id)),
        BuiltIn::SubgroupId => Value::Scalar(Scalar::U32(ids.subgroup_id)),
        BuiltIn::NumSubgroups => Value::Scalar(Scalar::U32(ids.num_subgroups)),
        other => return Err(Stop::unsupported(format!("the built-in value {other:?}"))),
    })
}

/// `plain`, or [`AccessKind::Atomic`] for a load or store of an atomic
/// (`atomicLoad`, `atomicStore`, which naga represents as a plain load and
/// store): as the instrumentation counts them (a read and a write each),
/// and atomics never race.
#[inline]
pub(crate) fn plain_or_atomic(program: &Program, ty: Ty<'_>, plain: AccessKind) -> AccessKind {
    match ty {
        Ty::Handle(h) if matches!(program.module.types[h].inner, TypeInner::Atomic(_)) => {
            AccessKind::Atomic
        }
        _ => plain,
    }
}
