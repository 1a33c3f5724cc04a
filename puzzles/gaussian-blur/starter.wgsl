// Per test case, the page replaces {{workgroupSize}} and {{totalWorkgroups}}
// with the values shown above the pictures.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Params {
    rows: u32,
    cols: u32,
    r: u32, // the radius: 2r + 1 taps a pass
}

@group(0) @binding(0) var<storage, read> img: array<f32>;        // rows × cols, row-major
@group(0) @binding(1) var<storage, read_write> tmp: array<f32>;  // the row pass's output
@group(0) @binding(2) var<storage, read_write> out: array<f32>;  // the column pass's output
@group(0) @binding(3) var<uniform> params: Params;

// Dispatched first.
@compute @workgroup_size({{workgroupSize}})
fn row_pass(@builtin(global_invocation_id) global_id: vec3<u32>) {
    // TODO: if pixel (global_id.y, global_id.x) lies in the picture, write
    // tmp there: the sum over k = 0 … 2r of C(2r, k) / 4^r times img in the
    // same row at column x + k - r, clamped to the picture.
}

// Dispatched second, after every invocation of row_pass has finished.
@compute @workgroup_size({{workgroupSize}})
fn col_pass(@builtin(global_invocation_id) global_id: vec3<u32>) {
    // TODO: the same down the column, reading tmp and writing out.
}
