// expect: memory-error in some cases
// message: in different workgroups of one dispatch
// Wrong on purpose: one dispatch should be enough, so the first dispatch runs every step by
// itself and the later ones return at once. Each step keeps the old grid safe the way a
// workgroup would: every invocation reads its neighbours from `a` into a register, a
// `storageBarrier()` waits until all have read, then each writes its new value into `a`, and
// another barrier waits until all have written (at the end, `a` and `b` get the last two grids
// the contract asks for). Within one workgroup that is right. But the neighbours of a cell at
// the edge of a workgroup's block belong to other workgroups, and `storageBarrier()` only
// orders the accesses of one workgroup's invocations: nothing makes a workgroup wait for
// another, and they need not even run at the same time. The judge reports the race on `a`
// between workgroups whatever the values. Only a grid covered by a single workgroup passes,
// and a single step, which never writes `a`.
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
    if (step.s != 0u) {
        return;
    }
    let row = global_id.y;
    let col = global_id.x;
    let inside = row < params.rows && col < params.cols;
    let i = row * params.cols + col;
    let edge = row == 0u || col == 0u || row == params.rows - 1u || col == params.cols - 1u;
    var before = 0.0;
    var now = 0.0;
    if (inside) {
        now = a[i];
    }
    for (var t = 0u; t < params.steps; t++) {
        before = now;
        if (inside && !edge) {
            now = (a[i - params.cols] + a[i + params.cols] + a[i - 1u] + a[i + 1u]) / 4.0;
        }
        storageBarrier();
        if (inside && t + 1u < params.steps) {
            a[i] = now;
        }
        storageBarrier();
    }
    // Buffer steps % 2 gets the last grid, the other the one before (which
    // `a` already holds).
    if (inside) {
        if (params.steps % 2u == 0u) {
            a[i] = now;
            b[i] = before;
        } else {
            b[i] = now;
        }
    }
}
