// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> block_sums: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;
var<workgroup> offset: f32;

// Dispatched first: scan each block, and record its total.
@compute @workgroup_size({{workgroupSize}})
fn scan_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: scan this block into out, and write its total to block_sums.
}

// Dispatched second, once every workgroup of scan_blocks has finished.
@compute @workgroup_size({{workgroupSize}})
fn add_offsets(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: add the totals of the blocks before this one to every element of it.
}
