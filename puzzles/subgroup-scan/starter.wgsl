enable subgroups;
// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> totals: array<f32, {{smemSize}}>; // {{smemSize}} = wgs.x

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,          // lanes per subgroup: 4 to 128
    @builtin(subgroup_invocation_id) lane: u32,    // this invocation's lane
) {
    // TODO: load a[global_id.x] (0 past the end), scan it within the subgroup
    // with subgroupInclusiveAdd, let the last lane of each subgroup store the
    // subgroup's total in totals[local_id.x / sg_size], barrier, then add the
    // totals of the earlier subgroups and write out[global_id.x] inside the
    // bounds.
}
