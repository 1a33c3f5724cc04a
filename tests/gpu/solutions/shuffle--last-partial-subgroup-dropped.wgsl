// expect: failed
// Wrong on purpose: the number of subgroups is counted as wgs.x / sg_size,
// rounded down, so when sg_size does not divide the workgroup size the last,
// partly filled subgroup stores its maximum but nobody reads it. With 100
// invocations in subgroups of 8 (lavapipe), 4, 32 or 64, elements 96 to 99 of
// every block are left out: "ascending negative values, 100 invocations" puts
// each block's maximum there. A workgroup smaller than one subgroup (4 or 12
// invocations on a GPU with 32 lanes) has no full subgroup at all: every
// element gets -3.4e38.
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
    let subgroups = W / sg_size; // wrong: rounds the partial subgroup away

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
    workgroupBarrier();

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
