// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch: one per row

struct Dims {
    rows: u32, // rows of the matrix, elements of y
    cols: u32, // columns of the matrix, elements of x: even
}

@group(0) @binding(0) var<storage, read> w: array<u32>;       // rows × cols / 2 words: two binary16 weights each
@group(0) @binding(1) var<storage, read> x: array<f32>;       // cols
@group(0) @binding(2) var<storage, read_write> y: array<f32>; // rows
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    // TODO: for the words k = i, i + wgs.x, … of the row, unpack the two
    // half-precision weights of w[row * (dims.cols / 2) + k] (the low half
    // is column 2k, the high half column 2k + 1), multiply them by x[2k]
    // and x[2k + 1], and add that to a partial sum. Put it in smem[i],
    // barrier, add the partial sums up in rounds (a barrier after each),
    // and let invocation 0 write y[row].
}
