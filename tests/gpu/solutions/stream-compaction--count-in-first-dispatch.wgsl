// expect: memory-error in some cases
// message: in different workgroups of one dispatch of `count_blocks`
// Wrong on purpose: the total is wanted as soon as every workgroup has counted, so the last
// workgroup adds up the block_counts of the others in count_blocks itself, the dispatch in which
// they write them. The last workgroup is the last by index, not the last to finish: nothing
// orders workgroups within a dispatch, and it may read a count before it is written. The judge
// reports the race between workgroups whatever the values. scatter is right (it reads the counts
// in the next dispatch). A case of one workgroup has no other workgroup to race with, and passes.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> count: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
var<workgroup> smem: array<u32, {{smemSize}}>;
var<workgroup> kept: atomic<u32>;
var<workgroup> offset: u32;

@compute @workgroup_size({{workgroupSize}})
fn count_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
) {
    let g = workgroup_id.x * u32(wgs.x) + local_id.x;
    if (g < arrayLength(&a) && a[g] > 0.0) {
        atomicAdd(&kept, 1u);
    }
    workgroupBarrier();
    if (local_id.x == 0u) {
        let mine = atomicLoad(&kept);
        block_counts[workgroup_id.x] = mine;
        if (workgroup_id.x == num_workgroups.x - 1u) {
            // The other workgroups' counts, hoping they are written by now.
            var sum = mine;
            for (var w = 0u; w < workgroup_id.x; w++) {
                sum += block_counts[w];
            }
            count[0] = sum;
        }
    }
}

@compute @workgroup_size({{workgroupSize}})
fn scatter(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
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
    if (i == 0u) {
        var sum = 0u;
        for (var w = 0u; w < workgroup_id.x; w++) {
            sum += block_counts[w];
        }
        offset = sum;
    }
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
    if (flag == 1u) {
        out[offset + smem[i] - 1u] = v;
    }
}
