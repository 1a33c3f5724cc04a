// expect: passed
// Correct: the length, shared through workgroupUniformLoad, is uniform, so
// the loop bound and the barrier in it are too.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;
var<workgroup> count: u32;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>, @builtin(global_invocation_id) global_id: vec3<u32>) {
    if (local_id.x == 0u) {
        count = arrayLength(&a);
    }
    let n = workgroupUniformLoad(&count);
    let i = global_id.x;
    if (i < n) {
        smem[local_id.x] = a[i];
    }
    workgroupBarrier();
    if (i < n) {
        out[i] = smem[local_id.x] + 10.0;
    }
}
