// expect: failed
// message: depends on the subgroup size
// Wrong on purpose: written for 32-lane subgroups. The butterfly starts at
// offset 16, the subgroup is taken to be local_id.x / 32 and the lane
// local_id.x % 32, and there are ceil(wgs.x / 32) subgroup maxima. On 32, 64
// or 128 lanes it happens to work (a 64-lane subgroup's two halves each get
// their own maximum, and both are stored). With 16, 8 or 4 lanes the offsets
// 16 and 8 name lanes outside the subgroup (undefined values on a GPU), and of
// the real subgroups only the first of every 32 invocations stores a maximum:
// the others' values are lost. The judge reruns each case at 4 to 128 lanes
// and reports that the result depends on the subgroup size. One invocation
// per workgroup, or a single element, shows nothing.
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
) {
    let i = global_id.x;
    let n = arrayLength(&a);
    let s = local_id.x / 32u;
    let lane = local_id.x % 32u;
    let live = min(32u, W - s * 32u);
    let subgroups = (W + 31u) / 32u;

    var v = LOWEST;
    if (i < n) {
        v = a[i];
    }
    for (var d = 16u; d > 0u; d /= 2u) {
        let other = subgroupShuffleXor(v, d);
        v = select(v, max(v, other), (lane ^ d) < live);
    }
    if (lane == 0u) {
        smem[s] = v;
    }
    workgroupBarrier();

    var block_max = LOWEST;
    for (var k = 0u; k < subgroups; k++) {
        block_max = max(block_max, smem[k]);
    }
    if (i < n) {
        out[i] = block_max;
    }
}
