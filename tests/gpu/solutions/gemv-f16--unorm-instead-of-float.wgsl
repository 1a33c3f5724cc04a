// expect: failed
// Wrong on purpose: unpack2x16unorm, a neighbour of unpack2x16float in
// WGSL's list that also returns a vec2<f32>, reads each half as an
// unsigned integer scaled to [0, 1] (v / 65535), not as a floating-point
// number: 0x3C00 (1.0) becomes 0.234, and no weight is ever negative.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations per workgroup: any number from 1 up

struct Dims {
    rows: u32, // rows of the matrix, elements of y
    cols: u32, // columns of the matrix, elements of x: even
}

@group(0) @binding(0) var<storage, read> w: array<u32>;       // rows × cols / 2 words, row-major
@group(0) @binding(1) var<storage, read> x: array<f32>;       // cols
@group(0) @binding(2) var<storage, read_write> y: array<f32>; // rows
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 2u; // words per row of w
    // A workgroup past the last row (none in these cases) adds nothing and
    // writes nothing, but still takes part in every barrier below.
    let live = row < dims.rows;

    // Word k holds the weights of columns 2k (bits 0 to 15, .x) and 2k + 1
    // (bits 16 to 31, .y); unpack2x16float converts both to f32 exactly. In
    // one pass the W invocations read W consecutive words of the row:
    // coalesced, as in Matrix–Vector Product.
    var sum = 0.0;
    if (live) {
        for (var k = i; k < words; k += W) {
            let h = unpack2x16unorm(w[row * words + k]);
            sum += dot(h, vec2<f32>(x[2u * k], x[2u * k + 1u]));
        }
    }
    smem[i] = sum;
    workgroupBarrier();

    // Fold the upper half (rounded down) onto the lower until one is left;
    // the bounds depend on W alone, so every invocation passes every barrier.
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }

    if (live && i == 0u) {
        y[row] = smem[0];
    }
}
