// expect: failed
// The tap's coordinate computed in u32: near the left (top) edge
// col + k - r goes below zero, wraps around to a huge number, and min(…,
// cols - 1) then takes the pixel at the right (bottom) edge instead of the
// left (top) one. Work in i32 and clamp to both ends.
struct Params {
    rows: u32,
    cols: u32,
    r: u32,
}

@group(0) @binding(0) var<storage, read> img: array<f32>;
@group(0) @binding(1) var<storage, read_write> tmp: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size({{workgroupSize}})
fn row_pass(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let row = global_id.y;
    let col = global_id.x;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    let r = params.r;
    var c = 1u;
    var sum = 0.0;
    for (var k = 0u; k <= 2u * r; k++) {
        let x = min(col + k - r, params.cols - 1u);
        sum += f32(c) * img[row * params.cols + x];
        c = c * (2u * r - k) / (k + 1u);
    }
    tmp[row * params.cols + col] = ldexp(sum, -2 * i32(r));
}

@compute @workgroup_size({{workgroupSize}})
fn col_pass(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let row = global_id.y;
    let col = global_id.x;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    let r = params.r;
    var c = 1u;
    var sum = 0.0;
    for (var k = 0u; k <= 2u * r; k++) {
        let y = min(row + k - r, params.rows - 1u);
        sum += f32(c) * tmp[y * params.cols + col];
        c = c * (2u * r - k) / (k + 1u);
    }
    out[row * params.cols + col] = ldexp(sum, -2 * i32(r));
}
