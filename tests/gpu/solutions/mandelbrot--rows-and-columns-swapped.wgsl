// expect: failed
// Wrong on purpose: the row is taken from `global_id.x` and the column from
// `global_id.y`. The workgroups are laid out with `x` along a row
// (`ceil(cols / wgs.x)` of them) and `y` down the image, so the invocations
// cover the image turned on its side. The bounds check keeps every write
// inside the buffer, and each pixel that is computed is right, but where the
// dispatch has fewer than `rows` invocations along `x` or fewer than `cols`
// along `y`, as an image that is not square usually gives (12 × 40, one row,
// one column), some pixels are never written and stay 0. On a square image
// with square workgroups the mistake is invisible.
struct Params {
    x0: i32,       // real part of the top-left pixel's c, fixed point
    y0: i32,       // imaginary part of the top-left pixel's c, fixed point
    step: i32,     // distance between neighbouring pixels, fixed point
    rows: u32,
    cols: u32,
    max_iter: u32,
}

@group(0) @binding(0) var<storage, read_write> count: array<u32>;
@group(0) @binding(1) var<uniform> params: Params;

const F: u32 = 12u;              // fractional bits: 1.0 is 4096
const ESCAPE: i32 = 4 << F;      // |z|^2 > 4.0 means escaped

// The product of two fixed-point numbers. The i32 product carries 2F
// fractional bits; >> on an i32 is an arithmetic shift, which keeps the sign
// (it rounds toward minus infinity), so negative values stay right. No
// product overflows: within the promised rectangle both parts of z stay
// below 2^15 + 2 at every test (the statement's bound), so a product is
// below 2^31.
fn fmul(a: i32, b: i32) -> i32 {
    return (a * b) >> F;
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    // x runs along a row (the column), y down the image (the row).
    let row = global_id.x;
    let col = global_id.y;
    // The dispatch rounds up to whole workgroups: the extra invocations of
    // the last ones have no pixel.
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    // The imaginary part decreases downwards: row 0 is the top of the picture.
    let cx = params.x0 + i32(col) * params.step;
    let cy = params.y0 - i32(row) * params.step;

    var zx = 0;
    var zy = 0;
    var n = 0u;
    // Each invocation loops as long as its own point takes: the divergence
    // the statement describes. The workgroup finishes with its slowest pixel.
    while (n < params.max_iter) {
        let x2 = fmul(zx, zx);
        let y2 = fmul(zy, zy);
        if (x2 + y2 > ESCAPE) {
            break;
        }
        let xy = fmul(zx, zy);
        zy = 2 * xy + cy;
        zx = x2 - y2 + cx;
        n += 1u;
    }
    count[row * params.cols + col] = n;
}
