// expect: failed
enable subgroups;
// Wrong on purpose: scans within each subgroup and stops there. Only the first
// subgroup of each workgroup is right; every later one misses the totals of
// the subgroups before it. (With one subgroup per workgroup, as in blocks of
// one, nothing is missing.)
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
    if (g < n) {
        out[g] = prefix;
    }
}
