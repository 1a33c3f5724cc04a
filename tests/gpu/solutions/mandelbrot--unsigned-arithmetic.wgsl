// expect: failed
// Wrong on purpose: everything is computed in u32, since the indices and the
// counts are u32. Addition, subtraction and multiplication give the same bits
// in u32 as in i32 (both wrap modulo 2^32), but `>>` on a u32 is a logical
// shift: it fills with zeros, so a negative product (zx * zy when z lies in
// the second or fourth quadrant) becomes a huge positive number instead of a
// small negative one, and the point escapes at once. Only the real axis,
// where zy stays 0, comes out right. Keep fixed-point numbers in i32, where
// `>>` copies the sign bit.
struct Params {
    x0: i32,
    y0: i32,
    step: i32,
    rows: u32,
    cols: u32,
    max_iter: u32,
}

@group(0) @binding(0) var<storage, read_write> count: array<u32>;
@group(0) @binding(1) var<uniform> params: Params;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let row = global_id.y;
    let col = global_id.x;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    // u32(i32) keeps the bits: -10240 becomes 4294957056.
    let cx = u32(params.x0) + col * u32(params.step);
    let cy = u32(params.y0) - row * u32(params.step);
    var zx = 0u;
    var zy = 0u;
    var n = 0u;
    while (n < params.max_iter) {
        let x2 = (zx * zx) >> 12u;
        let y2 = (zy * zy) >> 12u;
        if (x2 + y2 > (4u << 12u)) {
            break;
        }
        let xy = (zx * zy) >> 12u;
        zy = 2u * xy + cy;
        zx = x2 - y2 + cx;
        n += 1u;
    }
    count[row * params.cols + col] = n;
}
