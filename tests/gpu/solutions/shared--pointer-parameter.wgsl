// expect: compile-error at 9:1
// message: Argument 'tile' at index 0 is a pointer of space WorkGroup
// Correct in a browser with WGSL's unrestricted_pointer_parameters, but naga
// (the checker, and the native compiler) does not implement it: the memory
// checks could not run, so the judge refuses it at the function's line.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;
fn stage(tile: ptr<workgroup, array<f32, {{smemSize}}>>, k: u32, v: f32) {
    (*tile)[k] = v;
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>, @builtin(global_invocation_id) global_id: vec3<u32>) {
    let i = global_id.x;
    let n = arrayLength(&a);
    if (i < n) {
        stage(&smem, local_id.x, a[i]);
    }
    workgroupBarrier();
    if (i < n) {
        out[i] = smem[local_id.x] + 10.0;
    }
}
