// expect: passed
enable subgroups;
// A correct alternative: the subgroups' partial sums are added up by
// invocation 0 alone, in a loop, after the one barrier. Only the second
// stage differs from the reference (a loop of ceil(wgs.x / sg_size) steps
// instead of a second subgroupAdd); with 32-lane subgroups that is 8 steps
// for 256 invocations.
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
    if (i == 0u) {
        let count = (W + sg_size - 1u) / sg_size;
        var total = 0.0;
        for (var k = 0u; k < count; k++) {
            total += partials[k];
        }
        out[workgroup_id.x] = total;
    }
}
