// expect: failed
// No intermediate: the row pass writes its result into out, and the column
// pass blurs out in place. tmp stays zero (it is compared), and the column
// pass reads pixels of out that other invocations of the same dispatch are
// overwriting: a read-after-write race, whose values depend on the order
// the GPU runs them. The column pass must read one buffer and write another.
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
    out[row * params.cols + col] = ldexp(sum, -2 * r);
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
        sum += f32(c) * out[u32(y) * params.cols + col];
        c = c * u32(2 * r - k) / u32(k + 1);
    }
    out[row * params.cols + col] = ldexp(sum, -2 * r);
}
