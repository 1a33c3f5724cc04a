enable subgroups;
// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> count: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
var<workgroup> smem: array<u32, {{smemSize}}>; // room for one count per subgroup
var<workgroup> offset: u32;

// Dispatched first: count the kept elements of each workgroup.
@compute @workgroup_size({{workgroupSize}})
fn count_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let g = workgroup_id.x * u32(wgs.x) + local_id.x;
    // TODO: write how many of this workgroup's elements are above 0 to
    // block_counts[workgroup_id.x], counting each subgroup's with one
    // subgroupBallot (called by every invocation, outside any if).
}

// Dispatched second, once every workgroup of count_blocks has finished.
@compute @workgroup_size({{workgroupSize}})
fn scatter(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let g = workgroup_id.x * u32(wgs.x) + local_id.x;
    // TODO: this copies every element to its own index. Keep only the
    // elements above 0, packed at the front of out in their order: the
    // workgroup's offset (block_counts of the workgroups before it), plus the
    // kept elements of the subgroups before this one, plus the kept lanes
    // below this one in subgroupBallot(keep). Then write the total to count[0].
    if (g < arrayLength(&a)) {
        out[g] = a[g];
    }
}
