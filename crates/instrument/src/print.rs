//! `print(…)` on the GPU: each `_gp_print(site)` call the substitution wrote
//! ([`gpu_puzzles_core::print`]) becomes a record in the trace's print log,
//! and the printed values' types are checked where every front end sees
//! them (a pointer or an array cannot be printed).

use crate::builder::Builder;
use crate::rewrite::Cx;
use gpu_puzzles_core::print::{parse_value_name, LINE_HEADER_WORDS, PRINT_FUNCTION};
use gpu_puzzles_verdict::print::ScalarKind;
use gpu_puzzles_verdict::trace::header;
use naga::{
    AtomicFunction, BinaryOperator, Expression, Function, Handle, Literal, LocalVariable, Module,
    TypeInner,
};
use std::collections::BTreeMap;

/// The values one print shows, in argument order: the variable holding
/// each, the kind of its components and how many there are (1 for a
/// scalar).
pub(crate) type PrintValues = Vec<(Handle<LocalVariable>, ScalarKind, u32)>;

/// A printed value of a type the log cannot show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPrint {
    /// What to tell the student.
    pub message: String,
    /// Byte range of the value in the text naga parsed.
    pub span: std::ops::Range<usize>,
}

/// The print function's handle, if the shader prints.
pub(crate) fn print_function(module: &Module) -> Option<Handle<Function>> {
    module.functions.iter().find(|(_, f)| f.name.as_deref() == Some(PRINT_FUNCTION)).map(|(h, _)| h)
}

/// The kind and component count of a printable type.
pub fn printable(inner: &TypeInner) -> Option<(ScalarKind, u32)> {
    let kind = |s: naga::Scalar| match (s.kind, s.width) {
        (naga::ScalarKind::Float, 4) => Some(ScalarKind::F32),
        (naga::ScalarKind::Sint, 4) => Some(ScalarKind::I32),
        (naga::ScalarKind::Uint, 4) => Some(ScalarKind::U32),
        (naga::ScalarKind::Bool, _) => Some(ScalarKind::Bool),
        _ => None,
    };
    match *inner {
        TypeInner::Scalar(s) => Some((kind(s)?, 1)),
        TypeInner::Vector { size, scalar } => Some((kind(scalar)?, size as u32)),
        _ => None,
    }
}

/// What a type is, for a message.
fn described(inner: &TypeInner) -> &'static str {
    match inner {
        TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. } => {
            "a pointer: print the value it points at, `*p`"
        }
        TypeInner::Array { .. } => "an array: print one element, `a[i]`",
        TypeInner::Struct { .. } => "a struct: print one member, `s.x`",
        TypeInner::Matrix { .. } => "a matrix: print one column, `m[0]`",
        TypeInner::Atomic(_) => "an atomic: print `atomicLoad(&x)`",
        _ => "a type the log cannot show (f16 or wider): convert it to f32, i32 or u32",
    }
}

/// The values of every print in `f`, by print number.
///
/// # Errors
/// The first printed value whose type is not a scalar or vector of `f32`,
/// `i32`, `u32` or `bool`.
pub(crate) fn plan(
    module: &Module,
    f: &Function,
    source: &str,
) -> Result<BTreeMap<u32, PrintValues>, BadPrint> {
    let mut named: Vec<(u32, usize, Handle<LocalVariable>)> = f
        .local_variables
        .iter()
        .filter_map(|(h, v)| {
            v.name.as_deref().and_then(parse_value_name).map(|(site, arg)| (site, arg, h))
        })
        .collect();
    named.sort_by_key(|&(site, arg, _)| (site, arg));
    let mut out: BTreeMap<u32, PrintValues> = BTreeMap::new();
    for (site, _, h) in named {
        let inner = &module.types[f.local_variables[h].ty].inner;
        let Some((kind, n)) = printable(inner) else {
            // The declaration `_gp_print_3_0 = value`: the value's text.
            let span = f.local_variables.get_span(h).to_range().unwrap_or(0..0);
            let text = source
                .get(span.clone())
                .and_then(|t| t.split_once('='))
                .map_or("this value", |(_, v)| v.trim());
            return Err(BadPrint {
                message: format!(
                    "print shows numbers, booleans and vectors of them; `{text}` is {}",
                    described(inner)
                ),
                span,
            });
        };
        out.entry(site).or_default().push((h, kind, n));
    }
    Ok(out)
}

