// expect: failed
// Wrong on purpose: the loop stops 8 words (one block) short of the end of
// the row, as if the bound were the index of the last block's start. Every
// row loses its last block: a row of one block sums to 0, and in the worked
// example y[0] = 0.5 · (-7) = -3.5 instead of 0.5. Only a last block whose
// scale is 0 hides it.
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
    for (var k = i; k + 8u < words; k += W) { // should be k < words
        let q = vec4<f32>(unpack4xI8(w[row * words + k]));
        let xs = vec4<f32>(x[4u * k], x[4u * k + 1u], x[4u * k + 2u], x[4u * k + 3u]);
        sum += scales[row * blocks + k / 8u] * dot(q, xs);
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
