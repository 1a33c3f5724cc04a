enable subgroups;
// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> partials: array<f32, {{smemSize}}>; // wgs.x cells; one per subgroup is enough

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,          // lanes per subgroup on this GPU
    @builtin(subgroup_invocation_id) lane: u32,    // this invocation's lane
) {
    // TODO: add this invocation's element (0 past the end) across its
    // subgroup with subgroupAdd; lane 0 of each subgroup stores the sum in
    // partials[local_id.x / sg_size]; one workgroupBarrier(); the first
    // subgroup adds up the partial sums with another subgroupAdd, and
    // invocation 0 writes the total to out[workgroup_id.x].
}
