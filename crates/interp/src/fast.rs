//! Quick evaluation of the commonest expressions an `Emit` evaluates:
//! operators, conversions, scalar loads and indexing through pointers.
//!
//! The general evaluator ([`Invocation::eval`]) looks up each expression's
//! types in naga's analysis every time it runs it, and takes its operands
//! by copy out of the call's value cache. Here, what depends only on the
//! shader (strides, member offsets, the loaded scalar's kind, whether it
//! is an atomic) is worked out once per function ([`plan`]), and operands
//! are read where the cache holds them. Every quick path computes exactly
//! what the general one does, with the same accesses recorded; an operand
//! of another shape than the path expects sends the expression to the
//! general evaluator instead.

use crate::exec::{Access, Invocation, Memory};
use crate::layout::{fixed_count, Layouts, Ty};
use crate::value::{binary, scalar_op, unary, OutOfBoundsIndex, Pointer, Scalar, Value};
use crate::Stop;
use gpu_puzzles_verdict::trace::AccessKind;
use naga::valid::FunctionInfo;
use naga::{Expression, Handle, Module, ScalarKind, Span, TypeInner};

/// How one expression of a function is evaluated quickly, if it can be.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Quick {
    /// By the general evaluator.
    General,
    /// `left op right`.
    Binary { op: naga::BinaryOperator, left: Handle<Expression>, right: Handle<Expression> },
    /// `op expr`.
    Unary { op: naga::UnaryOperator, expr: Handle<Expression> },
    /// A value conversion (`f32(x)`) or `bitcast`.
    As { expr: Handle<Expression>, kind: ScalarKind, convert: bool },
    /// A load of a scalar (4 bytes), read as `access` (a plain read, or an
    /// atomic one for `atomicLoad`).
    Load { pointer: Handle<Expression>, kind: ScalarKind, access: AccessKind },
    /// `base[index]`, or `base.index` with a constant index, through a
    /// pointer to an array whose elements are `stride` bytes apart; its
    /// length is `length`, or, runtime-sized, what fits in the buffer.
    Element { base: Handle<Expression>, index: Index, stride: u32, length: Option<u32> },
    /// `base.member` through a pointer to a structure: the member's byte
    /// offset, and the structure's member count.
    Member { base: Handle<Expression>, index: u32, offset: u32, members: u32 },
    /// `base.x` of a vector value (an in-range component).
    Component { base: Handle<Expression>, index: u32 },
}

/// The index of a [`Quick::Element`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum Index {
    /// A run-time value (`Access`).
    Expr(Handle<Expression>),
    /// A constant (`AccessIndex`).
    Const(u32),
}

/// Each expression's [`Quick`] form, by expression handle.
pub(crate) fn plan(
    module: &Module,
    layouts: &Layouts,
    f: &naga::Function,
    info: &FunctionInfo,
) -> Vec<Quick> {
    f.expressions.iter().map(|(_, e)| quick(module, layouts, info, e)).collect()
}

/// The type a pointer-typed expression points at, when it has a handle.
fn pointee(module: &Module, info: &FunctionInfo, h: Handle<Expression>) -> Option<Ty<'static>> {
    match &info[h].ty {
        naga::proc::TypeResolution::Handle(t) => match module.types[*t].inner {
            TypeInner::Pointer { base, .. } => Some(Ty::Handle(base)),
            _ => None,
        },
        naga::proc::TypeResolution::Value(TypeInner::Pointer { base, .. }) => {
            Some(Ty::Handle(*base))
        }
        naga::proc::TypeResolution::Value(TypeInner::ValuePointer {
            size: None, scalar, ..
        }) => Some(Ty::Scalar(*scalar)),
        _ => None,
    }
}

/// Whether expression `h` is a vector value (not a pointer to one).
fn is_vector(module: &Module, info: &FunctionInfo, h: Handle<Expression>) -> bool {
    matches!(info[h].ty.inner_with(&module.types), TypeInner::Vector { .. })
}

