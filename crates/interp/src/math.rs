//! WGSL's built-in functions on numbers (WGSL §17.5 "Numeric Built-in
//! Functions", §17.3 "Logical Built-in Functions"), in single precision for
//! `f32`. A function the puzzles do not need stops the run with "the
//! debugger cannot run …", never with a wrong value. The data packing and
//! unpacking functions and the packed 4×8-bit dot products are in the
//! private `pack` module.

mod pack;

use crate::value::{Scalar, Value};
use crate::Stop;
use naga::{MathFunction as M, RelationalFunction as R};

/// `all`, `any`, `isNan`, `isInf`.
pub fn relational(fun: R, v: &Value) -> Result<Value, Stop> {
    let bools = || v.components()?.into_iter().map(Scalar::as_bool).collect::<Result<Vec<_>, _>>();
    Ok(match fun {
        R::All => Value::Scalar(Scalar::Bool(bools()?.into_iter().all(|b| b))),
        R::Any => Value::Scalar(Scalar::Bool(bools()?.into_iter().any(|b| b))),
        R::IsNan => v.map(|s| Ok(Scalar::Bool(matches!(s, Scalar::F32(x) if x.is_nan()))))?,
        R::IsInf => v.map(|s| Ok(Scalar::Bool(matches!(s, Scalar::F32(x) if x.is_infinite()))))?,
    })
}

fn f32_of(s: Scalar) -> Result<f32, Stop> {
    match s {
        Scalar::F32(x) => Ok(x),
        other => Err(Stop::internal(format!("expected f32, found {other:?}"))),
    }
}

/// Applies a one-argument float function componentwise.
fn float1(v: &Value, f: impl Fn(f32) -> f32) -> Result<Value, Stop> {
    v.map(|s| Ok(Scalar::F32(f(f32_of(s)?))))
}

/// Sums the products of two vectors' components.
fn dot(a: &Value, b: &Value) -> Result<Scalar, Stop> {
    let (a, b) = (a.components()?, b.components()?);
    let mut acc: Option<Scalar> = None;
    for (x, y) in a.into_iter().zip(b) {
        let p = match (x, y) {
            (Scalar::F32(x), Scalar::F32(y)) => Scalar::F32(x * y),
            (Scalar::I32(x), Scalar::I32(y)) => Scalar::I32(x.wrapping_mul(y)),
            (Scalar::U32(x), Scalar::U32(y)) => Scalar::U32(x.wrapping_mul(y)),
            (x, y) => return Err(Stop::internal(format!("dot of {x:?} and {y:?}"))),
        };
        acc = Some(match (acc, p) {
            (None, p) => p,
            (Some(Scalar::F32(s)), Scalar::F32(p)) => Scalar::F32(s + p),
            (Some(Scalar::I32(s)), Scalar::I32(p)) => Scalar::I32(s.wrapping_add(p)),
            (Some(Scalar::U32(s)), Scalar::U32(p)) => Scalar::U32(s.wrapping_add(p)),
            (Some(s), p) => {
                return Err(Stop::internal(format!("dot accumulating {s:?} and {p:?}")))
            }
        });
    }
    acc.ok_or_else(|| Stop::internal("dot of empty vectors".into()))
}

/// WGSL's `round`: to nearest, ties to even.
fn round_even(x: f32) -> f32 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 {
        2.0 * (x / 2.0).round()
    } else {
        r
    }
}

