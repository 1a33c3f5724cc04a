// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Dims {
    m: u32, // rows of a, elements of y
    k: u32, // columns of a, elements of x
}

@group(0) @binding(0) var<storage, read> a: array<f32>;       // m × k, row-major
@group(0) @binding(1) var<storage, read> x: array<f32>;       // k
@group(0) @binding(2) var<storage, read_write> y: array<f32>; // m
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let row = workgroup_id.x;
    let i = local_id.x;
    // TODO: invocation i adds a[row][c] * x[c] over the columns c = i, i + wgs.x,
    // i + 2 * wgs.x, … and stores its partial sum in smem[i]; barrier; add the
    // wgs.x partial sums up in rounds (barrier after each), for any wgs.x;
    // invocation 0 writes the total to y[row].
}
