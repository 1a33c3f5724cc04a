// expect: compile-error at 24:18
// message: must be called in uniform control flow
// Wrong on purpose: calls subgroupAdd inside `if (gid.x < arrayLength(&a))`, so that
// invocations past the end stay out of the sum. Whether an invocation enters the `if`
// depends on its id: the call is not in uniform control flow, which WGSL refuses for
// subgroup operations as for barriers. Load 0 in the `if` and call subgroupAdd after it.
enable subgroups;
const wgs = vec3<u32>({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> partials: array<f32, 64>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    var sg_sum = 0.0;
    if (gid.x < arrayLength(&a)) {
        sg_sum = subgroupAdd(a[gid.x]);
    }
    let sg = lid.x / sg_size;
    if (lane == 0u) {
        partials[sg] = sg_sum;
    }
    workgroupBarrier();
    if (lid.x == 0u && wid.x < arrayLength(&out)) {
        var total = 0.0;
        for (var k = 0u; k < (wgs.x + sg_size - 1u) / sg_size; k++) {
            total += partials[k];
        }
        out[wid.x] = total;
    }
}
