//! Where values live in memory: every region (a storage or uniform buffer,
//! a workgroup, private or function variable) is a run of 32-bit words, and
//! values are laid out in it by WGSL's memory layout rules (WGSL §14.4
//! "Memory Layout": `vec3` aligned to 16 bytes, array strides, structure
//! member offsets, `@size`/`@align`). naga's type arena already holds the
//! offsets and strides of host-shareable types; only types containing
//! `bool` (function, private or workgroup memory), which naga lays out with
//! 1-byte booleans, are laid out here with 4-byte ones, since every value
//! here occupies whole words.

use crate::value::{Scalar, Value};
use crate::Stop;
use naga::{ArraySize, Handle, Module, Type, TypeInner, VectorSize};

/// Sizes, alignments, strides and member offsets of every type of a module,
/// in bytes, by type handle.
#[derive(Debug, Clone)]
pub struct Layouts {
    size: Vec<u32>,
    align: Vec<u32>,
    /// Array stride per array type; member offsets per structure type.
    stride: Vec<u32>,
    offsets: Vec<Vec<u32>>,
}

fn round_up(align: u32, n: u32) -> u32 {
    n.div_ceil(align.max(1)) * align.max(1)
}

/// Bytes between a matrix's columns of `rows` rows: the column vector's
/// alignment (WGSL §14.4.1).
pub fn column_stride(rows: VectorSize) -> u32 {
    vector_layout(rows).1
}

fn vector_layout(size: VectorSize) -> (u32, u32) {
    match size {
        VectorSize::Bi => (8, 8),
        VectorSize::Tri => (12, 16),
        VectorSize::Quad => (16, 16),
    }
}

/// Elements of an array of `size`: its constant, or its override's value
/// (naga keeps an override-sized array's size pending after applying the
/// overrides; `ArraySize::resolve` reads the value); `None` when it is
/// runtime-sized, or an override without a value.
pub fn fixed_count(size: ArraySize, module: &Module) -> Option<u32> {
    match size.resolve(module.to_ctx()) {
        Ok(naga::proc::IndexableLength::Known(n)) => Some(n),
        _ => None,
    }
}

impl Layouts {
    /// Lays out every type of `module`.
    pub fn new(module: &Module) -> Layouts {
        let n = module.types.len();
        let mut l = Layouts {
            size: vec![0; n],
            align: vec![4; n],
            stride: vec![0; n],
            offsets: vec![Vec::new(); n],
        };
        let mut has_bool = vec![false; n];
        for (h, ty) in module.types.iter() {
            let i = h.index();
            let (size, align) = match &ty.inner {
                TypeInner::Scalar(_) | TypeInner::Atomic(_) => (4, 4),
                TypeInner::Vector { size, .. } => vector_layout(*size),
                TypeInner::Matrix { columns, rows, .. } => {
                    let a = column_stride(*rows);
                    (a * *columns as u32, a)
                }
                TypeInner::Array { base, size, stride } => {
                    let b = base.index();
                    has_bool[i] = has_bool[b];
                    let stride =
                        if has_bool[b] { round_up(l.align[b], l.size[b]) } else { *stride };
                    l.stride[i] = stride;
                    // A runtime-sized array counts one element here.
                    let count = fixed_count(*size, module).unwrap_or(1);
                    (stride * count, l.align[b])
                }
                TypeInner::Struct { members, span } => {
                    let any_bool = members.iter().any(|m| has_bool[m.ty.index()]);
                    has_bool[i] = any_bool;
                    let align = members.iter().map(|m| l.align[m.ty.index()]).max().unwrap_or(4);
                    if any_bool {
                        let mut at = 0;
                        for m in members {
                            at = round_up(l.align[m.ty.index()], at);
                            l.offsets[i].push(at);
                            at += l.size[m.ty.index()];
                        }
                        (round_up(align, at), align)
                    } else {
                        l.offsets[i] = members.iter().map(|m| m.offset).collect();
                        (*span, align)
                    }
                }
                _ => (4, 4),
            };
            if let TypeInner::Scalar(s) = ty.inner {
                has_bool[i] = s.kind == naga::ScalarKind::Bool;
            }
            if let TypeInner::Vector { scalar, .. } = ty.inner {
                has_bool[i] = scalar.kind == naga::ScalarKind::Bool;
            }
            l.size[i] = size;
            l.align[i] = align;
        }
        l
    }

