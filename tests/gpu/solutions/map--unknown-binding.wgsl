// expect: config-error
// Binding 5 is not one of the puzzle's buffers.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(5) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    out[local_id.x] = a[local_id.x] + 10.0;
}
