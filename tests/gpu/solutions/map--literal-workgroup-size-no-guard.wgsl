// expect: memory-error in some cases
// message: workgroup_id (0, 0, 0), local_invocation_id (
// Wrong on purpose: a literal workgroup size instead of {{workgroupSize}}
// and no guard. The GPU runs 64 invocations per workgroup whatever the
// case's size, so the writes past the end must be numbered by 64: every
// one is in workgroup 0 (each case dispatches one workgroup).
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    out[local_id.x] = a[min(local_id.x, arrayLength(&a) - 1u)] + 10.0;
}
