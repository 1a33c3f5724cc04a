// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch: one per row

struct Params {
    cols: u32, // elements per row
    eps: f32,  // added to the mean square inside the square root
}

@group(0) @binding(0) var<storage, read> x: array<f32>;               // rows × cols, row-major
@group(0) @binding(1) var<storage, read_write> residual: array<f32>;  // rows × cols: add x into it
@group(0) @binding(2) var<storage, read> weight: array<f32>;          // cols
@group(0) @binding(3) var<storage, read_write> out: array<f32>;       // rows × cols, row-major
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
    // TODO: pass 1: for columns i, i + wgs.x, … of the row, h = residual + x;
    // write h back to residual and add h * h to a partial sum. Put it in
    // smem[i], barrier, reduce smem to smem[0] (a barrier after every round).
    // Pass 2: scale = inverseSqrt(smem[0] / f32(cols) + params.eps); write
    // out = h * scale * weight[c], reading h back from residual.
}