fn quick(module: &Module, layouts: &Layouts, info: &FunctionInfo, e: &Expression) -> Quick {
    match *e {
        Expression::Binary { op, left, right } => Quick::Binary { op, left, right },
        Expression::Unary { op, expr } => Quick::Unary { op, expr },
        Expression::As { expr, kind, convert } => {
            Quick::As { expr, kind, convert: convert.is_some() }
        }
        Expression::Load { pointer } => match pointee(module, info, pointer) {
            Some(Ty::Handle(t)) => match module.types[t].inner {
                TypeInner::Scalar(s) => {
                    Quick::Load { pointer, kind: s.kind, access: AccessKind::Read }
                }
                TypeInner::Atomic(s) => {
                    Quick::Load { pointer, kind: s.kind, access: AccessKind::Atomic }
                }
                _ => Quick::General,
            },
            Some(Ty::Scalar(s)) => Quick::Load { pointer, kind: s.kind, access: AccessKind::Read },
            _ => Quick::General,
        },
        Expression::Access { base, index } => {
            element(module, layouts, info, base, Index::Expr(index))
        }
        Expression::AccessIndex { base, index } => {
            if is_vector(module, info, base) {
                return Quick::Component { base, index };
            }
            match pointee(module, info, base) {
                Some(Ty::Handle(t)) => match &module.types[t].inner {
                    TypeInner::Struct { members, .. } => Quick::Member {
                        base,
                        index,
                        offset: layouts.member_offset(t, index as usize),
                        members: members.len() as u32,
                    },
                    TypeInner::Array { .. } => {
                        element(module, layouts, info, base, Index::Const(index))
                    }
                    _ => Quick::General,
                },
                _ => Quick::General,
            }
        }
        _ => Quick::General,
    }
}

fn element(
    module: &Module,
    layouts: &Layouts,
    info: &FunctionInfo,
    base: Handle<Expression>,
    index: Index,
) -> Quick {
    match pointee(module, info, base) {
        Some(Ty::Handle(t)) => match module.types[t].inner {
            TypeInner::Array { size, .. } => Quick::Element {
                base,
                index,
                stride: layouts.stride(t),
                length: fixed_count(size, module),
            },
            _ => Quick::General,
        },
        _ => Quick::General,
    }
}

impl Invocation {
    /// Makes sure expression `h` of the current call has its value in the
    /// cache (constants, arguments and variables are evaluated on first use).
    #[inline(always)]
    fn ensure(
        &mut self,
        program: &crate::Program,
        memory: &mut Memory,
        accesses: &mut Vec<Access>,
        h: Handle<Expression>,
        span: Span,
    ) -> Result<(), Stop> {
        let depth = self.frames.len() - 1;
        if self.frames[depth].values[h.index()].is_some() {
            return Ok(());
        }
        self.fill(program, memory, accesses, h, span)
    }

    /// The value of expression `h` as `pick` takes it from where the cache
    /// holds it, rather than cloned out of it ([`Invocation::get`]), so
    /// that a scalar or a pointer comes back in registers.
    ///
    /// # Errors
    /// As [`Invocation::get`]; an internal error when `pick` does not take
    /// the value (validation rules out an operand of another type).
    #[inline(always)]
    fn get_as<T>(
        &mut self,
        program: &crate::Program,
        memory: &mut Memory,
        accesses: &mut Vec<Access>,
        h: Handle<Expression>,
        span: Span,
        pick: impl Fn(&Value) -> Option<T>,
    ) -> Result<T, Stop> {
        self.ensure(program, memory, accesses, h, span)?;
        let depth = self.frames.len() - 1;
        let v = self.frames[depth].values[h.index()].as_ref();
        v.and_then(pick).ok_or_else(|| Stop::internal(format!("an operand of another type: {v:?}")))
    }

