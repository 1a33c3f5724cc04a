// expect: over-budget in some cases
// message: per workgroup
// Wrong on purpose: the values are right, but every invocation reads its
// nine neighbours from device memory, up to 9 · wgs.x · wgs.y reads per
// workgroup instead of the (wgs.x + 2) · (wgs.y + 2) of a tile with its halo
// (the budget allows twice that).
// Only workgroups so small, or so cut by the grid's edge, that the two counts
// meet (a 1 × 1 workgroup reads 9 cells either way) stay within the budget.
struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let row = i32(global_id.y);
    let col = i32(global_id.x);
    if (row >= i32(dims.rows) || col >= i32(dims.cols)) {
        return;
    }
    var sum = 0.0;
    for (var r = row - 1; r <= row + 1; r++) {
        for (var c = col - 1; c <= col + 1; c++) {
            if (r >= 0 && r < i32(dims.rows) && c >= 0 && c < i32(dims.cols)) {
                sum += a[u32(r) * dims.cols + u32(c)];
            }
        }
    }
    out[u32(row) * dims.cols + u32(col)] = sum / 9.0;
}
