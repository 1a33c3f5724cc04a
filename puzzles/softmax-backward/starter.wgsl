// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Dims {
    rows: u32, // rows of y, dy and dx
    cols: u32, // columns of y, dy and dx
}

@group(0) @binding(0) var<storage, read> y: array<f32>;          // the softmax's output, rows × cols
@group(0) @binding(1) var<storage, read> dy: array<f32>;         // dLoss/dy, rows × cols
@group(0) @binding(2) var<storage, read_write> dx: array<f32>;   // dLoss/dx, rows × cols
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial result per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let row = workgroup_id.x;
    let i = local_id.x;
    // TODO: for row `row`, with invocation i taking columns i, i + wgs.x, …:
    // 1. reduce s = Σ dy[…] * y[…] over the row in smem (barrier after each step);
    // 2. write dx[row * dims.cols + c] = y[…] * (dy[…] - s) for each of its columns c.
}
