enable subgroups;
// Per test case, the page replaces {{workgroupSize}} and {{totalWorkgroups}}
// with the values shown above the grids. The line above turns on subgroup
// operations; keep it first.
const wgs = vec3<u32>({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3<u32>({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

// One partial sum per subgroup: enough for 256 invocations in 4-lane subgroups.
var<workgroup> partials: array<f32, 64>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,            // lanes per subgroup on this GPU
    @builtin(subgroup_invocation_id) lane: u32,      // this invocation's lane, 0 … sg_size - 1
) {
    // TODO: add this invocation's element (0 past the end) over its subgroup
    // with subgroupAdd, let lane 0 of each subgroup store the result in
    // partials[lid.x / sg_size], wait at a barrier, add the partials of every
    // subgroup (the last may be partly filled), and let invocation 0 write
    // the workgroup's sum to out[wid.x].
}
