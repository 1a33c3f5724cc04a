// expect: memory-error
// message: out-of-bounds read
// Wrong on purpose: the test for an interior cell is `row >= 1 && row < rows` (and the same for
// the column), forgetting that the last row and column are boundary too. A cell of the last row
// reads the cell below it, at `i + cols`, one row past the end of the buffer; a cell of the
// last column reads `i + 1`, the first cell of the next row, a wrong value inside the buffer
// that no memory check can see. Every grid has a last row, so every case reads out of bounds.
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

fn read_cell(i: u32) -> f32 {
    if (step.s % 2u == 0u) {
        return a[i];
    }
    return b[i];
}

fn write_cell(i: u32, v: f32) {
    if (step.s % 2u == 0u) {
        b[i] = v;
    } else {
        a[i] = v;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let row = global_id.y;
    let col = global_id.x;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    let i = row * params.cols + col;
    if (row >= 1u && row < params.rows && col >= 1u && col < params.cols) {
        let sum = read_cell(i - params.cols) + read_cell(i + params.cols) + read_cell(i - 1u) + read_cell(i + 1u);
        write_cell(i, sum / 4.0);
    } else {
        write_cell(i, read_cell(i));
    }
}
