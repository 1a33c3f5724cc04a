//! Values an invocation computes, and WGSL's operators on them.
//!
//! Arithmetic follows the WGSL specification (§8.7 "Arithmetic
//! Expressions", §8.6 "Bit Expressions", §16.7 "Conversions"): integers wrap
//! in two's complement, an integer division by zero gives the dividend and a
//! remainder by zero gives 0, shift amounts are taken modulo 32, a float to
//! integer conversion rounds toward zero and clamps, and `f32` arithmetic is
//! single precision.

use crate::Stop;
use naga::{BinaryOperator, ScalarKind, UnaryOperator};

/// One scalar value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    /// `bool`.
    Bool(bool),
    /// `i32`.
    I32(i32),
    /// `u32`.
    U32(u32),
    /// `f32`.
    F32(f32),
}

/// A pointer: a place in one memory region, in bytes from the region's
/// start, and the first out-of-bounds index met on the way, if any.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pointer {
    /// Which region.
    pub space: Space,
    /// Bytes from the region's start.
    pub offset: u32,
    /// Set when an index along the access chain was out of its array's
    /// bounds: a load through the pointer gives zero and a store is
    /// dropped, and both are reported (WGSL §14.7 allows either of those or
    /// another element of the same buffer; the judge reports all).
    pub out_of_bounds: Option<OutOfBoundsIndex>,
}

/// An index out of the bounds of the array, vector or matrix it indexes,
/// and where: the `Access` expression's base, by which the checks name what
/// was indexed ([`gpu_puzzles_instrument::indexed_name`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OutOfBoundsIndex {
    /// The index (a negative `i32` one as `u32`, so huge).
    pub index: u32,
    /// Elements of what it indexes.
    pub length: u32,
    /// The function the access is in.
    pub func: crate::FuncId,
    /// The base of the `Access` expression in that function.
    pub base: naga::Handle<naga::Expression>,
}

/// Where a pointer points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Space {
    /// A storage buffer, by its position in [`crate::Bindings::storage`].
    Storage(u32),
    /// A uniform buffer, by its position in [`crate::Bindings::uniforms`].
    Uniform(u32),
    /// A `var<workgroup>`, by global variable index.
    Workgroup(u32),
    /// A `var<private>`, by global variable index.
    Private(u32),
    /// No memory: an array, vector or matrix value (a `let`, an
    /// expression), named only by out-of-bounds accesses, which touch
    /// nothing.
    Value,
    /// A function's `var`: the frame's depth in the call stack and the local
    /// variable's index.
    Function {
        /// Depth in the invocation's call stack, from 0 (the entry point).
        /// 16 bits, like `local`, keep a [`Value`] at 32 bytes: values are
        /// copied at every step of the interpreter.
        frame: u16,
        /// The local variable's index in its function.
        local: u16,
    },
}

/// A value: a scalar, a vector, a composite (array, structure or matrix
/// columns) or a pointer.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A scalar.
    Scalar(Scalar),
    /// A vector of 2 to 4 scalars of one type.
    Vector(Vec<Scalar>),
    /// Array elements, structure members in order, or a matrix's columns.
    Composite(Vec<Value>),
    /// A pointer (or reference).
    Pointer(Pointer),
}

impl Scalar {
    /// The zero of a scalar kind.
    pub fn zero(kind: ScalarKind) -> Result<Scalar, Stop> {
        Ok(match kind {
            ScalarKind::Bool => Scalar::Bool(false),
            ScalarKind::Sint => Scalar::I32(0),
            ScalarKind::Uint => Scalar::U32(0),
            ScalarKind::Float => Scalar::F32(0.0),
            _ => return Err(Stop::unsupported("an abstract numeric type at run time")),
        })
    }

    /// The 32-bit word this scalar occupies in memory (`bool` as 0 or 1).
    pub fn to_word(self) -> u32 {
        match self {
            Scalar::Bool(b) => b as u32,
            Scalar::I32(v) => v as u32,
            Scalar::U32(v) => v,
            Scalar::F32(v) => v.to_bits(),
        }
    }

