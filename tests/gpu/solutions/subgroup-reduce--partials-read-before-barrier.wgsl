// expect: memory-error in some cases
enable subgroups;
// Wrong on purpose: invocation 0 adds up the subgroups' partial sums by
// itself, in a loop, but without a workgroupBarrier() between the stores of
// `partials` and its reads. Nothing makes invocation 0 wait for lane 0 of the
// other subgroups, so it may read a cell before that subgroup has stored its
// sum, and the judge reports a race on `partials`. A workgroup that is one
// subgroup on this GPU but several at a smaller size (7 invocations with 8
// lanes) shows no race, but its result changes with the subgroup size. A
// workgroup of one invocation has only the cell invocation 0 writes itself,
// and passes.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> partials: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let i = local_id.x;
    var v = 0.0;
    if (global_id.x < arrayLength(&a)) {
        v = a[global_id.x];
    }
    let s = subgroupAdd(v);
    if (lane == 0u) {
        partials[i / sg_size] = s;
    }
    if (i == 0u) {
        let count = (W + sg_size - 1u) / sg_size;
        var total = 0.0;
        for (var k = 0u; k < count; k++) {
            total += partials[k];
        }
        out[workgroup_id.x] = total;
    }
}
