// expect: compile-error at 73:9
// message: the `break` or `continue` at line 70 is taken by only some invocations
// Wrong on purpose: in the scan of the flags, the invocations with nothing
// to add this round (i < d) skip the rest of it with `continue`, and with it
// the round's two barriers, where the others wait for them. Chromium's
// compiler rejects this shader and naga (Firefox's, and the native one)
// accepts it; the judge's synccheck must refuse it in every engine, at the
// scan's first barrier.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> count: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
var<workgroup> smem: array<u32, {{smemSize}}>;
var<workgroup> kept: atomic<u32>;
var<workgroup> offset: u32;

// Dispatch 1: how many of this workgroup's elements are above 0. Workgroup
// memory starts at zero, so `kept` needs no reset; one atomic per kept
// element, all of them on chip.
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

// Dispatch 2: every count of dispatch 1 is written and visible now.
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
    // Inclusive scan of the flags (Hillis–Steele, as in Prefix Scan): two
    // barriers a round, and rounds while the distance is below wgs.x, so
    // any workgroup size works.
    for (var d = 1u; d < u32(wgs.x); d *= 2u) {
        if (i < d) {
            continue;
        }
        let left = smem[i - d];
        workgroupBarrier();
        smem[i] += left;
        workgroupBarrier();
    }
    // Inclusive minus its own flag: the kept elements before it in the
    // workgroup, its exclusive position.
    if (flag == 1u) {
        out[offset + smem[i] - flag] = v;
    }
    // The last invocation of the last workgroup sees every count: the ones
    // before (offset) and its own workgroup's total.
    if (workgroup_id.x == num_workgroups.x - 1u && i == u32(wgs.x) - 1u) {
        count[0] = offset + smem[i];
    }
}
