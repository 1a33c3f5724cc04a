// Transpose: each workgroup moves one T × T block of `a` through a tile in
// workgroup memory, so that both its reads of `a` and its writes of `out`
// go along rows (neighbouring invocations, neighbouring addresses).
const wgs = vec3({{workgroupSize}});
const T = u32(wgs.x);  // the workgroup is T × T (wgs.y is the same)
const STRIDE = T + 1u; // row stride of the tile: one spare column per row

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;         // rows × cols, row-major
@group(0) @binding(1) var<storage, read_write> out: array<f32>; // cols × rows, row-major
@group(0) @binding(2) var<uniform> dims: Dims;

// T rows of T + 1 floats. With a stride of T + 1, the T cells of one tile
// column are spread over different banks instead of sharing a few.
var<workgroup> tile: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let x = local_id.x;
    let y = local_id.y;
    // The block of `a` this workgroup handles starts at row r0, column c0.
    let r0 = workgroup_id.y * T;
    let c0 = workgroup_id.x * T;

    // Read: invocation (x, y) takes a[r0 + y][c0 + x], so consecutive x
    // read consecutive floats of one row of `a`.
    let r = r0 + y;
    let c = c0 + x;
    if (r < dims.rows && c < dims.cols) {
        tile[y * STRIDE + x] = a[r * dims.cols + c];
    }
    workgroupBarrier();

    // Write: the block lands in `out` at row c0, column r0. Invocation
    // (x, y) writes out[c0 + y][r0 + x] = a[r0 + x][c0 + y], which is tile
    // cell (x, y): consecutive x write consecutive floats of one row of
    // `out` and read down one column of the tile.
    let orow = c0 + y;
    let ocol = r0 + x;
    if (orow < dims.cols && ocol < dims.rows) {
        out[orow * dims.rows + ocol] = tile[x * STRIDE + y];
    }
}
