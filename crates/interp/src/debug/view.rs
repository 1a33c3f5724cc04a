//! What the page draws of a debugging session: the grid of invocations and
//! their lines, an invocation's variables and the words it touched, and
//! memory (workgroup variables and buffers) with the last step's reads and
//! writes, each value formatted as a student writes it.

use super::Debugger;
use crate::exec::Status;
use crate::layout::Ty;
use crate::value::{Scalar, Space, Value};
use crate::Program;
use gpu_puzzles_verdict::trace::AccessKind;
use std::collections::BTreeSet;

/// Elements listed per invocation as read or written (the rest are
/// counted).
const TOUCHED_LISTED: usize = 32;

/// Where one invocation is, for the grid of invocations.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InvocationView {
    /// `local_invocation_id`.
    pub local_id: [u32; 3],
    /// `local_invocation_index`.
    pub local_index: u32,
    /// Running, waiting at a barrier, or done.
    pub status: Status,
    /// The line (in the student's text, from 1) of the statement it runs
    /// next, or of the barrier it waits at; `None` once done.
    pub line: Option<usize>,
    /// `(subgroup_id, subgroup_invocation_id)` when the shader uses
    /// subgroups.
    pub subgroup: Option<[u32; 2]>,
}

/// One memory region drawn as a grid: a storage buffer or a workgroup
/// variable, one cell per 32-bit word.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MemoryView {
    /// The buffer's or variable's name.
    pub name: String,
    /// A `var<workgroup>` (of the current workgroup) rather than a buffer.
    pub workgroup: bool,
    /// Each word, formatted as the region's scalar type.
    pub values: Vec<String>,
    /// Words the last step read.
    pub read: Vec<bool>,
    /// Words the last step wrote.
    pub written: Vec<bool>,
}

impl Debugger {
    /// Every invocation of the current workgroup.
    pub fn invocations(&self) -> Vec<InvocationView> {
        let subgroups = self.subgroup_size().is_some();
        self.dispatch
            .invocations
            .iter()
            .map(|i| InvocationView {
                local_id: i.ids.local,
                local_index: i.ids.local_index,
                status: i.status,
                line: if i.status == Status::Done { None } else { self.line_of(i) },
                subgroup: subgroups.then_some([i.ids.subgroup_id, i.ids.subgroup_invocation_id]),
            })
            .collect()
    }

    /// The lines invocations are on (running or waiting), for the editor's
    /// highlight, in order.
    pub fn lines(&self) -> Vec<usize> {
        lines_of(&self.invocations())
    }

    /// An invocation's built-in values and its variables (`var`s and named
    /// `let`s evaluated so far), innermost call last: `(name, value)`.
    pub fn variables(&self, local_index: u32) -> Vec<(String, String)> {
        let Some(inv) = self.dispatch.invocations.get(local_index as usize) else {
            return Vec::new();
        };
        let ids = inv.ids;
        let v3 = |v: [u32; 3]| format!("({}, {}, {})", v[0], v[1], v[2]);
        let mut out = vec![
            ("global_invocation_id".to_string(), v3(ids.global)),
            ("local_invocation_id".to_string(), v3(ids.local)),
            ("workgroup_id".to_string(), v3(ids.workgroup)),
            ("local_invocation_index".to_string(), ids.local_index.to_string()),
        ];
        let program = &self.prepared.program;
        for frame in &inv.frames {
            let f = program.function(frame.func);
            for (k, (_, l)) in f.local_variables.iter().enumerate() {
                // The copies `print(…)` makes are not the student's variables.
                if l.name.as_deref().and_then(gpu_puzzles_core::print::parse_value_name).is_some() {
                    continue;
                }
                let name = l.name.clone().unwrap_or_else(|| format!("var {k}"));
                let v = program.layouts.load(&program.module, frame.local(k), 0, Ty::Handle(l.ty));
                out.push((name, v.map_or_else(|_| "?".into(), |v| format_value(&v))));
            }
            for (h, name) in f.named_expressions.iter() {
                if let Some(v) = frame.value(*h).filter(|v| !matches!(v, Value::Pointer(_))) {
                    out.push((name.clone(), format_value(v)));
                }
            }
        }
        out
    }

    /// What an invocation read and wrote in this workgroup so far, as
    /// `name[index]` (at most 32 each, then a count).
    pub fn touched(&self, local_index: u32) -> (Vec<String>, Vec<String>) {
        let Some((reads, writes)) = self.touched.get(local_index as usize) else {
            return Default::default();
        };
        let list = |set: &BTreeSet<(Space, u32)>| {
            let mut v: Vec<String> = set
                .iter()
                .take(TOUCHED_LISTED)
                .map(|(s, w)| format!("{}[{w}]", self.region_name(*s)))
                .collect();
            if set.len() > TOUCHED_LISTED {
                v.push(format!("… {} more", set.len() - TOUCHED_LISTED));
            }
            v
        };
        (list(reads), list(writes))
    }

