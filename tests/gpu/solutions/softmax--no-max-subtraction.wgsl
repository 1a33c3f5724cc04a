// expect: failed
// Wrong on purpose: no max subtraction. It sums exp(a) and writes exp(a) / sum,
// the textbook formula, which is right in exact arithmetic. But exp(a) overflows
// f32 to inf for a above about 88.7: in "large values: exp(100) overflows f32"
// (values 90 to 100) every term is inf, the sum is inf and every output is
// inf / inf = NaN. Rows of small values pass, as they should.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let cols = dims.cols;
    let base = workgroup_id.x * cols;
    let parts = min(W, cols);

    if (i < parts) {
        var s = 0.0;
        for (var c = i; c < cols; c += W) {
            s += exp(a[base + c]);
        }
        smem[i] = s;
    }
    workgroupBarrier();
    for (var n = parts; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    let total = smem[0];

    for (var c = i; c < cols; c += W) {
        out[base + c] = exp(a[base + c]) / total;
    }
}
