// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch: one per row

struct Params {
    cols: u32, // elements per row
    eps: f32,  // added to the variance inside the square root
}

@group(0) @binding(0) var<storage, read> a: array<f32>;         // rows × cols, row-major
@group(0) @binding(1) var<storage, read> gamma: array<f32>;     // cols
@group(0) @binding(2) var<storage, read> beta: array<f32>;      // cols
@group(0) @binding(3) var<storage, read_write> out: array<f32>; // rows × cols, row-major
@group(0) @binding(4) var<uniform> params: Params;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let cols = params.cols;
    // TODO: phase 1, the mean: add up columns i, i + wgs.x, … of the row into
    // smem[i], barrier, reduce smem to smem[0] (barrier after every round),
    // read the mean. Barrier. Phase 2, the variance: the same over
    // (a - mean)². Phase 3: write (a - mean) * inverseSqrt(var + params.eps)
    // * gamma[c] + beta[c] to out for each of the invocation's columns.
}
