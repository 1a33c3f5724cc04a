// expect: over-budget in some cases
// message: per invocation
// Wrong on purpose: the values are right, but this is the plain product of
// Matrix Multiply: each invocation reads its row of a and column of b from
// device memory, 2k reads, where the tiled product reads 2 · ceil(k / 16)
// (the budget allows twice that). Cases with k up to 4 cannot tell them apart.
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
    let row = global_id.y;
    let col = global_id.x;
    if (row < dims.m && col < dims.n) {
        var sum = 0.0;
        for (var l = 0u; l < dims.k; l++) {
            sum += a[row * dims.k + l] * b[l * dims.n + col];
        }
        out[row * dims.n + col] = sum;
    }
}
