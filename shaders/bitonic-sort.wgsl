// Bitonic Sort: each workgroup sorts its block of P keys in workgroup memory
// with a bitonic network and writes it to `out` in its place (sort_blocks);
// then the rest of a bitonic network over B·P places merges the sorted
// blocks in `out`, one dispatch per step (merge_step), because each step
// reads what other workgroups wrote in the step before.
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
    for (var i = local_id.x; i < P; i += W) {
        var key = 0xffffffffu;
        if (first + i < n) {
            key = keys[first + i];
        }
        tile[i] = key;
    }
    workgroupBarrier();
    // Stages of doubling size; in each, steps of halving distance. A step
    // compares P / 2 disjoint pairs (lo, lo + dist), where lo has the bit
    // `dist` clear; invocation local_id.x takes pairs local_id.x,
    // local_id.x + W, … Runs of `size` keys alternate up and down (the bit
    // `size` of lo), so each stage leaves bitonic runs of twice the size for
    // the next; the last stage (size = P) sorts the block ascending.
    for (var size = 2u; size <= P; size *= 2u) {
        for (var dist = size / 2u; dist > 0u; dist /= 2u) {
            for (var t = local_id.x; t < P / 2u; t += W) {
                let lo = 2u * dist * (t / dist) + t % dist;
                let hi = lo + dist;
                let ascending = (lo & size) == 0u;
                let a = tile[lo];
                let b = tile[hi];
                if ((ascending && a > b) || (!ascending && a < b)) {
                    tile[lo] = b;
                    tile[hi] = a;
                }
            }
            // Every invocation, every step: the next step reads pairs that
            // other invocations wrote in this one.
            workgroupBarrier();
        }
    }
    // The real keys come first; the padding stays behind.
    for (var i = local_id.x; i < P && first + i < n; i += W) {
        out[first + i] = tile[i];
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
    // B·P / 2 pairs in all, P / 2 per workgroup: at most P reads each. No
    // workgroup memory and no barrier: in one step every place belongs to
    // one pair, and the end of the dispatch is what the next step waits for.
    for (var t = local_id.x; t < P / 2u; t += W) {
        let i = workgroup_id.x * (P / 2u) + t;
        var lo: u32;
        var hi: u32;
        if (dist == half) {
            // The flip: place lo of the lower half of its run of `size`
            // with its mirror in the upper half. Two ascending runs, one
            // read backwards, make a bitonic sequence.
            lo = size * (i / half) + i % half;
            hi = lo ^ (size - 1u);
        } else {
            // A half-cleaner, as in the block sort, all ascending.
            lo = 2u * dist * (i / dist) + i % dist;
            hi = lo + dist;
        }
        // hi > lo, so a pair with hi past the end pairs a key (or padding)
        // with padding: in order already. Skip it, and touch only real keys.
        if (hi < n) {
            let a = out[lo];
            let b = out[hi];
            if (a > b) {
                out[lo] = b;
                out[hi] = a;
            }
        }
    }
}
