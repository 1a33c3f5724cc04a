// expect: memory-error in some cases
// message: workgroup_id (0, 0, 0), local_invocation_id (
// Wrong on purpose: the workgroup size is a pipeline-overridable constant
// (its default, 64, is what runs: no pipeline constants are set) and there
// is no guard. The writes past the end must be numbered by 64 invocations
// per workgroup, so every one is in workgroup 0.
override block: u32 = 32u * 2u;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(block)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    out[gid.x] = a[min(gid.x, arrayLength(&a) - 1u)] + 10.0;
}
