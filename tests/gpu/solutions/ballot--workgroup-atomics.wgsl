// expect: without-technique
// message: This puzzle is about
// Right compaction without subgroupBallot: count_blocks counts with a workgroup atomic, and
// scatter ranks the kept elements by one invocation's serial scan of flags in workgroup memory.
enable subgroups;
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)
const W = u32(wgs.x);

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> count: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
var<workgroup> smem: array<u32, {{smemSize}}>; // one flag, then one slot, per invocation
var<workgroup> kept: atomic<u32>;              // starts at 0, as all workgroup memory

// The element of invocation g, or 0.0 (not kept) past the end of a.
fn element(g: u32) -> f32 {
    if (g < arrayLength(&a)) {
        return a[g];
    }
    return 0.0;
}

// Dispatched first: each kept element adds 1 to the workgroup's atomic.
@compute @workgroup_size({{workgroupSize}})
fn count_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let g = workgroup_id.x * W + local_id.x;
    if (element(g) > 0.0) {
        atomicAdd(&kept, 1u);
    }
    workgroupBarrier();
    if (local_id.x == 0u) {
        block_counts[workgroup_id.x] = atomicLoad(&kept);
    }
}

// Dispatched second, once every block count is written.
@compute @workgroup_size({{workgroupSize}})
fn scatter(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let g = workgroup_id.x * W + i;
    let v = element(g);
    let keep = v > 0.0;
    smem[i] = select(0u, 1u, keep);
    workgroupBarrier();
    // Invocation 0 alone turns the flags into slots in out: the kept elements
    // of earlier workgroups, then an exclusive running count, in place.
    if (i == 0u) {
        var running = 0u;
        for (var w = 0u; w < workgroup_id.x; w++) {
            running += block_counts[w];
        }
        for (var k = 0u; k < W; k++) {
            let flag = smem[k];
            smem[k] = running;
            running += flag;
        }
        if (workgroup_id.x == u32(twg.x) - 1u) {
            count[0] = running;
        }
    }
    workgroupBarrier();
    if (keep) {
        out[smem[i]] = v;
    }
}
