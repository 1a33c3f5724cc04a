// expect: failed
// Layer Norm's habit: the row's mean subtracted before normalising. RMSNorm
// divides by the root mean square of the row as it is; this kernel returns
// (h - mean) / std · weight, off by 1.3 on the worked example.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Params {
    cols: u32,
    eps: f32,
}

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> residual: array<f32>;
@group(0) @binding(2) var<storage, read> weight: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;

var<workgroup> smem: array<f32, {{smemSize}}>;

fn reduce(i: u32) {
    for (var count = W; count > 1u; count = (count + 1u) / 2u) {
        let half = (count + 1u) / 2u;
        if (i + half < count) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let cols = params.cols;
    let base = workgroup_id.x * cols;
    var sum = 0.0;
    for (var c = i; c < cols; c += W) {
        let h = residual[base + c] + x[base + c];
        residual[base + c] = h;
        sum += h;
    }
    smem[i] = sum;
    workgroupBarrier();
    reduce(i);
    let mean = smem[0] / f32(cols);
    workgroupBarrier();
    var sq = 0.0;
    for (var c = i; c < cols; c += W) {
        let d = residual[base + c] - mean;
        sq += d * d;
    }
    smem[i] = sq;
    workgroupBarrier();
    reduce(i);
    let scale = inverseSqrt(smem[0] / f32(cols) + params.eps);
    for (var c = i; c < cols; c += W) {
        out[base + c] = (residual[base + c] - mean) * scale * weight[c];
    }
}
