// expect: memory-error
// message: race
// Wrong on purpose: a second pair of buffers looks like a waste, so each step writes the new
// (u, v) into the pair it reads (and a copy into the other pair, so that both hold the
// result). But the neighbours an invocation reads are cells that other invocations of the
// same dispatch write: whether it gets a neighbour's value from before the step or after it
// depends on which ran first, in its own workgroup (no barrier orders them) and in the others
// (nothing can). Every grid has at least 2 × 2 cells, each read by a neighbour, so the judge
// reports the race on every case, whatever values came out.
struct Params {
    rows: u32,
    cols: u32,
    steps: u32,
    feed: f32, // F
    kill: f32, // k
    du: f32,
    dv: f32,
    dt: f32,
}

// Set before each dispatch: the step it runs, 0 to steps - 1.
struct Step {
    s: u32,
}

@group(0) @binding(0) var<storage, read_write> u0: array<f32>; // pair 0: the start
@group(0) @binding(1) var<storage, read_write> v0: array<f32>;
@group(0) @binding(2) var<storage, read_write> u1: array<f32>; // pair 1: zeros at the start
@group(0) @binding(3) var<storage, read_write> v1: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;
@group(0) @binding(5) var<uniform> step: Step;

// (u, v) at cell i of the pair this step reads.
fn read_uv(i: u32) -> vec2<f32> {
    if (step.s % 2u == 0u) {
        return vec2(u0[i], v0[i]);
    }
    return vec2(u1[i], v1[i]);
}

// Stores (u, v) at cell i of the pair this step reads, and a copy into the other pair.
fn write_uv(i: u32, uv: vec2<f32>) {
    if (step.s % 2u == 0u) {
        u0[i] = uv.x;
        v0[i] = uv.y;
        u1[i] = uv.x;
        v1[i] = uv.y;
    } else {
        u1[i] = uv.x;
        v1[i] = uv.y;
        u0[i] = uv.x;
        v0[i] = uv.y;
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
    let rows = params.rows;
    let cols = params.cols;
    // The neighbours, wrapping around. `row - 1u` of row 0 would wrap to
    // 2^32 - 1 in u32, so add a whole `rows` (or `cols`) before the modulo.
    let up = ((row + rows - 1u) % rows) * cols + col;
    let down = ((row + 1u) % rows) * cols + col;
    let left = row * cols + (col + cols - 1u) % cols;
    let right = row * cols + (col + 1u) % cols;
    let i = row * cols + col;

    let here = read_uv(i);
    // Both Laplacians at once: x for u, y for v.
    let lap = read_uv(up) + read_uv(down) + read_uv(left) + read_uv(right) - 4.0 * here;
    let u = here.x;
    let v = here.y;
    let uvv = u * v * v; // the reaction: u + 2v -> 3v
    let du = params.du * lap.x - uvv + params.feed * (1.0 - u);
    let dv = params.dv * lap.y + uvv - (params.feed + params.kill) * v;
    write_uv(i, here + params.dt * vec2(du, dv));
}
