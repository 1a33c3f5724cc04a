// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch: one per row

struct Dims {
    rows: u32,  // rows of the matrix, elements of y
    cols: u32,  // columns of the matrix, elements of x: a multiple of group
    group: u32, // columns that share one scale: 32 or 64
}

@group(0) @binding(0) var<storage, read> w: array<u32>;           // rows × cols / 8 words: eight 4-bit weights each
@group(0) @binding(1) var<storage, read> scales: array<f32>;      // rows × cols / group: one per group of weights
@group(0) @binding(2) var<storage, read> x: array<f32>;           // cols
@group(0) @binding(3) var<storage, read_write> y: array<f32>;     // rows
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    // TODO: for the words k = i, i + wgs.x, … of the row, unpack the eight
    // signed 4-bit weights of w[row * (dims.cols / 8) + k], multiply them by
    // x[8k] … x[8k + 7], add those up, and add that sum times the scale of
    // the word's group (dims.group / 8 words to a group) to a partial sum.
    // Put it in smem[i], barrier, add the partial sums up in rounds (a
    // barrier after each), and let invocation 0 write y[row].
}
