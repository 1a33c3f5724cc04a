// expect: memory-error in some cases
// message: in different workgroups of one dispatch of `merge_step`
// Wrong on purpose: one dispatch should be enough for the merge, so the first dispatch of
// merge_step runs every stage and every step of it by itself, with a storageBarrier() between
// the steps, and the later dispatches return at once (they would find `out` sorted). But a step
// reads keys that other workgroups wrote in the step before, and storageBarrier() only orders
// the accesses of one workgroup's invocations: nothing orders workgroups within a dispatch,
// and not all of them need even be running at once. The judge reports the race between
// workgroups whatever the values (on a GPU that happened to run them one after another they
// would be right). A case of one block has no merge step, and a case whose merge swaps nothing
// (keys sorted, or all equal) writes nothing to race with: those pass.
const wgs = vec3({{workgroupSize}});
const twg = vec3({{totalWorkgroups}});
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

// Dispatched once per merge step; only the first does anything.
@compute @workgroup_size({{workgroupSize}})
fn merge_step(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    if (step.size != 2u * P || step.dist != P) {
        return;
    }
    let n = arrayLength(&out);
    // Every stage and step over the B·P places, in this one dispatch.
    for (var size = 2u * P; size <= u32(twg.x) * P; size *= 2u) {
        let half = size / 2u;
        for (var dist = half; dist > 0u; dist /= 2u) {
            for (var t = local_id.x; t < P / 2u; t += W) {
                let i = workgroup_id.x * (P / 2u) + t;
                var lo: u32;
                var hi: u32;
                if (dist == half) {
                    lo = size * (i / half) + i % half;
                    hi = lo ^ (size - 1u);
                } else {
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
            // Waits for this workgroup's invocations, and for no other
            // workgroup's.
            storageBarrier();
        }
    }
}