    /// The scalar of `kind` stored in `word`.
    #[inline]
    pub fn from_word(kind: ScalarKind, word: u32) -> Result<Scalar, Stop> {
        Ok(match kind {
            ScalarKind::Bool => Scalar::Bool(word != 0),
            ScalarKind::Sint => Scalar::I32(word as i32),
            ScalarKind::Uint => Scalar::U32(word),
            ScalarKind::Float => Scalar::F32(f32::from_bits(word)),
            _ => return Err(Stop::unsupported("an abstract numeric type at run time")),
        })
    }

    /// The scalar's kind.
    pub fn kind(self) -> ScalarKind {
        match self {
            Scalar::Bool(_) => ScalarKind::Bool,
            Scalar::I32(_) => ScalarKind::Sint,
            Scalar::U32(_) => ScalarKind::Uint,
            Scalar::F32(_) => ScalarKind::Float,
        }
    }

    /// The value as `bool`, for conditions.
    #[inline]
    pub fn as_bool(self) -> Result<bool, Stop> {
        match self {
            Scalar::Bool(b) => Ok(b),
            other => Err(Stop::internal(format!("a condition of {other:?}"))),
        }
    }

    /// The value as an index: `u32` as it is, `i32` reinterpreted (a
    /// negative index is then far out of bounds, as WGSL's unsigned
    /// comparison of indices treats it).
    #[inline]
    pub fn as_index(self) -> Result<u32, Stop> {
        match self {
            Scalar::U32(v) => Ok(v),
            Scalar::I32(v) => Ok(v as u32),
            other => Err(Stop::internal(format!("an index of {other:?}"))),
        }
    }

    /// Converts to `kind` as WGSL's value conversions do (§16.7): a float
    /// to an integer rounds toward zero and saturates (NaN gives 0), `bool`
    /// gives 0 or 1, and a number gives `bool` when it is not zero.
    pub fn convert(self, kind: ScalarKind) -> Result<Scalar, Stop> {
        Ok(match (self, kind) {
            (Scalar::Bool(b), ScalarKind::Bool) => Scalar::Bool(b),
            (Scalar::Bool(b), ScalarKind::Sint) => Scalar::I32(b as i32),
            (Scalar::Bool(b), ScalarKind::Uint) => Scalar::U32(b as u32),
            (Scalar::Bool(b), ScalarKind::Float) => Scalar::F32(b as u32 as f32),
            (Scalar::I32(v), ScalarKind::Bool) => Scalar::Bool(v != 0),
            (Scalar::I32(v), ScalarKind::Sint) => Scalar::I32(v),
            (Scalar::I32(v), ScalarKind::Uint) => Scalar::U32(v as u32),
            (Scalar::I32(v), ScalarKind::Float) => Scalar::F32(v as f32),
            (Scalar::U32(v), ScalarKind::Bool) => Scalar::Bool(v != 0),
            (Scalar::U32(v), ScalarKind::Sint) => Scalar::I32(v as i32),
            (Scalar::U32(v), ScalarKind::Uint) => Scalar::U32(v),
            (Scalar::U32(v), ScalarKind::Float) => Scalar::F32(v as f32),
            (Scalar::F32(v), ScalarKind::Bool) => Scalar::Bool(v != 0.0),
            // Rust's `as` rounds toward zero, saturates and maps NaN to 0.
            (Scalar::F32(v), ScalarKind::Sint) => Scalar::I32(v as i32),
            (Scalar::F32(v), ScalarKind::Uint) => Scalar::U32(v as u32),
            (Scalar::F32(v), ScalarKind::Float) => Scalar::F32(v),
            (_, _) => return Err(Stop::unsupported("an abstract numeric type at run time")),
        })
    }

    /// Reinterprets the bits as `kind` (`bitcast`).
    pub fn bitcast(self, kind: ScalarKind) -> Result<Scalar, Stop> {
        Scalar::from_word(kind, self.to_word())
    }
}

