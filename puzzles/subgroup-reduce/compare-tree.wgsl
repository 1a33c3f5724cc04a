// Comparison kernel: the reduction of Tree Reduction and Block Sum, in
// workgroup memory alone. Every invocation stores its element, then the
// partial sums are folded pairwise, half of them per round, with a barrier
// after every round: for 256 invocations, 8 rounds and 9 barriers in all,
// where the subgroup kernel waits at one. Each round folds the upper half
// (rounded down) onto the lower one, so any workgroup size works.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    var v = 0.0;
    if (global_id.x < arrayLength(&a)) {
        v = a[global_id.x];
    }
    smem[i] = v;
    workgroupBarrier();
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    if (i == 0u && workgroup_id.x < arrayLength(&out)) {
        out[workgroup_id.x] = smem[0];
    }
}
