// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Dims {
    rows: u32,
    cols: u32,
    k: u32, // the filter is k × k, k odd
}

@group(0) @binding(0) var<storage, read> a: array<f32>; // rows × cols, row-major
@group(0) @binding(1) var<storage, read> f: array<f32>; // k × k, row-major
@group(0) @binding(2) var<storage, read_write> out: array<f32>; // rows × cols
@group(0) @binding(3) var<uniform> dims: Dims;
var<workgroup> tile: array<f32, {{smemSize}}>; // (wgs.x + k - 1) × (wgs.y + k - 1), row-major

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: fill the tile (the workgroup's block of `a` with a halo of k / 2 cells on every
    // side, 0 outside `a`), barrier, then write the filtered value of cell
    // (global_id.y, global_id.x) if it lies inside `a`.
}
