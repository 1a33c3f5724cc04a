// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z); x = y
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;         // rows × cols, row-major
@group(0) @binding(1) var<storage, read_write> out: array<f32>; // cols × rows, row-major
@group(0) @binding(2) var<uniform> dims: Dims;
var<workgroup> tile: array<f32, {{smemSize}}>; // wgs.x rows of wgs.x + 1 floats

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: copy this workgroup's block of `a` into the tile (reads along a
    // row of `a`), barrier, then write the block transposed into `out`
    // (writes along a row of `out`), skipping cells outside the matrices.
}
