// expect: failed
// Wrong on purpose: every merge step is a half-cleaner (lo, lo + dist), the first of each stage
// too, where the all-ascending network pairs lo with its mirror, lo XOR (size - 1). Half-cleaners
// sort a bitonic sequence, and two ascending runs side by side are not one: the runs
// [2, 3, 9, 9 | 0, 1, 1, 5] give [0, 1, 1, 5, 2, 3, 9, 9] (the first step swaps every pair,
// the others find them in order). The flip reads the second run backwards, which makes the two
// a bitonic sequence. The cases with one block (no merge step) pass, and so do those whose
// keys end up in order anyway (sorted, all equal).
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
    let dist = step.dist;
    // B·P / 2 pairs in all, P / 2 per workgroup: at most P reads each.
    for (var t = local_id.x; t < P / 2u; t += W) {
        let i = workgroup_id.x * (P / 2u) + t;
        // Every step a half-cleaner, the first of a stage too: no flip.
        let lo = 2u * dist * (i / dist) + i % dist;
        let hi = lo + dist;
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
