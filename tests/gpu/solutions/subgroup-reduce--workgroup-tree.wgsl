// expect: without-technique
// message: This puzzle is about
// Each block's sum from a halving tree in workgroup memory (one barrier per round),
// with no subgroup built-in at all: the subgroupAdd this puzzle teaches is never used.
enable subgroups;
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)
const W = u32(wgs.x);

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> partials: array<f32, {{smemSize}}>; // wgs.x cells: one per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    // The one storage read of this invocation; 0 past the end of a.
    var v = 0.0;
    if (global_id.x < arrayLength(&a)) {
        v = a[global_id.x];
    }
    partials[i] = v;
    workgroupBarrier();

    // First stride: the largest power of two below W (1 for W <= 2), at least
    // W / 2, so one round folds every cell from it to W - 1 into the front.
    var stride0 = 1u;
    while (stride0 * 2u < W) {
        stride0 *= 2u;
    }
    // Same rounds for every invocation (the bound depends on W only). In a
    // round, cells at i + s >= s are only read, cells below s only written by
    // their own invocation; the barrier separates rounds.
    for (var s = stride0; s > 0u; s >>= 1u) {
        if (i < s && i + s < W) {
            partials[i] = partials[i] + partials[i + s];
        }
        workgroupBarrier();
    }

    if (i == 0u && workgroup_id.x < arrayLength(&out)) {
        out[workgroup_id.x] = partials[0];
    }
}
