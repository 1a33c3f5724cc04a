// expect: failed
// Wrong on purpose: every step reads `a` and writes `b`, whatever `step.s` says. The
// buffers never swap, so every step recomputes the first step from the starting grid: `b`
// ends as the grid after one step and `a` as the starting grid, however many steps the case
// asks for. Only the one-step cases pass.
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

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let row = global_id.y;
    let col = global_id.x;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    let i = row * params.cols + col;
    if (row == 0u || col == 0u || row == params.rows - 1u || col == params.cols - 1u) {
        b[i] = a[i];
        return;
    }
    b[i] = (a[i - params.cols] + a[i + params.cols] + a[i - 1u] + a[i + 1u]) / 4.0;
}
