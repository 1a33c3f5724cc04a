// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)
const W = u32(wgs.x);                  // invocations per workgroup: 1 to P / 2
const P = u32({{smemSize}});           // keys per block: a power of two

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> blocks: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, {{smemSize}}>;

// Dispatched first: workgroup k sorts the block keys[k·P … k·P + P - 1].
@compute @workgroup_size({{workgroupSize}})
fn sort_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let first = workgroup_id.x * P;
    // TODO: load the block into tile (invocation local_id.x takes
    // local_id.x, local_id.x + W, …), padding past the end of keys with
    // 0xffffffffu; sort tile with the bitonic network, a workgroupBarrier()
    // after the load and after every step; write the block's real keys, now
    // sorted, to blocks[first + i].
}

// Dispatched second, once every workgroup of sort_blocks has finished.
@compute @workgroup_size({{workgroupSize}})
fn merge_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let k = workgroup_id.x;
    // TODO: write each key x of block k (at rank r in it) to out[r + the
    // keys of the other blocks that come before it]: in each earlier block
    // those at most x, in each later block those below x, counted by a
    // binary search in the sorted block.
}
