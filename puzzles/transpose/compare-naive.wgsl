// Comparison kernel: the direct transpose. Invocation (x, y) copies
// a[y][x] to out[x][y]. Neighbouring invocations read neighbouring floats
// of `a`, but their writes land a whole row of `out` (dims.rows · 4 bytes)
// apart.

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;         // rows × cols, row-major
@group(0) @binding(1) var<storage, read_write> out: array<f32>; // cols × rows, row-major
@group(0) @binding(2) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let r = global_id.y;
    let c = global_id.x;
    if (r < dims.rows && c < dims.cols) {
        out[c * dims.rows + r] = a[r * dims.cols + c];
    }
}
