// 4-bit Weights with Group Scales: one workgroup per row. The invocations
// walk the row's words side by side (invocation i takes words i, i + W,
// i + 2W, …), unpack the eight signed 4-bit weights of each, and add
// scale · (weights · x) to a partial sum: one multiply by the scale per word
// of eight weights, never per weight. The partial sums are then added up in
// workgroup memory, as in Quantised GEMV.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations per workgroup: any number from 1 up

struct Dims {
    rows: u32,  // rows of the matrix, elements of y
    cols: u32,  // columns of the matrix, elements of x: a multiple of group
    group: u32, // columns that share one scale: 32 or 64
}

@group(0) @binding(0) var<storage, read> w: array<u32>;           // rows × cols / 8 words, row-major
@group(0) @binding(1) var<storage, read> scales: array<f32>;      // rows × cols / group, row-major
@group(0) @binding(2) var<storage, read> x: array<f32>;           // cols
@group(0) @binding(3) var<storage, read_write> y: array<f32>;     // rows
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 8u;           // words per row of w
    let groups = dims.cols / dims.group;  // scales per row
    let per_group = dims.group / 8u;      // words per group: 4 or 8
    // A workgroup past the last row (none in these cases) adds nothing and
    // writes nothing, but still takes part in every barrier below.
    let live = row < dims.rows;

    // Word k holds the weights of columns 8k to 8k + 7, lowest nibble first;
    // a group is a whole number of words, so the word lies in one group,
    // k / per_group, and its eight products share that group's scale.
    var sum = 0.0;
    if (live) {
        for (var k = i; k < words; k += W) {
            let word = i32(w[row * words + k]);
            var part = 0.0;
            for (var j = 0u; j < 8u; j++) {
                // extractBits of an i32 copies the nibble's top bit, its
                // sign, into the bits above it: -8 to 7, exact in f32.
                part += f32(extractBits(word, 4u * j, 4u)) * x[8u * k + j];
            }
            sum += scales[row * groups + k / per_group] * part;
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
