// expect: failed
// Wrong on purpose: the boundary is fixed, so this kernel writes only the interior cells. That
// is enough in `a`, which starts with the whole grid, but `b` starts as zeros: after step 0
// its boundary is still 0, step 1 averages those zeros into the cells next to it, and `b`
// itself is compared with zeros where the boundary should be.
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
    if (row == 0u || col == 0u || row >= params.rows - 1u || col >= params.cols - 1u) {
        return;
    }
    let i = row * params.cols + col;
    let sum = read_cell(i - params.cols) + read_cell(i + params.cols) + read_cell(i - 1u) + read_cell(i + 1u);
    write_cell(i, sum / 4.0);
}
