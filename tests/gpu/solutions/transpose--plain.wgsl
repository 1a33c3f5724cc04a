// expect: passed
// Tiled transpose: each workgroup reads its T × T block of a along rows into a padded tile
// (row stride T + 1), then writes it transposed along rows of out. Written from the statement alone.
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
    let T = u32(wgs.x);
    let S = T + 1u; // padded row stride of the tile
    let x = local_id.x;
    let y = local_id.y;
    let r0 = workgroup_id.y * T; // first row of a in this block
    let c0 = workgroup_id.x * T; // first column of a in this block

    // Read along a row of a: a[r0 + y][c0 + x] into tile cell (y, x).
    if (r0 + y < dims.rows && c0 + x < dims.cols) {
        tile[y * S + x] = a[(r0 + y) * dims.cols + c0 + x];
    }
    workgroupBarrier();

    // Write along a row of out: out[c0 + y][r0 + x] = a[r0 + x][c0 + y], tile cell (x, y).
    if (c0 + y < dims.cols && r0 + x < dims.rows) {
        out[(c0 + y) * dims.rows + r0 + x] = tile[x * S + y];
    }
}
