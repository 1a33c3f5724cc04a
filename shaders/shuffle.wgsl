enable subgroups;
// Shuffle: each block's maximum, written to every element of the block. Inside
// a subgroup the lanes exchange values with subgroupShuffleXor (a butterfly,
// no workgroup memory); the subgroups' maxima meet in workgroup memory, and a
// second butterfly combines them. Right for every subgroup size and every
// workgroup size, including a last subgroup that is only partly filled.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);
// Below every value a case holds, so max(LOWEST, x) == x: the value of a lane
// that exists but has no element. (0 would beat a block of negative values.)
const LOWEST = -3.4e38;

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
// One maximum per subgroup. {{smemSize}} is wgs.x: enough even for subgroups
// of one lane.
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
    // Subgroup s holds the invocations s·sg_size … s·sg_size + sg_size - 1 of
    // the workgroup. The last one is short when sg_size does not divide W (or
    // exceeds it): `live` lanes exist there, the rest are not running at all.
    let s = local_id.x / sg_size;
    let live = min(sg_size, W - s * sg_size);
    let subgroups = (W + sg_size - 1u) / sg_size;

    var v = LOWEST;
    if (i < n) {
        v = a[i];
    }

    // Butterfly: at offset d every lane reads the value of lane `lane ^ d`.
    // With all sg_size lanes present, after offsets sg_size/2, …, 2, 1 every
    // lane holds the maximum of all of them. A partner past `live` does not
    // exist and its value is undefined on a GPU, so select() drops it. With
    // partners missing, only lane 0 is certain to end with the subgroup's
    // maximum (the others may miss a value that would have travelled through a
    // missing lane), so lane 0's result is broadcast to all. The loop's bounds
    // depend only on sg_size, the same for every invocation: uniform control
    // flow, as every subgroup function needs.
    for (var d = sg_size / 2u; d > 0u; d /= 2u) {
        let other = subgroupShuffleXor(v, d);
        v = select(v, max(v, other), (lane ^ d) < live);
    }
    let subgroup_max = subgroupBroadcast(v, 0u);

    // Across subgroups: lane 0 of each stores its subgroup's maximum.
    if (lane == 0u) {
        smem[s] = subgroup_max;
    }
    workgroupBarrier();

    // Every subgroup then reads all of them (lane j takes j, j + live, …, so
    // even a short subgroup covers every slot) and reduces them the same way.
    // Doing it in every subgroup, rather than in one and broadcasting through
    // workgroup memory, saves a second barrier.
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
