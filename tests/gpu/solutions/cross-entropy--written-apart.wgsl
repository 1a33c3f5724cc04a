// expect: passed
// Cross-entropy written apart from the reference: each invocation keeps a
// running maximum and a running sum rescaled to it (online softmax) over its
// columns, and the workgroup merges the (max, sum) pairs in one tree.
struct Dims { rows: u32, cols: u32 }

@group(0) @binding(0) var<storage, read> z: array<f32>;
@group(0) @binding(1) var<storage, read> labels: array<u32>;
@group(0) @binding(2) var<storage, read_write> loss: array<f32>;
@group(0) @binding(3) var<storage, read_write> grad: array<f32>;
@group(0) @binding(4) var<uniform> dims: Dims;

const W = {{smemSize}}u;
var<workgroup> part_max: array<f32, {{smemSize}}>;
var<workgroup> part_sum: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let i = lid.x;
    let row = wid.x;
    let base = row * dims.cols;
    var m = -3.0e38;
    var s = 0.0;
    for (var c = i; c < dims.cols; c += W) {
        let v = z[base + c];
        if (v > m) {
            s = s * exp(m - v) + 1.0;
            m = v;
        } else {
            s += exp(v - m);
        }
    }
    part_max[i] = m;
    part_sum[i] = s;
    workgroupBarrier();
    var stride = 1u;
    while (stride < W) {
        if (i % (2u * stride) == 0u && i + stride < W) {
            let m1 = part_max[i];
            let m2 = part_max[i + stride];
            let mm = max(m1, m2);
            part_sum[i] = part_sum[i] * exp(m1 - mm) + part_sum[i + stride] * exp(m2 - mm);
            part_max[i] = mm;
        }
        stride *= 2u;
        workgroupBarrier();
    }
    let row_max = part_max[0];
    let total = part_sum[0];
    let label = labels[row];
    if (i == 0u) {
        loss[row] = log(total) + row_max - z[base + label];
    }
    for (var c = i; c < dims.cols; c += W) {
        var g = exp(z[base + c] - row_max) / total;
        if (c == label) { g -= 1.0; }
        grad[base + c] = g;
    }
}
