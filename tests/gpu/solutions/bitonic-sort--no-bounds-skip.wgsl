// expect: memory-error in some cases
// message: out-of-bounds write
// Wrong on purpose: merge_step compare-exchanges all B·P / 2 pairs of every step, also those
// whose upper place hi is arrayLength(&out) or more, as if the padding were stored in out. It
// is not: out holds len(keys) elements, so those pairs read out[hi] past its end and write
// it there (and may write the value that read returned into out[lo]). WebGPU drops or
// redirects such writes, and the read returns 0 or another element; the instrumented run
// reports the out-of-bounds writes. Skip a pair whose hi is past the end: it is in order
// already. The cases with one block (no merge step) or with B·P keys exactly pass.
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
// places sorted.
@compute @workgroup_size({{workgroupSize}})
fn merge_step(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let size = step.size;
    let dist = step.dist;
    let half = size / 2u;
    // B·P / 2 pairs in all, P / 2 per workgroup: at most P reads each.
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
        // Every pair, whether or not its places hold keys, and the smaller
        // key to lo, the larger to hi, whether or not they were in order.
        let a = out[lo];
        let b = out[hi];
        out[lo] = min(a, b);
        out[hi] = max(a, b);
    }
}
