// expect: failed
// Wrong on purpose: extractBits of the u32 word does not extend the sign,
// so each nibble reads as 0 to 15, and the weights -8 to -1 (the nibbles
// 0x8 to 0xF) count as 16 more than they are. About half the nibbles of a
// random word are negative, so every case is off by 16 · scale · x for
// each of them: in the worked example word 0 of row 0, 0x5087D2F1, gives
// 1, 15, 2, 13, 7, 8, 0, 5 instead of 1, -1, 2, -3, 7, -8, 0, 5, and
// y = [394, 125] instead of [10, 13].
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
    group: u32,
}

@group(0) @binding(0) var<storage, read> w: array<u32>;       // rows × cols / 8 words
@group(0) @binding(1) var<storage, read> scales: array<f32>;  // rows × cols / group
@group(0) @binding(2) var<storage, read> x: array<f32>;       // cols
@group(0) @binding(3) var<storage, read_write> y: array<f32>; // rows
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 8u;
    let groups = dims.cols / dims.group;
    let per_group = dims.group / 8u;
    var sum = 0.0;
    for (var k = i; k < words; k += W) {
        let word = w[row * words + k]; // a u32: extractBits will not extend the sign
        var part = 0.0;
        for (var j = 0u; j < 8u; j++) {
            part += f32(extractBits(word, 4u * j, 4u)) * x[8u * k + j];
        }
        sum += scales[row * groups + k / per_group] * part;
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
