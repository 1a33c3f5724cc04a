// expect: passed
// Another correct way: each invocation takes whole blocks (i, i + W, …),
// unpacks the bytes with shifts instead of unpack4xI8, adds up the block's
// 32 products and multiplies the total by the block's scale once. Shifting
// byte j to the top of the word and then shifting the i32 right by 24
// copies the byte's top bit into the upper bits: its sign. A row has fewer
// blocks than words, so fewer invocations have work, and neighbouring
// invocations read words 32 bytes apart.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> w: array<u32>;       // rows × cols / 4 words
@group(0) @binding(1) var<storage, read> scales: array<f32>;  // rows × cols / 32
@group(0) @binding(2) var<storage, read> x: array<f32>;       // cols
@group(0) @binding(3) var<storage, read_write> y: array<f32>; // rows
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>;

// Weight j (0 to 3) of a word, from -128 to 127.
fn weight(word: u32, j: u32) -> f32 {
    return f32(i32(word << (24u - 8u * j)) >> 24u);
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let blocks = dims.cols / 32u;
    var sum = 0.0;
    for (var b = i; b < blocks; b += W) {
        let first = (row * blocks + b) * 8u; // the block's first word in w
        var block = 0.0;
        for (var k = 0u; k < 8u; k++) {
            let word = w[first + k];
            for (var j = 0u; j < 4u; j++) {
                block += weight(word, j) * x[32u * b + 4u * k + j];
            }
        }
        sum += scales[row * blocks + b] * block;
    }
    smem[i] = sum;
    workgroupBarrier();
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        y[row] = smem[0];
    }
}
