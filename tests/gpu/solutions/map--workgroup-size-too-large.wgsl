// expect: compile-error
// message: 256
// A literal workgroup size above the 256 invocations WebGPU guarantees.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1024)
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    if (local_id.x < arrayLength(&a)) { out[local_id.x] = a[local_id.x] + 10.0; }
}
