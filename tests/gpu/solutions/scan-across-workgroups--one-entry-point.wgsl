// expect: compile-error
// message: dispatches the entry points `scan_blocks` then `add_offsets`
// Only the first entry point: the pipeline for the second cannot be created.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> block_sums: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn scan_blocks(@builtin(global_invocation_id) global_id: vec3<u32>) {
    if (global_id.x < arrayLength(&a)) {
        out[global_id.x] = a[global_id.x];
    }
}
