// expect: failed
// Wrong on purpose: the carry is taken from the block just before,
// block_sums[w - 1], alone. That is right when that block has a flag, since
// its total then starts at its last flag. But a block without a flag is the
// middle of a longer segment, and its sum must be added to the carry it got
// from the blocks before it: in "one segment across three workgroups" and in
// the plain scan, the carry forgets everything before block w - 1.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read> flags: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_flags: array<u32>;
@group(0) @binding(4) var<storage, read_write> block_sums: array<u32>;
var<workgroup> smem: array<vec2<u32>, {{smemSize}}>;
var<workgroup> carry: u32;
var<workgroup> first_flag: atomic<u32>;

// (f1, v1) then (f2, v2): a flag on the right starts over from its value;
// the flags are OR-ed, so the result knows whether a segment began inside.
fn combine(left: vec2<u32>, right: vec2<u32>) -> vec2<u32> {
    var v = left.y + right.y;
    if (right.x != 0u) {
        v = right.y;
    }
    return vec2(left.x | right.x, v);
}

@compute @workgroup_size({{workgroupSize}})
fn scan_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let g = global_id.x;
    // Lanes past the end hold the identity (0, 0).
    var pair = vec2(0u, 0u);
    if (g < arrayLength(&values)) {
        pair = vec2(flags[g], values[g]);
    }
    smem[i] = pair;
    workgroupBarrier();
    for (var d = 1u; d < u32(wgs.x); d *= 2u) {
        var left = vec2(0u, 0u);
        if (i >= d) {
            left = smem[i - d];
        }
        workgroupBarrier();
        smem[i] = combine(left, smem[i]);
        workgroupBarrier();
    }
    let mine = smem[i];
    if (g < arrayLength(&out)) {
        out[g] = mine.y;
    }
    let w = workgroup_id.x;
    if (i == u32(wgs.x) - 1u && w < arrayLength(&block_sums)) {
        block_flags[w] = mine.x;
        block_sums[w] = mine.y;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn add_carries(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let g = global_id.x;
    if (i == 0u) {
        // The open segment's sum at the end of the block before.
        var c = 0u;
        if (workgroup_id.x > 0u) {
            c = block_sums[workgroup_id.x - 1u];
        }
        carry = c;
        atomicStore(&first_flag, u32(wgs.x));
    }
    workgroupBarrier();
    let inside = g < arrayLength(&out);
    if (inside && flags[g] != 0u) {
        atomicMin(&first_flag, i);
    }
    workgroupBarrier();
    // The carry reaches only the elements before the block's first flag.
    if (inside && i < atomicLoad(&first_flag)) {
        out[g] += carry;
    }
}
