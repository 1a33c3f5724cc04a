// expect: memory-error in some cases
// message: depends on the subgroup size
// Wrong on purpose: the CUDA habit of warps of 32, `lid.x / 32u` for the subgroup and
// `lid.x % 32u` for the lane, with 256 / 32 = 8 partial sums. subgroupAdd adds over the
// subgroups the GPU really has: with 8-lane subgroups, invocations 0, 32, 64, … publish
// the sums of 8 elements and the other 24 of every 32 are lost. Right only where the
// subgroups have 32 lanes, or the workgroup fits in one subgroup: the judge's subgroup
// check finds it right with 32 lanes and wrong with others. Workgroups of 4 or fewer
// invocations pass at every size.
enable subgroups;
const wgs = vec3<u32>({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> partials: array<f32, 8>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
) {
    var v = 0.0;
    if (gid.x < arrayLength(&a)) {
        v = a[gid.x];
    }
    let warp_sum = subgroupAdd(v);
    let warp = lid.x / 32u;
    let lane = lid.x % 32u;
    if (lane == 0u) {
        partials[warp] = warp_sum;
    }
    workgroupBarrier();
    if (lid.x == 0u && wid.x < arrayLength(&out)) {
        var total = 0.0;
        for (var k = 0u; k < (wgs.x + 31u) / 32u; k++) {
            total += partials[k];
        }
        out[wid.x] = total;
    }
}
