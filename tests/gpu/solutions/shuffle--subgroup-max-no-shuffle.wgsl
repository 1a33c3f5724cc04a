// expect: without-technique
// message: This puzzle is about
// The right block maxima from two subgroupMax calls joined through workgroup memory,
// with no subgroupShuffle, ShuffleUp, ShuffleDown or ShuffleXor: the butterfly is skipped.
enable subgroups;
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)
const W = u32(wgs.x);
const LOWEST = -3.4e38;                // below every value the cases hold

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>; // wgs.x slots: one per subgroup is enough

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let g = global_id.x;
    let n = arrayLength(&a);
    let s = local_id.x / sg_size;
    // Lanes that exist in this subgroup (the last one may be partly filled).
    let live = min(sg_size, W - s * sg_size);
    let groups = (W + sg_size - 1u) / sg_size;

    // One storage read; a value that never wins past the end of a.
    var v = LOWEST;
    if (g < n) {
        v = a[g];
    }
    // subgroupMax takes only the lanes that exist: no guard needed. Called by
    // every invocation, outside any if.
    let sg_max = subgroupMax(v);
    if (lane == 0u) {
        smem[s] = sg_max;
    }
    workgroupBarrier();

    // Every subgroup folds all the maxima: lane j takes smem[j], smem[j + live] …
    var m = LOWEST;
    for (var k = lane; k < groups; k += live) {
        m = max(m, smem[k]);
    }
    // After the loop, in uniform control flow again.
    let block_max = subgroupMax(m);

    if (g < n) {
        out[g] = block_max;
    }
}
