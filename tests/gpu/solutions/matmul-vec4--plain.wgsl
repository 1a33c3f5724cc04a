// expect: passed
// Each invocation computes four neighbouring outputs of one row as a vec4, stepping k four at a
// time: one vec4 of a and four vec4s of b feed 16 multiply-adds. Written from the statement alone.
// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

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
    let x = global_id.x; // which group of four columns
    let y = global_id.y; // which row
    let n4 = dims.n / 4u;
    let k4 = dims.k / 4u;
    if (y >= dims.m || x >= n4) {
        return; // no barriers in this kernel, so leaving early is fine
    }
    var sum = vec4<f32>(0.0);
    for (var l4 = 0u; l4 < k4; l4++) {
        let a4 = a[y * k4 + l4];       // a[y][4·l4 … 4·l4 + 3]
        let row = 4u * l4;             // first of the four rows of b
        let b0 = b[row * n4 + x];
        let b1 = b[(row + 1u) * n4 + x];
        let b2 = b[(row + 2u) * n4 + x];
        let b3 = b[(row + 3u) * n4 + x];
        sum += a4.x * b0 + a4.y * b1 + a4.z * b2 + a4.w * b3;
    }
    out[y * n4 + x] = sum;
}
