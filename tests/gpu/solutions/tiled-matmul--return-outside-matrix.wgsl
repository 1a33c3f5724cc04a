// expect: compile-error at 50:9
// message: the `return` at line 34 is taken by only some invocations
// Wrong on purpose: the invocations past the matrix's last row or column
// return first, as in Map's guard, but here they would also have loaded
// their share of each tile, and the others wait for them at the barrier.
// Chromium's compiler rejects this shader and naga (Firefox's, and the
// native one) accepts it; the judge's synccheck must refuse it in every
// engine, at the first barrier.
const wgs = vec3({{workgroupSize}});
const TILE = u32(wgs.x);

struct Dims {
    m: u32,
    n: u32,
    k: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> tile_a: array<f32, {{smemSize}}>;
var<workgroup> tile_b: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
) {
    let row = global_id.y;
    let col = global_id.x;
    if (row >= dims.m || col >= dims.n) {
        return;
    }
    let x = local_id.x;
    let y = local_id.y;
    var sum = 0.0;
    for (var t = 0u; t < dims.k; t += TILE) {
        var va = 0.0;
        if (t + x < dims.k) {
            va = a[row * dims.k + t + x];
        }
        tile_a[y * TILE + x] = va;
        var vb = 0.0;
        if (t + y < dims.k) {
            vb = b[(t + y) * dims.n + col];
        }
        tile_b[y * TILE + x] = vb;
        workgroupBarrier();
        for (var j = 0u; j < TILE; j++) {
            sum += tile_a[y * TILE + j] * tile_b[j * TILE + x];
        }
        workgroupBarrier();
    }
    out[row * dims.n + col] = sum;
}
