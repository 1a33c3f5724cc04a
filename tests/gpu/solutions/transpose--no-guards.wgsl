// expect: memory-error in some cases
// message: out-of-bounds
// Wrong on purpose: no guards. Where the matrix is not a whole number of
// blocks, the last blocks hang over its edges: their invocations read past
// the end of `a` (and write past a row of `out`, into the next row or past
// its end). WebGPU keeps such accesses inside the buffer, so the values may
// even look right; the instrumented run reports the out-of-bounds accesses.
// Cases whose sizes are multiples of the workgroup size pass.
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
    tile[y * STRIDE + x] = a[r * dims.cols + c];
    workgroupBarrier();
    let orow = c0 + y;
    let ocol = r0 + x;
    out[orow * dims.rows + ocol] = tile[x * STRIDE + y];
}
