// expect: failed
// Wrong on purpose: 0.0 stands in for the lanes that have no element (past the
// end of `a`, and in the second step past the number of subgroups). 0 is the
// neutral value of a sum, not of a maximum: in a block whose values are all
// negative it wins. "negative values only: a neutral 0 would win" writes 0
// into every element, and the shown block of 4 ending in -6, -2 gets 0 instead
// of -2. Blocks that hold a positive value pass.
enable subgroups;
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

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

    var v = 0.0;
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
    workgroupBarrier();

    var w = 0.0;
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
