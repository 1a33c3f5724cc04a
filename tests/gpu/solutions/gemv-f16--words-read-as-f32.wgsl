// expect: memory-error
// Wrong on purpose: Matrix–Vector Product's kernel with each word read as
// one f32 weight (bitcast<f32>(w[row * cols + c])), one word a column, as
// if w held the matrix in f32. It holds half as many words, two binary16
// weights each, so the last row reads past the end of w in every case
// (from index rows * cols / 2 on), and the words it does read are the
// wrong numbers: 0x40003C00, the weights 1 and 2, is 2.0009 as an f32.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> w: array<u32>;       // rows × cols / 2 words
@group(0) @binding(1) var<storage, read> x: array<f32>;       // cols
@group(0) @binding(2) var<storage, read_write> y: array<f32>; // rows
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    var sum = 0.0;
    for (var c = i; c < dims.cols; c += W) {
        sum += bitcast<f32>(w[row * dims.cols + c]) * x[c];
    }
    smem[i] = sum;
    workgroupBarrier();
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        y[row] = smem[0];
    }
}
