// Box Blur: a 3 × 3 average through a halo tile in workgroup memory.
const wgs = vec3({{workgroupSize}});
const TW = u32(wgs.x) + 2u; // tile width
const TH = u32(wgs.y) + 2u; // tile height

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> dims: Dims;
var<workgroup> tile: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // Tile cell (ty, tx) is grid cell (top + ty - 1, left + tx - 1).
    let top = i32(workgroup_id.y * u32(wgs.y));
    let left = i32(workgroup_id.x * u32(wgs.x));
    for (var t = local_index; t < TW * TH; t += u32(wgs.x * wgs.y)) {
        let r = top + i32(t / TW) - 1;
        let c = left + i32(t % TW) - 1;
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
