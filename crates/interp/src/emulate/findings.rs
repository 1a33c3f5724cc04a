//! The interpreter's record of a run as the findings an instrumented GPU
//! run gives: heat-map counts, out-of-bounds accesses and races, named and
//! placed as the GPU run's checks name and place them.

use super::{place, Prepared, OOB_DETAILS};
use crate::dispatch::Record;
use crate::value::Space;
use gpu_puzzles_core::Puzzle;
use gpu_puzzles_verdict::print::PrintLog;
use gpu_puzzles_verdict::trace::{
    invocation, BufferTrace, Findings, Hazard, HazardAccess, MemoryKind, OutOfBounds,
    OutOfBoundsAccess, Site,
};

pub(super) fn empty_findings() -> Findings {
    Findings {
        buffers: Vec::new(),
        invocations: Vec::new(),
        out_of_bounds: Vec::new(),
        hazards: Vec::new(),
        hazard_total: 0,
        runaway_loop: None,
        unchecked: Vec::new(),
        workgroup_size: [0; 3],
        prints: PrintLog::default(),
    }
}

/// The record as the findings an instrumented GPU run gives.
pub(super) fn findings(record: &Record, p: &Prepared, puzzle: &Puzzle) -> Findings {
    let Prepared { program, shader, config, .. } = p;
    let (sub, source) = (shader.sub(), shader.source());
    let site = |span: naga::Span| {
        place(sub, source, span).map(|p| Site { line: p.line, column: p.column })
    };
    // Storage buffers and workgroup variables by the names of the GPU run's
    // spaces; hazards happen only there.
    // The global variable declaring puzzle buffer `k`, if the shader declares it.
    let storage_global = |k: u32| {
        let binding = puzzle.buffers[k as usize].binding;
        program
            .module
            .global_variables
            .iter()
            .find(|(_, g)| g.binding.as_ref().is_some_and(|b| b.group == 0 && b.binding == binding))
            .map(|(_, g)| g)
    };
    let name_of = |space: Space| -> (String, MemoryKind) {
        let global = |k: u32| {
            program
                .module
                .global_variables
                .iter()
                .nth(k as usize)
                .and_then(|(_, g)| g.name.clone())
                .unwrap_or_default()
        };
        match space {
            Space::Storage(k) => {
                let name = storage_global(k)
                    .and_then(|g| g.name.clone())
                    .unwrap_or_else(|| puzzle.buffers[k as usize].name.clone());
                // A struct-wrapped buffer is named by its array member, as
                // the GPU run's checks name it (`out.v`).
                let member = storage_global(k)
                    .and_then(|g| gpu_puzzles_instrument::array_of(&program.module, g.ty))
                    .and_then(|a| a.member);
                (member.map_or(name.clone(), |m| format!("{name}.{m}")), MemoryKind::Storage)
            }
            Space::Workgroup(g) => {
                // Named by the struct member holding its array, as buffers are.
                let member = program
                    .module
                    .global_variables
                    .iter()
                    .nth(g as usize)
                    .and_then(|(_, v)| gpu_puzzles_instrument::array_of(&program.module, v.ty))
                    .and_then(|a| a.member);
                (member.map_or(global(g), |m| format!("{}.{m}", global(g))), MemoryKind::Workgroup)
            }
            Space::Uniform(k) => (puzzle.uniforms[k as usize].name.clone(), MemoryKind::Uniform),
            Space::Private(g) => (global(g), MemoryKind::Private),
            Space::Function { .. } => ("a local variable".into(), MemoryKind::Function),
            Space::Value => (String::new(), MemoryKind::Value),
        }
    };
    let mut out_of_bounds: Vec<OutOfBounds> = Vec::new();
    // The GPU run lists its spaces as storage buffers in binding order, then
    // workgroup variables in declaration order, then the rest: the same
    // order here, so both name the same access first.
    let mut order: Vec<(u8, u32)> = Vec::new();
    for (id, a) in &record.out_of_bounds {
        let oob = a.out_of_bounds.expect("recorded as out of bounds");
        // Elsewhere, by what the access indexes, as the GPU run's bounds
        // checks name it.
        let (name, memory) = match a.space {
            Space::Storage(_) | Space::Workgroup(_) => name_of(a.space),
            _ => gpu_puzzles_instrument::indexed_name(
                &program.module,
                program.function(oob.func),
                program.function_info(oob.func),
                oob.base,
            ),
        };
        let access = OutOfBoundsAccess {
            index: oob.index,
            invocation: invocation(*id, config),
            site: site(a.span),
        };
        match out_of_bounds.iter_mut().find(|o| {
            o.space == name && o.memory == memory && o.kind == a.kind && o.elements == oob.length
        }) {
            Some(o) => {
                o.total += 1;
                if o.first.len() < OOB_DETAILS {
                    o.first.push(access);
                }
            }
            None => {
                order.push(match a.space {
                    Space::Storage(k) => (0, k),
                    Space::Workgroup(g) => (1, g),
                    _ => (2, order.len() as u32),
                });
                out_of_bounds.push(OutOfBounds {
                    space: name,
                    memory,
                    kind: a.kind,
                    total: 1,
                    elements: oob.length,
                    first: vec![access],
                });
            }
        }
    }
    let mut keyed: Vec<((u8, u32), OutOfBounds)> = order.into_iter().zip(out_of_bounds).collect();
    keyed.sort_by_key(|(k, _)| *k);
    let out_of_bounds: Vec<OutOfBounds> = keyed.into_iter().map(|(_, o)| o).collect();
    let buffers = (0..record.reads.len())
        .map(|k| BufferTrace {
            reads: record.reads[k].clone(),
            writes: record.writes[k].clone(),
            writer: record.writer[k].clone(),
        })
        .collect();
    let hazards = record
        .races
        .iter()
        .map(|(r, entry, dispatch)| {
            let (space, memory) = name_of(r.space);
            let workgroup_memory = memory == MemoryKind::Workgroup;
            let side = |m: &crate::race::Mark| HazardAccess {
                invocation: invocation(m.id, config),
                kind: m.kind,
                site: site(m.span),
            };
            Hazard {
                kind: r.kind,
                space,
                workgroup_memory,
                element: match r.space {
                    Space::Workgroup(g) => element_of(
                        &program.module,
                        program.module.global_variables.iter().nth(g as usize).map(|(_, v)| v),
                        r.word,
                    ),
                    Space::Storage(k) => element_of(&program.module, storage_global(k), r.word),
                    _ => Some(r.word),
                },
                entry_point: program.module.entry_points[*entry].name.clone(),
                dispatch: *dispatch,
                across_workgroups: r.first.workgroup != r.second.workgroup,
                first: side(&r.first),
                second: side(&r.second),
            }
        })
        .collect();
    Findings {
        buffers,
        invocations: record.invocations.clone(),
        out_of_bounds,
        hazards,
        hazard_total: record.race_total,
        workgroup_size: config.workgroup_size,
        prints: {
            let mut log = PrintLog { lines: record.prints.clone(), dropped: record.prints_dropped };
            log.sort();
            log
        },
        ..empty_findings()
    }
}

/// The element of word `word` of `global`'s outermost array, numbered as
/// the GPU run's findings number it ([`gpu_puzzles_instrument::array_of`]);
/// `None` for a global whose type holds no array (a scalar or a structure
/// of scalars). A buffer the shader does not declare is counted in words.
fn element_of(
    module: &naga::Module,
    global: Option<&naga::GlobalVariable>,
    word: u32,
) -> Option<u32> {
    match global {
        Some(g) => gpu_puzzles_instrument::array_of(module, g.ty).and_then(|a| a.element(word)),
        None => Some(word),
    }
}
