//! Expressions: how an invocation evaluates one, against its call's
//! values and the memory, and indexing through pointers with the bounds
//! check that marks (and never follows) an out-of-bounds access.

use crate::eval::{compose, index_value, literal, splat, swizzle};
use crate::exec::{Access, Invocation, Memory};
use crate::layout::Ty;
use crate::value::{binary, unary, OutOfBoundsIndex, Pointer, Scalar, Space, Value};
use crate::{math, Program, Stop};
use gpu_puzzles_verdict::trace::AccessKind;
use naga::{AddressSpace, Expression, Handle, Span, TypeInner};

impl Invocation {
    /// The value of expression `h` in the current call: evaluated by an
    /// `Emit` before, or (constants, arguments, variables) now. Inlined:
    /// called, its result went through memory the caller read back wider
    /// than it was written (a stalled load, 15 % of the interpreter's time).
    #[inline(always)]
    pub(crate) fn get(
        &mut self,
        program: &Program,
        memory: &mut Memory,
        accesses: &mut Vec<Access>,
        h: Handle<Expression>,
        span: Span,
    ) -> Result<Value, Stop> {
        let depth = self.frames.len() - 1;
        if let Some(v) = &self.frames[depth].values[h.index()] {
            return Ok(v.clone());
        }
        let v = self.eval(program, memory, accesses, h, span)?;
        self.frames[depth].values[h.index()] = Some(v.clone());
        Ok(v)
    }

