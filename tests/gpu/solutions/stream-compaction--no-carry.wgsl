// expect: memory-error in some cases
// message: in different workgroups of one dispatch of `scatter`
// Wrong on purpose: scatter scans the flags of its own workgroup but never adds the counts of
// the workgroups before it, so every workgroup packs its kept elements from out[0], and
// count[0] is only the last workgroup's own total. The judge sees two workgroups write the same
// element of out in one dispatch and reports a write conflict (the values would be wrong too:
// whichever workgroup writes last wins). The written cases of one workgroup, and the one that
// keeps nothing, pass; a random case where only one workgroup, not the last, keeps anything has
// no conflict but a wrong count (a mismatch: still a failed verdict on that seed).
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> count: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
var<workgroup> smem: array<u32, {{smemSize}}>;
var<workgroup> kept: atomic<u32>;

@compute @workgroup_size({{workgroupSize}})
fn count_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let g = workgroup_id.x * u32(wgs.x) + local_id.x;
    if (g < arrayLength(&a) && a[g] > 0.0) {
        atomicAdd(&kept, 1u);
    }
    workgroupBarrier();
    if (local_id.x == 0u && workgroup_id.x < arrayLength(&block_counts)) {
        block_counts[workgroup_id.x] = atomicLoad(&kept);
    }
}

@compute @workgroup_size({{workgroupSize}})
fn scatter(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
) {
    let i = local_id.x;
    let g = workgroup_id.x * u32(wgs.x) + i;
    var v = 0.0;
    var flag = 0u;
    if (g < arrayLength(&a)) {
        v = a[g];
        if (v > 0.0) {
            flag = 1u;
        }
    }
    smem[i] = flag;
    workgroupBarrier();
    for (var d = 1u; d < u32(wgs.x); d *= 2u) {
        var left = 0u;
        if (i >= d) {
            left = smem[i - d];
        }
        workgroupBarrier();
        smem[i] += left;
        workgroupBarrier();
    }
    // The position within the workgroup only: no offset.
    if (flag == 1u) {
        out[smem[i] - 1u] = v;
    }
    if (workgroup_id.x == num_workgroups.x - 1u && i == u32(wgs.x) - 1u) {
        count[0] = smem[i];
    }
}
