// Jacobi Iteration: one relaxation step per dispatch. Step s reads buffer
// s % 2 (a, b, a, …) and writes every cell of the other: interior cells the
// mean of their four neighbours, boundary cells a copy. Nothing is written
// to the buffer being read, so no invocation sees a neighbour's new value
// before the end of the dispatch, which is the only point where every
// workgroup has finished.
struct Params {
    rows: u32,
    cols: u32,
    steps: u32,
}

// Set before each dispatch: the step it runs, 0 to steps - 1.
struct Step {
    s: u32,
}

@group(0) @binding(0) var<storage, read_write> a: array<f32>; // buffer 0: the grid at the start
@group(0) @binding(1) var<storage, read_write> b: array<f32>; // buffer 1: zeros at the start
@group(0) @binding(2) var<uniform> params: Params;
@group(0) @binding(3) var<uniform> step: Step;

// Cell i of the buffer this step reads.
fn read_cell(i: u32) -> f32 {
    if (step.s % 2u == 0u) {
        return a[i];
    }
    return b[i];
}

// Cell i of the buffer this step writes.
fn write_cell(i: u32, v: f32) {
    if (step.s % 2u == 0u) {
        b[i] = v;
    } else {
        a[i] = v;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    // x runs along a row (the column), y down the grid (the row).
    let row = global_id.y;
    let col = global_id.x;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    let i = row * params.cols + col;
    let edge = row == 0u || col == 0u || row == params.rows - 1u || col == params.cols - 1u;
    if (edge) {
        // Fixed: copied, so the buffer written holds the whole grid.
        write_cell(i, read_cell(i));
        return;
    }
    let up = read_cell(i - params.cols);
    let down = read_cell(i + params.cols);
    let left = read_cell(i - 1u);
    let right = read_cell(i + 1u);
    let sum = up + down + left + right;
    write_cell(i, sum / 4.0);
}