    /// The scalar value of expression `h` ([`Invocation::get_as`]).
    ///
    /// # Errors
    /// As [`Invocation::get`]; an internal error when it is not a scalar.
    #[inline(always)]
    pub(crate) fn get_scalar(
        &mut self,
        program: &crate::Program,
        memory: &mut Memory,
        accesses: &mut Vec<Access>,
        h: Handle<Expression>,
        span: Span,
    ) -> Result<Scalar, Stop> {
        let pick = |v: &Value| if let Value::Scalar(s) = v { Some(*s) } else { None };
        self.get_as(program, memory, accesses, h, span, pick)
    }

    /// The pointer value of expression `h` ([`Invocation::get_as`]).
    ///
    /// # Errors
    /// As [`Invocation::get`]; an internal error when it is not a pointer.
    #[inline(always)]
    pub(crate) fn get_pointer(
        &mut self,
        program: &crate::Program,
        memory: &mut Memory,
        accesses: &mut Vec<Access>,
        h: Handle<Expression>,
        span: Span,
    ) -> Result<Pointer, Stop> {
        let pick = |v: &Value| if let Value::Pointer(p) = v { Some(*p) } else { None };
        self.get_as(program, memory, accesses, h, span, pick)
    }

    /// [`Invocation::ensure`]'s first use of an expression, kept out of
    /// line: [`Invocation::get`] evaluates and caches it (its copy of the
    /// value is dropped).
    #[cold]
    #[inline(never)]
    fn fill(
        &mut self,
        program: &crate::Program,
        memory: &mut Memory,
        accesses: &mut Vec<Access>,
        h: Handle<Expression>,
        span: Span,
    ) -> Result<(), Stop> {
        self.get(program, memory, accesses, h, span).map(drop)
    }

