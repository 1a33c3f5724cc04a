// expect: without-technique
// message: This puzzle is about
// Right sums from a halving tree in workgroup memory, a barrier after every round,
// and no subgroup built-in at all: the subgroupAdd this puzzle teaches is never called.
enable subgroups;
const wgs = vec3<u32>({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3<u32>({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

// One cell per invocation: 256 covers the largest workgroup.
var<workgroup> partials: array<f32, 256>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
) {
    let i = lid.x;
    let w = wgs.x;
    // One storage read per invocation, 0 past the end.
    var v = 0.0;
    if (gid.x < arrayLength(&a)) {
        v = a[gid.x];
    }
    partials[i] = v;
    workgroupBarrier();

    // Largest power of two below w (1 when w is 1 or 2): the first stride. It
    // is at least w / 2, so the first round folds every cell past it.
    var stride0 = 1u;
    while (stride0 * 2u < w) {
        stride0 *= 2u;
    }
    // Each round, cell i takes cell i + s when that cell exists. Cells read at
    // i + s (>= s) are not written in the same round; the barrier ends it.
    for (var s = stride0; s > 0u; s >>= 1u) {
        if (i < s && i + s < w) {
            partials[i] = partials[i] + partials[i + s];
        }
        workgroupBarrier();
    }

    if (i == 0u && wid.x < arrayLength(&out)) {
        out[wid.x] = partials[0];
    }
}
