// expect: memory-error
// message: out-of-bounds read
// Wrong on purpose: a row is taken to have dims.cols / 4 words, as in
// Quantised GEMV, where a word held four weights; here it holds eight, so
// a row has dims.cols / 8. The loop runs on twice as far: each row reads
// the next row's words too, the last row past the end of w, and the second
// half of the words any row visits meet x[8k] past the end of x. Every
// case has such words, so every case is an out-of-bounds read.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
    group: u32,
}

@group(0) @binding(0) var<storage, read> w: array<u32>;       // rows × cols / 8 words
@group(0) @binding(1) var<storage, read> scales: array<f32>;  // rows × cols / group
@group(0) @binding(2) var<storage, read> x: array<f32>;       // cols
@group(0) @binding(3) var<storage, read_write> y: array<f32>; // rows
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 4u; // should be dims.cols / 8u
    let groups = dims.cols / dims.group;
    let per_group = dims.group / 8u;
    var sum = 0.0;
    for (var k = i; k < words; k += W) {
        let word = i32(w[row * words + k]);
        var part = 0.0;
        for (var j = 0u; j < 8u; j++) {
            part += f32(extractBits(word, 4u * j, 4u)) * x[8u * k + j];
        }
        sum += scales[row * groups + k / per_group] * part;
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