impl Value {
    /// The scalar, or an internal error for anything else.
    #[inline]
    pub fn scalar(&self) -> Result<Scalar, Stop> {
        match self {
            Value::Scalar(s) => Ok(*s),
            other => Err(Stop::internal(format!("expected a scalar, found {other:?}"))),
        }
    }

    /// The pointer, or an internal error for anything else.
    #[inline]
    pub fn pointer(&self) -> Result<Pointer, Stop> {
        match self {
            Value::Pointer(p) => Ok(*p),
            other => Err(Stop::internal(format!("expected a pointer, found {other:?}"))),
        }
    }

    /// The components of a scalar (one) or a vector.
    pub fn components(&self) -> Result<Vec<Scalar>, Stop> {
        match self {
            Value::Scalar(s) => Ok(vec![*s]),
            Value::Vector(v) => Ok(v.clone()),
            other => Err(Stop::internal(format!("expected a scalar or vector, found {other:?}"))),
        }
    }

    /// Applies `f` to every component of a scalar or vector.
    pub fn map(&self, mut f: impl FnMut(Scalar) -> Result<Scalar, Stop>) -> Result<Value, Stop> {
        match self {
            Value::Scalar(s) => Ok(Value::Scalar(f(*s)?)),
            Value::Vector(v) => {
                Ok(Value::Vector(v.iter().map(|s| f(*s)).collect::<Result<_, _>>()?))
            }
            other => Err(Stop::internal(format!("expected a scalar or vector, found {other:?}"))),
        }
    }

    /// Applies `f` componentwise to two scalars or vectors; a scalar beside
    /// a vector is used for every component (WGSL's mixed scalar-vector
    /// arithmetic).
    pub fn zip(
        &self,
        other: &Value,
        mut f: impl FnMut(Scalar, Scalar) -> Result<Scalar, Stop>,
    ) -> Result<Value, Stop> {
        match (self, other) {
            (Value::Scalar(a), Value::Scalar(b)) => Ok(Value::Scalar(f(*a, *b)?)),
            (Value::Vector(a), Value::Vector(b)) => Ok(Value::Vector(
                a.iter().zip(b).map(|(a, b)| f(*a, *b)).collect::<Result<_, _>>()?,
            )),
            (Value::Vector(a), Value::Scalar(b)) => {
                Ok(Value::Vector(a.iter().map(|a| f(*a, *b)).collect::<Result<_, _>>()?))
            }
            (Value::Scalar(a), Value::Vector(b)) => {
                Ok(Value::Vector(b.iter().map(|b| f(*a, *b)).collect::<Result<_, _>>()?))
            }
            (a, b) => Err(Stop::internal(format!("componentwise operation on {a:?} and {b:?}"))),
        }
    }
}

/// `op` applied to one value (WGSL §8.7, §8.6, §8.5).
pub fn unary(op: UnaryOperator, v: &Value) -> Result<Value, Stop> {
    v.map(|s| {
        Ok(match (op, s) {
            (UnaryOperator::Negate, Scalar::I32(x)) => Scalar::I32(x.wrapping_neg()),
            (UnaryOperator::Negate, Scalar::F32(x)) => Scalar::F32(-x),
            (UnaryOperator::LogicalNot, Scalar::Bool(b)) => Scalar::Bool(!b),
            (UnaryOperator::BitwiseNot, Scalar::I32(x)) => Scalar::I32(!x),
            (UnaryOperator::BitwiseNot, Scalar::U32(x)) => Scalar::U32(!x),
            (op, s) => return Err(Stop::internal(format!("{op:?} of {s:?}"))),
        })
    })
}

