// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

@group(0) @binding(0) var<storage, read> row_offsets: array<u32>; // rows + 1
@group(0) @binding(1) var<storage, read> col_indices: array<u32>; // one per entry
@group(0) @binding(2) var<storage, read> values: array<f32>;      // one per entry
@group(0) @binding(3) var<storage, read> x: array<f32>;           // cols
@group(0) @binding(4) var<storage, read_write> y: array<f32>;     // rows

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let row = workgroup_id.y * u32(twg.x) + workgroup_id.x;
    let i = local_id.x;
    // TODO: workgroups from row arrayLength(&y) on have no row. The others:
    // invocation i adds values[k] * x[col_indices[k]] over the row's entries
    // k = row_offsets[row] + i, + wgs.x, + 2 * wgs.x, … below
    // row_offsets[row + 1], stores its partial sum in smem[i]; barrier; add
    // the wgs.x partial sums up in rounds (barrier after each); invocation 0
    // writes the total to y[row].
}
