enable subgroups;
// Subgroup Scan: each workgroup scans its block of wgs.x elements with one
// subgroup scan per subgroup, then adds the totals of the subgroups before it.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
// One slot per invocation: more than the subgroups need at any subgroup size.
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
    // Past the end of a, an invocation takes part with 0: it must not return,
    // because the subgroup scan and the barrier below need every invocation.
    var v = 0.0;
    if (g < n) {
        v = a[g];
    }
    // The prefix within this subgroup, computed by the lanes together.
    let prefix = subgroupInclusiveAdd(v);

    // Subgroup sg holds invocations sg * sg_size … (sg + 1) * sg_size - 1; the
    // last one may be cut short by the end of the workgroup. Its last lane
    // present holds the subgroup's total.
    let sg = i / sg_size;
    if (lane == sg_size - 1u || i == u32(wgs.x) - 1u) {
        totals[sg] = prefix;
    }
    workgroupBarrier();

    // Carry: the totals of the subgroups before this one, in order.
    var carry = 0.0;
    for (var k = 0u; k < sg; k++) {
        carry += totals[k];
    }
    if (g < n) {
        out[g] = carry + prefix;
    }
}
