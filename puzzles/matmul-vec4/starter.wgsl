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
    // TODO: if (y, 4x) is inside out, accumulate a vec4 sum over k, four steps
    // at a time, and store it to out[y * dims.n / 4 + x].
}
