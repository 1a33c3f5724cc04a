// expect: memory-error in some cases
// message: read-after-write race
// Wrong on purpose: no workgroupBarrier() between lane 0 storing its
// subgroup's maximum in smem and the other subgroups reading it. A shuffle
// only reaches the lanes of one's own subgroup; values that cross to another
// subgroup go through workgroup memory, and nothing orders the other
// subgroups' reads after the store: a read-after-write race on smem. When the
// whole workgroup fits in one subgroup (one invocation per workgroup, or 4
// invocations with the judge's 8-lane subgroups) no other subgroup reads, and
// those cases pass.
enable subgroups;
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);
const LOWEST = -3.4e38;

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let i = global_id.x;
    let n = arrayLength(&a);
    let s = local_id.x / sg_size;
    let live = min(sg_size, W - s * sg_size);
    let subgroups = (W + sg_size - 1u) / sg_size;

    var v = LOWEST;
    if (i < n) {
        v = a[i];
    }
    for (var d = sg_size / 2u; d > 0u; d /= 2u) {
        let other = subgroupShuffleXor(v, d);
        v = select(v, max(v, other), (lane ^ d) < live);
    }
    let subgroup_max = subgroupBroadcast(v, 0u);
    if (lane == 0u) {
        smem[s] = subgroup_max;
    }
    // wrong: no workgroupBarrier() here

    var w = LOWEST;
    for (var k = lane; k < subgroups; k += live) {
        w = max(w, smem[k]);
    }
    for (var d = sg_size / 2u; d > 0u; d /= 2u) {
        let other = subgroupShuffleXor(w, d);
        w = select(w, max(w, other), (lane ^ d) < live);
    }
    let block_max = subgroupBroadcast(w, 0u);
    if (i < n) {
        out[i] = block_max;
    }
}
