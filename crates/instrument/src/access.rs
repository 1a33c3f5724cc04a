//! Following a pointer expression back to a traced global, through struct
//! members, arrays (fixed-size and runtime-sized), vectors and matrix
//! columns, to the bytes it touches: a constant offset plus one
//! `index × stride` per indexed level, each level with its bound.

use gpu_puzzles_verdict::trace::MemoryKind;
use naga::proc::index::GuardedIndex;
use naga::proc::IndexableLength;
use naga::{
    AddressSpace, ArraySize, Expression, Function, GlobalVariable, Handle, Module, TypeInner,
};

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
                        // Sized by an override: its value, as the GPU runs it
                        // ([`crate::with_overrides_applied`]).
                        ArraySize::Pending(_) => match size.resolve(module.to_ctx()) {
                            Ok(naga::proc::IndexableLength::Known(n)) => n,
                            _ => return None,
                        },
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
                    levels.push(Level {
                        index: step,
                        stride: scalar.width as u32,
                        bound: *size as u32,
                    });
                    Cur::Scalar { width: scalar.width as u32 }
                }
                TypeInner::Matrix { columns, rows, scalar } => {
                    let width = scalar.width as u32;
                    let column_stride =
                        if *rows == naga::VectorSize::Bi { 2 * width } else { 4 * width };
                    levels.push(Level {
                        index: step,
                        stride: column_stride,
                        bound: *columns as u32,
                    });
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

/// The traced globals that every traced access touches one whole element
/// at a time, by the words per element (2 or more): an array (not in a
/// struct) whose elements are at least 8 bytes, with no padding, that every
/// load, store and `workgroupUniformLoad` in `functions` indexes exactly
/// once and reads or writes whole (`tile[i]` of an `array<vec4<f32>, N>`,
/// never `tile[i].x` or the whole array).
///
/// For such a global every access touches words `c·i … c·i + c - 1`
/// together, with one invocation, one key and one side, so the racecheck's
/// shadow of those `c` words always holds the same values: checking the
/// first word finds exactly the hazards checking all `c` would, found `c`
/// times (the helpers count each `c` times, so the totals agree with the
/// interpreter's). Checking one word in `c` is what lets llvmpipe compile a
/// kernel that stages `vec4` tiles in workgroup memory: each check inlines
/// several atomics and branches, and 128 checks per slice took it 75 s
/// (docs/performance.md).
pub(crate) fn whole_element_globals<'f>(
    module: &Module,
    layouter: &naga::proc::Layouter,
    functions: impl IntoIterator<Item = &'f Function>,
    global_bytes: &impl Fn(Handle<GlobalVariable>) -> Option<u32>,
) -> std::collections::HashMap<Handle<GlobalVariable>, u32> {
    let mut words = std::collections::HashMap::new();
    let mut mixed = std::collections::HashSet::new();
    for f in functions {
        let mut pointers: Vec<Handle<Expression>> = f
            .expressions
            .iter()
            .filter_map(
                |(_, e)| if let Expression::Load { pointer } = *e { Some(pointer) } else { None },
            )
            .collect();
        statement_pointers(&f.body, &mut pointers);
        for pointer in pointers {
            let Some(res) = resolve(module, layouter, f, pointer, global_bytes) else { continue };
            let element = match module.types[module.global_variables[res.global].ty].inner {
                TypeInner::Array { base, stride, .. }
                    if stride >= 8 && layouter[base].size == stride =>
                {
                    Some(stride / 4)
                }
                _ => None,
            };
            let whole = res.levels.len() == 1
                && res.offset == 0
                && !res.atomic
                && element.is_some_and(|c| res.size == 4 * c);
            match (whole, element) {
                (true, Some(c)) => {
                    words.insert(res.global, c);
                }
                _ => {
                    mixed.insert(res.global);
                }
            }
        }
    }
    words.retain(|g, _| !mixed.contains(g));
    words
}

/// The pointers that `block`'s stores, atomics and `workgroupUniformLoad`s
/// access, at every depth.
fn statement_pointers(block: &naga::Block, out: &mut Vec<Handle<Expression>>) {
    for s in block.iter() {
        match s {
            naga::Statement::Store { pointer, .. }
            | naga::Statement::Atomic { pointer, .. }
            | naga::Statement::WorkGroupUniformLoad { pointer, .. } => out.push(*pointer),
            naga::Statement::Block(b) => statement_pointers(b, out),
            naga::Statement::If { accept, reject, .. } => {
                statement_pointers(accept, out);
                statement_pointers(reject, out);
            }
            naga::Statement::Switch { cases, .. } => {
                cases.iter().for_each(|c| statement_pointers(&c.body, out))
            }
            naga::Statement::Loop { body, continuing, .. } => {
                statement_pointers(body, out);
                statement_pointers(continuing, out);
            }
            _ => {}
        }
    }
}

/// The outermost array of a global's type: its byte offset, stride and
/// element count (for a runtime-sized one, in `bytes` of buffer), and the
/// struct member leading to it (`out.v`), if any.
pub(crate) fn outer_array(
    module: &Module,
    ty: Handle<naga::Type>,
    bytes: u32,
) -> Option<(u32, u32, u32, Option<String>)> {
    match &module.types[ty].inner {
        TypeInner::Array { size, stride, .. } => {
            let n = match size {
                ArraySize::Constant(n) => n.get(),
                _ => bytes / stride.max(&1),
            };
            Some((0, *stride, n, None))
        }
        TypeInner::Struct { members, .. } => {
            let m = members
                .iter()
                .find(|m| matches!(module.types[m.ty].inner, TypeInner::Array { .. }))?;
            // The member's array fills the bytes after its offset.
            let (off, stride, n, _) = outer_array(module, m.ty, bytes.saturating_sub(m.offset))?;
            Some((m.offset + off, stride, n, m.name.clone()))
        }
        _ => None,
    }
}

