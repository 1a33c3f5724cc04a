// expect: memory-error in some cases
// message: out-of-bounds read
// Wrong on purpose: the tile is filled from a[y * cols + x] for every tile cell, with no check
// that (y, x) lies inside the image, so no zero padding. The first workgroup's halo starts at
// (-r, -r), a negative index, and the halo past the last row reads beyond the end of `a`: the
// judge reports out-of-bounds reads (on a GPU they return 0 or anything at all, and a halo
// cell left or right of a row reads the neighbouring row's value instead of 0). With k = 1
// there is no halo, so a case whose sizes are multiples of the workgroup's reads nothing
// outside `a` and passes.
const wgs = vec3({{workgroupSize}});

struct Dims {
    rows: u32,
    cols: u32,
    k: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> f: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;
var<workgroup> tile: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let k = dims.k;
    let r = i32(k / 2u);
    let tw = u32(wgs.x) + k - 1u;
    let th = u32(wgs.y) + k - 1u;
    let top = i32(workgroup_id.y * u32(wgs.y)) - r;
    let left = i32(workgroup_id.x * u32(wgs.x)) - r;
    for (var t = local_index; t < tw * th; t += u32(wgs.x * wgs.y)) {
        let y = top + i32(t / tw);
        let x = left + i32(t % tw);
        tile[t] = a[y * i32(dims.cols) + x];
    }
    workgroupBarrier();
    if (global_id.y < dims.rows && global_id.x < dims.cols) {
        var sum = 0.0;
        for (var i = 0u; i < k; i++) {
            for (var j = 0u; j < k; j++) {
                sum += f[i * k + j] * tile[(local_id.y + i) * tw + local_id.x + j];
            }
        }
        out[global_id.y * dims.cols + global_id.x] = sum;
    }
}
