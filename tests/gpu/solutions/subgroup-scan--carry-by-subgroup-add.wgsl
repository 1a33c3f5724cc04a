// expect: passed
enable subgroups;
// Correct, another way: the carry comes from a subgroup operation too. The
// lanes of a subgroup share out the totals of the earlier subgroups, each
// adding every present-th one from its own lane number on, and subgroupAdd
// adds their parts. "present" counts the lanes the subgroup really has: a last
// subgroup cut short by the end of the workgroup has fewer than sg_size, and
// striding by sg_size there would skip totals. The loop differs between
// invocations, so the subgroupAdd stays after it.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> totals: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let i = local_id.x;
    let g = global_id.x;
    let n = arrayLength(&a);
    var v = 0.0;
    if (g < n) {
        v = a[g];
    }
    let prefix = subgroupInclusiveAdd(v);
    let sg = i / sg_size;
    if (lane == sg_size - 1u || i == u32(wgs.x) - 1u) {
        totals[sg] = prefix;
    }
    workgroupBarrier();
    // Lanes present in this subgroup: sg_size, or fewer in a last subgroup
    // cut short by the end of the workgroup. They share out the earlier
    // totals, each taking every present-th one from its lane number on.
    let present = min(sg_size, u32(wgs.x) - sg * sg_size);
    var part = 0.0;
    for (var k = lane; k < sg; k += present) {
        part += totals[k];
    }
    let carry = subgroupAdd(part);
    if (g < n) {
        out[g] = carry + prefix;
    }
}
