// expect: failed
// Wrong on purpose: acc is summed in i32 and right, but y is built as
// Quantised GEMV built its result: each word's dot product is converted,
// multiplied by w_scale[row] · x_scale[0] and added to an f32 partial sum,
// and those are added up in f32. Every word's scaled product rounds, and
// every addition, each by up to 2^-24 of its own size; a row of random bytes
// cancels, its terms larger than its sum, so those roundings add up to more
// than the 5 · 2^-24 of y (relative) that the statement's order, one
// conversion and two products, leaves: about 20 · 2^-24 in some rows of the
// hidden cases whose scales are fractions. With 0 and powers of two as
// scales every product is exact and the shown cases pass.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> w: array<u32>;         // rows × cols / 4 words
@group(0) @binding(1) var<storage, read> xq: array<u32>;        // cols / 4 words
@group(0) @binding(2) var<storage, read> w_scale: array<f32>;   // rows
@group(0) @binding(3) var<storage, read> x_scale: array<f32>;   // 1
@group(0) @binding(4) var<storage, read_write> acc: array<i32>; // rows
@group(0) @binding(5) var<storage, read_write> y: array<f32>;   // rows
@group(0) @binding(6) var<uniform> dims: Dims;

var<workgroup> smem: array<i32, {{smemSize}}>;   // acc's partial sums
var<workgroup> smem_y: array<f32, {{smemSize}}>; // y's partial sums, scaled

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 4u;
    let scale = w_scale[row] * x_scale[0];
    var sum = 0i;
    var sum_y = 0.0;
    for (var k = i; k < words; k += W) {
        let d = dot4I8Packed(w[row * words + k], xq[k]);
        sum += d;
        sum_y += f32(d) * scale; // scaled per word, then added in f32
    }
    smem[i] = sum;
    smem_y[i] = sum_y;
    workgroupBarrier();
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
            smem_y[i] += smem_y[i + half];
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        acc[row] = smem[0];
        y[row] = smem_y[0];
    }
}
