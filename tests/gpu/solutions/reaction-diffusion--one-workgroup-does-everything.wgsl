// expect: over-budget in some cases
// message: per workgroup
// Wrong on purpose: the values are right and nothing races, because in every dispatch
// workgroup 0 does the whole step, its invocations taking every cell of the grid in turn,
// and every other workgroup returns at once. But then one workgroup reads the whole grid
// (5 cells of u and 5 of v for each cell) while the rest of the GPU waits. The budget, twice
// what a workgroup's own cells need in every step, refuses it wherever the grid has more
// than 2·(wgs.x·wgs.y + 1) cells: every case but the example (3 × 3 in one 4 × 4 workgroup)
// and the 2 × 2 grid in workgroups of one invocation, which pass.
const wgs = vec3({{workgroupSize}});

struct Params {
    rows: u32,
    cols: u32,
    steps: u32,
    feed: f32,
    kill: f32,
    du: f32,
    dv: f32,
    dt: f32,
}

struct Step {
    s: u32,
}

@group(0) @binding(0) var<storage, read_write> u0: array<f32>;
@group(0) @binding(1) var<storage, read_write> v0: array<f32>;
@group(0) @binding(2) var<storage, read_write> u1: array<f32>;
@group(0) @binding(3) var<storage, read_write> v1: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;
@group(0) @binding(5) var<uniform> step: Step;

fn read_uv(i: u32) -> vec2<f32> {
    if (step.s % 2u == 0u) {
        return vec2(u0[i], v0[i]);
    }
    return vec2(u1[i], v1[i]);
}

fn write_uv(i: u32, uv: vec2<f32>) {
    if (step.s % 2u == 0u) {
        u1[i] = uv.x;
        v1[i] = uv.y;
    } else {
        u0[i] = uv.x;
        v0[i] = uv.y;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_index) local_index: u32,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    if (workgroup_id.x != 0u || workgroup_id.y != 0u) {
        return;
    }
    let rows = params.rows;
    let cols = params.cols;
    for (var i = local_index; i < rows * cols; i += u32(wgs.x * wgs.y)) {
        let row = i / cols;
        let col = i % cols;
        let up = ((row + rows - 1u) % rows) * cols + col;
        let down = ((row + 1u) % rows) * cols + col;
        let left = row * cols + (col + cols - 1u) % cols;
        let right = row * cols + (col + 1u) % cols;
        let here = read_uv(i);
        let lap = read_uv(up) + read_uv(down) + read_uv(left) + read_uv(right) - 4.0 * here;
        let uvv = here.x * here.y * here.y;
        let du = params.du * lap.x - uvv + params.feed * (1.0 - here.x);
        let dv = params.dv * lap.y + uvv - (params.feed + params.kill) * here.y;
        write_uv(i, here + params.dt * vec2(du, dv));
    }
}
