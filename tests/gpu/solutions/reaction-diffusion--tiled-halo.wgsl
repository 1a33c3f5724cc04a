// expect: passed
// A correct kernel written another way: each workgroup loads its block of the grid and a halo
// one cell wide around it into workgroup memory (2·(wgs.x + 2)·(wgs.y + 2) reads for u and v,
// wrapping around the edges like the neighbours do), waits at a barrier, and takes every
// neighbour from the tile. Every invocation, inside the grid or not, helps load and reaches
// the barrier; only then do the ones past the grid return.
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

// The block and its halo: at most (8 + 2) × (8 + 2) cells.
var<workgroup> tile_u: array<f32, 100>;
var<workgroup> tile_v: array<f32, 100>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let rows = params.rows;
    let cols = params.cols;
    let tile_w = u32(wgs.x) + 2u;
    let tile_h = u32(wgs.y) + 2u;
    // Tile cell (0, 0) is the grid cell above and left of the block's first.
    let first_row = workgroup_id.y * u32(wgs.y) + rows - 1u;
    let first_col = workgroup_id.x * u32(wgs.x) + cols - 1u;
    let even = step.s % 2u == 0u;
    for (var t = local_index; t < tile_w * tile_h; t += u32(wgs.x * wgs.y)) {
        let r = (first_row + t / tile_w) % rows;
        let c = (first_col + t % tile_w) % cols;
        let g = r * cols + c;
        if (even) {
            tile_u[t] = u0[g];
            tile_v[t] = v0[g];
        } else {
            tile_u[t] = u1[g];
            tile_v[t] = v1[g];
        }
    }
    workgroupBarrier();

    let row = global_id.y;
    let col = global_id.x;
    if (row >= rows || col >= cols) {
        return;
    }
    let t = (local_id.y + 1u) * tile_w + local_id.x + 1u;
    let u = tile_u[t];
    let v = tile_v[t];
    let lap_u = tile_u[t - tile_w] + tile_u[t + tile_w] + tile_u[t - 1u] + tile_u[t + 1u] - 4.0 * u;
    let lap_v = tile_v[t - tile_w] + tile_v[t + tile_w] + tile_v[t - 1u] + tile_v[t + 1u] - 4.0 * v;
    let uvv = u * v * v;
    let new_u = u + params.dt * (params.du * lap_u - uvv + params.feed * (1.0 - u));
    let new_v = v + params.dt * (params.dv * lap_v + uvv - (params.feed + params.kill) * v);
    let i = row * cols + col;
    if (even) {
        u1[i] = new_u;
        v1[i] = new_v;
    } else {
        u0[i] = new_u;
        v0[i] = new_v;
    }
}
