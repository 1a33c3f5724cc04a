// expect: compile-error at 35:25
// Wrong on purpose: only the invocations that have an element take part in
// the butterfly, because the shuffles sit inside `if (i < n)`. Whether an
// invocation enters depends on global_invocation_id, so the calls are not in
// uniform control flow: browsers reject the shader, and so does the judge, at
// the first subgroupShuffleXor. (Even where a compiler let it through, a lane
// that skipped the `if` is inactive and a shuffle from it is undefined.) The
// fix is to give those invocations -3.4e38 and call the shuffles outside.
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
        for (var d = sg_size / 2u; d > 0u; d /= 2u) {
            let other = subgroupShuffleXor(v, d);
            v = select(v, max(v, other), (lane ^ d) < live);
        }
        v = subgroupBroadcast(v, 0u);
    }
    if (lane == 0u) {
        smem[s] = v;
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
