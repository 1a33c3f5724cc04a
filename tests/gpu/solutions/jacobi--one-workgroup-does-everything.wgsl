// expect: over-budget in some cases
// message: per workgroup
// Wrong on purpose: the values are right and nothing races, because workgroup 0 does all the
// work in the first dispatch, its invocations taking every cell of the grid in turn with a
// `storageBarrier()` between the steps, and every other workgroup and every later dispatch
// returns at once. Within one workgroup a barrier is enough; but then one workgroup reads the
// whole grid at every step, while the rest of the GPU waits. The budget, twice the four
// neighbours of a workgroup's own cells in every step, refuses it on most grids (the
// statement gives the count); the smallest grids, a few workgroups, stay under and pass.
const wgs = vec3({{workgroupSize}});
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

fn read_cell(t: u32, i: u32) -> f32 {
    if (t % 2u == 0u) {
        return a[i];
    }
    return b[i];
}

fn write_cell(t: u32, i: u32, v: f32) {
    if (t % 2u == 0u) {
        b[i] = v;
    } else {
        a[i] = v;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_index) local_index: u32,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    if (step.s != 0u || workgroup_id.x != 0u || workgroup_id.y != 0u) {
        return;
    }
    let n = params.rows * params.cols;
    for (var t = 0u; t < params.steps; t++) {
        for (var i = local_index; i < n; i += u32(wgs.x * wgs.y)) {
            let row = i / params.cols;
            let col = i % params.cols;
            if (row == 0u || col == 0u || row == params.rows - 1u || col == params.cols - 1u) {
                write_cell(t, i, read_cell(t, i));
            } else {
                let sum = read_cell(t, i - params.cols) + read_cell(t, i + params.cols) + read_cell(t, i - 1u) + read_cell(t, i + 1u);
                write_cell(t, i, sum / 4.0);
            }
        }
        storageBarrier();
    }
}
