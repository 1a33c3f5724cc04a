enable subgroups;
// Subgroup Sum: one sum per workgroup, added first within each subgroup with
// subgroupAdd, then across the subgroups through a few floats of workgroup memory.
const wgs = vec3<u32>({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

// One partial sum per subgroup. The narrowest subgroups have 4 lanes, so a
// workgroup of 256 invocations may hold 256 / 4 = 64 of them.
var<workgroup> partials: array<f32, 64>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    // Past the end of `a`, an invocation still takes part, with 0.
    var v = 0.0;
    if (gid.x < arrayLength(&a)) {
        v = a[gid.x];
    }
    // Every invocation calls subgroupAdd, outside the `if`: each lane gets the
    // sum over the lanes of its own subgroup (only the active ones when the
    // last subgroup is partly filled).
    let sg_sum = subgroupAdd(v);

    // Subgroup k holds local indices k·sg_size … (k+1)·sg_size - 1; its lane 0
    // publishes the subgroup's sum.
    let sg = lid.x / sg_size;
    if (lane == 0u) {
        partials[sg] = sg_sum;
    }
    workgroupBarrier();

    // Round up: a last, partly filled subgroup has a partial sum too.
    let count = (wgs.x + sg_size - 1u) / sg_size;

    // The first subgroup adds the partials: lane j takes partials j,
    // j + sg_size, … (several when the subgroups are narrow), and one more
    // subgroupAdd combines the lanes. The other subgroups add zeros; the call
    // stays outside the `if`, in uniform control flow.
    var share = 0.0;
    if (sg == 0u) {
        for (var k = lane; k < count; k += sg_size) {
            share += partials[k];
        }
    }
    let total = subgroupAdd(share);

    if (lid.x == 0u && wid.x < arrayLength(&out)) {
        out[wid.x] = total;
    }
}
