// expect: failed
// Wrong on purpose: after the barrier, invocation (x, y) reads back the cell
// it wrote itself, tile[y][x], instead of tile[x][y]. The block lands at the
// transposed place in `out`, but its contents are not transposed: out[c0 + y]
// [r0 + x] gets a[r0 + y][c0 + x]. Only a 1 × 1 tile, or a block that is its
// own transpose, comes out right.
const wgs = vec3({{workgroupSize}});
const T = u32(wgs.x);
const STRIDE = T + 1u;

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;         // rows × cols, row-major
@group(0) @binding(1) var<storage, read_write> out: array<f32>; // cols × rows, row-major
@group(0) @binding(2) var<uniform> dims: Dims;
var<workgroup> tile: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let x = local_id.x;
    let y = local_id.y;
    let r0 = workgroup_id.y * T;
    let c0 = workgroup_id.x * T;
    let r = r0 + y;
    let c = c0 + x;
    if (r < dims.rows && c < dims.cols) {
        tile[y * STRIDE + x] = a[r * dims.cols + c];
    }
    workgroupBarrier();
    let orow = c0 + y;
    let ocol = r0 + x;
    if (orow < dims.cols && ocol < dims.rows) {
        out[orow * dims.rows + ocol] = tile[y * STRIDE + x];
    }
}
