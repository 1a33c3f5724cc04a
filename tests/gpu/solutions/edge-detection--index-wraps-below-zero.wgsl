// expect: failed
// Wrong on purpose: the halo's rows and columns are worked out in u32. For
// the first row of workgroups the halo row is 0 - 1, which wraps to
// 4294967295, and `min(…, rows - 1)` then clamps it to the picture's LAST
// row instead of its first (and the first column's halo to the last
// column). The top and left borders come out wrong, mixed with the far side
// of the picture.
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
    // Tile cell (ty, tx) is the pixel at (top + ty - 1, left + tx - 1),
    // clamped into the picture: but in u32, where 0 - 1 is 4294967295 and
    // `min` sends it to the last row or column.
    let top = workgroup_id.y * u32(wgs.y);
    let left = workgroup_id.x * u32(wgs.x);
    // More cells than invocations: stride through them all, halo corners
    // included; every cell is one read.
    for (var t = local_index; t < TW * TH; t += u32(wgs.x * wgs.y)) {
        let r = min(top + t / TW - 1u, dims.rows - 1u);
        let c = min(left + t % TW - 1u, dims.cols - 1u);
        tile[t] = img[r * dims.cols + c];
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
