// expect: failed
enable subgroups;
// Wrong on purpose: uses subgroupExclusiveAdd, which leaves out the lane's own
// value. The subgroup totals are right (prefix + v in the last lane), so
// out[i] is the exclusive scan of the block: a[s] + … + a[i - 1], one element
// short, 0 at the start of every block.
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
    let prefix = subgroupExclusiveAdd(v);
    let sg = i / sg_size;
    if (lane == sg_size - 1u || i == u32(wgs.x) - 1u) {
        totals[sg] = prefix + v;
    }
    workgroupBarrier();
    var carry = 0.0;
    for (var k = 0u; k < sg; k++) {
        carry += totals[k];
    }
    if (g < n) {
        out[g] = carry + prefix;
    }
}