    /// Bytes a value of type `ty` occupies (one element, for a
    /// runtime-sized array).
    pub fn size(&self, ty: Handle<Type>) -> u32 {
        self.size[ty.index()]
    }

    /// Bytes between consecutive elements of array type `ty`.
    pub fn stride(&self, ty: Handle<Type>) -> u32 {
        self.stride[ty.index()]
    }

    /// Byte offset of member `k` of structure type `ty`.
    pub fn member_offset(&self, ty: Handle<Type>, k: usize) -> u32 {
        self.offsets[ty.index()].get(k).copied().unwrap_or(0)
    }

    /// Bytes a value of type `ty` occupies.
    pub fn size_of(&self, ty: Ty<'_>) -> u32 {
        let inner = match ty {
            Ty::Handle(h) => return self.size(h),
            Ty::Inner(inner) => inner,
            Ty::Scalar(_) => return 4,
            Ty::Vector(size, _) => return vector_layout(size).0,
        };
        match inner {
            TypeInner::Vector { size, .. } => vector_layout(*size).0,
            TypeInner::Matrix { columns, rows, .. } => vector_layout(*rows).1 * *columns as u32,
            _ => 4,
        }
    }

    /// Reads a value of type `inner` at byte `offset` of `words`; words
    /// past the end read as zero. A runtime-sized array reads as many
    /// elements as fit.
    pub fn load(
        &self,
        module: &Module,
        words: &[u32],
        offset: u32,
        ty: Ty<'_>,
    ) -> Result<Value, Stop> {
        let handle = ty.handle();
        let inner = ty.inner(module);
        let word = |at: u32| words.get((at / 4) as usize).copied().unwrap_or(0);
        Ok(match &*inner {
            TypeInner::Scalar(s) | TypeInner::Atomic(s) => {
                Value::Scalar(Scalar::from_word(s.kind, word(offset))?)
            }
            TypeInner::Vector { size, scalar } => Value::Vector(
                (0..*size as u32)
                    .map(|k| Scalar::from_word(scalar.kind, word(offset + 4 * k)))
                    .collect::<Result<_, _>>()?,
            ),
            TypeInner::Matrix { columns, rows, scalar } => {
                let col = TypeInner::Vector { size: *rows, scalar: *scalar };
                let stride = vector_layout(*rows).1;
                Value::Composite(
                    (0..*columns as u32)
                        .map(|c| self.load(module, words, offset + c * stride, Ty::Inner(&col)))
                        .collect::<Result<_, _>>()?,
                )
            }
            TypeInner::Array { base, size, .. } => {
                let stride = handle.map_or(4, |h| self.stride(h));
                let count = fixed_count(*size, module).unwrap_or_else(|| {
                    ((words.len() as u32 * 4).saturating_sub(offset)) / stride.max(1)
                });
                Value::Composite(
                    (0..count)
                        .map(|k| self.load(module, words, offset + k * stride, Ty::Handle(*base)))
                        .collect::<Result<_, _>>()?,
                )
            }
            TypeInner::Struct { members, .. } => {
                let ty =
                    handle.ok_or_else(|| Stop::internal("a structure without a handle".into()))?;
                Value::Composite(
                    members
                        .iter()
                        .enumerate()
                        .map(|(k, m)| {
                            self.load(
                                module,
                                words,
                                offset + self.member_offset(ty, k),
                                Ty::Handle(m.ty),
                            )
                        })
                        .collect::<Result<_, _>>()?,
                )
            }
            other => return Err(Stop::unsupported(format!("memory of type {other:?}"))),
        })
    }

