// expect: passed
// A correct alternative: the tile is filled by two nested loops, rows of the tile striding by
// wgs.y and columns striding by wgs.x, instead of one loop over the flat cell index. Invocation
// (lx, ly) loads tile cells (ly + m · wgs.y, lx + n · wgs.x), which covers every cell once
// however wide the halo is, including k = 7 with a 1-wide workgroup.
const wgs = vec3({{workgroupSize}});
const WX = u32(wgs.x);
const WY = u32(wgs.y);

struct Dims {
    rows: u32,
    cols: u32,
    k: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> f: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;
var<workgroup> tile: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let k = dims.k;
    let r = i32(k / 2u);
    let tw = WX + k - 1u;
    let th = WY + k - 1u;
    let top = i32(workgroup_id.y * WY) - r;
    let left = i32(workgroup_id.x * WX) - r;
    for (var ty = local_id.y; ty < th; ty += WY) {
        for (var tx = local_id.x; tx < tw; tx += WX) {
            let y = top + i32(ty);
            let x = left + i32(tx);
            let inside = y >= 0 && y < i32(dims.rows) && x >= 0 && x < i32(dims.cols);
            var v = 0.0;
            if (inside) {
                v = a[u32(y) * dims.cols + u32(x)];
            }
            tile[ty * tw + tx] = v;
        }
    }
    workgroupBarrier();
    let y = global_id.y;
    let x = global_id.x;
    if (y < dims.rows && x < dims.cols) {
        var sum = 0.0;
        for (var i = 0u; i < k; i++) {
            for (var j = 0u; j < k; j++) {
                sum += f[i * k + j] * tile[(local_id.y + i) * tw + local_id.x + j];
            }
        }
        out[y * dims.cols + x] = sum;
    }
}
