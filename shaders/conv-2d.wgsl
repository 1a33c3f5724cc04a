// 2D Convolution: a k × k filter, k known only at run time, through a tile of the image with
// a halo of r = (k - 1) / 2 cells on every side, staged in workgroup memory.
const wgs = vec3({{workgroupSize}});

struct Dims {
    rows: u32,
    cols: u32,
    k: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;   // rows × cols, row-major
@group(0) @binding(1) var<storage, read> f: array<f32>;   // k × k, row-major
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;
var<workgroup> tile: array<f32, {{smemSize}}>; // (wgs.x + k - 1) × (wgs.y + k - 1), row-major

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let k = dims.k;
    let r = i32(k / 2u);
    // The template gives only the tile's cell count, so its width comes from k here.
    let tw = u32(wgs.x) + k - 1u;
    let th = u32(wgs.y) + k - 1u;
    // Tile cell (ty, tx) is image cell (top + ty, left + tx); top and left may be negative.
    let top = i32(workgroup_id.y * u32(wgs.y)) - r;
    let left = i32(workgroup_id.x * u32(wgs.x)) - r;
    // The whole workgroup fills the tile, one cell per invocation per round, however wide the
    // halo is compared with the workgroup. Cells outside the image are the zero padding.
    for (var t = local_index; t < tw * th; t += u32(wgs.x * wgs.y)) {
        let y = top + i32(t / tw);
        let x = left + i32(t % tw);
        var v = 0.0;
        if (y >= 0 && y < i32(dims.rows) && x >= 0 && x < i32(dims.cols)) {
            v = a[u32(y) * dims.cols + u32(x)];
        }
        tile[t] = v;
    }
    // Every invocation reaches this barrier, those past the image's edge included.
    workgroupBarrier();
    if (global_id.y < dims.rows && global_id.x < dims.cols) {
        // Filter cell (i, j) meets tile cell (local_id.y + i, local_id.x + j): the tile starts
        // r cells above and left of this workgroup's first output, as the filter's centre does.
        var sum = 0.0;
        for (var i = 0u; i < k; i++) {
            for (var j = 0u; j < k; j++) {
                sum += f[i * k + j] * tile[(local_id.y + i) * tw + local_id.x + j];
            }
        }
        out[global_id.y * dims.cols + global_id.x] = sum;
    }
}
