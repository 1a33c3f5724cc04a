// expect: failed
// Wrong on purpose: takes the column from the low bits of local_invocation_index (the numbering
// that groups invocations into warps) with `& (wgs.x - 1)`, and the row from the bits above with
// `>> firstTrailingBit(wgs.x)`: that is `% wgs.x` and `/ wgs.x` only when wgs.x is a power of two.
// In "edge: sizes that are not powers of two" (31 × 7) the column within a workgroup is
// `index & 30`, always even: columns 1, 3, 5, … are never written and stay 0.
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
    // Consecutive local indices run together: give them consecutive columns.
    let col = workgroup_id.x * WX + (local_index & (WX - 1u));
    let row = workgroup_id.y * WY + (local_index >> firstTrailingBit(WX));
    if (row < dims.rows && col < dims.cols) {
        let i = row * dims.cols + col;
        out[i] = a[i] + b[i];
    }
}
