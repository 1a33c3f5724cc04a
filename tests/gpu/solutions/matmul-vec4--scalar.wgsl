// expect: passed
// Correct, and the way the puzzle teaches to avoid: the same four columns per
// invocation as the reference, but every element of a and b read as a scalar
// f32, so each invocation issues four times the loads of a vec4 kernel. It
// passes on a software adapter, where the performance target is not enforced;
// on an NVIDIA H100 it ran at 39 % of the reference's rate, below the 60 %
// target (see docs/performance.md).
struct Dims {
    m: u32,
    n: u32,
    k: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let col = 4u * global_id.x;
    let row = global_id.y;
    if (row >= dims.m || col >= dims.n) {
        return;
    }
    var s0 = 0.0;
    var s1 = 0.0;
    var s2 = 0.0;
    var s3 = 0.0;
    for (var l = 0u; l < dims.k; l++) {
        let x = a[row * dims.k + l];
        let base = l * dims.n + col;
        s0 += x * b[base];
        s1 += x * b[base + 1u];
        s2 += x * b[base + 2u];
        s3 += x * b[base + 3u];
    }
    let o = row * dims.n + col;
    out[o] = s0;
    out[o + 1u] = s1;
    out[o + 2u] = s2;
    out[o + 3u] = s3;
}
