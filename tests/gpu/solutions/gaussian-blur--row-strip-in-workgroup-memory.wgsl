// expect: passed
// A correct kernel in another style. The row pass copies its workgroup's
// strip of each row, with r pixels of halo on either side, into workgroup
// memory once (each pixel of img read by one invocation, not by the 2r + 1
// whose taps cover it), waits at a barrier, and takes its taps from there.
// The weights come from a division, C(2r, k) / 4^r, and multiply each
// pixel: exact on the GPUs we know, and within the puzzle's tolerance on any
// (WGSL allows a division 2.5 ULP).
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);
const H = u32(wgs.y);
const STRIP = W + 8u; // the widest strip: r is at most 4

struct Params {
    rows: u32,
    cols: u32,
    r: u32,
}

@group(0) @binding(0) var<storage, read> img: array<f32>;
@group(0) @binding(1) var<storage, read_write> tmp: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;
var<workgroup> strip: array<f32, STRIP * H>; // row ly of the strip at ly * STRIP

@compute @workgroup_size({{workgroupSize}})
fn row_pass(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let r = params.r;
    let width = W + 2u * r;                          // this strip's width
    let left = i32(workgroup_id.x * W) - i32(r);     // the picture's column of strip cell 0
    let row = workgroup_id.y * H + local_id.y;
    // Every invocation reaches the barrier; those past the last row load nothing.
    if (row < params.rows) {
        for (var t = local_id.x; t < width; t += W) {
            let x = clamp(left + i32(t), 0, i32(params.cols) - 1);
            strip[local_id.y * STRIP + t] = img[row * params.cols + u32(x)];
        }
    }
    workgroupBarrier();
    let col = workgroup_id.x * W + local_id.x;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    let denom = f32(1u << (2u * r));
    var c = 1u;
    var sum = 0.0;
    for (var k = 0u; k <= 2u * r; k++) {
        // Tap k of pixel col is picture column col + k - r, strip cell local_id.x + k.
        sum += (f32(c) / denom) * strip[local_id.y * STRIP + local_id.x + k];
        c = c * (2u * r - k) / (k + 1u);
    }
    tmp[row * params.cols + col] = sum;
}

@compute @workgroup_size({{workgroupSize}})
fn col_pass(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let row = global_id.y;
    let col = global_id.x;
    if (row >= params.rows || col >= params.cols) {
        return;
    }
    let r = i32(params.r);
    let denom = f32(1u << u32(2 * r));
    var c = 1u;
    var sum = 0.0;
    for (var k = 0; k <= 2 * r; k++) {
        let y = clamp(i32(row) + k - r, 0, i32(params.rows) - 1);
        sum += (f32(c) / denom) * tmp[u32(y) * params.cols + col];
        c = c * u32(2 * r - k) / u32(k + 1);
    }
    out[row * params.cols + col] = sum;
}