    pub(crate) fn eval(
        &mut self,
        program: &Program,
        memory: &mut Memory,
        accesses: &mut Vec<Access>,
        h: Handle<Expression>,
        span: Span,
    ) -> Result<Value, Stop> {
        let depth = self.frames.len() - 1;
        let func = self.frames[depth].func;
        let f = program.function(func);
        let module = &program.module;
        let info = program.function_info(func);
        macro_rules! get {
            ($e:expr) => {
                self.get(program, memory, accesses, $e, span)?
            };
        }
        Ok(match &f.expressions[h] {
            Expression::Literal(l) => literal(l)?,
            Expression::Constant(c) => program.constant(*c).clone(),
            Expression::ZeroValue(ty) => program.layouts.zero(module, &module.types[*ty].inner)?,
            Expression::Compose { ty, components } => {
                let parts = components
                    .iter()
                    .map(|c| self.get(program, memory, accesses, *c, span))
                    .collect::<Result<Vec<_>, _>>()?;
                compose(program, *ty, parts)?
            }
            Expression::Splat { size, value } => splat(*size, &get!(*value))?,
            Expression::Swizzle { size, vector, pattern } => {
                swizzle(&get!(*vector), *size, pattern)?
            }
            Expression::FunctionArgument(k) => self.frames[depth].args[*k as usize].clone(),
            Expression::GlobalVariable(g) => {
                let space = match module.global_variables[*g].space {
                    AddressSpace::Storage { .. } | AddressSpace::Uniform => memory
                        .bindings
                        .get(g.index())
                        .copied()
                        .flatten()
                        .ok_or_else(|| Stop::internal("an unbound buffer".into()))?,
                    AddressSpace::WorkGroup => Space::Workgroup(g.index() as u32),
                    AddressSpace::Private => Space::Private(g.index() as u32),
                    _ => return Err(Stop::unsupported("a texture, sampler or immediate")),
                };
                Value::Pointer(Pointer { space, offset: 0, out_of_bounds: None })
            }
            Expression::LocalVariable(l) => Value::Pointer(Pointer {
                space: Space::Function { frame: depth as u16, local: l.index() as u16 },
                offset: 0,
                out_of_bounds: None,
            }),
            Expression::Access { base, index } => {
                let i = get!(*index).scalar()?.as_index()?;
                let b = get!(*base);
                let (v, oob) = self.index(program, memory, info, func, *base, i, b)?;
                if let Some(oob) = oob {
                    // A value indexed out of bounds: nothing in memory, but
                    // an out-of-bounds read all the same.
                    accesses.push(Access {
                        space: Space::Value,
                        offset: 0,
                        bytes: 0,
                        kind: AccessKind::Read,
                        out_of_bounds: Some(oob),
                        span,
                    });
                }
                v
            }
            Expression::AccessIndex { base, index } => {
                let b = get!(*base);
                self.index(program, memory, info, func, *base, *index, b)?.0
            }
            Expression::Load { pointer } => {
                let p = get!(*pointer).pointer()?;
                let ty = self.pointee(program, *pointer)?;
                self.read(
                    program,
                    memory,
                    accesses,
                    p,
                    ty,
                    crate::exec::plain_or_atomic(program, ty, AccessKind::Read),
                    span,
                )?
            }
            Expression::Unary { op, expr } => unary(*op, &get!(*expr))?,
            Expression::Binary { op, left, right } => binary(*op, &get!(*left), &get!(*right))?,
            Expression::Select { condition, accept, reject } => {
                let (c, a, r) = (get!(*condition), get!(*accept), get!(*reject));
                match c {
                    Value::Scalar(c) => {
                        if c.as_bool()? {
                            a
                        } else {
                            r
                        }
                    }
                    Value::Vector(c) => {
                        let (a, r) = (a.components()?, r.components()?);
                        Value::Vector(
                            c.iter()
                                .enumerate()
                                .map(|(k, c)| Ok(if c.as_bool()? { a[k] } else { r[k] }))
                                .collect::<Result<_, Stop>>()?,
                        )
                    }
                    other => return Err(Stop::internal(format!("select on {other:?}"))),
                }
            }
            Expression::Relational { fun, argument } => math::relational(*fun, &get!(*argument))?,
            Expression::Math { fun, arg, arg1, arg2, arg3 } => {
                let mut args = vec![get!(*arg)];
                for a in [arg1, arg2, arg3].into_iter().flatten() {
                    args.push(get!(*a));
                }
                math::math(*fun, &args)?
            }
            Expression::As { expr, kind, convert } => {
                let v = get!(*expr);
                match convert {
                    Some(_) => v.map(|s| s.convert(*kind))?,
                    None => v.map(|s| s.bitcast(*kind))?,
                }
            }
            Expression::ArrayLength(pointer) => {
                let p = get!(*pointer).pointer()?;
                let Ty::Handle(array) = self.pointee(program, *pointer)? else {
                    return Err(Stop::internal("arrayLength of a non-array".into()));
                };
                let bytes = self.region(memory, p.space).len() as u32 * 4;
                Value::Scalar(Scalar::U32(
                    bytes.saturating_sub(p.offset) / program.layouts.stride(array).max(1),
                ))
            }
            Expression::CallResult(_)
            | Expression::AtomicResult { .. }
            | Expression::WorkGroupUniformLoadResult { .. }
            | Expression::SubgroupBallotResult
            | Expression::SubgroupOperationResult { .. } => {
                return Err(Stop::internal("a result used before its statement ran".into()))
            }
            Expression::Override(_) => return Err(Stop::unsupported("an `override` declaration")),
            Expression::ImageSample { .. }
            | Expression::ImageLoad { .. }
            | Expression::ImageQuery { .. } => return Err(Stop::unsupported("a texture")),
            Expression::Derivative { .. } => return Err(Stop::unsupported("a derivative")),
            _ => return Err(Stop::unsupported("this expression")),
        })
    }