    fn region_name(&self, space: Space) -> String {
        let module = &self.prepared.program.module;
        match space {
            Space::Storage(k) => self.buffer_names.get(k as usize).cloned().unwrap_or_default(),
            Space::Workgroup(g) | Space::Private(g) => module
                .global_variables
                .iter()
                .nth(g as usize)
                .and_then(|(_, v)| v.name.clone())
                .unwrap_or_default(),
            Space::Uniform(k) => format!("uniform {k}"),
            Space::Function { .. } => "a local variable".into(),
            Space::Value => "a value".into(),
        }
    }

    /// Workgroup memory, then every storage buffer, with the last step's
    /// reads and writes.
    pub fn memories(&self) -> Vec<MemoryView> {
        let program = &self.prepared.program;
        let module = &program.module;
        let mut out = Vec::new();
        let mut view =
            |name: String, space: Space, words: &[u32], kind: naga::ScalarKind, workgroup: bool| {
                let mut read = vec![false; words.len()];
                let mut written = vec![false; words.len()];
                for (_, a) in self
                    .dispatch
                    .last_accesses
                    .iter()
                    .filter(|(_, a)| a.space == space && a.out_of_bounds.is_none())
                {
                    for w in a.offset / 4..(a.offset + a.bytes).div_ceil(4) {
                        let w = w as usize;
                        if w < words.len() {
                            read[w] |= a.kind != AccessKind::Write;
                            written[w] |= a.kind != AccessKind::Read;
                        }
                    }
                }
                let values = words
                    .iter()
                    .map(|w| {
                        Scalar::from_word(kind, *w).map_or_else(|_| w.to_string(), format_scalar)
                    })
                    .collect();
                out.push(MemoryView { name, workgroup, values, read, written });
            };
        for (h, g) in module.global_variables.iter() {
            if g.space == naga::AddressSpace::WorkGroup {
                let words = &self.dispatch.memory.workgroup[h.index()];
                view(
                    g.name.clone().unwrap_or_default(),
                    Space::Workgroup(h.index() as u32),
                    words,
                    scalar_kind(program, g.ty),
                    true,
                );
            }
        }
        for (k, words) in self.dispatch.memory.storage.iter().enumerate() {
            let kind = module
                .global_variables
                .iter()
                .find(|(h, _)| {
                    self.dispatch.memory.bindings.get(h.index())
                        == Some(&Some(Space::Storage(k as u32)))
                })
                .map_or(naga::ScalarKind::Float, |(_, g)| scalar_kind(program, g.ty));
            view(self.buffer_names[k].clone(), Space::Storage(k as u32), words, kind, false);
        }
        out
    }
}

/// The distinct lines of `invocations` (running or waiting), in order.
pub fn lines_of(invocations: &[InvocationView]) -> Vec<usize> {
    let set: BTreeSet<usize> = invocations.iter().filter_map(|i| i.line).collect();
    set.into_iter().collect()
}

/// The scalar kind of a type's innermost scalar (`f32` for
/// `array<vec4<f32>, 4>`).
fn scalar_kind(program: &Program, ty: naga::Handle<naga::Type>) -> naga::ScalarKind {
    use naga::TypeInner as T;
    match &program.module.types[ty].inner {
        T::Scalar(s) | T::Atomic(s) | T::Vector { scalar: s, .. } | T::Matrix { scalar: s, .. } => {
            s.kind
        }
        T::Array { base, .. } => scalar_kind(program, *base),
        T::Struct { members, .. } => {
            members.last().map_or(naga::ScalarKind::Float, |m| scalar_kind(program, m.ty))
        }
        _ => naga::ScalarKind::Uint,
    }
}

fn format_scalar(s: Scalar) -> String {
    match s {
        Scalar::Bool(b) => b.to_string(),
        Scalar::I32(v) => v.to_string(),
        Scalar::U32(v) => v.to_string(),
        Scalar::F32(v) => gpu_puzzles_core::model::format_f32(v),
    }
}

/// A value as a student writes it: `3`, `vec3(1, 2, 3)`, `[1, 2, …]`.
pub fn format_value(v: &Value) -> String {
    match v {
        Value::Scalar(s) => format_scalar(*s),
        Value::Vector(c) => format!(
            "vec{}({})",
            c.len(),
            c.iter().map(|s| format_scalar(*s)).collect::<Vec<_>>().join(", ")
        ),
        Value::Composite(items) => {
            let shown: Vec<String> = items.iter().take(8).map(format_value).collect();
            let more = if items.len() > 8 {
                format!(", … ({} in all)", items.len())
            } else {
                String::new()
            };
            format!("[{}{more}]", shown.join(", "))
        }
        Value::Pointer(_) => "a pointer".into(),
    }
}
