// expect: compile-error
// The entry point must be called `main`.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn start(@builtin(local_invocation_id) local_id: vec3<u32>) {
    out[local_id.x] = a[local_id.x] + 10.0;
}
