// expect: memory-error in some cases
// message: the result depends on the order the GPU runs invocations in
// Wrong on purpose: the offsets between workgroups are right, but within its workgroup each kept
// element takes the next slot with atomicAdd on a workgroup counter instead of a scan. The
// workgroup's kept elements land in its own stretch of out, in the order its invocations reach
// the counter. A GPU that happens to serve them in index order gives the right output; the
// order check runs the case with the invocations in reverse and shuffled orders and gets
// another. Cases where no workgroup keeps two different values pass.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> count: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
var<workgroup> kept: atomic<u32>;
var<workgroup> cursor: atomic<u32>;
var<workgroup> offset: u32;

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
    if (i == 0u) {
        var sum = 0u;
        for (var w = 0u; w < workgroup_id.x; w++) {
            sum += block_counts[w];
        }
        offset = sum;
    }
    workgroupBarrier();
    if (g < arrayLength(&a)) {
        let v = a[g];
        if (v > 0.0) {
            // The next free slot of this workgroup's stretch: fast, and unstable.
            let slot = atomicAdd(&cursor, 1u);
            out[offset + slot] = v;
        }
    }
    if (workgroup_id.x == num_workgroups.x - 1u && i == 0u) {
        count[0] = offset + block_counts[workgroup_id.x];
    }
}
