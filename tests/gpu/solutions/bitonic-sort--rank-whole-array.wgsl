// expect: over-budget in some cases
// message: over budget: workgroup (
// Right answer, wrong method: a rank sort. Each key's place is the number of keys below it in
// the whole array, plus the equal ones before it, counted by reading every key: len(keys)
// reads per key instead of a binary search per block. Correct, and over the budget on the
// written cases with large blocks (64 keys or more); those with small blocks pass.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);          // invocations per workgroup: any number from 1 to P / 2
const P = u32({{smemSize}});   // keys per block: a power of two

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> blocks: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;

var<workgroup> tile: array<u32, {{smemSize}}>;

// Dispatch 1: sort keys[k·P … k·P + P - 1] in workgroup k.
@compute @workgroup_size({{workgroupSize}})
fn sort_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = arrayLength(&keys);
    let first = workgroup_id.x * P;
    // Load the block; past the end of keys, pad with the largest u32, which
    // sorts after every real key (or next to an equal one: the same value).
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
        blocks[first + i] = tile[i];
    }
}

// Dispatch 2: each key counts the keys that come before it, every one of them.
@compute @workgroup_size({{workgroupSize}})
fn merge_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = arrayLength(&blocks);
    let first = workgroup_id.x * P;
    for (var r = local_id.x; r < P && first + r < n; r += W) {
        let g = first + r;
        let x = blocks[g];
        var place = 0u;
        for (var i = 0u; i < n; i++) {
            let y = blocks[i];
            if (y < x || (y == x && i < g)) {
                place++;
            }
        }
        out[place] = x;
    }
}
