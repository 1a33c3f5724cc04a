// expect: without-technique
// message: This puzzle is about
// Each block's inclusive scan by Hillis–Steele rounds in workgroup memory, two barriers a
// round, with no subgroup built-in: the subgroupInclusiveAdd this puzzle teaches is unused.
enable subgroups;
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)
const W = u32(wgs.x);

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> totals: array<f32, {{smemSize}}>; // {{smemSize}} = wgs.x: one per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
) {
    let i = local_id.x;
    let g = global_id.x;
    let n = arrayLength(&a);
    // The one storage read; invocations past the end take part with 0.
    var v = 0.0;
    if (g < n) {
        v = a[g];
    }
    totals[i] = v;
    workgroupBarrier();

    // Round d: cell i adds cell i - d. Read into a register, barrier, then
    // write (only one's own cell), barrier: no read meets a write unseparated.
    // The rounds depend on W only, so every invocation reaches every barrier.
    for (var d = 1u; d < W; d *= 2u) {
        var prev = 0.0;
        if (i >= d) {
            prev = totals[i - d];
        }
        workgroupBarrier();
        v += prev;
        totals[i] = v;
        workgroupBarrier();
    }

    if (g < n) {
        out[g] = v;
    }
}
