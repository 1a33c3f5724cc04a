//! The device's limits as [`gpu_puzzles_verdict::limits::Limits`], for the
//! checks core makes before anything runs.

use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_verdict::judge::ConfigProblem;
use gpu_puzzles_verdict::limits::Limits;

/// wgpu's limits as core's.
pub fn limits_of(limits: &wgpu::Limits) -> Limits {
    Limits {
        max_compute_workgroup_size: [
            limits.max_compute_workgroup_size_x,
            limits.max_compute_workgroup_size_y,
            limits.max_compute_workgroup_size_z,
        ],
        max_compute_invocations_per_workgroup: limits.max_compute_invocations_per_workgroup,
        max_compute_workgroups_per_dimension: limits.max_compute_workgroups_per_dimension,
        max_compute_workgroup_storage_size: limits.max_compute_workgroup_storage_size,
        max_storage_buffers_per_shader_stage: limits.max_storage_buffers_per_shader_stage,
        max_storage_buffer_bytes: limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size),
    }
}

/// [`gpu_puzzles_verdict::limits::check_config`] against a device's limits.
///
/// # Errors
/// The first limit the case goes past, with the value and the limit.
pub fn check_config(
    puzzle: &Puzzle,
    case: &Case,
    limits: &wgpu::Limits,
) -> Result<(), ConfigProblem> {
    gpu_puzzles_verdict::limits::check_config(puzzle, case, &limits_of(limits))
}
