// expect: compile-error at 68:5
// message: the `return` at line 64 is taken by only some invocations
// Wrong on purpose: a tiled step. Each invocation loads its cell into
// workgroup memory, the workgroup waits at a barrier, and the neighbours
// inside the tile are then read from it. But the invocations outside the
// grid return first, so on a grid that is not a whole number of workgroups
// the others wait at a barrier they never reach. Chromium's compiler rejects
// this shader and naga (Firefox's, and the native one) accepts it; the
// judge's synccheck must refuse it in every engine, at the barrier.
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

// One cell per invocation: at most 1,024 invocations in a workgroup.
var<workgroup> tile: array<f32, 1024>;

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

// Cell (row, col), from the tile when the workgroup loaded it.
fn neighbour(row: u32, col: u32, first_row: u32, first_col: u32) -> f32 {
    let r = row - first_row;
    let c = col - first_col;
    if (row >= first_row && col >= first_col && r < u32(wgs.y) && c < u32(wgs.x)) {
        return tile[r * u32(wgs.x) + c];
    }
    return read_cell(row * params.cols + col);
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let row = global_id.y;
    let col = global_id.x;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    let i = row * params.cols + col;
    tile[local_id.y * u32(wgs.x) + local_id.x] = read_cell(i);
    workgroupBarrier();
    let edge = row == 0u || col == 0u || row == params.rows - 1u || col == params.cols - 1u;
    if (edge) {
        write_cell(i, read_cell(i));
        return;
    }
    let r0 = workgroup_id.y * u32(wgs.y);
    let c0 = workgroup_id.x * u32(wgs.x);
    let sum = neighbour(row - 1u, col, r0, c0) + neighbour(row + 1u, col, r0, c0)
        + neighbour(row, col - 1u, r0, c0) + neighbour(row, col + 1u, r0, c0);
    write_cell(i, sum / 4.0);
}
