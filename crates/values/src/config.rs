//! The sizes of a dispatch.

use serde::{Deserialize, Serialize};

/// Workgroup size, dispatch size and workgroup memory size of a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseConfig {
    /// `@workgroup_size(x, y, z)`: invocations per workgroup per dimension.
    pub workgroup_size: [u32; 3],
    /// Workgroups dispatched per dimension (`dispatch_workgroups(x, y, z)`).
    pub workgroups: [u32; 3],
    /// Workgroup memory size in elements per dimension, if the puzzle uses
    /// workgroup memory.
    pub workgroup_memory: Option<[u32; 3]>,
}

impl CaseConfig {
    /// Invocations per workgroup: the product of the workgroup size.
    pub fn invocations_per_workgroup(&self) -> u64 {
        self.workgroup_size.iter().map(|&v| v as u64).product()
    }

    /// Total invocations of the dispatch.
    pub fn total_invocations(&self) -> u64 {
        self.invocations_per_workgroup()
            * self.workgroups.iter().map(|&v| v as u64).product::<u64>()
    }

    /// This case as a GPU runs it with a shader whose entry points declare
    /// the workgroup sizes `declared`: the shader's workgroup size (per
    /// dimension the largest, when entry points differ) with the case's
    /// workgroups and workgroup memory. In WebGPU the workgroup size is the
    /// entry point's `@workgroup_size` attribute and `dispatchWorkgroups`
    /// counts workgroups only (WGSL's `workgroup_size` attribute, WebGPU's
    /// `GPUComputePassEncoder.dispatchWorkgroups`), so a shader that
    /// writes a literal size instead of `{{workgroupSize}}` runs that many
    /// invocations per workgroup; findings must number them by it. With no
    /// size declared, the case's own.
    pub fn as_declared(&self, declared: impl IntoIterator<Item = [u32; 3]>) -> CaseConfig {
        let largest = declared.into_iter().reduce(|a, b| [0, 1, 2].map(|k| a[k].max(b[k])));
        CaseConfig { workgroup_size: largest.unwrap_or(self.workgroup_size), ..*self }
    }

    /// Value of `{{smemSize}}`: the product of the workgroup memory size in
    /// elements, or 1 when the puzzle uses none.
    pub fn workgroup_memory_elements(&self) -> u64 {
        self.workgroup_memory.map(|m| m.iter().map(|&v| v as u64).product()).unwrap_or(1)
    }
}