    /// `base[index]` (or `base.member`): through a pointer, the element's
    /// pointer (out of bounds marked, not followed); of a value, the
    /// element's value, or zero and the index when it is out of bounds.
    #[allow(clippy::too_many_arguments)]
    fn index(
        &self,
        program: &Program,
        memory: &Memory,
        info: &naga::valid::FunctionInfo,
        func: crate::FuncId,
        base: Handle<Expression>,
        index: u32,
        b: Value,
    ) -> Result<(Value, Option<OutOfBoundsIndex>), Stop> {
        let module = &program.module;
        let Value::Pointer(p) = b else {
            return Ok(match index_value(&b, index)? {
                Some(v) => (v, None),
                None => {
                    let (zero, length) = match &b {
                        Value::Vector(c) => (Value::Scalar(Scalar::zero(c[0].kind())?), c.len()),
                        Value::Composite(items) => match items.first() {
                            Some(first) => (zero_like(first), items.len()),
                            None => {
                                return Err(Stop::internal("indexing an empty composite".into()))
                            }
                        },
                        _ => unreachable!("index_value checked the shape"),
                    };
                    (zero, Some(OutOfBoundsIndex { index, length: length as u32, func, base }))
                }
            });
        };
        let pointee = match &info[base].ty {
            naga::proc::TypeResolution::Handle(h) => match &module.types[*h].inner {
                TypeInner::Pointer { base, .. } => Ty::Handle(*base),
                other => return Err(Stop::internal(format!("an access through {other:?}"))),
            },
            naga::proc::TypeResolution::Value(TypeInner::Pointer { base, .. }) => Ty::Handle(*base),
            naga::proc::TypeResolution::Value(inner @ TypeInner::ValuePointer { .. }) => {
                value_pointee(inner)
            }
            other => return Err(Stop::internal(format!("an access through {other:?}"))),
        };
        let handle = pointee.handle();
        let inner = pointee.inner(module);
        let (offset, len) = match &*inner {
            TypeInner::Array { size, .. } => {
                let stride = handle.map_or(4, |h| program.layouts.stride(h));
                let len = crate::layout::fixed_count(*size, module).unwrap_or_else(|| {
                    (self.region(memory, p.space).len() as u32 * 4).saturating_sub(p.offset)
                        / stride.max(1)
                });
                (index.wrapping_mul(stride), len)
            }
            TypeInner::Struct { members, .. } => (
                program.layouts.member_offset(
                    handle.ok_or_else(|| Stop::internal("a structure without a handle".into()))?,
                    index as usize,
                ),
                members.len() as u32,
            ),
            TypeInner::Vector { size, .. } => (4 * index, *size as u32),
            TypeInner::Matrix { columns, rows, .. } => {
                (index.wrapping_mul(crate::layout::column_stride(*rows)), *columns as u32)
            }
            other => return Err(Stop::internal(format!("an access into {other:?}"))),
        };
        let out_of_bounds = p.out_of_bounds.or((index >= len).then_some(OutOfBoundsIndex {
            index,
            length: len,
            func,
            base,
        }));
        Ok((
            Value::Pointer(Pointer {
                space: p.space,
                offset: if out_of_bounds.is_some() { p.offset } else { p.offset + offset },
                out_of_bounds,
            }),
            None,
        ))
    }
}

/// The pointee of a `ValuePointer` (a pointer to a vector component or a
/// vector, which naga gives no type handle).
pub(crate) fn value_pointee(inner: &TypeInner) -> Ty<'static> {
    match inner {
        TypeInner::ValuePointer { size: Some(size), scalar, .. } => Ty::Vector(*size, *scalar),
        TypeInner::ValuePointer { size: None, scalar, .. } => Ty::Scalar(*scalar),
        _ => Ty::Scalar(naga::Scalar::U32),
    }
}

/// A zero of the same shape as `v`.
fn zero_like(v: &Value) -> Value {
    match v {
        Value::Scalar(s) => Value::Scalar(Scalar::zero(s.kind()).unwrap_or(Scalar::U32(0))),
        Value::Vector(c) => Value::Vector(
            c.iter().map(|s| Scalar::zero(s.kind()).unwrap_or(Scalar::U32(0))).collect(),
        ),
        Value::Composite(items) => Value::Composite(items.iter().map(zero_like).collect()),
        Value::Pointer(p) => Value::Pointer(*p),
    }
}
