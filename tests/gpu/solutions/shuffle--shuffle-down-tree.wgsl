// expect: passed
// A correct alternative: a tree with subgroupShuffleDown instead of the XOR
// butterfly. At offset d lane l reads lane l + d (guarded: that lane must
// exist), so after offsets sg_size / 2, …, 1 lane 0 alone holds the
// subgroup's maximum, and subgroupBroadcast hands it to the rest. The
// subgroups' maxima are then combined by a plain loop over workgroup memory,
// which every invocation runs for itself: at most wgs.x / 4 reads of smem.
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

    var v = LOWEST;
    if (i < n) {
        v = a[i];
    }
    for (var d = sg_size / 2u; d > 0u; d /= 2u) {
        let other = subgroupShuffleDown(v, d);
        v = select(v, max(v, other), lane + d < live);
    }
    let subgroup_max = subgroupBroadcast(v, 0u);
    if (lane == 0u) {
        smem[s] = subgroup_max;
    }
    workgroupBarrier();

    var block_max = LOWEST;
    for (var k = 0u; k * sg_size < W; k++) {
        block_max = max(block_max, smem[k]);
    }
    if (i < n) {
        out[i] = block_max;
    }
}
