// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> h: array<f32>;
@group(0) @binding(3) var<storage, read_write> blocks: array<f32>;
var<workgroup> smem: array<vec2<f32>, {{smemSize}}>;
var<workgroup> carry: f32;

// The pair (a, b) stands for the map h -> a * h + b. Returns the pair of
// "first apply `first`, then `second`".
fn combine(first: vec2<f32>, second: vec2<f32>) -> vec2<f32> {
    // TODO: compose the two maps, in this order.
    return second;
}

// Dispatched first: compose each block's pairs into one.
@compute @workgroup_size({{workgroupSize}})
fn reduce_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: write the block's total pair to blocks[2w] and blocks[2w + 1].
}

// Dispatched second, once every workgroup of reduce_blocks has finished.
@compute @workgroup_size({{workgroupSize}})
fn scan_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: find h just before this block from the earlier blocks' pairs,
    // then scan this block's pairs and write h.
}
