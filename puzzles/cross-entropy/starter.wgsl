// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Dims {
    rows: u32, // rows of z and grad; elements of labels and loss
    cols: u32, // columns of z and grad: the classes
}

@group(0) @binding(0) var<storage, read> z: array<f32>;            // rows × cols logits, row-major
@group(0) @binding(1) var<storage, read> labels: array<u32>;       // rows: each row's class, < cols
@group(0) @binding(2) var<storage, read_write> loss: array<f32>;   // rows
@group(0) @binding(3) var<storage, read_write> grad: array<f32>;   // rows × cols, row-major
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial result per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let row = workgroup_id.x;
    let i = local_id.x;
    // TODO: for row `row`, with invocation i taking columns i, i + wgs.x, …:
    // 1. reduce the row's maximum m in smem (barrier after each step);
    // 2. reduce the sum S of exp(z - m) the same way;
    // 3. write loss[row] = log(S) + m - z[label] once, label = labels[row];
    // 4. write grad[row * dims.cols + c] = exp(z[…] - m) / S, minus 1 at the label.
}
