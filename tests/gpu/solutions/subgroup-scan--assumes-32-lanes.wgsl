// expect: memory-error in some cases
// message: depends on the subgroup size
enable subgroups;
// Wrong on purpose: takes every subgroup to have 32 lanes, as on NVIDIA GPUs,
// and numbers subgroups with local_id.x / 32u and their last lanes with
// local_id.x % 32u == 31u. Right with 32-lane subgroups, wrong with any other
// size: with 8 lanes, invocation 31 holds the sum of lanes 24 … 31 only, and
// the carries built from it are wrong. The judge replays every case at each
// size and reports that the result depends on it. Blocks of one invocation
// hold no carry and pass.
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
    let sg = i / 32u;
    if (i % 32u == 31u || i == u32(wgs.x) - 1u) {
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