/// `a op b` (WGSL §8.7 to §8.9), componentwise, with matrix products.
pub fn binary(op: BinaryOperator, a: &Value, b: &Value) -> Result<Value, Stop> {
    use BinaryOperator as B;
    if let (Value::Scalar(x), Value::Scalar(y)) = (a, b) {
        return Ok(Value::Scalar(scalar_binary(op, *x, *y)?));
    }
    if op == B::Multiply {
        if let Some(product) = matrix_product(a, b)? {
            return Ok(product);
        }
    }
    if let (Value::Composite(x), Value::Composite(y)) = (a, b) {
        // Matrix + matrix, matrix - matrix: column by column.
        return Ok(Value::Composite(
            x.iter().zip(y).map(|(x, y)| binary(op, x, y)).collect::<Result<_, _>>()?,
        ));
    }
    if let (Value::Composite(m), s @ Value::Scalar(_))
    | (s @ Value::Scalar(_), Value::Composite(m)) = (a, b)
    {
        return Ok(Value::Composite(m.iter().map(|c| binary(op, c, s)).collect::<Result<_, _>>()?));
    }
    a.zip(b, |x, y| scalar_binary(op, x, y))
}

fn scalar_binary(op: BinaryOperator, a: Scalar, b: Scalar) -> Result<Scalar, Stop> {
    scalar_op(op, a, b).ok_or_else(|| Stop::internal(format!("{op:?} on {a:?} and {b:?}")))
}

/// `a op b` on two scalars, or `None` for an operator their types do not
/// have (which validation rules out). Its result fits in a register: the
/// interpreter's quick path for scalar operators reads it without the
/// round trip through memory that a `Result<Scalar, Stop>` (40 bytes) takes.
#[inline]
pub(crate) fn scalar_op(op: BinaryOperator, a: Scalar, b: Scalar) -> Option<Scalar> {
    use BinaryOperator as B;
    use Scalar::{Bool, F32, I32, U32};
    Some(match (a, b) {
        (I32(x), I32(y)) => match op {
            B::Add => I32(x.wrapping_add(y)),
            B::Subtract => I32(x.wrapping_sub(y)),
            B::Multiply => I32(x.wrapping_mul(y)),
            // WGSL: division by zero, or i32::MIN / -1, gives the dividend.
            B::Divide => I32(if y == 0 || (x == i32::MIN && y == -1) { x } else { x / y }),
            B::Modulo => I32(if y == 0 || (x == i32::MIN && y == -1) { 0 } else { x % y }),
            B::And => I32(x & y),
            B::InclusiveOr => I32(x | y),
            B::ExclusiveOr => I32(x ^ y),
            B::Equal => Bool(x == y),
            B::NotEqual => Bool(x != y),
            B::Less => Bool(x < y),
            B::LessEqual => Bool(x <= y),
            B::Greater => Bool(x > y),
            B::GreaterEqual => Bool(x >= y),
            _ => return None,
        },
        (U32(x), U32(y)) => match op {
            B::Add => U32(x.wrapping_add(y)),
            B::Subtract => U32(x.wrapping_sub(y)),
            B::Multiply => U32(x.wrapping_mul(y)),
            B::Divide => U32(x.checked_div(y).unwrap_or(x)),
            B::Modulo => U32(x.checked_rem(y).unwrap_or(0)),
            B::And => U32(x & y),
            B::InclusiveOr => U32(x | y),
            B::ExclusiveOr => U32(x ^ y),
            B::ShiftLeft => U32(x.wrapping_shl(y)),
            B::ShiftRight => U32(x.wrapping_shr(y)),
            B::Equal => Bool(x == y),
            B::NotEqual => Bool(x != y),
            B::Less => Bool(x < y),
            B::LessEqual => Bool(x <= y),
            B::Greater => Bool(x > y),
            B::GreaterEqual => Bool(x >= y),
            _ => return None,
        },
        // Shifts of i32 take a u32 amount, modulo 32; `>>` is arithmetic.
        (I32(x), U32(y)) => match op {
            B::ShiftLeft => I32(x.wrapping_shl(y)),
            B::ShiftRight => I32(x.wrapping_shr(y)),
            _ => return None,
        },
        (F32(x), F32(y)) => match op {
            B::Add => F32(x + y),
            B::Subtract => F32(x - y),
            B::Multiply => F32(x * y),
            B::Divide => F32(x / y),
            // WGSL's `%` on floats truncates, like Rust's.
            B::Modulo => F32(x % y),
            B::Equal => Bool(x == y),
            B::NotEqual => Bool(x != y),
            B::Less => Bool(x < y),
            B::LessEqual => Bool(x <= y),
            B::Greater => Bool(x > y),
            B::GreaterEqual => Bool(x >= y),
            _ => return None,
        },
        (Bool(x), Bool(y)) => match op {
            B::Equal => Bool(x == y),
            B::NotEqual => Bool(x != y),
            B::And | B::LogicalAnd => Bool(x & y),
            B::InclusiveOr | B::LogicalOr => Bool(x | y),
            _ => return None,
        },
        _ => return None,
    })
}

