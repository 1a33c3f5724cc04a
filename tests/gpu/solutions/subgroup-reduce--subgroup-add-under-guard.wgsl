// expect: compile-error at 25:13
enable subgroups;
// Wrong on purpose: subgroupAdd is called inside the bounds check, so only
// the invocations with an element call it. That is non-uniform control
// flow, which WGSL forbids for subgroup operations, as for barriers: the
// shader does not compile. Load inside the `if`, add outside it.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> partials: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let i = local_id.x;
    var s = 0.0;
    if (global_id.x < arrayLength(&a)) {
        s = subgroupAdd(a[global_id.x]);
    }
    if (lane == 0u) {
        partials[i / sg_size] = s;
    }
    workgroupBarrier();
    let count = (W + sg_size - 1u) / sg_size;
    var t = 0.0;
    if (i < sg_size) {
        for (var k = lane; k < count; k += sg_size) {
            t += partials[k];
        }
    }
    let total = subgroupAdd(t);
    if (i == 0u) {
        out[workgroup_id.x] = total;
    }
}
