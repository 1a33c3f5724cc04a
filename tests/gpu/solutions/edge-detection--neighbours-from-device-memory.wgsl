// expect: over-budget in some cases
// message: per workgroup
// Wrong on purpose: the values are right, but every invocation reads its
// eight neighbours from device memory, 8 · wgs.x · wgs.y reads per workgroup
// instead of the (wgs.x + 2) · (wgs.y + 2) of a tile with its halo (the
// budget allows twice that). Only workgroups so small, or so cut by the
// picture's edge, that the two counts meet (a 1 × 1 workgroup reads 8 pixels
// and may read 18) stay within the budget.
struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> img: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> dims: Dims;

// The pixel at (r, c), clamped into the picture.
fn pixel(r: i32, c: i32) -> f32 {
    let rr = u32(clamp(r, 0, i32(dims.rows) - 1));
    let cc = u32(clamp(c, 0, i32(dims.cols) - 1));
    return img[rr * dims.cols + cc];
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    if (global_id.y >= dims.rows || global_id.x >= dims.cols) {
        return;
    }
    let r = i32(global_id.y);
    let c = i32(global_id.x);
    let nw = pixel(r - 1, c - 1);
    let n = pixel(r - 1, c);
    let ne = pixel(r - 1, c + 1);
    let w = pixel(r, c - 1);
    let e = pixel(r, c + 1);
    let sw = pixel(r + 1, c - 1);
    let s = pixel(r + 1, c);
    let se = pixel(r + 1, c + 1);
    let gx = (ne + 2.0 * e + se) - (nw + 2.0 * w + sw);
    let gy = (sw + 2.0 * s + se) - (nw + 2.0 * n + ne);
    out[global_id.y * dims.cols + global_id.x] = sqrt(gx * gx + gy * gy);
}
