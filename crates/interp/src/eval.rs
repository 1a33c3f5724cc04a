//! Expression pieces shared by constants and invocations: literals,
//! constructors, swizzles and indexing into values.

use crate::value::{Scalar, Value};
use crate::{Program, Stop};
use naga::{Arena, Expression, Handle, Literal, TypeInner};

/// A literal's value.
pub fn literal(l: &Literal) -> Result<Value, Stop> {
    Ok(Value::Scalar(match *l {
        Literal::F32(v) => Scalar::F32(v),
        Literal::I32(v) => Scalar::I32(v),
        Literal::U32(v) => Scalar::U32(v),
        Literal::Bool(v) => Scalar::Bool(v),
        // naga makes abstract literals concrete where they meet a concrete
        // type; a leftover one fits i32 or f32 when it is used as one.
        Literal::AbstractInt(v) => Scalar::I32(
            i32::try_from(v).map_err(|_| Stop::unsupported("an integer literal outside i32"))?,
        ),
        Literal::AbstractFloat(v) => Scalar::F32(v as f32),
        Literal::F16(_) => return Err(Stop::unsupported("`f16`")),
        Literal::F64(_) => return Err(Stop::unsupported("`f64`")),
        Literal::I64(_) | Literal::U64(_) => return Err(Stop::unsupported("64-bit integers")),
        Literal::I16(_) | Literal::U16(_) => return Err(Stop::unsupported("16-bit integers")),
    }))
}

/// A value of type `ty` built from `parts` (`vec4(a.xy, 0, 1)`,
/// `array(…)`, `S(…)`): a vector's parts are flattened into components.
pub fn compose(
    program: &Program,
    ty: Handle<naga::Type>,
    parts: Vec<Value>,
) -> Result<Value, Stop> {
    match &program.module.types[ty].inner {
        TypeInner::Vector { .. } => {
            let mut out = Vec::with_capacity(4);
            for p in parts {
                out.extend(p.components()?);
            }
            Ok(Value::Vector(out))
        }
        _ => Ok(Value::Composite(parts)),
    }
}

/// Component `index` of a vector, or element or member `index` of a
/// composite; `None` when it is out of range.
pub fn index_value(v: &Value, index: u32) -> Result<Option<Value>, Stop> {
    Ok(match v {
        Value::Vector(c) => c.get(index as usize).map(|s| Value::Scalar(*s)),
        Value::Composite(items) => items.get(index as usize).cloned(),
        other => return Err(Stop::internal(format!("indexing into {other:?}"))),
    })
}

/// `v.pattern` for a swizzle of `size` components.
pub fn swizzle(
    v: &Value,
    size: naga::VectorSize,
    pattern: &[naga::SwizzleComponent; 4],
) -> Result<Value, Stop> {
    let c = v.components()?;
    Ok(Value::Vector(pattern[..size as usize].iter().map(|p| c[*p as usize]).collect()))
}

/// `vecN(s)`.
pub fn splat(size: naga::VectorSize, v: &Value) -> Result<Value, Stop> {
    Ok(Value::Vector(vec![v.scalar()?; size as usize]))
}

/// A constant expression's value (module-scope constants and the
/// initializers of `var`s): literals, constants, zero values, constructors
/// and splats, which is what naga leaves after evaluating constants.
pub fn constant(
    program: &Program,
    arena: &Arena<Expression>,
    h: Handle<Expression>,
    constants: &[Value],
) -> Result<Value, Stop> {
    let rec = |h| constant(program, arena, h, constants);
    match &arena[h] {
        Expression::Literal(l) => literal(l),
        Expression::Constant(c) => {
            constants.get(c.index()).cloned().map_or_else(
                || {
                    program.constants.get(c.index()).cloned().ok_or_else(|| {
                        Stop::internal("a constant used before its definition".into())
                    })
                },
                Ok,
            )
        }
        Expression::ZeroValue(ty) => {
            program.layouts.zero(&program.module, &program.module.types[*ty].inner)
        }
        Expression::Compose { ty, components } => {
            let parts = components.iter().map(|c| rec(*c)).collect::<Result<Vec<_>, _>>()?;
            compose(program, *ty, parts)
        }
        Expression::Splat { size, value } => splat(*size, &rec(*value)?),
        Expression::Override(_) => Err(Stop::unsupported("an `override` declaration")),
        other => Err(Stop::unsupported(format!("the constant expression {other:?}"))),
    }
}
