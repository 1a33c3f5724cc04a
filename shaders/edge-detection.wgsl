// Edge Detection: the Sobel gradient magnitude through a halo tile in
// workgroup memory. Each workgroup loads its block of pixels and a one-pixel
// border around it once (every pixel outside the picture replaced by the
// nearest edge pixel), waits at a barrier, and then computes both gradients
// of each of its pixels from the same eight tile cells.
const wgs = vec3({{workgroupSize}});
const TW = u32(wgs.x) + 2u; // tile width
const TH = u32(wgs.y) + 2u; // tile height

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> img: array<f32>; // rows × cols, row-major, 0 to 255
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> dims: Dims;
var<workgroup> tile: array<f32, {{smemSize}}>; // TH × TW, row-major

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // Tile cell (ty, tx) is the pixel at (top + ty, left + tx), clamped into
    // the picture. Signed: the halo starts one row above and one column left
    // of the block, at -1 for the first workgroups.
    let top = i32(workgroup_id.y * u32(wgs.y)) - 1;
    let left = i32(workgroup_id.x * u32(wgs.x)) - 1;
    let last_row = i32(dims.rows) - 1;
    let last_col = i32(dims.cols) - 1;
    // More cells than invocations: stride through them all, halo corners
    // included; every cell is one read.
    for (var t = local_index; t < TW * TH; t += u32(wgs.x * wgs.y)) {
        let r = clamp(top + i32(t / TW), 0, last_row);
        let c = clamp(left + i32(t % TW), 0, last_col);
        tile[t] = img[u32(r) * dims.cols + u32(c)];
    }
    workgroupBarrier();

    let row = global_id.y;
    let col = global_id.x;
    if (row < dims.rows && col < dims.cols) {
        // The pixel is tile cell (y + 1, x + 1); its neighbours by compass point.
        let x = local_id.x;
        let y = local_id.y;
        let nw = tile[y * TW + x];
        let n = tile[y * TW + x + 1u];
        let ne = tile[y * TW + x + 2u];
        let w = tile[(y + 1u) * TW + x];
        let e = tile[(y + 1u) * TW + x + 2u];
        let sw = tile[(y + 2u) * TW + x];
        let s = tile[(y + 2u) * TW + x + 1u];
        let se = tile[(y + 2u) * TW + x + 2u];
        // Both Sobel kernels from the same eight values: right minus left,
        // below minus above. Whole numbers, exact in f32.
        let gx = (ne + 2.0 * e + se) - (nw + 2.0 * w + sw);
        let gy = (sw + 2.0 * s + se) - (nw + 2.0 * n + ne);
        out[row * dims.cols + col] = sqrt(gx * gx + gy * gy);
    }
}
