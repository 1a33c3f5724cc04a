// expect: passed
// A correct alternative: the direct transpose, one element per invocation,
// no tile. Invocation (x, y) copies a[y][x] to out[x][y]: the reads are
// coalesced, the writes land a row of `out` apart. It passes every case on a
// software adapter, where the target is not enforced; on an NVIDIA H100 it
// reached about 55 % of the reference's rate and failed the 70 % target
// (below-target), as a kernel that ignores the tile should.

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
