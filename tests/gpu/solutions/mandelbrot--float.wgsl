// expect: failed
// Wrong on purpose: the natural kernel in f32, c = (x0 + col * step) / 4096.
// Its counts are right far from the set and inside it, but near the boundary
// f32 rounds differently from the statement's fixed point (which truncates
// each product to 1/4096), and one rounding moves a count by one or more:
// dozens of pixels differ in the zoomed cases. Different GPUs would not even
// agree with each other here (a compiler may fuse zx * zy * 2 + cy into one
// rounding or not), which is why the puzzle specifies integer arithmetic.
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
    let cx = f32(params.x0 + i32(col) * params.step) / 4096.0;
    let cy = f32(params.y0 - i32(row) * params.step) / 4096.0;
    var zx = 0.0;
    var zy = 0.0;
    var n = 0u;
    while (n < params.max_iter) {
        let x2 = zx * zx;
        let y2 = zy * zy;
        if (x2 + y2 > 4.0) {
            break;
        }
        zy = 2.0 * zx * zy + cy;
        zx = x2 - y2 + cx;
        n += 1u;
    }
    count[row * params.cols + col] = n;
}
