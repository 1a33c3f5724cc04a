// expect: memory-error in some cases
// message: race
// Wrong on purpose: no workgroupBarrier() between filling the tile and
// reading it back. Invocation (x, y) reads tile cell (x, y), which invocation
// (y, x) writes: nothing makes it wait for that write, so on a GPU it may
// read the old contents, and the judge reports a race on the tile. With one
// invocation per workgroup there is nobody to race with, and those cases pass.
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
    let orow = c0 + y;
    let ocol = r0 + x;
    if (orow < dims.cols && ocol < dims.rows) {
        out[orow * dims.rows + ocol] = tile[x * STRIDE + y];
    }
}
