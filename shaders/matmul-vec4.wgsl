// Vectorized Matrix Multiply: vec4 loads, four outputs per invocation.

struct Dims {
    m: u32, // rows of a and out
    n: u32, // columns of b and out (a multiple of 4)
    k: u32, // columns of a, rows of b (a multiple of 4)
}

@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;      // m × k floats, row-major, 4 per element
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;      // k × n floats, row-major, 4 per element
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>; // m × n floats, row-major, 4 per element
@group(0) @binding(3) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let x = global_id.x;
    let y = global_id.y;
    let n4 = dims.n / 4u;
    if (y >= dims.m || x >= n4) {
        return;
    }
    var sum = vec4<f32>(0.0);
    for (var l = 0u; l < dims.k; l += 4u) {
        let a4 = a[(y * dims.k + l) / 4u];
        let b0 = b[l * n4 + x];
        let b1 = b[(l + 1u) * n4 + x];
        let b2 = b[(l + 2u) * n4 + x];
        let b3 = b[(l + 3u) * n4 + x];
        sum += a4.x * b0;
        sum += a4.y * b1;
        sum += a4.z * b2;
        sum += a4.w * b3;
    }
    out[y * n4 + x] = sum;
}
