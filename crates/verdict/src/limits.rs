//! Checks of a case against a device before anything runs, as typed
//! problems that [`crate::report::config_problem`] words: the
//! configuration against the device's limits, and the student's binding
//! declarations against the puzzle's buffers. Shared by the GPU runner
//! (with the device's limits) and the CPU interpreter (with WebGPU's
//! defaults), so both give a student the same answer.

use crate::outcome::ConfigProblem;
use gpu_puzzles_core::wgsl::{declarations, Declared};
use gpu_puzzles_core::{Case, Puzzle, Role};

/// Bytes per element of every buffer and of workgroup memory (`f32`, `i32`,
/// `u32`).
const ELEMENT_BYTES: u64 = 4;

/// The device limits a case is checked against. Field names are WebGPU's
/// (<https://www.w3.org/TR/webgpu/#limits>); sizes are in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// `maxComputeWorkgroupSizeX`, `…Y`, `…Z`.
    pub max_compute_workgroup_size: [u32; 3],
    /// `maxComputeInvocationsPerWorkgroup`.
    pub max_compute_invocations_per_workgroup: u32,
    /// `maxComputeWorkgroupsPerDimension`.
    pub max_compute_workgroups_per_dimension: u32,
    /// `maxComputeWorkgroupStorageSize`, bytes.
    pub max_compute_workgroup_storage_size: u32,
    /// `maxStorageBuffersPerShaderStage`.
    pub max_storage_buffers_per_shader_stage: u32,
    /// The smaller of `maxStorageBufferBindingSize` and `maxBufferSize`,
    /// bytes.
    pub max_storage_buffer_bytes: u64,
}

impl Limits {
    /// WebGPU's default limits, which every adapter supports (the
    /// specification's table of limits, "default" column).
    pub const WEBGPU_DEFAULT: Limits = Limits {
        max_compute_workgroup_size: [256, 256, 64],
        max_compute_invocations_per_workgroup: 256,
        max_compute_workgroups_per_dimension: 65535,
        max_compute_workgroup_storage_size: 16384,
        max_storage_buffers_per_shader_stage: 8,
        max_storage_buffer_bytes: 134_217_728,
    };
}

/// Checks the workgroup size, the number of workgroups, the workgroup memory
/// size and the buffer sizes of `case` against `limits`.
///
/// # Errors
/// The first limit the case goes past, with the value and the limit.
pub fn check_config(puzzle: &Puzzle, case: &Case, limits: &Limits) -> Result<(), ConfigProblem> {
    let c = &case.config;
    for (axis, (&size, &max)) in
        c.workgroup_size.iter().zip(&limits.max_compute_workgroup_size).enumerate()
    {
        if size > max {
            return Err(ConfigProblem::WorkgroupSize { axis, size, max });
        }
    }
    if c.invocations_per_workgroup() > limits.max_compute_invocations_per_workgroup as u64 {
        return Err(ConfigProblem::InvocationsPerWorkgroup {
            workgroup_size: c.workgroup_size,
            max: limits.max_compute_invocations_per_workgroup,
        });
    }
    for (axis, &count) in c.workgroups.iter().enumerate() {
        if count > limits.max_compute_workgroups_per_dimension {
            return Err(ConfigProblem::Workgroups {
                axis,
                count,
                max: limits.max_compute_workgroups_per_dimension,
            });
        }
    }
    if c.workgroup_memory.is_some()
        && c.workgroup_memory_elements() * ELEMENT_BYTES
            > limits.max_compute_workgroup_storage_size as u64
    {
        return Err(ConfigProblem::CaseWorkgroupMemory {
            elements: c.workgroup_memory_elements(),
            max: limits.max_compute_workgroup_storage_size as u64,
        });
    }
    if puzzle.buffers.len() > limits.max_storage_buffers_per_shader_stage as usize {
        return Err(ConfigProblem::StorageBuffers {
            count: puzzle.buffers.len(),
            max: limits.max_storage_buffers_per_shader_stage,
        });
    }
    for (b, cb) in puzzle.buffers.iter().zip(&case.buffers) {
        let bytes = cb.initial.len() as u64 * ELEMENT_BYTES;
        if bytes > limits.max_storage_buffer_bytes {
            return Err(ConfigProblem::BufferSize {
                buffer: b.name.clone(),
                bytes,
                max: limits.max_storage_buffer_bytes,
            });
        }
    }
    Ok(())
}

/// How a binding is bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BindingKind {
    /// A storage buffer, read-only or read-write.
    Storage {
        /// Declared `read` (or undeclared and an input).
        read_only: bool,
    },
    /// A uniform buffer.
    Uniform,
}

/// What to try when the shader lacks one of the puzzle's entry points: the
/// declaration each needs, and their dispatch order when there are several.
/// The GPU runner and the CPU interpreter both end their messages with it.
pub fn entry_point_hint(puzzle: &Puzzle) -> String {
    match puzzle.entry_points.as_slice() {
        [one] => format!("The entry point must be `@compute @workgroup_size({{{{workgroupSize}}}}) fn {one}(…)`."),
        names => {
            let order: Vec<String> = names.iter().map(|e| format!("`{e}`")).collect();
            format!(
                "This puzzle dispatches the entry points {} in that order; each needs `@compute @workgroup_size({{{{workgroupSize}}}})`.",
                order.join(" then ")
            )
        }
    }
}

/// The bindings of the puzzle's buffers (in the puzzle's order, storage
/// buffers then uniforms), with each storage buffer's access mode taken
/// from the student's declaration in `source`.
///
/// # Errors
/// A binding outside group 0, one the puzzle does not have, or a storage
/// buffer declared `var<uniform>`.
pub fn bindings(puzzle: &Puzzle, source: &str) -> Result<Vec<(u32, BindingKind)>, ConfigProblem> {
    let declared = declarations(source);
    for d in declared.values() {
        if d.group != 0 {
            return Err(ConfigProblem::NotGroupZero { group: d.group, binding: d.binding });
        }
        let known = puzzle.buffers.iter().any(|b| b.binding == d.binding)
            || puzzle.uniforms.iter().any(|u| u.binding == d.binding);
        if !known {
            let known = puzzle
                .buffers
                .iter()
                .map(|b| (b.name.clone(), b.binding))
                .chain(puzzle.uniforms.iter().map(|u| (u.name.clone(), u.binding)))
                .collect();
            return Err(ConfigProblem::UnknownBinding { binding: d.binding, known });
        }
    }
    let mut out = Vec::new();
    for b in &puzzle.buffers {
        let read_only = match declared.get(&b.binding).map(|d| d.declared) {
            Some(Declared::StorageRead) => true,
            Some(Declared::StorageReadWrite) => false,
            Some(Declared::Uniform) => {
                return Err(ConfigProblem::UniformForStorage {
                    binding: b.binding,
                    buffer: b.name.clone(),
                })
            }
            None => b.role == Role::Input,
        };
        out.push((b.binding, BindingKind::Storage { read_only }));
    }
    out.extend(puzzle.uniforms.iter().map(|u| (u.binding, BindingKind::Uniform)));
    Ok(out)
}
