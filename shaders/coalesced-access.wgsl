// Coalesced Access: invocation (x, y) adds the element in row y, column x,
// so neighbouring invocations along x touch neighbouring addresses.

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;      // rows × cols, row-major
@group(0) @binding(1) var<storage, read> b: array<f32>;      // rows × cols, row-major
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let col = global_id.x;
    let row = global_id.y;
    if (row < dims.rows && col < dims.cols) {
        let i = row * dims.cols + col;
        out[i] = a[i] + b[i];
    }
}