/// Matrix × vector, vector × matrix and matrix × matrix (a matrix is a
/// composite of column vectors); `None` when neither operand is a matrix.
fn matrix_product(a: &Value, b: &Value) -> Result<Option<Value>, Stop> {
    let dot = |x: &[Scalar], y: &[Scalar]| -> Result<Scalar, Stop> {
        let mut sum = 0.0f32;
        for (x, y) in x.iter().zip(y) {
            match (x, y) {
                (Scalar::F32(x), Scalar::F32(y)) => sum += x * y,
                _ => return Err(Stop::internal("a matrix of non-floats".into())),
            }
        }
        Ok(Scalar::F32(sum))
    };
    let columns = |m: &[Value]| m.iter().map(Value::components).collect::<Result<Vec<_>, _>>();
    Ok(Some(match (a, b) {
        (Value::Composite(m), Value::Vector(v)) => {
            let cols = columns(m)?;
            let rows = cols.first().map_or(0, Vec::len);
            let mut out = vec![Scalar::F32(0.0); rows];
            for (r, o) in out.iter_mut().enumerate() {
                let row: Vec<Scalar> = cols.iter().map(|c| c[r]).collect();
                *o = dot(&row, v)?;
            }
            Value::Vector(out)
        }
        (Value::Vector(v), Value::Composite(m)) => {
            Value::Vector(columns(m)?.iter().map(|c| dot(v, c)).collect::<Result<_, _>>()?)
        }
        (Value::Composite(x), Value::Composite(y)) => {
            let ma = Value::Composite(x.clone());
            Value::Composite(
                y.iter()
                    .map(|col| {
                        matrix_product(&ma, col).map(|v| v.expect("a matrix times a vector"))
                    })
                    .collect::<Result<_, _>>()?,
            )
        }
        _ => return Ok(None),
    }))
}

impl Value {
    /// The value as the print log holds it: a scalar's or a vector's
    /// components. Types that cannot be printed are refused before a run,
    /// so nothing else comes here; anything else prints no components.
    pub fn printed(&self) -> gpu_puzzles_verdict::print::PrintValue {
        use gpu_puzzles_verdict::print::PrintScalar as P;
        use gpu_puzzles_verdict::print::PrintValue;
        let one = |s: &Scalar| match *s {
            Scalar::Bool(b) => P::Bool(b),
            Scalar::I32(i) => P::I32(i),
            Scalar::U32(u) => P::U32(u),
            Scalar::F32(f) => P::F32(f),
        };
        match self {
            Value::Scalar(s) => PrintValue(vec![one(s)]),
            Value::Vector(c) => PrintValue(c.iter().map(one).collect()),
            _ => PrintValue(Vec::new()),
        }
    }
}

#[cfg(test)]
mod size {
    /// The interpreter copies a value at nearly every step (into and out of
    /// each call's expression cache): at 48 bytes, with a `usize` function
    /// index and 32-bit frame numbers in every pointer, it ran 15 % slower
    /// (`cargo bench -p gpu-puzzles-interp`).
    #[test]
    fn a_value_stays_within_32_bytes() {
        assert!(
            std::mem::size_of::<super::Value>() <= 32,
            "Value is {} bytes",
            std::mem::size_of::<super::Value>()
        );
    }
}
