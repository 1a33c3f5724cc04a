// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the pictures.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> img: array<f32>; // rows × cols, row-major, 0 to 255
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> dims: Dims;
var<workgroup> tile: array<f32, {{smemSize}}>; // (wgs.x + 2) × (wgs.y + 2), row-major

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: fill the tile (the workgroup's block of pixels plus a one-pixel
    // halo, corners included, each pixel outside the picture replaced by the
    // nearest edge pixel), barrier, then, if (global_id.y, global_id.x) lies
    // inside the picture, write sqrt(gx * gx + gy * gy) there.
    // For now each pixel is copied through, so the output shows the picture.
    if (global_id.y < dims.rows && global_id.x < dims.cols) {
        let i = global_id.y * dims.cols + global_id.x;
        out[i] = img[i];
    }
}
