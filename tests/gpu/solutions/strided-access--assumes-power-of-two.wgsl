// expect: failed
// Wrong on purpose: splits local_invocation_index into x and y with a mask and a shift
// (`& (wgs.x - 1)`, `>> countTrailingZeros(wgs.x)`), which undo `y * wgs.x + x` only when wgs.x
// is a power of two. In "edge: sizes that are not powers of two" (31 × 7) the row within a
// workgroup is `index & 30`, always even: rows 1, 3, 5, … are never written and stay 0.
const wgs = vec3({{workgroupSize}});
const WX = u32(wgs.x);
const WY = u32(wgs.y);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;      // rows × cols, row-major
@group(0) @binding(1) var<storage, read> b: array<f32>;      // rows × cols, row-major
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
) {
    // The local index is y * wgs.x + x: x in the low bits, y above them.
    let lx = local_index & (WX - 1u);
    let ly = local_index >> countTrailingZeros(WX);
    let row = workgroup_id.x * WX + lx;
    let col = workgroup_id.y * WY + ly;
    if (row < dims.rows && col < dims.cols) {
        let i = row * dims.cols + col;
        out[i] = a[i] + b[i];
    }
}
