// Comparison kernel: one row per invocation, as in Strided Access. Neighbouring
// invocations read addresses dims.cols · 4 bytes apart.

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
    let r = global_id.x;
    if (r >= dims.rows) {
        return;
    }
    for (var c = 0u; c < dims.cols; c++) {
        let i = r * dims.cols + c;
        out[i] = a[i] + b[i];
    }
}
