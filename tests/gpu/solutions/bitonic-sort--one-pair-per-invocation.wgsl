// expect: failed
// Wrong on purpose: written for P / 2 invocations, as if the workgroup always had one per pair.
// In sort_blocks invocation i loads places i and i + P / 2, compares pair i in every step and
// writes its two places back; in merge_step it compares pair i of its workgroup's P / 2. With
// fewer invocations the pairs from W up are never compared, in either entry point, and the
// places they would have loaded keep 0. The cases with W = P / 2 pass; the others (W = 3 with
// blocks of 16, W = 1 with blocks of 128) fail.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);          // invocations per workgroup: any number from 1 to P / 2
const P = u32({{smemSize}});   // keys per block: a power of two

// The merge step a dispatch of merge_step runs (zeros in sort_blocks).
struct Step {
    size: u32, // the length of the runs this stage sorts: 2·P, 4·P, … B·P
    dist: u32, // size / 2 (the flip), then size / 4, … 1 (half-cleaners)
}

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> step: Step;

var<workgroup> tile: array<u32, {{smemSize}}>;

// Dispatched once: sort keys[k·P … k·P + P - 1] in workgroup k, into out.
@compute @workgroup_size({{workgroupSize}})
fn sort_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = arrayLength(&keys);
    let first = workgroup_id.x * P;
    // Load the block; past the end of keys, pad with the largest u32, which
    // sorts after every real key (or next to an equal one: the same value).
    // A block that starts past the end is all padding, and writes nothing.
    // Two keys per invocation: local_id.x and local_id.x + P / 2.
    for (var h = 0u; h < 2u; h++) {
        let i = local_id.x + h * (P / 2u);
        var key = 0xffffffffu;
        if (first + i < n) {
            key = keys[first + i];
        }
        tile[i] = key;
    }
    workgroupBarrier();
    // Stages of doubling size; in each, steps of halving distance. A step
    // compares P / 2 disjoint pairs (lo, lo + dist), where lo has the bit
    // `dist` clear; invocation local_id.x takes pair local_id.x and no other
    // (as if there were P / 2 invocations). Runs of `size` keys alternate up
    // and down (the bit `size` of lo), so each stage leaves bitonic runs of
    // twice the size for the next; the last stage (size = P) sorts the block
    // ascending.
    for (var size = 2u; size <= P; size *= 2u) {
        for (var dist = size / 2u; dist > 0u; dist /= 2u) {
            // One pair per invocation: pair local_id.x.
            let t = local_id.x;
            let lo = 2u * dist * (t / dist) + t % dist;
            let hi = lo + dist;
            let ascending = (lo & size) == 0u;
            let a = tile[lo];
            let b = tile[hi];
            if ((ascending && a > b) || (!ascending && a < b)) {
                tile[lo] = b;
                tile[hi] = a;
            }
            // Every invocation, every step: the next step reads pairs that
            // other invocations wrote in this one.
            workgroupBarrier();
        }
    }
    // The real keys come first; the padding stays behind.
    for (var h = 0u; h < 2u; h++) {
        let i = local_id.x + h * (P / 2u);
        if (first + i < n) {
            out[first + i] = tile[i];
        }
    }
}

// Dispatched once per merge step, in order, each after the one before has
// finished. A stage starts (dist = size / 2) with every run of size / 2
// places of out sorted ascending and ends (dist = 1) with every run of size
// places sorted. The places from arrayLength(&out) on count as +infinity
// (the padding) and are never stored: a pair that reaches them is in order.
@compute @workgroup_size({{workgroupSize}})
fn merge_step(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = arrayLength(&out);
    let size = step.size;
    let dist = step.dist;
    let half = size / 2u;
    // P / 2 pairs per workgroup, one per invocation: pair local_id.x.
    let i = workgroup_id.x * (P / 2u) + local_id.x;
    var lo: u32;
    var hi: u32;
    if (dist == half) {
        // The flip: place lo of the lower half of its run of `size` with its
        // mirror in the upper half.
        lo = size * (i / half) + i % half;
        hi = lo ^ (size - 1u);
    } else {
        // A half-cleaner, all ascending.
        lo = 2u * dist * (i / dist) + i % dist;
        hi = lo + dist;
    }
    if (hi < n) {
        let a = out[lo];
        let b = out[hi];
        if (a > b) {
            out[lo] = b;
            out[hi] = a;
        }
    }
}
