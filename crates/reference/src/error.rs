//! Why a reference function could not compute a case's expected values
//! ([`ReferenceError`]), in words the loader reports at the case.

use std::fmt;

/// Why a reference function could not compute a case's expected values:
/// what the case lacks or gets wrong. The loader reports it at the case.
#[derive(Debug, Clone, PartialEq)]
pub enum ReferenceError {
    /// No input or input-output buffer of this name.
    MissingInput {
        /// The buffer's name.
        name: String,
    },
    /// The buffer has another element type than the reference reads.
    WrongType {
        /// The buffer's name.
        name: String,
        /// The type the reference reads: `f32`, `i32` or `u32`.
        wanted: &'static str,
    },
    /// The buffer has no `shape = [rows, cols]`.
    MissingShape {
        /// The buffer's name.
        name: String,
    },
    /// The output needs a `len` (or `shape`) in the case.
    MissingOutputLen {
        /// The output's name.
        name: String,
    },
    /// `a` and `b` must have as many elements as each other.
    LengthsDiffer {
        /// Elements of `a`.
        a: usize,
        /// Elements of `b`.
        b: usize,
    },
    /// A matrix product's inner sizes differ: `a` is `m × k`, `b` is `k2 × n`.
    InnerSizesDiffer {
        /// `[rows, cols]` of `a`.
        a: [usize; 2],
        /// `[rows, cols]` of `b`.
        b: [usize; 2],
    },
    /// A size given in a uniform disagrees with the buffers' shapes.
    UniformDisagrees {
        /// The uniform's field, e.g. `dims.k`.
        field: String,
        /// The value the case gives it.
        given: f64,
        /// The value the shapes make it.
        from_shapes: usize,
    },
    /// A sampled element past the end of a `rows × cols` output.
    ElementPastEnd {
        /// The element's row-major index.
        element: usize,
        /// `[rows, cols]` of the output.
        shape: [usize; 2],
    },
    /// The case gives no value for a uniform field the reference reads.
    MissingUniform {
        /// The field, e.g. `params.eps`.
        name: String,
    },
    /// A buffer has another number of elements than the reference needs,
    /// e.g. `gamma` one per column of `a`.
    WrongLength {
        /// The buffer's name.
        name: String,
        /// Its elements.
        len: usize,
        /// The elements the reference needs.
        want: usize,
    },
    /// A uniform field's value is outside what the reference computes with.
    UniformOutOfRange {
        /// The field, e.g. `params.head_dim`.
        field: String,
        /// What it must be, e.g. `an even number from 2 up`.
        want: &'static str,
    },
    /// A histogram's input value falls outside every bin.
    OutsideBins {
        /// The element's index in `a`.
        index: usize,
        /// Its value.
        value: f32,
        /// How many bins the case gives `bins`.
        bins: usize,
    },
    /// An index buffer holds an index past the end of what it indexes.
    IndexPastEnd {
        /// The index buffer.
        name: String,
        /// The element holding the index.
        at: usize,
        /// The index.
        index: u32,
        /// Elements of what it indexes.
        len: usize,
    },
    /// A key above the largest the reference sorts (Radix Sort's 255).
    KeyAboveLimit {
        /// The key buffer.
        name: String,
        /// The element holding the key.
        at: usize,
        /// The key.
        key: u32,
        /// The largest key allowed.
        limit: u32,
    },
    /// An input value outside what the reference computes with (a logit that
    /// is not finite, a random number outside `[0, 1)`).
    ValueOutOfRange {
        /// The buffer.
        name: String,
        /// The element holding the value.
        at: usize,
        /// The value.
        value: f64,
        /// What it must be, e.g. `in [0, 1)`.
        want: &'static str,
    },
    /// A random number so close to a cumulative probability of its row's top
    /// k that rounding could decide the sampled token (Top-k Sampling).
    DrawTooClose {
        /// The row.
        row: usize,
        /// Its random number, `u[row]`.
        u: f32,
        /// The cumulative probability near it.
        boundary: f64,
        /// How far it must be.
        margin: f64,
    },
}

impl fmt::Display for ReferenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReferenceError::MissingInput { name } => {
                write!(f, "the reference needs an input buffer named `{name}`")
            }
            ReferenceError::WrongType { name, wanted } => {
                write!(f, "the reference needs `{name}` to be a {wanted} buffer")
            }
            ReferenceError::MissingShape { name } => {
                write!(f, "the reference needs a `shape = [rows, cols]` on buffer `{name}`")
            }
            ReferenceError::MissingOutputLen { name } => {
                write!(f, "the reference needs `len` on output `{name}`")
            }
            ReferenceError::LengthsDiffer { a, b } => write!(f, "`a` has {a} elements and `b` {b}"),
            ReferenceError::InnerSizesDiffer { a: [m, k], b: [k2, n] } => {
                write!(f, "`a` is {m}×{k} and `b` is {k2}×{n}: inner sizes differ")
            }
            ReferenceError::UniformDisagrees { field, given, from_shapes } => {
                write!(f, "uniform `{field}` is {given} but the shapes make it {from_shapes}")
            }
            ReferenceError::ElementPastEnd { element, shape: [m, n] } => {
                write!(f, "element {element} is past the end of the {m} × {n} output")
            }
            ReferenceError::MissingUniform { name } => {
                write!(f, "the reference needs a value for the uniform field `{name}`")
            }
            ReferenceError::WrongLength { name, len, want } => {
                write!(f, "`{name}` has {len} elements but the reference needs {want}")
            }
            ReferenceError::UniformOutOfRange { field, want } => {
                write!(f, "uniform `{field}` must be {want}")
            }
            ReferenceError::OutsideBins { index, value, bins } => {
                write!(f, "`a[{index}]` = {value} falls outside the {bins} bins")
            }
            ReferenceError::IndexPastEnd { name, at, index, len } => write!(
                f,
                "`{name}[{at}]` = {index} is past the end of the {len} elements it indexes"
            ),
            ReferenceError::KeyAboveLimit { name, at, key, limit } => write!(
                f,
                "`{name}[{at}]` = {key} is above {limit}, the largest key the reference sorts"
            ),
            ReferenceError::ValueOutOfRange { name, at, value, want } => {
                write!(f, "`{name}[{at}]` = {value} must be {want}")
            }
            ReferenceError::DrawTooClose { row, u, boundary, margin } => {
                write!(f, "`u[{row}]` = {u} is within {margin} of {boundary:.6}, a cumulative probability of its row's top k: rounding could decide the token")
            }
        }
    }
}

impl std::error::Error for ReferenceError {}

/// Callers that still speak in messages (the loader's problems) take the
/// error's words.
impl From<ReferenceError> for String {
    fn from(e: ReferenceError) -> String {
        e.to_string()
    }
}