/// `fun(args)`, componentwise where WGSL says so.
pub fn math(fun: M, args: &[Value]) -> Result<Value, Stop> {
    let a = &args[0];
    let arg = |k: usize| {
        args.get(k).ok_or_else(|| Stop::internal(format!("{fun:?} without argument {k}")))
    };
    Ok(match fun {
        M::Abs => a.map(|s| {
            Ok(match s {
                Scalar::F32(x) => Scalar::F32(x.abs()),
                Scalar::I32(x) => Scalar::I32(x.wrapping_abs()),
                u => u,
            })
        })?,
        M::Min | M::Max => a.zip(arg(1)?, |x, y| {
            let max = fun == M::Max;
            Ok(match (x, y) {
                (Scalar::F32(x), Scalar::F32(y)) => {
                    Scalar::F32(if max { x.max(y) } else { x.min(y) })
                }
                (Scalar::I32(x), Scalar::I32(y)) => {
                    Scalar::I32(if max { x.max(y) } else { x.min(y) })
                }
                (Scalar::U32(x), Scalar::U32(y)) => {
                    Scalar::U32(if max { x.max(y) } else { x.min(y) })
                }
                (x, y) => return Err(Stop::internal(format!("{fun:?} of {x:?} and {y:?}"))),
            })
        })?,
        M::Clamp => {
            let low = math(M::Max, &[a.clone(), arg(1)?.clone()])?;
            math(M::Min, &[low, arg(2)?.clone()])?
        }
        M::Saturate => float1(a, |x| x.clamp(0.0, 1.0))?,
        M::Cos => float1(a, f32::cos)?,
        M::Cosh => float1(a, f32::cosh)?,
        M::Sin => float1(a, f32::sin)?,
        M::Sinh => float1(a, f32::sinh)?,
        M::Tan => float1(a, f32::tan)?,
        M::Tanh => float1(a, f32::tanh)?,
        M::Acos => float1(a, f32::acos)?,
        M::Asin => float1(a, f32::asin)?,
        M::Atan => float1(a, f32::atan)?,
        M::Atan2 => a.zip(arg(1)?, |y, x| Ok(Scalar::F32(f32_of(y)?.atan2(f32_of(x)?))))?,
        M::Asinh => float1(a, f32::asinh)?,
        M::Acosh => float1(a, f32::acosh)?,
        M::Atanh => float1(a, f32::atanh)?,
        M::Radians => float1(a, f32::to_radians)?,
        M::Degrees => float1(a, f32::to_degrees)?,
        M::Ceil => float1(a, f32::ceil)?,
        M::Floor => float1(a, f32::floor)?,
        M::Round => float1(a, round_even)?,
        M::Fract => float1(a, |x| x - x.floor())?,
        M::Trunc => float1(a, f32::trunc)?,
        M::Exp => float1(a, f32::exp)?,
        M::Exp2 => float1(a, f32::exp2)?,
        M::Log => float1(a, f32::ln)?,
        M::Log2 => float1(a, f32::log2)?,
        M::Pow => a.zip(arg(1)?, |x, y| Ok(Scalar::F32(f32_of(x)?.powf(f32_of(y)?))))?,
        M::Sqrt => float1(a, f32::sqrt)?,
        M::InverseSqrt => float1(a, |x| 1.0 / x.sqrt())?,
        M::Sign => a.map(|s| {
            Ok(match s {
                Scalar::F32(x) => Scalar::F32(if x > 0.0 {
                    1.0
                } else if x < 0.0 {
                    -1.0
                } else {
                    0.0
                }),
                Scalar::I32(x) => Scalar::I32(x.signum()),
                other => return Err(Stop::internal(format!("sign of {other:?}"))),
            })
        })?,
        M::Fma => {
            let (b, c) = (arg(1)?.components()?, arg(2)?.components()?);
            let mut k = 0;
            a.map(|x| {
                let r = f32_of(x)?.mul_add(f32_of(b[k])?, f32_of(c[k])?);
                k += 1;
                Ok(Scalar::F32(r))
            })?
        }
        M::Mix => {
            let (y, t) = (arg(1)?.components()?, arg(2)?.components()?);
            let mut k = 0;
            a.map(|x| {
                let t = f32_of(t[k.min(t.len() - 1)])?;
                let (x, y) = (f32_of(x)?, f32_of(y[k])?);
                k += 1;
                Ok(Scalar::F32(x * (1.0 - t) + y * t))
            })?
        }
        M::Step => a.zip(arg(1)?, |edge, x| {
            Ok(Scalar::F32(if f32_of(edge)? <= f32_of(x)? { 1.0 } else { 0.0 }))
        })?,
        M::Dot => Value::Scalar(dot(a, arg(1)?)?),
        M::Length => Value::Scalar(Scalar::F32(f32_of(dot(a, a)?)?.sqrt())),
        M::Distance => {
            let d = crate::value::binary(naga::BinaryOperator::Subtract, a, arg(1)?)?;
            Value::Scalar(Scalar::F32(f32_of(dot(&d, &d)?)?.sqrt()))
        }
        M::Normalize => {
            let len = f32_of(dot(a, a)?)?.sqrt();
            float1(a, |x| x / len)?
        }
        M::Cross => {
            let (x, y) = (a.components()?, arg(1)?.components()?);
            let f = |v: &[Scalar]| v.iter().map(|s| f32_of(*s)).collect::<Result<Vec<_>, _>>();
            let (x, y) = (f(&x)?, f(&y)?);
            Value::Vector(vec![
                Scalar::F32(x[1] * y[2] - x[2] * y[1]),
                Scalar::F32(x[2] * y[0] - x[0] * y[2]),
                Scalar::F32(x[0] * y[1] - x[1] * y[0]),
            ])
        }
        M::CountOneBits => bits(a, |w| w.count_ones())?,
        M::CountLeadingZeros => bits(a, |w| w.leading_zeros())?,
        M::CountTrailingZeros => bits(a, |w| w.trailing_zeros())?,
        M::ReverseBits => bits(a, u32::reverse_bits)?,
        M::FirstTrailingBit => bits(a, |w| if w == 0 { u32::MAX } else { w.trailing_zeros() })?,
        M::FirstLeadingBit => a.map(|s| {
            Ok(match s {
                Scalar::U32(w) => {
                    Scalar::U32(if w == 0 { u32::MAX } else { 31 - w.leading_zeros() })
                }
                Scalar::I32(v) => {
                    // For negative values, the first 0 bit from the top.
                    let w = if v < 0 { !(v as u32) } else { v as u32 };
                    Scalar::I32(if w == 0 { -1 } else { (31 - w.leading_zeros()) as i32 })
                }
                other => return Err(Stop::internal(format!("firstLeadingBit of {other:?}"))),
            })
        })?,
        M::ExtractBits => {
            let offset = arg(1)?.scalar()?.as_index()?.min(32);
            let count = arg(2)?.scalar()?.as_index()?.min(32 - offset);
            a.map(|s| {
                let field = |w: u32| {
                    if count == 0 {
                        0
                    } else {
                        (w >> offset) & (u32::MAX >> (32 - count))
                    }
                };
                Ok(match s {
                    Scalar::U32(w) => Scalar::U32(field(w)),
                    // Signed: the field's top bit is extended.
                    Scalar::I32(v) => Scalar::I32(if count == 0 {
                        0
                    } else {
                        ((field(v as u32) << (32 - count)) as i32) >> (32 - count)
                    }),
                    other => return Err(Stop::internal(format!("extractBits of {other:?}"))),
                })
            })?
        }
        M::InsertBits => {
            let newbits = arg(1)?.components()?;
            let offset = arg(2)?.scalar()?.as_index()?.min(32);
            let count = arg(3)?.scalar()?.as_index()?.min(32 - offset);
            let mask = if count == 0 { 0 } else { (u32::MAX >> (32 - count)) << offset };
            let mut k = 0;
            a.map(|s| {
                let w = (s.to_word() & !mask) | ((newbits[k].to_word() << offset) & mask);
                k += 1;
                Scalar::from_word(s.kind(), w)
            })?
        }
        M::Pack4x8snorm
        | M::Pack4x8unorm
        | M::Pack2x16snorm
        | M::Pack2x16unorm
        | M::Pack2x16float
        | M::Pack4xI8
        | M::Pack4xU8
        | M::Pack4xI8Clamp
        | M::Pack4xU8Clamp
        | M::Unpack4x8snorm
        | M::Unpack4x8unorm
        | M::Unpack2x16snorm
        | M::Unpack2x16unorm
        | M::Unpack2x16float
        | M::Unpack4xI8
        | M::Unpack4xU8
        | M::Dot4I8Packed
        | M::Dot4U8Packed => pack::math(fun, args)?,
        M::Ldexp => a.zip(arg(1)?, |x, e| {
            let e = match e {
                Scalar::I32(e) => e,
                other => return Err(Stop::internal(format!("ldexp exponent {other:?}"))),
            };
            Ok(Scalar::F32(f32_of(x)? * 2f32.powi(e)))
        })?,
        M::Transpose => {
            let Value::Composite(cols) = a else {
                return Err(Stop::internal("transpose of a non-matrix".into()));
            };
            let cols = cols.iter().map(Value::components).collect::<Result<Vec<_>, _>>()?;
            let rows = cols.first().map_or(0, Vec::len);
            Value::Composite(
                (0..rows).map(|r| Value::Vector(cols.iter().map(|c| c[r]).collect())).collect(),
            )
        }
        other => {
            return Err(Stop::unsupported(format!(
                "the built-in function {}",
                format!("{other:?}").to_lowercase()
            )))
        }
    })
}

/// Applies a bit-counting function to every `u32` or `i32` component.
fn bits(v: &Value, f: impl Fn(u32) -> u32) -> Result<Value, Stop> {
    v.map(|s| {
        Ok(match s {
            Scalar::U32(w) => Scalar::U32(f(w)),
            Scalar::I32(w) => Scalar::I32(f(w as u32) as i32),
            other => return Err(Stop::internal(format!("a bit function of {other:?}"))),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_is_to_nearest_even() {
        assert_eq!(
            [0.5, 1.5, 2.5, -0.5, -1.5, 2.4, 2.6].map(round_even),
            [0.0, 2.0, 2.0, -0.0, -2.0, 2.0, 3.0]
        );
    }

    #[test]
    fn extract_bits_extends_the_sign_of_i32() {
        let v = Value::Scalar(Scalar::I32(0b1110_0000));
        let r = math(
            M::ExtractBits,
            &[v, Value::Scalar(Scalar::U32(5)), Value::Scalar(Scalar::U32(3))],
        )
        .unwrap();
        assert_eq!(r, Value::Scalar(Scalar::I32(-1)));
    }
}
