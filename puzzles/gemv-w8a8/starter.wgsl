// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch: one per row

struct Dims {
    rows: u32, // rows of the matrix, elements of acc and y
    cols: u32, // columns of the matrix: a multiple of 4
}

@group(0) @binding(0) var<storage, read> w: array<u32>;             // rows × cols / 4 words: four signed bytes each
@group(0) @binding(1) var<storage, read> xq: array<u32>;            // cols / 4 words, packed the same way
@group(0) @binding(2) var<storage, read> w_scale: array<f32>;       // rows: one scale per row of w
@group(0) @binding(3) var<storage, read> x_scale: array<f32>;       // 1: the scale of xq
@group(0) @binding(4) var<storage, read_write> acc: array<i32>;     // rows: the exact integer sums
@group(0) @binding(5) var<storage, read_write> y: array<f32>;       // rows: the scaled results
@group(0) @binding(6) var<uniform> dims: Dims;

var<workgroup> smem: array<i32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    // TODO: for the words k = i, i + wgs.x, … of the row, add
    // dot4I8Packed(w[row * (dims.cols / 4) + k], xq[k]) to an i32 partial
    // sum. Put it in smem[i], barrier, add the partial sums up in rounds (a
    // barrier after each), and let invocation 0 write acc[row] and
    // y[row] = f32(acc[row]) * w_scale[row] * x_scale[0].
}
