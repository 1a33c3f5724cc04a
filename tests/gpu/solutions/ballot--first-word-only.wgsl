// expect: memory-error in some cases
// message: depends on the subgroup size
// Wrong on purpose: "a subgroup has 32 lanes", so only the ballot's first word is read, both for
// the subgroup's count and for the lanes below. That is right while subgroups have at most 32
// lanes, as on the GPU that judges first; but with 64 or 128 lanes the kept lanes from 32 up
// live in .y, .z and .w: they are left out of the count, and they all take the slot after the
// first 32 lanes' ones. The judge runs every passing case again with every subgroup size and
// reports the difference. Cases whose workgroups have 32 invocations or fewer (so no subgroup
// has a lane past 31), and the one that keeps nothing, pass.
enable subgroups;
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> count: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
// One kept-count per subgroup. A workgroup has ceil(wgs.x / sg_size)
// subgroups, never more than wgs.x, and {{smemSize}} is wgs.x.
var<workgroup> smem: array<u32, {{smemSize}}>;
var<workgroup> kept: atomic<u32>;
var<workgroup> offset: u32;

// The kept lanes below `lane`, from the first word only.
fn kept_below(b: vec4<u32>, lane: u32) -> u32 {
    let below = select((1u << lane) - 1u, 0xffffffffu, lane >= 32u);
    return countOneBits(b.x & below);
}

// The kept lanes of the subgroup: ".x has them all".
fn kept_in(b: vec4<u32>) -> u32 {
    return countOneBits(b.x);
}

// The element of invocation g, or 0.0 (not kept) past the end of `a`.
fn element(g: u32) -> f32 {
    if (g < arrayLength(&a)) {
        return a[g];
    }
    return 0.0;
}

// Dispatch 1: each subgroup counts its kept elements with one ballot, and
// its lane 0 adds that to the workgroup's count: one workgroup atomic per
// subgroup instead of one per kept element.
@compute @workgroup_size({{workgroupSize}})
fn count_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let g = workgroup_id.x * u32(wgs.x) + local_id.x;
    // Called by every invocation, outside any branch: uniform control flow.
    let ballot = subgroupBallot(element(g) > 0.0);
    if (lane == 0u) {
        atomicAdd(&kept, kept_in(ballot));
    }
    workgroupBarrier();
    if (local_id.x == 0u) {
        block_counts[workgroup_id.x] = atomicLoad(&kept);
    }
}

// Dispatch 2: every block count is written and visible now.
@compute @workgroup_size({{workgroupSize}})
fn scatter(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let i = local_id.x;
    let g = workgroup_id.x * u32(wgs.x) + i;
    let v = element(g);
    let keep = v > 0.0;
    // One bit per lane of this subgroup: which of them keep their element.
    let ballot = subgroupBallot(keep);
    // Subgroup k is invocations k·sg_size .. (k+1)·sg_size - 1; the last one
    // may be partial, and lane 0 is always there.
    let sg = i / sg_size;
    if (lane == 0u) {
        smem[sg] = kept_in(ballot);
    }
    // The workgroup's first slot in `out`: the kept elements of every
    // workgroup before this one.
    if (i == 0u) {
        var sum = 0u;
        for (var w = 0u; w < workgroup_id.x; w++) {
            sum += block_counts[w];
        }
        offset = sum;
    }
    workgroupBarrier();
    // The subgroup's first slot: the workgroup's, plus what the subgroups
    // before it keep (a short loop: wgs.x / 4 totals at most).
    var start = offset;
    for (var k = 0u; k < sg; k++) {
        start += smem[k];
    }
    // Its place inside the subgroup: the kept lanes below it.
    if (keep) {
        out[start + kept_below(ballot, lane)] = v;
    }
    // The last workgroup knows the total: its offset and all its subgroups,
    // ceil(wgs.x / sg_size) of them, the last partial one included.
    if (workgroup_id.x == num_workgroups.x - 1u && i == 0u) {
        let subgroups = (u32(wgs.x) + sg_size - 1u) / sg_size;
        var total = offset;
        for (var k = 0u; k < subgroups; k++) {
            total += smem[k];
        }
        count[0] = total;
    }
}
