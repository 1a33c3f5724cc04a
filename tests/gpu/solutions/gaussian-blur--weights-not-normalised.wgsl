// expect: failed
// The binomial numbers C(2r, k) used as the weights without dividing by
// their sum 4^r: each pass multiplies the brightness by 4^r (a flat picture
// of 255 comes out 255·16^r). Weights must sum to 1 for a blur to keep the
// picture's brightness.
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
    let r = i32(params.r);
    var c = 1u;
    var sum = 0.0;
    for (var k = 0; k <= 2 * r; k++) {
        let x = clamp(i32(col) + k - r, 0, i32(params.cols) - 1);
        sum += f32(c) * img[row * params.cols + u32(x)];
        c = c * u32(2 * r - k) / u32(k + 1);
    }
    tmp[row * params.cols + col] = sum;
}

@compute @workgroup_size({{workgroupSize}})
fn col_pass(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let row = global_id.y;
    let col = global_id.x;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    let r = i32(params.r);
    var c = 1u;
    var sum = 0.0;
    for (var k = 0; k <= 2 * r; k++) {
        let y = clamp(i32(row) + k - r, 0, i32(params.rows) - 1);
        sum += f32(c) * tmp[u32(y) * params.cols + col];
        c = c * u32(2 * r - k) / u32(k + 1);
    }
    out[row * params.cols + col] = sum;
}
