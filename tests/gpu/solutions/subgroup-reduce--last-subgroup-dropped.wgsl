// expect: failed
enable subgroups;
// Wrong on purpose: the subgroups are counted as wgs.x / sg_size, rounded
// down. When the workgroup size is not a multiple of the subgroup size, the
// last subgroup is partly filled and its partial sum is never added: with
// 8-lane subgroups, a workgroup of 12 keeps only invocations 0 to 7, one of
// 100 loses 96 to 99, and a workgroup of one invocation has no subgroup at
// all and writes 0. Workgroups that are multiples of the subgroup size come
// out right on the GPU; the judge's runs at other subgroup sizes (up to 128,
// more than a workgroup of 96 or 40) catch most of them.
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
    var v = 0.0;
    if (global_id.x < arrayLength(&a)) {
        v = a[global_id.x];
    }
    let s = subgroupAdd(v);
    if (lane == 0u) {
        partials[i / sg_size] = s;
    }
    workgroupBarrier();
    let count = W / sg_size;
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
