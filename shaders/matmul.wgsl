// Matrix Multiply: tiles of wgs.x × wgs.y staged through workgroup memory.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;
var<workgroup> a_shared: array<f32, {{smemSize}}>;
var<workgroup> b_shared: array<f32, {{smemSize}}>;

const wgs = vec3({{workgroupSize}});

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
) {
    let size = u32(round(sqrt(f32(arrayLength(&a)))));
    let tile_w = u32(wgs.x);
    let tile_h = u32(wgs.y);
    let i = global_id.y;
    let j = global_id.x;
    let lx = local_id.x;
    let ly = local_id.y;
    // Tiles step along k by the tile width; a square tile keeps a_shared and b_shared aligned.
    let step = min(tile_w, tile_h);
    var acc = 0.0;
    for (var t = 0u; t < size; t += step) {
        // a tile: rows of this workgroup, columns t .. t + step.
        if (lx < step) {
            let k = t + lx;
            a_shared[ly * step + lx] = select(0.0, a[min(i * size + k, size * size - 1u)], i < size && k < size);
        }
        // b tile: rows t .. t + step, columns of this workgroup.
        if (ly < step) {
            let k = t + ly;
            b_shared[ly * tile_w + lx] = select(0.0, b[min(k * size + j, size * size - 1u)], k < size && j < size);
        }
        workgroupBarrier();
        for (var s = 0u; s < step; s++) {
            acc += a_shared[ly * step + s] * b_shared[s * tile_w + lx];
        }
        workgroupBarrier();
    }
    if (i < size && j < size) {
        output[i * size + j] = acc;
    }
}
