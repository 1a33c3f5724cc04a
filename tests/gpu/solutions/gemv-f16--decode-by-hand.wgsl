// expect: passed
// Correct, another way: each half decoded by hand from its bits instead of
// with unpack2x16float, and each invocation adding up one contiguous run of
// the row's words instead of every W-th word.
//
// A normal half (exponent e from 1 to 30) is (-1)^s * 2^(e - 15) * (1 +
// m / 1024); as an f32 (bias 127, 23 fraction bits) that is the sign at bit
// 31, the exponent e + 112 at bits 23 to 30 and the fraction m moved up 13
// bits. A half of exponent 0 is m * 2^-24 (zero and the subnormals), which
// f32(m) * 2^-24 gives exactly, -0.0 included. The cases hold no exponent
// 31 (infinities, NaNs). The runs are not coalesced (neighbouring
// invocations read words a run apart), which only timing on a GPU shows.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> w: array<u32>;       // rows × cols / 2 words
@group(0) @binding(1) var<storage, read> x: array<f32>;       // cols
@group(0) @binding(2) var<storage, read_write> y: array<f32>; // rows
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>;

// The binary16 number in the low 16 bits of `h`, as an f32.
fn half_to_f32(h: u32) -> f32 {
    let sign = (h & 0x8000u) << 16u;
    let e = (h >> 10u) & 0x1Fu;
    let m = h & 0x3FFu;
    if (e == 0u) {
        let magnitude = f32(m) * 5.9604644775390625e-8; // 2^-24
        return select(magnitude, -magnitude, sign != 0u);
    }
    return bitcast<f32>(sign | ((e + 112u) << 23u) | (m << 13u));
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 2u;
    let run = (words + W - 1u) / W; // words per invocation, rounded up
    let end = min((i + 1u) * run, words);
    var sum = 0.0;
    for (var k = i * run; k < end; k++) {
        let word = w[row * words + k];
        sum += half_to_f32(word & 0xFFFFu) * x[2u * k] + half_to_f32(word >> 16u) * x[2u * k + 1u];
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
