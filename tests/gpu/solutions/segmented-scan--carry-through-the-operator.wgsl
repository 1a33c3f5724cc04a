// expect: passed
// Correct, written another way: reduce, then scan. scan_blocks only combines
// each block's pairs into its total (it still scans, but writes no `out`).
// add_carries finds the carry by walking back from block w - 1, adding
// sums until it meets a flagged block, whose sum ends the walk: the fold of
// the earlier blocks, read from its far end. Then it scans its block's pairs
// again with the carry entering as a pair (0, c) in front of lane 0, so the
// operator itself stops the carry at the first flag and no first-flag
// search is needed. Each out[g] is written once, in add_carries.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read> flags: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_flags: array<u32>;
@group(0) @binding(4) var<storage, read_write> block_sums: array<u32>;
var<workgroup> pairs: array<vec2<u32>, {{smemSize}}>;
var<workgroup> carry: u32;

fn seg_add(earlier: vec2<u32>, later: vec2<u32>) -> vec2<u32> {
    let restart = later.x != 0u;
    return vec2(earlier.x | later.x, select(earlier.y + later.y, later.y, restart));
}

// The inclusive scan of the block's pairs, with `front` combined before lane
// 0's pair; returns this invocation's prefix.
fn scan_pairs(lane: u32, g: u32, front: vec2<u32>) -> vec2<u32> {
    var p = vec2(0u, 0u);
    if (g < arrayLength(&values)) {
        p = vec2(flags[g], values[g]);
    }
    if (lane == 0u) {
        p = seg_add(front, p);
    }
    pairs[lane] = p;
    workgroupBarrier();
    var d = 1u;
    while (d < u32(wgs.x)) {
        var earlier = vec2(0u, 0u);
        if (lane >= d) {
            earlier = pairs[lane - d];
        }
        workgroupBarrier();
        pairs[lane] = seg_add(earlier, pairs[lane]);
        workgroupBarrier();
        d = d * 2u;
    }
    return pairs[lane];
}

@compute @workgroup_size({{workgroupSize}})
fn scan_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let total = scan_pairs(local_id.x, global_id.x, vec2(0u, 0u));
    let w = workgroup_id.x;
    if (local_id.x == u32(wgs.x) - 1u && w < arrayLength(&block_flags)) {
        block_flags[w] = total.x;
        block_sums[w] = total.y;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn add_carries(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    if (local_id.x == 0u) {
        var c = 0u;
        var v = workgroup_id.x;
        while (v > 0u) {
            v -= 1u;
            c += block_sums[v];
            if (block_flags[v] != 0u) {
                break;
            }
        }
        carry = c;
    }
    // workgroupUniformLoad waits at a barrier, then reads invocation 0's carry.
    let front = vec2(0u, workgroupUniformLoad(&carry));
    let mine = scan_pairs(local_id.x, global_id.x, front);
    if (global_id.x < arrayLength(&out)) {
        out[global_id.x] = mine.y;
    }
}
