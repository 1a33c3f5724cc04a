// Comparison kernel: register tiles alone. Each invocation keeps a 4 × 4
// block of sums in registers but reads a and b straight from device memory,
// so every float is fetched again by every invocation that needs it.

struct Dims {
    m: u32, // rows of a and out (a multiple of 4)
    n: u32, // columns of b and out (a multiple of 4)
    k: u32, // columns of a, rows of b
}

@group(0) @binding(0) var<storage, read> a: array<f32>;            // m × k, row-major
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;      // k × n floats, row-major, 4 per element
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>; // m × n floats, row-major, 4 per element
@group(0) @binding(3) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let x = global_id.x;
    let y = global_id.y;
    let n4 = dims.n / 4u;
    let row = 4u * y;
    if (row >= dims.m || x >= n4) {
        return;
    }
    var acc = array<vec4<f32>, 4>(vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));
    for (var l = 0u; l < dims.k; l++) {
        let b4 = b[l * n4 + x];
        acc[0] += a[row * dims.k + l] * b4;
        acc[1] += a[(row + 1u) * dims.k + l] * b4;
        acc[2] += a[(row + 2u) * dims.k + l] * b4;
        acc[3] += a[(row + 3u) * dims.k + l] * b4;
    }
    for (var i = 0u; i < 4u; i++) {
        out[(row + i) * n4 + x] = acc[i];
    }
}
