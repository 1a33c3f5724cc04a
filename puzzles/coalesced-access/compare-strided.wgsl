// Comparison kernel: the access order of Strided Access. Invocations are
// numbered along x first, and consecutive numbers take consecutive rows of
// one column, so neighbouring invocations along x touch addresses a whole
// row (dims.cols · 4 bytes) apart. On the square performance case this is
// exactly "row from global_id.x, column from global_id.y".

const wgs = vec3({{workgroupSize}});
const twg = vec3({{totalWorkgroups}});

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
    let across = u32(twg.x * wgs.x);
    let id = global_id.y * across + global_id.x;
    if (id < dims.rows * dims.cols) {
        let row = id % dims.rows;
        let col = id / dims.rows;
        let i = row * dims.cols + col;
        out[i] = a[i] + b[i];
    }
}
