// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)
const TX = u32(wgs.x);
const TY = u32(wgs.y);
const BK = 8u;          // depth of a slice along k
const ROWS4 = 2u * TY;  // groups of 4 rows of out per workgroup: 8 · wgs.y rows
const COLS4 = 2u * TX;  // vec4 columns of out per workgroup: 8 · wgs.x columns
const NA = BK * ROWS4;  // vec4s of a in one slice
const NB = BK * COLS4;  // vec4s of b in one slice

struct Dims {
    m: u32, // rows of a and out (a multiple of 4)
    n: u32, // columns of b and out (a multiple of 4)
    k: u32, // columns of a, rows of b
}

@group(0) @binding(0) var<storage, read> a: array<f32>;               // m × k, row-major
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;         // k × n floats, row-major, 4 per element
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>; // m × n floats, row-major, 4 per element
@group(0) @binding(3) var<uniform> dims: Dims;

// Two halves each: the slice being multiplied, and the next one.
var<workgroup> a_tile: array<vec4<f32>, 2u * NA>;
var<workgroup> b_tile: array<vec4<f32>, 2u * NB>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let row0 = wid.y * 8u * TY; // the workgroup's first row of out
    let col0 = wid.x * COLS4;   // its first vec4 column of out
    var acc: array<vec4<f32>, 16>; // this invocation's 8 × 8 block
    // TODO: load slice 0 into half 0; then for each slice, multiply out of one
    // half while the next slice goes into the other, with one workgroupBarrier()
    // per slice; then store the block's 16 vec4s, guarded at the edges.
}
