// Bitonic Sort: each workgroup sorts its block of P keys in workgroup memory
// with a bitonic network (sort_blocks); then, in a second dispatch, every key
// finds its place in the whole sorted array by binary searches in the other
// sorted blocks (merge_blocks).
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

// How many keys of the sorted block j come before the key x in the whole
// sorted array: those below x and, when `ties` (block j comes before x's
// block), those equal to x too. A binary search over the block's real keys:
// at most log2(P) + 1 reads.
fn count_before(j: u32, x: u32, ties: bool) -> u32 {
    let start = j * P;
    var lo = 0u;
    var hi = min(P, arrayLength(&blocks) - start);
    while (lo < hi) {
        let mid = (lo + hi) / 2u;
        let y = blocks[start + mid];
        if (y < x || (ties && y == x)) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// Dispatch 2: every block of dispatch 1 is sorted and visible now.
@compute @workgroup_size({{workgroupSize}})
fn merge_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
) {
    let n = arrayLength(&blocks);
    let k = workgroup_id.x;
    let first = k * P;
    let real = min(P, n - first);
    for (var r = local_id.x; r < real; r += W) {
        let x = blocks[first + r];
        // r keys of its own block come before it; equal keys of earlier
        // blocks come before it, those of later blocks after it, so equal
        // keys get distinct places.
        var place = r;
        for (var j = 0u; j < num_workgroups.x; j++) {
            if (j != k) {
                place += count_before(j, x, j < k);
            }
        }
        out[place] = x;
    }
}
