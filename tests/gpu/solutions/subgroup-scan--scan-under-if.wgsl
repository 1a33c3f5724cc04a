// expect: compile-error at 26:18
// message: uniform control flow
enable subgroups;
// Wrong on purpose: calls subgroupInclusiveAdd only for invocations inside a,
// in an if whose condition differs between invocations. Subgroup functions
// must be reached by the whole workgroup together; on a GPU the lanes past the
// end would be inactive and the result undefined, so the call is refused.
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
    var prefix = 0.0;
    if (g < n) {
        prefix = subgroupInclusiveAdd(a[g]);
    }
    let sg = i / sg_size;
    if (lane == sg_size - 1u || i == u32(wgs.x) - 1u) {
        totals[sg] = prefix;
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
