// expect: over-budget
// message: allows 1 per workgroup
// Right sums, but invocation 0 clears its output before writing it: two writes per workgroup.
const wgs = vec3({{workgroupSize}});
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    if (i == 0u && workgroup_id.x < arrayLength(&out)) {
        out[workgroup_id.x] = 0.0;
    }
    var v = 0.0;
    if (global_id.x < arrayLength(&a)) {
        v = a[global_id.x];
    }
    smem[i] = v;
    workgroupBarrier();
    for (var stride = u32(wgs.x) / 2u; stride > 0u; stride /= 2u) {
        if (i < stride) {
            smem[i] += smem[i + stride];
        }
        workgroupBarrier();
    }
    if (i == 0u && workgroup_id.x < arrayLength(&out)) {
        out[workgroup_id.x] = smem[0];
    }
}
