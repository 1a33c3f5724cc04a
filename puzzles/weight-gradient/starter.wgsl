// Per test case, the page replaces {{workgroupSize}} and {{totalWorkgroups}}
// with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z): ceil(batch / chunk)

struct Dims {
    batch: u32, // rows of x and dy
    n_in: u32,  // columns of x and of dw
    n_out: u32, // columns of dy, rows of dw
    chunk: u32, // batch rows per workgroup
}

@group(0) @binding(0) var<storage, read> x: array<f32>;             // batch × n_in
@group(0) @binding(1) var<storage, read> dy: array<f32>;            // batch × n_out
@group(0) @binding(2) var<storage, read_write> scratch: array<f32>; // chunks × n_out × n_in, yours to use
@group(0) @binding(3) var<storage, read_write> dw: array<f32>;      // n_out × n_in
@group(0) @binding(4) var<uniform> dims: Dims;

// Dispatched first.
@compute @workgroup_size({{workgroupSize}})
fn partial(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: workgroup g = workgroup_id.x sums dy[b][o] * x[b][i] over its
    // chunk of rows, for every weight (o, i), into its own slot of scratch.
}

// Dispatched second, once every workgroup of partial has finished.
@compute @workgroup_size({{workgroupSize}})
fn reduce(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: add up each weight's partials over every chunk into dw[o * n_in + i].
}
