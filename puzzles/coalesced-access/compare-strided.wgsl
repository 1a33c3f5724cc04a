// Comparison kernel: the mapping of Strided Access. The row comes from
// global_id.x, so neighbouring invocations along x touch addresses a whole
// row (dims.cols · 4 bytes) apart. Correct only where the dispatch covers
// the rows along x, as on a square performance case.

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
    let row = global_id.x;
    let col = global_id.y;
    if (row < dims.rows && col < dims.cols) {
        let i = row * dims.cols + col;
        out[i] = a[i] + b[i];
    }
}
