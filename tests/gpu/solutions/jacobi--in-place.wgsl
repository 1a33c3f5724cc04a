// expect: memory-error in some cases
// message: race
// Wrong on purpose: a second buffer looks like a waste, so every step updates `a` in place,
// each interior cell replaced by the mean of its neighbours in `a`, and `b` is kept a copy of
// it. But the neighbours an invocation reads are cells that other invocations of the same
// dispatch write: whether it gets the neighbour's value from before the step or the new one
// depends on which ran first, in its own workgroup (no barrier orders them) and in the others
// (nothing can). The judge reports the race on `a` whatever values came out. Only the grid of
// one interior cell passes: nobody reads the one cell that changes, and it settles after one
// step.
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
    if (row > 0u && col > 0u && row < params.rows - 1u && col < params.cols - 1u) {
        a[i] = (a[i - params.cols] + a[i + params.cols] + a[i - 1u] + a[i + 1u]) / 4.0;
    }
    b[i] = a[i];
}
