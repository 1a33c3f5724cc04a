// expect: failed
// Wrong on purpose: takes `dims.rows` for the length of a row and `dims.cols` for the number
// of rows, as if the image were stored column by column: it steps through `a` and `out` with
// a stride of `rows` and bounds y by `cols` and x by `rows`. Every index still stays below
// rows · cols, so nothing is read or written out of bounds, and a square image comes out
// right; on a non-square one ("worked example: 4 × 5, 3 × 3 filter") the tile holds the wrong
// cells and part of `out` is never written.
const wgs = vec3({{workgroupSize}});

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
    @builtin(local_invocation_index) local_index: u32,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let height = dims.cols; // swapped: this is the width
    let width = dims.rows;  // swapped: this is the height
    let k = dims.k;
    let r = i32(k / 2u);
    let tw = u32(wgs.x) + k - 1u;
    let th = u32(wgs.y) + k - 1u;
    let top = i32(workgroup_id.y * u32(wgs.y)) - r;
    let left = i32(workgroup_id.x * u32(wgs.x)) - r;
    for (var t = local_index; t < tw * th; t += u32(wgs.x * wgs.y)) {
        let y = top + i32(t / tw);
        let x = left + i32(t % tw);
        var v = 0.0;
        if (y >= 0 && y < i32(height) && x >= 0 && x < i32(width)) {
            v = a[u32(y) * width + u32(x)];
        }
        tile[t] = v;
    }
    workgroupBarrier();
    if (global_id.y < height && global_id.x < width) {
        var sum = 0.0;
        for (var i = 0u; i < k; i++) {
            for (var j = 0u; j < k; j++) {
                sum += f[i * k + j] * tile[(local_id.y + i) * tw + local_id.x + j];
            }
        }
        out[global_id.y * width + global_id.x] = sum;
    }
}
