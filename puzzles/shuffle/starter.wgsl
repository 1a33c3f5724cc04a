enable subgroups;
// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>; // wgs.x slots: one per subgroup is enough

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    // TODO: take a[global_id.x] (a very negative value past the end); reduce it
    // within the subgroup with subgroupShuffleXor at offsets sg_size / 2, …, 1,
    // skipping partners that do not exist, and broadcast lane 0's result; store
    // each subgroup's maximum in smem, barrier, reduce those the same way, and
    // write the block's maximum to out[global_id.x].
}
