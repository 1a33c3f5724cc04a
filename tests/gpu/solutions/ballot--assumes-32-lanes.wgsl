// expect: memory-error in some cases
// Wrong on purpose: subgroups are taken to have 32 lanes, so a workgroup of 256 has 8 of them:
// the subgroup is local_id.x / 32u and the counts array holds 8. That is right on a GPU with
// 32-lane subgroups only. With 8-lane subgroups, four real subgroups share each "subgroup of
// 32": their lanes 0 all write the same smem element between the same barriers (a race), and
// the later ones do not start after the earlier ones, so their elements collide in out. With
// 64 lanes, lanes 32 to 63 of each subgroup start after the whole subgroup's kept elements
// instead of after those of lanes 0 to 31. Cases of one invocation per workgroup pass.
enable subgroups;
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> count: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
// One kept-count per subgroup: 256 invocations / 32 lanes.
var<workgroup> smem: array<u32, 8>;
var<workgroup> kept: atomic<u32>;
var<workgroup> offset: u32;

// How many set bits of the ballot belong to lanes below `lane`. Word j of the
// vec4 holds the bits of lanes 32j .. 32j + 31 (bit b of it is lane 32j + b).
fn below_in_word(bits: u32, first: u32, lane: u32) -> u32 {
    if (lane >= first + 32u) {
        return countOneBits(bits); // every lane of this word is below
    }
    if (lane <= first) {
        return 0u; // none is
    }
    // lane - first is 1 ..= 31 here, so the shift never reaches 32.
    return countOneBits(bits & ((1u << (lane - first)) - 1u));
}

fn kept_below(b: vec4<u32>, lane: u32) -> u32 {
    return below_in_word(b.x, 0u, lane) + below_in_word(b.y, 32u, lane)
        + below_in_word(b.z, 64u, lane) + below_in_word(b.w, 96u, lane);
}

// Every set bit of the ballot, all four words (subgroups reach 128 lanes).
fn kept_in(b: vec4<u32>) -> u32 {
    let c = countOneBits(b);
    return c.x + c.y + c.z + c.w;
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
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let i = local_id.x;
    let g = workgroup_id.x * u32(wgs.x) + i;
    let v = element(g);
    let keep = v > 0.0;
    // One bit per lane of this subgroup: which of them keep their element.
    let ballot = subgroupBallot(keep);
    // "Subgroup k is invocations 32k .. 32k + 31."
    let sg = i / 32u;
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
        let subgroups = (u32(wgs.x) + 31u) / 32u;
        var total = offset;
        for (var k = 0u; k < subgroups; k++) {
            total += smem[k];
        }
        count[0] = total;
    }
}
