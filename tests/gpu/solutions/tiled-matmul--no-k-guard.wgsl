// expect: memory-error in some cases
// message: out-of-bounds read
// Wrong on purpose: `a` is read without the `t + x < k` guard. Past the end
// of a row the read lands in the next row (multiplied by a zero from `b`),
// and past the last row it reads beyond `a`, which returns 0 on this device
// and anything on another.
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
    let x = local_id.x;
    let y = local_id.y;
    var sum = 0.0;
    for (var t = 0u; t < dims.k; t += TILE) {
        var va = 0.0;
        if (row < dims.m) {
            va = a[row * dims.k + t + x];
        }
        tile_a[y * TILE + x] = va;
        var vb = 0.0;
        if (t + y < dims.k && col < dims.n) {
            vb = b[(t + y) * dims.n + col];
        }
        tile_b[y * TILE + x] = vb;
        workgroupBarrier();
        for (var j = 0u; j < TILE; j++) {
            sum += tile_a[y * TILE + j] * tile_b[j * TILE + x];
        }
        workgroupBarrier();
    }
    if (row < dims.m && col < dims.n) {
        out[row * dims.n + col] = sum;
    }
}
