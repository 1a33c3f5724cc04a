// expect: failed
// Wrong on purpose: the variance as E[x²] - E[x]², from the sums of x and of
// x² gathered in one pass. In f32 that subtracts two nearly equal large
// numbers: in "large offset: values 10000 … 10009" E[x²] is about 1e8, where
// f32 values are 8 apart, while the variance is about 8, so what is left is
// rounding error (here 0 or 8 in every row) and the outputs miss by 0.095 to
// 1200 per row; "large offset: values 20000 … 20019" misses by over 3000. The
// max(…, 0) hides the negative variances a student first sees as NaN, not
// the error. Every other written case passes: with values -9..9 the squares
// and their sums are exact.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Params {
    cols: u32,
    eps: f32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> gamma: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;

var<workgroup> smem_sum: array<f32, {{smemSize}}>;
var<workgroup> smem_sq: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let cols = params.cols;
    let base = workgroup_id.x * cols;
    let n = f32(cols);

    // One pass: the sum of x and the sum of x² together.
    var sum = 0.0;
    var sum_sq = 0.0;
    for (var c = i; c < cols; c += W) {
        let x = a[base + c];
        sum += x;
        sum_sq += x * x;
    }
    smem_sum[i] = sum;
    smem_sq[i] = sum_sq;
    workgroupBarrier();
    for (var count = W; count > 1u; count = (count + 1u) / 2u) {
        let half = (count + 1u) / 2u;
        if (i + half < count) {
            smem_sum[i] += smem_sum[i + half];
            smem_sq[i] += smem_sq[i + half];
        }
        workgroupBarrier();
    }
    let mean = smem_sum[0] / n;
    let variance = max(smem_sq[0] / n - mean * mean, 0.0);
    let inv_std = inverseSqrt(variance + params.eps);

    for (var c = i; c < cols; c += W) {
        out[base + c] = (a[base + c] - mean) * inv_std * gamma[c] + beta[c];
    }
}
