// Separable Gaussian Blur: the (2r+1) × (2r+1) binomial kernel applied as two
// one-dimensional passes, each its own dispatch. row_pass blurs every row of
// img into tmp; col_pass blurs every column of tmp into out. Each pass reads
// 2r + 1 pixels per output pixel, 2(2r + 1) in all, where the 2-D kernel in
// one pass would read (2r + 1)².
//
// The weights are w_k = C(2r, k) / 4^r for k = 0 … 2r. Each pass sums the
// integers C(2r, k) times the pixels, then scales by 1 / 4^r, a power of two:
// every product, sum and the scaling are exact in f32 (at most 8 + 4r ≤ 24
// significant bits), so the blur comes out exact.
struct Params {
    rows: u32,
    cols: u32,
    r: u32, // the radius: 2r + 1 taps
}

@group(0) @binding(0) var<storage, read> img: array<f32>;        // rows × cols, row-major
@group(0) @binding(1) var<storage, read_write> tmp: array<f32>;  // the row pass's output
@group(0) @binding(2) var<storage, read_write> out: array<f32>;  // the column pass's output
@group(0) @binding(3) var<uniform> params: Params;

// Pass 1: tmp[y][x] = Σ_k w_k · img[y][clamp(x + k − r, 0, cols − 1)].
@compute @workgroup_size({{workgroupSize}})
fn row_pass(@builtin(global_invocation_id) global_id: vec3<u32>) {
    // x runs along a row (the column), y down the picture (the row).
    let row = global_id.y;
    let col = global_id.x;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    let r = i32(params.r);
    let last = i32(params.cols) - 1;
    var c = 1u; // C(2r, k), starting at C(2r, 0)
    var sum = 0.0;
    for (var k = 0; k <= 2 * r; k++) {
        let x = clamp(i32(col) + k - r, 0, last); // clamp to the edge
        sum += f32(c) * img[row * params.cols + u32(x)];
        // The next binomial number: C(2r, k+1) = C(2r, k)·(2r − k)/(k + 1), exact.
        c = c * u32(2 * r - k) / u32(k + 1);
    }
    tmp[row * params.cols + col] = ldexp(sum, -2 * r); // sum / 4^r, exact
}

// Pass 2, a dispatch after pass 1 (so every row of tmp is complete):
// out[y][x] = Σ_k w_k · tmp[clamp(y + k − r, 0, rows − 1)][x].
@compute @workgroup_size({{workgroupSize}})
fn col_pass(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let row = global_id.y;
    let col = global_id.x;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    let r = i32(params.r);
    let last = i32(params.rows) - 1;
    var c = 1u;
    var sum = 0.0;
    for (var k = 0; k <= 2 * r; k++) {
        let y = clamp(i32(row) + k - r, 0, last);
        sum += f32(c) * tmp[u32(y) * params.cols + col];
        c = c * u32(2 * r - k) / u32(k + 1);
    }
    out[row * params.cols + col] = ldexp(sum, -2 * r);
}