/// The values each print shows: per function, then per entry point of
/// `entry_points` (indices into the module's), by print number; nothing
/// for a shader that does not print.
///
/// # Errors
/// As [`plan`].
#[allow(clippy::type_complexity)]
pub(crate) fn plan_module(
    module: &Module,
    entry_points: &[usize],
    source: &str,
) -> Result<
    (
        std::collections::HashMap<Handle<Function>, BTreeMap<u32, PrintValues>>,
        Vec<BTreeMap<u32, PrintValues>>,
    ),
    BadPrint,
> {
    if print_function(module).is_none() {
        return Ok(Default::default());
    }
    let functions = module
        .functions
        .iter()
        .map(|(h, f)| plan(module, f, source).map(|p| (h, p)))
        .collect::<Result<_, _>>()?;
    let entries = entry_points
        .iter()
        .map(|&ep| plan(module, &module.entry_points[ep].function, source))
        .collect::<Result<_, _>>()?;
    Ok((functions, entries))
}

/// The first value any function prints that the log cannot show.
pub(crate) fn check(module: &Module, source: &str) -> Option<BadPrint> {
    print_function(module)?;
    let functions = module.functions.iter().map(|(_, f)| f);
    functions
        .chain(module.entry_points.iter().map(|e| &e.function))
        .find_map(|f| plan(module, f, source).err())
}

/// The print number a call of the print function passes, if it is one.
pub(crate) fn site_of(f: &Function, arguments: &[Handle<Expression>]) -> Option<u32> {
    match arguments {
        [a] => match f.expressions[*a] {
            Expression::Literal(Literal::U32(site)) => Some(site),
            _ => None,
        },
        _ => None,
    }
}

impl Cx<'_> {
    /// The statements of one print: claim its words of the log, count the
    /// line, and, where it fits, write print number + 1, dispatch,
    /// invocation and each component's bits.
    pub(crate) fn print_record(
        &self,
        b: &mut Builder,
        site: u32,
        values: &[(Handle<LocalVariable>, ScalarKind, u32)],
    ) {
        let words = LINE_HEADER_WORDS + values.iter().map(|v| v.2 as u64).sum::<u64>();
        let base = self.layout.log_base;
        let n = b.lit(words as u32);
        let used = b.lit(header::LOG_USED as u32);
        let start = b.atomic_result(self.trace, used, AtomicFunction::Add, n, self.u32_ty);
        let lines = b.lit(header::LOG_LINES as u32);
        let one = b.lit(1);
        b.atomic(self.trace, lines, AtomicFunction::Add, one);
        // `start <= LOG_WORDS - words`: the cursor can pass the end without
        // overflowing the comparison.
        let last = b.lit((self.layout.log_words.saturating_sub(words)) as u32);
        let fits = b.bin(BinaryOperator::LessEqual, start, last);
        b.if_(fits, |b| {
            let at = b.add_const(start, base);
            let site = b.lit(site + 1);
            b.atomic_store(self.trace, at, site);
            let dispatch = b.load_global(self.vars.dispatch);
            let w = b.add_const(at, 1);
            b.atomic_store(self.trace, w, dispatch);
            let invocation = b.load_global(self.vars.invocation);
            let w = b.add_const(at, 2);
            b.atomic_store(self.trace, w, invocation);
            let mut offset = LINE_HEADER_WORDS;
            for &(var, kind, n) in values {
                let pointer = b.pre(Expression::LocalVariable(var));
                let value = b.emit(Expression::Load { pointer });
                for c in 0..n {
                    let component = if n == 1 {
                        value
                    } else {
                        b.emit(Expression::AccessIndex { base: value, index: c })
                    };
                    let bits = match kind {
                        ScalarKind::U32 => component,
                        ScalarKind::F32 | ScalarKind::I32 => b.emit(Expression::As {
                            expr: component,
                            kind: naga::ScalarKind::Uint,
                            convert: None,
                        }),
                        ScalarKind::Bool => {
                            let (one, zero) = (b.lit(1), b.lit(0));
                            b.emit(Expression::Select {
                                condition: component,
                                accept: one,
                                reject: zero,
                            })
                        }
                    };
                    let w = b.add_const(at, offset);
                    b.atomic_store(self.trace, w, bits);
                    offset += 1;
                }
            }
        });
    }
}
