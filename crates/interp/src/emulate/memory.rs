//! The interpreter's memory for a case: its buffers bound to the shader's
//! variables, and the uniforms each dispatch sees.

use super::Prepared;
use crate::exec::Memory;
use crate::value::Space;
use crate::Program;
use gpu_puzzles_core::{Case, Puzzle};

/// One dispatch of a case, ready to run.
#[derive(Debug, Clone)]
pub struct Step {
    /// The module's entry point.
    pub entry: usize,
    /// Its place in [`Puzzle::entry_points`], which numbers dispatches in
    /// hazards as the GPU's trace does.
    pub dispatch: u32,
    /// A per-dispatch uniform (index into [`Puzzle::uniforms`]) and its
    /// words for this dispatch.
    pub uniform: Option<(usize, Vec<u32>)>,
}

impl Prepared {
    /// `memory` with the uniforms dispatch `k` sees: the case's, and its
    /// own values of a per-dispatch uniform.
    pub(crate) fn memory_for(&self, k: usize, mut memory: Memory) -> Memory {
        memory.uniforms.clone_from(&self.memory.uniforms);
        if let Some((u, words)) = &self.steps[k].uniform {
            memory.uniforms[*u].clone_from(words);
        }
        memory
    }
}

/// The case's buffers as the interpreter's memory, bound to the shader's
/// variables by binding number.
pub(super) fn memory(puzzle: &Puzzle, case: &Case, program: &Program) -> Memory {
    let words = |bytes: &[u8]| {
        bytes
            .chunks(4)
            .map(|c| c.iter().rev().fold(0u32, |w, b| (w << 8) | *b as u32))
            .collect::<Vec<u32>>()
    };
    let mut m = Memory {
        storage: case.buffers.iter().map(|cb| words(&cb.initial.to_bytes())).collect(),
        uniforms: case.uniforms.iter().map(|u| words(u)).collect(),
        workgroup: Vec::new(),
        bindings: vec![None; program.module.global_variables.len()],
    };
    for (h, g) in program.module.global_variables.iter() {
        let Some(rb) = &g.binding else { continue };
        let space = match g.space {
            naga::AddressSpace::Storage { .. } => puzzle
                .buffers
                .iter()
                .position(|b| b.binding == rb.binding)
                .map(|k| Space::Storage(k as u32)),
            naga::AddressSpace::Uniform => puzzle
                .uniforms
                .iter()
                .position(|u| u.binding == rb.binding)
                .map(|k| Space::Uniform(k as u32)),
            _ => None,
        };
        m.bindings[h.index()] = space;
    }
    m
}
