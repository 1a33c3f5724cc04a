//! Checks of a case's configuration against the device's limits, before
//! anything is dispatched, with messages a student can act on.

use gpu_puzzles_core::{Case, Puzzle};

/// Bytes per element of every buffer and of workgroup memory (`f32`, `i32`,
/// `u32`).
const ELEMENT_BYTES: u64 = 4;

/// Checks the workgroup size, the number of workgroups, the workgroup memory
/// size and the buffer sizes of `case` against `limits` (field names are
/// WebGPU's, <https://www.w3.org/TR/webgpu/#limits>).
///
/// # Errors
/// A message for the student naming the limit, the value and what to try.
pub fn check_config(puzzle: &Puzzle, case: &Case, limits: &wgpu::Limits) -> Result<(), String> {
    let c = &case.config;
    let max_size = [limits.max_compute_workgroup_size_x, limits.max_compute_workgroup_size_y, limits.max_compute_workgroup_size_z];
    for (axis, (&size, &max)) in ["x", "y", "z"].iter().zip(c.workgroup_size.iter().zip(&max_size)) {
        if size > max {
            return Err(format!(
                "workgroup size {axis} = {size} is above this device's limit of {max} (maxComputeWorkgroupSize{}); use a smaller workgroup and more workgroups",
                axis.to_uppercase()
            ));
        }
    }
    let invocations = c.invocations_per_workgroup();
    if invocations > limits.max_compute_invocations_per_workgroup as u64 {
        return Err(format!(
            "a workgroup of {} × {} × {} = {invocations} invocations is above this device's limit of {} (maxComputeInvocationsPerWorkgroup)",
            c.workgroup_size[0], c.workgroup_size[1], c.workgroup_size[2], limits.max_compute_invocations_per_workgroup
        ));
    }
    for (axis, &n) in ["x", "y", "z"].iter().zip(&c.workgroups) {
        if n > limits.max_compute_workgroups_per_dimension {
            return Err(format!(
                "{n} workgroups along {axis} is above this device's limit of {} (maxComputeWorkgroupsPerDimension); give each workgroup more work",
                limits.max_compute_workgroups_per_dimension
            ));
        }
    }
    if c.workgroup_memory.is_some() {
        let bytes = c.workgroup_memory_elements() * ELEMENT_BYTES;
        if bytes > limits.max_compute_workgroup_storage_size as u64 {
            return Err(format!(
                "workgroup memory of {} elements ({bytes} bytes) is above this device's limit of {} bytes (maxComputeWorkgroupStorageSize)",
                c.workgroup_memory_elements(),
                limits.max_compute_workgroup_storage_size
            ));
        }
    }
    if puzzle.buffers.len() > limits.max_storage_buffers_per_shader_stage as usize {
        return Err(format!(
            "the puzzle binds {} storage buffers but this device allows {} (maxStorageBuffersPerShaderStage)",
            puzzle.buffers.len(),
            limits.max_storage_buffers_per_shader_stage
        ));
    }
    for (b, cb) in puzzle.buffers.iter().zip(&case.buffers) {
        let bytes = cb.initial.len() as u64 * ELEMENT_BYTES;
        let max = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
        if bytes > max {
            return Err(format!("buffer `{}` needs {bytes} bytes, above this device's limit of {max} bytes (maxStorageBufferBindingSize)", b.name));
        }
    }
    Ok(())
}
