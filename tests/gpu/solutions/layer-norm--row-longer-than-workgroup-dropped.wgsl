// expect: failed
// Wrong on purpose: invocation i handles column i only, as if the workgroup
// always covered the row. Where a row is longer than the workgroup (3 × 37
// with 8 invocations, and every other case but three), columns wgs.x and up
// are left out of the mean and the variance (which still divide by cols) and
// never written, so they stay 0. The three cases whose rows fit the
// workgroup pass: the worked example, "edge: the smallest sizes allowed" and
// "edge: more invocations than columns".
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

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let cols = params.cols;
    let base = workgroup_id.x * cols;
    let n = f32(cols);

    // One column per invocation: nothing past column W - 1.
    var x = 0.0;
    if (i < cols) {
        x = a[base + i];
    }
    smem[i] = x;
    workgroupBarrier();
    for (var count = W; count > 1u; count = (count + 1u) / 2u) {
        let half = (count + 1u) / 2u;
        if (i + half < count) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    let mean = smem[0] / n;
    workgroupBarrier();

    var d2 = 0.0;
    if (i < cols) {
        let d = x - mean;
        d2 = d * d;
    }
    smem[i] = d2;
    workgroupBarrier();
    for (var count = W; count > 1u; count = (count + 1u) / 2u) {
        let half = (count + 1u) / 2u;
        if (i + half < count) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    let inv_std = inverseSqrt(smem[0] / n + params.eps);

    if (i < cols) {
        out[base + i] = (x - mean) * inv_std * gamma[i] + beta[i];
    }
}
