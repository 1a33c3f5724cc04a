// expect: failed
// Wrong on purpose: written like Box Blur, every cell, the boundary too, becomes the mean of
// its four neighbours, a neighbour past the edge counting 0. The reads are guarded, so nothing
// goes out of bounds, but the boundary is what holds the problem (the temperatures kept at the
// plate's edges): averaged, it drifts towards 0 and pulls the interior with it.
struct Params {
    rows: u32,
    cols: u32,
    steps: u32,
}

struct Step {
    s: u32,
}

@group(0) @binding(0) var<storage, read_write> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> b: array<f32>;
@group(0) @binding(2) var<uniform> params: Params;
@group(0) @binding(3) var<uniform> step: Step;

fn read_cell(r: i32, c: i32) -> f32 {
    if (r < 0 || c < 0 || r >= i32(params.rows) || c >= i32(params.cols)) {
        return 0.0;
    }
    let i = u32(r) * params.cols + u32(c);
    if (step.s % 2u == 0u) {
        return a[i];
    }
    return b[i];
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let row = i32(global_id.y);
    let col = i32(global_id.x);
    if (row >= i32(params.rows) || col >= i32(params.cols)) {
        return;
    }
    let v = (read_cell(row - 1, col) + read_cell(row + 1, col) + read_cell(row, col - 1) + read_cell(row, col + 1)) / 4.0;
    let i = u32(row) * params.cols + u32(col);
    if (step.s % 2u == 0u) {
        b[i] = v;
    } else {
        a[i] = v;
    }
}
