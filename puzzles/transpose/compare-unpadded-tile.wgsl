// Comparison kernel: the tiled transpose with a tile of row stride T instead
// of T + 1. Reads and writes of device memory are coalesced as in the
// reference, but the column of the tile read before the write falls on
// cells T floats apart, which share a handful of banks.
const wgs = vec3({{workgroupSize}});
const T = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;         // rows × cols, row-major
@group(0) @binding(1) var<storage, read_write> out: array<f32>; // cols × rows, row-major
@group(0) @binding(2) var<uniform> dims: Dims;

var<workgroup> tile: array<f32, {{smemSize}}>; // only the first T · T cells are used

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
        tile[y * T + x] = a[r * dims.cols + c];
    }
    workgroupBarrier();
    let orow = c0 + y;
    let ocol = r0 + x;
    if (orow < dims.cols && ocol < dims.rows) {
        out[orow * dims.rows + ocol] = tile[x * T + y];
    }
}
