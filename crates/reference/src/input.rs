//! What a reference function is given and gives back: a case's plain
//! inputs ([`ReferenceInput`]), its outputs, the function types, and the
//! small helpers the functions share.

use crate::error::ReferenceError;
use gpu_puzzles_values::{CaseConfig, Values};
use std::collections::BTreeMap;

/// What a reference function sees of a case.
#[derive(Debug, Clone)]
pub struct ReferenceInput<'a> {
    /// The dispatch configuration.
    pub config: &'a CaseConfig,
    /// Input and input-output buffers by name: initial contents and display
    /// shape `[rows, cols]`.
    pub buffers: BTreeMap<&'a str, (&'a Values, Option<[u32; 2]>)>,
    /// Uniform field values by uniform name, then field name.
    pub uniforms: BTreeMap<&'a str, BTreeMap<&'a str, f64>>,
    /// Element counts of the outputs whose case gives a `len` or `shape`.
    pub output_lens: BTreeMap<&'a str, usize>,
}

impl<'a> ReferenceInput<'a> {
    /// The `u32` contents of input `name`.
    ///
    /// # Errors
    /// [`ReferenceError::MissingInput`] or [`ReferenceError::WrongType`].
    pub fn u32s(&self, name: &str) -> Result<&'a [u32], ReferenceError> {
        match self.buffers.get(name) {
            Some((Values::U32(v), _)) => Ok(v),
            Some(_) => Err(ReferenceError::WrongType { name: name.to_string(), wanted: "u32" }),
            None => Err(ReferenceError::MissingInput { name: name.to_string() }),
        }
    }

    /// The `i32` contents of input `name`.
    ///
    /// # Errors
    /// [`ReferenceError::MissingInput`] or [`ReferenceError::WrongType`].
    pub fn i32s(&self, name: &str) -> Result<&'a [i32], ReferenceError> {
        match self.buffers.get(name) {
            Some((Values::I32(v), _)) => Ok(v),
            Some(_) => Err(ReferenceError::WrongType { name: name.to_string(), wanted: "i32" }),
            None => Err(ReferenceError::MissingInput { name: name.to_string() }),
        }
    }

    /// The element count the case gives output `name` (`len` or `shape`).
    ///
    /// # Errors
    /// [`ReferenceError::MissingOutputLen`] when the case gives none.
    pub fn output_len(&self, name: &str) -> Result<usize, ReferenceError> {
        self.output_lens
            .get(name)
            .copied()
            .ok_or_else(|| ReferenceError::MissingOutputLen { name: name.to_string() })
    }

    /// The `f32` contents of input `name`.
    ///
    /// # Errors
    /// [`ReferenceError::MissingInput`] or [`ReferenceError::WrongType`].
    pub fn f32(&self, name: &str) -> Result<&'a [f32], ReferenceError> {
        let (values, _) = self
            .buffers
            .get(name)
            .ok_or_else(|| ReferenceError::MissingInput { name: name.to_string() })?;
        values
            .as_f32()
            .ok_or_else(|| ReferenceError::WrongType { name: name.to_string(), wanted: "f32" })
    }

    /// The `[rows, cols]` shape of input `name`.
    ///
    /// # Errors
    /// [`ReferenceError::MissingInput`] or [`ReferenceError::MissingShape`].
    pub fn shape(&self, name: &str) -> Result<[usize; 2], ReferenceError> {
        match self.buffers.get(name) {
            Some((_, Some([r, c]))) => Ok([*r as usize, *c as usize]),
            Some(_) => Err(ReferenceError::MissingShape { name: name.to_string() }),
            None => Err(ReferenceError::MissingInput { name: name.to_string() }),
        }
    }
}

/// A reference function: the expected contents of every compared buffer
/// (outputs and input-outputs), in binding order, with their display shapes.
///
/// # Errors
/// [`ReferenceError`]: what the case lacks (a buffer, a shape) or gets wrong.
pub type ReferenceFn = fn(&ReferenceInput) -> Result<Outputs, ReferenceError>;

/// Expected contents of each compared buffer, in binding order, with the
/// display shape `[rows, cols]` the reference gives it (if any).
pub type Outputs = Vec<(Values, Option<[u32; 2]>)>;

/// A reference function's per-element form, for cases too large to compute
/// whole on the CPU (a performance case's `sample`): the expected value of
/// each of `elements` (indices into the buffer, row-major), for every
/// compared buffer in binding order; `out[b][j]` is buffer `b`'s element
/// `elements[j]`. Must give exactly what the whole function gives there.
///
/// # Errors
/// As [`ReferenceFn`], and an element past the buffer's end.
pub type SampleFn = fn(&ReferenceInput, elements: &[usize]) -> Result<Vec<Values>, ReferenceError>;

/// A puzzle's reference: the whole function, and its per-element form when
/// it has one.
#[derive(Debug, Clone, Copy)]
pub struct Reference {
    /// The expected contents of every compared buffer.
    pub all: ReferenceFn,
    /// The expected values of chosen elements, for sampled cases.
    pub at: Option<SampleFn>,
}

/// Checks the fields of the `dims` uniform, when the puzzle has one, against
/// the sizes the buffers' shapes give: `want` pairs a field name with its size.
/// A field the case leaves out is not checked.
///
/// # Errors
/// [`ReferenceError::UniformDisagrees`] at the first field that differs.
pub(crate) fn check_dims(
    input: &ReferenceInput,
    want: &[(&str, usize)],
) -> Result<(), ReferenceError> {
    let Some(dims) = input.uniforms.get("dims") else { return Ok(()) };
    for &(name, size) in want {
        if let Some(&given) = dims.get(name) {
            if given != size as f64 {
                return Err(ReferenceError::UniformDisagrees {
                    field: format!("dims.{name}"),
                    given,
                    from_shapes: size,
                });
            }
        }
    }
    Ok(())
}

pub(crate) fn flat(v: Vec<f32>) -> Outputs {
    vec![(Values::F32(v), None)]
}

/// The `eps` of a row normalisation's `params` uniform, as the shader reads
/// it (an `f32`: 0.00001 arrives as 1.0000000e-5, not the `f64` written in
/// the manifest), after checking that `params.cols`, if given, is the
/// shape's `cols`. Layer Norm and RMS Norm.
pub(crate) fn row_norm_eps(input: &ReferenceInput, cols: usize) -> Result<f64, ReferenceError> {
    let params = input.uniforms.get("params");
    let eps = params
        .and_then(|p| p.get("eps"))
        .ok_or_else(|| ReferenceError::MissingUniform { name: "params.eps".to_string() })?;
    if let Some(&given) = params.and_then(|p| p.get("cols")) {
        if given != cols as f64 {
            return Err(ReferenceError::UniformDisagrees {
                field: "params.cols".to_string(),
                given,
                from_shapes: cols,
            });
        }
    }
    Ok(f64::from(*eps as f32))
}

pub(crate) fn shaped(v: Vec<f32>, rows: usize, cols: usize) -> Outputs {
    vec![(Values::F32(v), Some([rows as u32, cols as u32]))]
}
