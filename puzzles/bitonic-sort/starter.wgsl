// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)
const W = u32(wgs.x);                  // invocations per workgroup: 1 to P / 2
const P = u32({{smemSize}});           // keys per block: a power of two

// Set before each dispatch: the merge step it runs (zeros in sort_blocks).
struct Step {
    size: u32, // 2·P, 4·P, … up to u32(twg.x) · P
    dist: u32, // size / 2, size / 4, … 1
}

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> step: Step;
var<workgroup> tile: array<u32, {{smemSize}}>;

// Dispatched once, first: workgroup k sorts the block keys[k·P … k·P + P - 1].
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
    // sorted, to out[first + i].
}

// Dispatched once per merge step, in order, each after the one before has
// finished: step.size and step.dist say which step.
@compute @workgroup_size({{workgroupSize}})
fn merge_step(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: compare-exchange the pairs i = workgroup_id.x * (P / 2) + t for
    // t = local_id.x, local_id.x + W, … below P / 2, all ascending, in out:
    // the flip (lo with its mirror in its run of step.size) where
    // step.dist * 2 == step.size, else (lo, lo + step.dist). Skip a pair
    // whose upper place is arrayLength(&out) or more.
}
