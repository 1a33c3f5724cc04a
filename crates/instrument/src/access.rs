//! Following a pointer expression back to a traced global, through struct
//! members, arrays (fixed-size and runtime-sized), vectors and matrix
//! columns, to the bytes it touches: a constant offset plus one
//! `index × stride` per indexed level, each level with its bound.

use naga::{ArraySize, Expression, Function, GlobalVariable, Handle, Module, TypeInner};

/// An index into one level of the chain.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Index {
    Dynamic(Handle<Expression>),
    Constant(u32),
}

/// One indexed level: `index < bound`, contributing `index * stride` bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Level {
    pub(crate) index: Index,
    pub(crate) stride: u32,
    pub(crate) bound: u32,
}

/// A resolved access.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    pub(crate) global: Handle<GlobalVariable>,
    /// Constant part of the byte offset.
    pub(crate) offset: u32,
    /// Indexed levels, outermost first.
    pub(crate) levels: Vec<Level>,
    /// Bytes the access touches.
    pub(crate) size: u32,
    /// The accessed value is an atomic (so the access is atomic).
    pub(crate) atomic: bool,
}

#[derive(Clone, Copy)]
enum Cur {
    Type(Handle<naga::Type>),
    Vector { size: u32, width: u32 },
    Scalar { width: u32 },
}

/// Resolves `ptr` when it points into `global_bytes`'s globals (the byte
/// size of each traced global; a runtime-sized array's bound follows from
/// it). `None` for a pointer not rooted in a traced global, or one the pass
/// does not follow (a pointer passed as a function argument).
pub(crate) fn resolve(
    module: &Module,
    layouter: &naga::proc::Layouter,
    f: &Function,
    ptr: Handle<Expression>,
    global_bytes: &impl Fn(Handle<GlobalVariable>) -> Option<u32>,
) -> Option<Resolved> {
    let mut chain = Vec::new();
    let mut cur = ptr;
    let global = loop {
        match f.expressions[cur] {
            Expression::Access { base, index } => {
                chain.push(Index::Dynamic(index));
                cur = base;
            }
            Expression::AccessIndex { base, index } => {
                chain.push(Index::Constant(index));
                cur = base;
            }
            Expression::GlobalVariable(g) => break g,
            _ => return None,
        }
    };
    let bytes = global_bytes(global)?;
    chain.reverse();
    let mut ty = Cur::Type(module.global_variables[global].ty);
    let mut offset = 0u32;
    let mut levels = Vec::new();
    for step in chain {
        ty = match ty {
            Cur::Type(h) => match &module.types[h].inner {
                TypeInner::Array { base, size, stride } => {
                    let bound = match size {
                        ArraySize::Constant(n) => n.get(),
                        ArraySize::Dynamic => bytes.saturating_sub(offset) / stride.max(&1),
                        ArraySize::Pending(_) => return None,
                    };
                    levels.push(Level { index: step, stride: *stride, bound });
                    Cur::Type(*base)
                }
                TypeInner::Struct { members, .. } => {
                    let Index::Constant(m) = step else { return None };
                    let member = members.get(m as usize)?;
                    offset += member.offset;
                    Cur::Type(member.ty)
                }
                TypeInner::Vector { size, scalar } => {
                    levels.push(Level { index: step, stride: scalar.width as u32, bound: *size as u32 });
                    Cur::Scalar { width: scalar.width as u32 }
                }
                TypeInner::Matrix { columns, rows, scalar } => {
                    let width = scalar.width as u32;
                    let column_stride = if *rows == naga::VectorSize::Bi { 2 * width } else { 4 * width };
                    levels.push(Level { index: step, stride: column_stride, bound: *columns as u32 });
                    Cur::Vector { size: *rows as u32, width }
                }
                _ => return None,
            },
            Cur::Vector { size, width } => {
                levels.push(Level { index: step, stride: width, bound: size });
                Cur::Scalar { width }
            }
            Cur::Scalar { .. } => return None,
        };
    }
    let (size, atomic) = match ty {
        Cur::Type(h) => (layouter[h].size, matches!(module.types[h].inner, TypeInner::Atomic(_))),
        Cur::Vector { size, width } => (size * width, false),
        Cur::Scalar { width } => (width, false),
    };
    Some(Resolved { global, offset, levels, size, atomic })
}

/// The outermost array of a global's type: its byte offset, stride and
/// element count (for a runtime-sized one, in `bytes` of buffer), and the
/// struct member leading to it (`out.v`), if any.
pub(crate) fn outer_array(module: &Module, ty: Handle<naga::Type>, bytes: u32) -> Option<(u32, u32, u32, Option<String>)> {
    match &module.types[ty].inner {
        TypeInner::Array { size, stride, .. } => {
            let n = match size {
                ArraySize::Constant(n) => n.get(),
                _ => bytes / stride.max(&1),
            };
            Some((0, *stride, n, None))
        }
        TypeInner::Struct { members, .. } => {
            let m = members.iter().find(|m| matches!(module.types[m.ty].inner, TypeInner::Array { .. }))?;
            // The member's array fills the bytes after its offset.
            let (off, stride, n, _) = outer_array(module, m.ty, bytes.saturating_sub(m.offset))?;
            Some((m.offset + off, stride, n, m.name.clone()))
        }
        _ => None,
    }
}
