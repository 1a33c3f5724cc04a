// expect: failed
// Wrong on purpose: written like an image filter, the neighbours past an edge are clamped to
// the edge (a cell of row 0 takes itself as the row above) instead of wrapping to the far
// side. Every index stays inside the buffer, so no memory check fires, and a cell away from
// the edges is right; but on the torus the edge cells exchange nothing with the far side.
// Where the fields are the same on both sides (a seed in the middle of a grid of u = 1,
// v = 0, for a few steps) nothing shows; the random u of the shown 9 × 13 case and the seed
// across the corners differ there at once.
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

// Stores (u, v) at cell i of the pair this step writes.
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
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    // x runs along a row (the column), y down the grid (the row).
    let row = global_id.y;
    let col = global_id.x;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    let rows = params.rows;
    let cols = params.cols;
    // The neighbours, kept inside the grid: an edge cell takes itself.
    let up = (max(row, 1u) - 1u) * cols + col;
    let down = min(row + 1u, rows - 1u) * cols + col;
    let left = row * cols + max(col, 1u) - 1u;
    let right = row * cols + min(col + 1u, cols - 1u);
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
