// expect: over-budget in some cases
// message: over budget: workgroup (
// Right answer, wrong method: a rank sort, with no network at all. In sort_blocks each key goes
// straight to its place in out: the number of keys below it in the whole of keys, plus the
// equal ones before it, counted by reading every key. That is len(keys) + 1 reads per key,
// where sorting the block and merging read at most 2 per key and merge step. Correct, and over
// the budget (2 · P reads per workgroup per dispatch) on every written case but the smallest
// ones (10 keys in blocks of 4, 17 keys in blocks of 8, one key), which pass. merge_step has
// nothing left to do.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);          // invocations per workgroup: any number from 1 to P / 2
const P = u32({{smemSize}});   // keys per block: a power of two

struct Step {
    size: u32,
    dist: u32,
}

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> step: Step;

// Dispatched once: each key of block k, counted against all of keys.
@compute @workgroup_size({{workgroupSize}})
fn sort_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = arrayLength(&keys);
    let first = workgroup_id.x * P;
    for (var r = local_id.x; r < P && first + r < n; r += W) {
        let g = first + r;
        let x = keys[g];
        // Equal keys keep their order, so no two keys get the same place.
        var place = 0u;
        for (var i = 0u; i < n; i++) {
            let y = keys[i];
            if (y < x || (y == x && i < g)) {
                place++;
            }
        }
        out[place] = x;
    }
}

// Dispatched once per merge step: out is sorted already.
@compute @workgroup_size({{workgroupSize}})
fn merge_step() {
}
