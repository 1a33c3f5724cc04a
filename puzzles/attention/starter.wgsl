// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids. The three entry
// points are dispatched in order, each with those sizes: one workgroup per
// query row.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in each dispatch: one per row

struct Dims {
    n: u32, // rows of q, k, v and out; rows and columns of scores
    d: u32, // columns of q, k, v and out
}

@group(0) @binding(0) var<storage, read> q: array<f32>;              // n × d, row-major
@group(0) @binding(1) var<storage, read> k: array<f32>;              // n × d, row-major
@group(0) @binding(2) var<storage, read> v: array<f32>;              // n × d, row-major
@group(0) @binding(3) var<storage, read_write> scores: array<f32>;   // n × n, row-major
@group(0) @binding(4) var<storage, read_write> out: array<f32>;      // n × d, row-major
@group(0) @binding(5) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial result per invocation

// Dispatched first.
@compute @workgroup_size({{workgroupSize}})
fn dot_scores(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = workgroup_id.x; // the query row
    // TODO: for each key j = local_id.x, local_id.x + wgs.x, … below dims.n,
    // write scores[i * n + j] = (q row i · k row j) / √d.
}

// Dispatched second, once every workgroup of dot_scores has finished.
@compute @workgroup_size({{workgroupSize}})
fn softmax_rows(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = workgroup_id.x;
    // TODO: replace row i of scores with its softmax, as in the Softmax
    // puzzle: reduce the maximum m in smem, barrier, reduce the sum of
    // exp(s - m), then write exp(s - m) / sum back into each column.
}

// Dispatched third, once every workgroup of softmax_rows has finished.
@compute @workgroup_size({{workgroupSize}})
fn mix_values(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = workgroup_id.x;
    // TODO: for each column c = local_id.x, local_id.x + wgs.x, … below
    // dims.d, write out[i * d + c] = Σ_j scores[i * n + j] · v[j * d + c].
}
