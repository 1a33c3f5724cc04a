// expect: failed
// Wrong on purpose: the row is taken from `global_id.x` and the column from `global_id.y`. The
// workgroups are laid out with `x` along a row (`ceil(cols / wgs.x)` of them) and `y` down the
// grid, so the invocations cover the grid turned on its side. The bounds check keeps every
// access inside the buffer, but where the dispatch has fewer than `rows` invocations along `x`
// or fewer than `cols` along `y`, as a grid that is not square usually gives, some cells are
// never written: they stay 0 in `b`, and the next step reads those zeros (the example loses
// its last column). On a square grid, or where the workgroups overshoot both sides, the
// mistake is invisible: every cell is still computed once, by another invocation.
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
    let row = global_id.x;
    let col = global_id.y;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    let i = row * params.cols + col;
    if (row == 0u || col == 0u || row == params.rows - 1u || col == params.cols - 1u) {
        write_cell(i, read_cell(i));
        return;
    }
    let sum = read_cell(i - params.cols) + read_cell(i + params.cols) + read_cell(i - 1u) + read_cell(i + 1u);
    write_cell(i, sum / 4.0);
}