    /// Writes `value` of type `inner` at byte `offset` of `words`; words
    /// past the end are not written.
    pub fn store(
        &self,
        module: &Module,
        words: &mut [u32],
        offset: u32,
        ty: Ty<'_>,
        value: &Value,
    ) -> Result<(), Stop> {
        let handle = ty.handle();
        let inner = ty.inner(module);
        let mut put = |at: u32, s: Scalar| {
            if let Some(w) = words.get_mut((at / 4) as usize) {
                *w = s.to_word();
            }
        };
        match (&*inner, value) {
            (TypeInner::Scalar(_) | TypeInner::Atomic(_), Value::Scalar(s)) => put(offset, *s),
            (TypeInner::Vector { .. }, Value::Vector(v)) => {
                for (k, s) in v.iter().enumerate() {
                    put(offset + 4 * k as u32, *s);
                }
            }
            (TypeInner::Matrix { rows, scalar, .. }, Value::Composite(cols)) => {
                let col = TypeInner::Vector { size: *rows, scalar: *scalar };
                let stride = vector_layout(*rows).1;
                for (c, v) in cols.iter().enumerate() {
                    self.store(module, words, offset + c as u32 * stride, Ty::Inner(&col), v)?;
                }
            }
            (TypeInner::Array { base, .. }, Value::Composite(items)) => {
                let stride = handle.map_or(4, |h| self.stride(h));
                for (k, v) in items.iter().enumerate() {
                    self.store(module, words, offset + k as u32 * stride, Ty::Handle(*base), v)?;
                }
            }
            (TypeInner::Struct { members, .. }, Value::Composite(items)) => {
                let ty =
                    handle.ok_or_else(|| Stop::internal("a structure without a handle".into()))?;
                for (k, (m, v)) in members.iter().zip(items).enumerate() {
                    self.store(
                        module,
                        words,
                        offset + self.member_offset(ty, k),
                        Ty::Handle(m.ty),
                        v,
                    )?;
                }
            }
            (inner, value) => {
                return Err(Stop::internal(format!("storing {value:?} as {inner:?}")))
            }
        }
        Ok(())
    }

    /// The zero value of `inner` (a runtime-sized array has no zero value;
    /// it gives an empty composite).
    pub fn zero(&self, module: &Module, inner: &TypeInner) -> Result<Value, Stop> {
        Ok(match inner {
            TypeInner::Scalar(s) | TypeInner::Atomic(s) => Value::Scalar(Scalar::zero(s.kind)?),
            TypeInner::Vector { size, scalar } => {
                Value::Vector(vec![Scalar::zero(scalar.kind)?; *size as usize])
            }
            TypeInner::Matrix { columns, rows, scalar } => Value::Composite(vec![
                Value::Vector(
                    vec![Scalar::zero(scalar.kind)?; *rows as usize]
                );
                *columns as usize
            ]),
            TypeInner::Array { base, size, .. } => {
                let count = fixed_count(*size, module).unwrap_or(0) as usize;
                Value::Composite(vec![self.zero(module, &module.types[*base].inner)?; count])
            }
            TypeInner::Struct { members, .. } => Value::Composite(
                members
                    .iter()
                    .map(|m| self.zero(module, &module.types[m.ty].inner))
                    .collect::<Result<_, _>>()?,
            ),
            other => return Err(Stop::unsupported(format!("a value of type {other:?}"))),
        })
    }
}

/// A type: a handle into the module's arena, or a type that has none
/// (naga resolves scalars, vectors and matrices to inner types, and a
/// pointer to a vector or its component to a `ValuePointer`).
#[derive(Debug, Clone, Copy)]
pub enum Ty<'a> {
    /// A type of the arena.
    Handle(Handle<Type>),
    /// A scalar, vector or matrix type.
    Inner(&'a TypeInner),
    /// A scalar (a `ValuePointer`'s pointee).
    Scalar(naga::Scalar),
    /// A vector (a `ValuePointer`'s pointee).
    Vector(VectorSize, naga::Scalar),
}

impl<'a> Ty<'a> {
    /// The handle, if it has one.
    pub fn handle(self) -> Option<Handle<Type>> {
        match self {
            Ty::Handle(h) => Some(h),
            _ => None,
        }
    }

    /// The type itself.
    pub fn inner(self, module: &'a Module) -> std::borrow::Cow<'a, TypeInner> {
        use std::borrow::Cow;
        match self {
            Ty::Handle(h) => Cow::Borrowed(&module.types[h].inner),
            Ty::Inner(inner) => Cow::Borrowed(inner),
            Ty::Scalar(scalar) => Cow::Owned(TypeInner::Scalar(scalar)),
            Ty::Vector(size, scalar) => Cow::Owned(TypeInner::Vector { size, scalar }),
        }
    }
}
