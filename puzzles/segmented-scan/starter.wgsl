// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read> flags: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_flags: array<u32>;
@group(0) @binding(4) var<storage, read_write> block_sums: array<u32>;
var<workgroup> smem: array<vec2<u32>, {{smemSize}}>;
var<workgroup> carry: u32;

// The pair (flag, value). `left` is the earlier pair, `right` the later.
fn combine(left: vec2<u32>, right: vec2<u32>) -> vec2<u32> {
    // TODO: OR the flags; restart at right's value if right is flagged.
    return right;
}

// Dispatched first: scan each block's pairs, and record its total pair.
@compute @workgroup_size({{workgroupSize}})
fn scan_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: scan this block's pairs into out, and write the block's total
    // pair to block_flags and block_sums.
}

// Dispatched second, once every workgroup of scan_blocks has finished.
@compute @workgroup_size({{workgroupSize}})
fn add_carries(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: fold the earlier blocks' totals into a carry, and add it to the
    // elements of this block before its first flag.
}