/// How the memory checks name and number a traced global's elements (the
/// CPU interpreter calls this too, so both judges report alike): the struct
/// member holding its outermost array (`v`, for a buffer named `out.v`), if
/// it is wrapped in a struct, the word of the global where that array
/// starts, and its words per element; findings number the element holding
/// word `w` of the global as `(w - first word) / words per element`. `None`
/// when the type holds no array (a workgroup scalar or a struct of scalars:
/// its findings name no element).
pub fn array_of(module: &Module, ty: Handle<naga::Type>) -> Option<ArrayOf> {
    outer_array(module, ty, 0).map(|(offset, stride, _, member)| ArrayOf {
        member,
        first_word: offset / 4,
        words_per_element: stride / 4,
    })
}

/// What [`array_of`] finds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrayOf {
    /// The struct member holding the array, when the global is a struct.
    pub member: Option<String>,
    /// The word of the global where the array starts.
    pub first_word: u32,
    /// 4-byte words per element (0 for elements narrower than a word).
    pub words_per_element: u32,
}

impl ArrayOf {
    /// The element holding word `word` of the global; `None` for a word
    /// before the array.
    pub fn element(&self, word: u32) -> Option<u32> {
        word.checked_sub(self.first_word).and_then(|w| w.checked_div(self.words_per_element))
    }
}

/// The root of an access chain: the expression under every `Access` and
/// `AccessIndex` from `h`.
pub(crate) fn root(f: &Function, mut h: Handle<Expression>) -> Handle<Expression> {
    while let Expression::Access { base, .. } | Expression::AccessIndex { base, .. } =
        f.expressions[h]
    {
        h = base;
    }
    h
}

/// The length an `Access { base, index }` must check at run time: the
/// element count of the array, vector or matrix `base` indexes (or points
/// to), when it is known and `index` is not a constant within it. `None`
/// for an index naga proves in bounds, or a runtime-sized array (whose
/// length the buffer's size gives; such arrays are traced whole).
/// naga decides ([`naga::proc::index::access_needs_check`], which its
/// back ends use to place their own bounds checks).
pub(crate) fn checked_length(
    module: &Module,
    f: &Function,
    info: &naga::valid::FunctionInfo,
    base: Handle<Expression>,
    index: Handle<Expression>,
) -> Option<u32> {
    // naga's check unwraps the length: only ask it about a known one.
    let IndexableLength::Known(n) =
        info[base].ty.inner_with(&module.types).indexable_length_resolved(module).ok()?
    else {
        return None;
    };
    naga::proc::index::access_needs_check(
        base,
        GuardedIndex::Expression(index),
        module,
        &f.expressions,
        info,
    )
    .map(|_| n)
}

/// How messages name what `base` (the base of an `Access`) is, and what
/// kind of memory or value it is: the root's name (a variable, an argument,
/// a named `let`) followed by the path to `base` (`.member`, `[2]`, and
/// `[…]` for a dynamic index), e.g. `m[…]` for the rows of a matrix array
/// `m`. The name is empty when the root has none (an unnamed value). Both
/// the GPU checks and the CPU interpreter name out-of-bounds accesses by
/// it, so they agree.
pub fn indexed_name(
    module: &Module,
    f: &Function,
    info: &naga::valid::FunctionInfo,
    base: Handle<Expression>,
) -> (String, MemoryKind) {
    let mut path = Vec::new();
    let mut cur = base;
    let (root, memory) = loop {
        match f.expressions[cur] {
            Expression::Access { base, .. } => {
                path.push("[…]".to_string());
                cur = base;
            }
            Expression::AccessIndex { base, index } => {
                let inner = info[base].ty.inner_with(&module.types);
                let inner = match inner {
                    TypeInner::Pointer { base, .. } => &module.types[*base].inner,
                    other => other,
                };
                path.push(match inner {
                    TypeInner::Struct { members, .. } => {
                        format!(
                            ".{}",
                            members
                                .get(index as usize)
                                .and_then(|m| m.name.clone())
                                .unwrap_or_else(|| index.to_string())
                        )
                    }
                    _ => format!("[{index}]"),
                });
                cur = base;
            }
            Expression::LocalVariable(l) => {
                break (f.local_variables[l].name.clone(), MemoryKind::Function)
            }
            Expression::GlobalVariable(g) => {
                let g = &module.global_variables[g];
                break (g.name.clone(), memory_of(g.space));
            }
            Expression::FunctionArgument(k) => {
                let arg = &f.arguments[k as usize];
                let memory = match module.types[arg.ty].inner {
                    TypeInner::Pointer { space, .. } => memory_of(space),
                    _ => MemoryKind::Value,
                };
                break (arg.name.clone(), memory);
            }
            _ => break (f.named_expressions.get(&cur).cloned(), MemoryKind::Value),
        }
    };
    path.reverse();
    let name = root.map(|r| r + &path.concat()).unwrap_or_default();
    (name, memory)
}

fn memory_of(space: AddressSpace) -> MemoryKind {
    match space {
        AddressSpace::Storage { .. } => MemoryKind::Storage,
        AddressSpace::Uniform => MemoryKind::Uniform,
        AddressSpace::WorkGroup => MemoryKind::Workgroup,
        AddressSpace::Private => MemoryKind::Private,
        AddressSpace::Function => MemoryKind::Function,
        _ => MemoryKind::Value,
    }
}
