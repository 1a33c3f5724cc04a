// expect: passed
// A correct alternative: after the barrier, invocation 0 adds the partial sums in a
// plain loop instead of a second subgroupAdd. At most 64 additions (4-lane subgroups in
// a workgroup of 256), 8 with 32 lanes: cheap next to the barrier it waits at.
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
    let v = select(0.0, a[min(gid.x, arrayLength(&a) - 1u)], gid.x < arrayLength(&a));
    let sg_sum = subgroupAdd(v);
    if (lane == 0u) {
        partials[lid.x / sg_size] = sg_sum;
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
