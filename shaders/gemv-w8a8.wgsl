// int8 × int8 dot products: one workgroup per row. The invocations walk the
// row's words side by side (invocation i takes words i, i + W, i + 2W, …),
// and dot4I8Packed multiplies each word's four signed bytes by those of the
// matching word of xq and adds the four products, exactly, in i32. The
// partial sums are added up in workgroup memory, still in i32, and the two
// scales apply once, to the row's whole sum.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations per workgroup: any number from 1 up

struct Dims {
    rows: u32, // rows of the matrix, elements of acc and y
    cols: u32, // columns of the matrix: a multiple of 4
}

@group(0) @binding(0) var<storage, read> w: array<u32>;             // rows × cols / 4 words, row-major
@group(0) @binding(1) var<storage, read> xq: array<u32>;            // cols / 4 words
@group(0) @binding(2) var<storage, read> w_scale: array<f32>;       // rows
@group(0) @binding(3) var<storage, read> x_scale: array<f32>;       // 1
@group(0) @binding(4) var<storage, read_write> acc: array<i32>;     // rows
@group(0) @binding(5) var<storage, read_write> y: array<f32>;       // rows
@group(0) @binding(6) var<uniform> dims: Dims;

var<workgroup> smem: array<i32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 4u; // words per row of w, and of xq
    // A workgroup past the last row (none in these cases) adds nothing and
    // writes nothing, but still takes part in every barrier below.
    let live = row < dims.rows;

    // Each dot4I8Packed is at most 4 · 128 · 128 = 65,536 in magnitude, and
    // a row at most 2^26: an i32 holds every partial sum exactly, where an
    // f32 would round from 2^24 on. The W invocations read W consecutive
    // words of the row in one pass: coalesced, as in Matrix–Vector Product.
    var sum = 0i;
    if (live) {
        for (var k = i; k < words; k += W) {
            sum += dot4I8Packed(w[row * words + k], xq[k]);
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
        let total = smem[0];
        acc[row] = total;
        // The statement's order: convert, times the row's scale, times x's.
        y[row] = f32(total) * w_scale[row] * x_scale[0];
    }
}