    /// Evaluates expression `h` by its [`Quick`] form `q` into the call's
    /// value cache: `false` when it has none or its operands do not have
    /// the shape it expects (the caller then evaluates it the general way).
    ///
    /// The value is written straight into its slot of the cache, not
    /// returned: returned, it went through the stack in narrow stores and
    /// came back in wide loads, which the processor cannot forward (a
    /// stalled load on every expression evaluated).
    #[inline]
    // Every arm leaves by `return`, through `put!` or with `false`: one
    // shape for both ways out, where the last arms' would otherwise differ.
    #[allow(clippy::needless_return)]
    pub(crate) fn quick(
        &mut self,
        program: &crate::Program,
        memory: &mut Memory,
        accesses: &mut Vec<Access>,
        q: Quick,
        h: Handle<Expression>,
        span: Span,
    ) -> Result<bool, Stop> {
        let depth = self.frames.len() - 1;
        macro_rules! slot {
            ($h:expr) => {
                self.frames[depth].values[$h.index()].as_ref()
            };
        }
        // Each arm writes its value into the slot itself. A scalar or a
        // pointer over the one a loop's previous iteration left there is
        // written in place, field by field: assigning a whole `Value`
        // assembled it on the stack in narrow stores and copied it in with
        // wide loads, which the processor cannot forward (a stalled load on
        // nearly every expression evaluated).
        macro_rules! put {
            ($v:expr) => {{
                let v = $v;
                self.frames[depth].values[h.index()] = Some(v);
                return Ok(true);
            }};
        }
        macro_rules! put_scalar {
            ($s:expr) => {{
                let s: Scalar = $s;
                match &mut self.frames[depth].values[h.index()] {
                    Some(Value::Scalar(old)) => *old = s,
                    slot => *slot = Some(Value::Scalar(s)),
                }
                return Ok(true);
            }};
        }
        macro_rules! put_pointer {
            ($p:expr) => {{
                let p: Pointer = $p;
                match &mut self.frames[depth].values[h.index()] {
                    Some(Value::Pointer(old)) => *old = p,
                    slot => *slot = Some(Value::Pointer(p)),
                }
                return Ok(true);
            }};
        }
        match q {
            Quick::General => return Ok(false),
            Quick::Binary { op, left, right } => {
                self.ensure(program, memory, accesses, left, span)?;
                self.ensure(program, memory, accesses, right, span)?;
                match (slot!(left), slot!(right)) {
                    // Two scalars: the commonest case, its result in a
                    // register ([`scalar_op`]).
                    (Some(&Value::Scalar(a)), Some(&Value::Scalar(b))) => {
                        match scalar_op(op, a, b) {
                            Some(s) => put_scalar!(s),
                            None => return Ok(false),
                        }
                    }
                    (Some(a), Some(b)) => put!(binary(op, a, b)?),
                    _ => return Ok(false),
                }
            }
            Quick::Unary { op, expr } => {
                self.ensure(program, memory, accesses, expr, span)?;
                match slot!(expr) {
                    Some(v) => put!(unary(op, v)?),
                    None => return Ok(false),
                }
            }
            Quick::As { expr, kind, convert } => {
                self.ensure(program, memory, accesses, expr, span)?;
                match slot!(expr) {
                    Some(v) if convert => put!(v.map(|s| s.convert(kind))?),
                    Some(v) => put!(v.map(|s| s.bitcast(kind))?),
                    None => return Ok(false),
                }
            }
            Quick::Load { pointer, kind, access } => {
                self.ensure(program, memory, accesses, pointer, span)?;
                let Some(&Value::Pointer(p)) = slot!(pointer) else { return Ok(false) };
                accesses.push(Access {
                    space: p.space,
                    offset: p.offset,
                    bytes: 4,
                    kind: access,
                    out_of_bounds: p.out_of_bounds,
                    span,
                });
                // Zero when out of bounds; the kind matched here, so that
                // each arm stores a known variant.
                let word = match p.out_of_bounds {
                    Some(_) => 0,
                    None => self
                        .region(memory, p.space)
                        .get((p.offset / 4) as usize)
                        .copied()
                        .unwrap_or(0),
                };
                match kind {
                    ScalarKind::Float => put_scalar!(Scalar::F32(f32::from_bits(word))),
                    ScalarKind::Uint => put_scalar!(Scalar::U32(word)),
                    ScalarKind::Sint => put_scalar!(Scalar::I32(word as i32)),
                    _ => put_scalar!(Scalar::from_word(kind, word)?),
                }
            }
            Quick::Element { base, index, stride, length } => {
                let i = match index {
                    Index::Const(i) => i,
                    Index::Expr(h) => {
                        self.ensure(program, memory, accesses, h, span)?;
                        match slot!(h) {
                            Some(Value::Scalar(s)) => s.as_index()?,
                            _ => return Ok(false),
                        }
                    }
                };
                self.ensure(program, memory, accesses, base, span)?;
                let Some(&Value::Pointer(p)) = slot!(base) else { return Ok(false) };
                let len = length.unwrap_or_else(|| {
                    (self.region(memory, p.space).len() as u32 * 4).saturating_sub(p.offset)
                        / stride.max(1)
                });
                let func = self.frames[depth].func;
                let out_of_bounds = p.out_of_bounds.or((i >= len).then_some(OutOfBoundsIndex {
                    index: i,
                    length: len,
                    func,
                    base,
                }));
                put_pointer!(Pointer {
                    space: p.space,
                    offset: if out_of_bounds.is_some() {
                        p.offset
                    } else {
                        p.offset + i.wrapping_mul(stride)
                    },
                    out_of_bounds,
                })
            }
            Quick::Member { base, index, offset, members } => {
                self.ensure(program, memory, accesses, base, span)?;
                let Some(&Value::Pointer(p)) = slot!(base) else { return Ok(false) };
                let func = self.frames[depth].func;
                let out_of_bounds = p.out_of_bounds.or((index >= members)
                    .then_some(OutOfBoundsIndex { index, length: members, func, base }));
                put_pointer!(Pointer {
                    space: p.space,
                    offset: if out_of_bounds.is_some() { p.offset } else { p.offset + offset },
                    out_of_bounds,
                })
            }
            Quick::Component { base, index } => {
                self.ensure(program, memory, accesses, base, span)?;
                match slot!(base) {
                    Some(Value::Vector(c)) if (index as usize) < c.len() => {
                        let s = c[index as usize];
                        put_scalar!(s)
                    }
                    _ => return Ok(false),
                }
            }
        }
    }
}
