// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Dims {
    m: u32, // rows of a and out
    n: u32, // columns of b and out
    k: u32, // columns of a, rows of b
}

@group(0) @binding(0) var<storage, read> a: array<f32>;      // m × k, row-major
@group(0) @binding(1) var<storage, read> b: array<f32>;      // k × n, row-major
@group(0) @binding(2) var<storage, read_write> out: array<f32>; // m × n, row-major
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> tile_a: array<f32, {{smemSize}}>; // 16 × 16, row-major
var<workgroup> tile_b: array<f32, {{smemSize}}>; // 16 × 16, row-major

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
) {
    let row = global_id.y;
    let col = global_id.x;
    // TODO: for each 16-wide tile along k, load one element of a and one of b
    // into the tiles (0 outside the matrices), barrier, accumulate 16 products,
    // barrier; then write the sum to out[row][col] if it is inside out.
}
