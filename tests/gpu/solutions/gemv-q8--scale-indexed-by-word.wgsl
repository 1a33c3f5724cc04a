// expect: failed
// Wrong on purpose: the block of word k is taken as k / 32, as if k counted
// weights; a block is 32 weights but only 8 words. Words 8 to 31 of a row
// get block 0's scale, words 32 to 63 block 1's, and so on. Rows of one
// block (cols = 32) come out right; in the worked example word 8 of row 0
// gets scale 0.5 instead of 2, and y[0] = -2.5 instead of 0.5.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> w: array<u32>;       // rows × cols / 4 words
@group(0) @binding(1) var<storage, read> scales: array<f32>;  // rows × cols / 32
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
    let words = dims.cols / 4u;
    let blocks = dims.cols / 32u;
    var sum = 0.0;
    for (var k = i; k < words; k += W) {
        let q = vec4<f32>(unpack4xI8(w[row * words + k]));
        let xs = vec4<f32>(x[4u * k], x[4u * k + 1u], x[4u * k + 2u], x[4u * k + 3u]);
        sum += scales[row * blocks + k / 32u] * dot(q, xs); // should be k / 8u
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
