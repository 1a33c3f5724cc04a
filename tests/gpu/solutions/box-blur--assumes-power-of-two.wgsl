// expect: failed
// Wrong on purpose: finds the workgroup's corner by rounding global_id down to a multiple of
// the workgroup size with a mask, `global_id & ~(wgs - 1)`, which only rounds down when wgs is a
// power of two. In "edge: sizes that are not powers of two" (7 × 7) each invocation gets its own
// wrong corner (invocation (3, 1) of the first workgroup gets (1, 1)), so it loads its tile cells
// from the wrong place and the averages come out wrong.
const wgs = vec3({{workgroupSize}});
const WX = u32(wgs.x);
const WY = u32(wgs.y);
const TW = WX + 2u; // tile width
const TH = WY + 2u; // tile height

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>; // rows × cols, row-major
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> dims: Dims;
var<workgroup> tile: array<f32, {{smemSize}}>; // (wgs.x + 2) × (wgs.y + 2), row-major

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // The block's top-left cell: global_id rounded down to the workgroup size.
    let left = global_id.x & ~(WX - 1u);
    let top = global_id.y & ~(WY - 1u);
    // Tile cell (ty, tx) is grid cell (top + ty - 1, left + tx - 1).
    for (var t = local_index; t < TW * TH; t += WX * WY) {
        let r = i32(top + t / TW) - 1;
        let c = i32(left + t % TW) - 1;
        var v = 0.0;
        if (r >= 0 && r < i32(dims.rows) && c >= 0 && c < i32(dims.cols)) {
            v = a[u32(r) * dims.cols + u32(c)];
        }
        tile[t] = v;
    }
    workgroupBarrier();
    let row = global_id.y;
    let col = global_id.x;
    if (row < dims.rows && col < dims.cols) {
        var sum = 0.0;
        for (var dy = 0u; dy < 3u; dy++) {
            for (var dx = 0u; dx < 3u; dx++) {
                sum += tile[(local_id.y + dy) * TW + local_id.x + dx];
            }
        }
        out[row * dims.cols + col] = sum / 9.0;
    }
}
