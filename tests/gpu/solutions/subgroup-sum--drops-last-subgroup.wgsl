// expect: failed
// Wrong on purpose: counts the subgroups as `wgs.x / sg_size`, rounding down. When the
// workgroup size is not a multiple of the subgroup size (100 invocations in 32-lane
// subgroups, or any workgroup smaller than one subgroup) the last, partly filled
// subgroup's sum is never added. Right only for sizes that are multiples of the lanes.
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
    var v = 0.0;
    if (gid.x < arrayLength(&a)) {
        v = a[gid.x];
    }
    let sg_sum = subgroupAdd(v);
    let sg = lid.x / sg_size;
    if (lane == 0u) {
        partials[sg] = sg_sum;
    }
    workgroupBarrier();
    let count = wgs.x / sg_size;
    var share = 0.0;
    if (sg == 0u) {
        for (var k = lane; k < count; k += sg_size) {
            share += partials[k];
        }
    }
    let total = subgroupAdd(share);
    if (lid.x == 0u && wid.x < arrayLength(&out)) {
        out[wid.x] = total;
    }
}
