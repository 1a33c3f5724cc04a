// expect: compile-error at 14:5
// message: the `return` at line 12 is taken by only some invocations
// Wrong on purpose: invocations past the end return before the barrier, so
// the others wait at it without them. Browsers reject this; naga does not, so
// the native runner's synccheck must, at the barrier's line.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>, @builtin(global_invocation_id) global_id: vec3<u32>) {
    if (global_id.x >= arrayLength(&a)) { return; }
    smem[local_id.x] = a[global_id.x];
    workgroupBarrier();
    out[global_id.x] = smem[local_id.x] + 10.0;
}
