//! Checks of a case's configuration against the device's limits, before
//! anything is dispatched, as typed problems that
//! [`gpu_puzzles_core::report::config_problem`] words.

use gpu_puzzles_core::judge::ConfigProblem;
use gpu_puzzles_core::{Case, Puzzle};

/// Bytes per element of every buffer and of workgroup memory (`f32`, `i32`,
/// `u32`).
const ELEMENT_BYTES: u64 = 4;

/// Checks the workgroup size, the number of workgroups, the workgroup memory
/// size and the buffer sizes of `case` against `limits` (field names are
/// WebGPU's, <https://www.w3.org/TR/webgpu/#limits>).
///
/// # Errors
/// The first limit the case goes past, with the value and the limit.
pub fn check_config(puzzle: &Puzzle, case: &Case, limits: &wgpu::Limits) -> Result<(), ConfigProblem> {
    let c = &case.config;
    let max_size = [limits.max_compute_workgroup_size_x, limits.max_compute_workgroup_size_y, limits.max_compute_workgroup_size_z];
    for (axis, (&size, &max)) in c.workgroup_size.iter().zip(&max_size).enumerate() {
        if size > max {
            return Err(ConfigProblem::WorkgroupSize { axis, size, max });
        }
    }
    if c.invocations_per_workgroup() > limits.max_compute_invocations_per_workgroup as u64 {
        return Err(ConfigProblem::InvocationsPerWorkgroup { workgroup_size: c.workgroup_size, max: limits.max_compute_invocations_per_workgroup });
    }
    for (axis, &count) in c.workgroups.iter().enumerate() {
        if count > limits.max_compute_workgroups_per_dimension {
            return Err(ConfigProblem::Workgroups { axis, count, max: limits.max_compute_workgroups_per_dimension });
        }
    }
    if c.workgroup_memory.is_some() && c.workgroup_memory_elements() * ELEMENT_BYTES > limits.max_compute_workgroup_storage_size as u64 {
        return Err(ConfigProblem::CaseWorkgroupMemory { elements: c.workgroup_memory_elements(), max: limits.max_compute_workgroup_storage_size as u64 });
    }
    if puzzle.buffers.len() > limits.max_storage_buffers_per_shader_stage as usize {
        return Err(ConfigProblem::StorageBuffers { count: puzzle.buffers.len(), max: limits.max_storage_buffers_per_shader_stage });
    }
    for (b, cb) in puzzle.buffers.iter().zip(&case.buffers) {
        let bytes = cb.initial.len() as u64 * ELEMENT_BYTES;
        let max = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
        if bytes > max {
            return Err(ConfigProblem::BufferSize { buffer: b.name.clone(), bytes, max });
        }
    }
    Ok(())
}
