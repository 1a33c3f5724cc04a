// expect: failed
// Wrong on purpose: the halo is loaded by the invocations along each side of
// the block, but nobody loads its four corner cells, which stay 0. The
// corner pixels of every block read a corner cell (as `nw`, `ne`, `sw` or
// `se`, weight ±1 in both kernels), so their gradients are wrong: the wrong
// pixels sit where the blocks meet, every `wgs.x` columns and `wgs.y` rows
// (every pixel, in a 1 × 1 workgroup).
const wgs = vec3({{workgroupSize}});
const WX = u32(wgs.x);
const WY = u32(wgs.y);
const TW = WX + 2u; // tile width

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> img: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> dims: Dims;
var<workgroup> tile: array<f32, {{smemSize}}>;

// The pixel at (r, c), clamped into the picture.
fn pixel(r: i32, c: i32) -> f32 {
    let rr = u32(clamp(r, 0, i32(dims.rows) - 1));
    let cc = u32(clamp(c, 0, i32(dims.cols) - 1));
    return img[rr * dims.cols + cc];
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
) {
    let x = local_id.x;
    let y = local_id.y;
    let r = i32(global_id.y);
    let c = i32(global_id.x);
    // This invocation's pixel is tile cell (y + 1, x + 1).
    tile[(y + 1u) * TW + x + 1u] = pixel(r, c);
    let first_col = x == 0u;
    let last_col = x == WX - 1u;
    let first_row = y == 0u;
    let last_row = y == WY - 1u;
    if (first_col) { tile[(y + 1u) * TW] = pixel(r, c - 1); }
    if (last_col) { tile[(y + 1u) * TW + x + 2u] = pixel(r, c + 1); }
    if (first_row) { tile[x + 1u] = pixel(r - 1, c); }
    if (last_row) { tile[(y + 2u) * TW + x + 1u] = pixel(r + 1, c); }
    // (The halo's corners: forgotten.)
    workgroupBarrier();

    if (global_id.y < dims.rows && global_id.x < dims.cols) {
        // The pixel is tile cell (y + 1, x + 1): its rows of neighbours.
        let top = vec3(tile[y * TW + x], tile[y * TW + x + 1u], tile[y * TW + x + 2u]);
        let mid = vec2(tile[(y + 1u) * TW + x], tile[(y + 1u) * TW + x + 2u]);
        let bot = vec3(tile[(y + 2u) * TW + x], tile[(y + 2u) * TW + x + 1u], tile[(y + 2u) * TW + x + 2u]);
        let weights = vec3(1.0, 2.0, 1.0);
        let gx = (top.z - top.x) + 2.0 * (mid.y - mid.x) + (bot.z - bot.x);
        let gy = dot(bot - top, weights);
        let g = vec2(gx, gy);
        out[global_id.y * dims.cols + global_id.x] = length(g);
    }
}
