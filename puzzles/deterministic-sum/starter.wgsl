// The Same Answer Every Run: the sum of each block of params.chunk elements
// of x in partials, and the sum of all of x in total[0], with the same bits
// on every Run (see the statement). Workgroup w owns block w.
const wgs = vec3({{workgroupSize}}); // invocations per workgroup (x, y, z)

struct Params {
    n: u32,     // elements of x
    chunk: u32, // elements of each block; the last block holds what is left
}

@group(0) @binding(0) var<storage, read> x: array<f32>;              // n values
@group(0) @binding(1) var<storage, read_write> partials: array<f32>; // one sum per block
@group(0) @binding(2) var<storage, read_write> total: array<f32>;    // 1 element: the sum
@group(0) @binding(3) var<uniform> params: Params;

var<workgroup> smem: array<f32, {{smemSize}}>; // one slot per invocation

// Dispatched first, with one workgroup per block.
@compute @workgroup_size({{workgroupSize}})
fn block_sums(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) group_id: vec3<u32>,
) {
    let i = local_id.x;
    // TODO: add up block group_id.x (x[start], …, x[end - 1]) in an order
    // fixed by the indices, and write its sum to partials[group_id.x].
}

// Dispatched second, with the same workgroup size and count, once every
// workgroup of block_sums has finished.
@compute @workgroup_size({{workgroupSize}})
fn combine(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) group_id: vec3<u32>,
) {
    // TODO: add up the blocks' sums in partials, in an order fixed by the
    // indices, and write the sum to total[0].
}
