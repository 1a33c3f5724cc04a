// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

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
    let x = global_id.x; // block column: columns 4x … 4x + 3
    let y = global_id.y; // block row: rows 4y … 4y + 3
    // TODO: if the block is inside out, accumulate its 4 × 4 sums in registers
    // over k and store its four rows as vec4s.
}
