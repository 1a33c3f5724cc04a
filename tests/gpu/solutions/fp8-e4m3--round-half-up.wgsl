// expect: failed
// Wrong on purpose: rounds half away from zero, adding half a step and
// cutting, the school rule, rather than half to even. Between ties it is
// right, but every tie whose lower neighbour is even goes up when it should
// stay: 1.0625 (0x3F880000) becomes 0x39, 1.125, instead of 0x38, 1.0, and
// 2^-10 (0x3A800000) becomes 0x01, 2^-9, instead of 0x00. Saturation and NaNs
// are right, so only the ties show it.
const wgs = vec3({{workgroupSize}});

struct Params {
    n: u32, // values in x and back
}

@group(0) @binding(0) var<storage, read> x: array<u32>;            // n words: the bits of n f32 values
@group(0) @binding(1) var<storage, read_write> packed: array<u32>; // (n + 3) / 4 words: four E4M3 codes each
@group(0) @binding(2) var<storage, read_write> back: array<f32>;   // n: each code's value as an f32
@group(0) @binding(3) var<uniform> params: Params;

// The E4M3 code nearest to the f32 whose bits are `bits`, in the low 8 bits.
fn to_e4m3(bits: u32) -> u32 {
    let sign = (bits >> 24u) & 0x80u;
    let mag = bits & 0x7FFFFFFFu;
    // A NaN (exponent all ones, fraction not 0) stays NaN, with its sign.
    if (mag > 0x7F800000u) {
        return sign | 0x7Fu;
    }
    // 448 and up, infinity included, saturates to 448 (0x7E): up to the
    // midpoint 464 rounding gives 448 anyway, and above it 0x7F, not a number.
    if (mag >= 0x43E00000u) {
        return sign | 0x7Eu;
    }
    // Normal (2^-6 and up): rebias the exponent from 127 to 7 (subtract 120
    // from the exponent field), then round the low 20 fraction bits away,
    // ties to even. A carry out of the mantissa raises the exponent.
    if (mag >= 0x3C800000u) {
        let t = mag - (120u << 23u);
        return sign | ((t + 0x80000u) >> 20u);
    }
    // Below 2^-10, half the smallest subnormal (a tie there goes to 0): zero.
    if (mag < 0x3A800000u) {
        return sign;
    }
    // Subnormal: the number of steps of 2^-9 is s / 2^(141 - E), s the
    // 24-bit significand and E the f32 exponent (117 to 120), rounded once,
    // ties to even. m = 8 is 2^-6, code 0x08, the smallest normal.
    let shift = 141u - (mag >> 23u);
    let s = (mag & 0x007FFFFFu) | 0x00800000u;
    return sign | ((s + (1u << (shift - 1u))) >> shift);
}

// The value of an E4M3 code as an f32 (exact), or 0 for a NaN, which the
// judge cannot compare.
fn value_of(code: u32) -> f32 {
    let e = (code >> 3u) & 0xFu;
    let m = code & 0x7u;
    if (e == 0xFu && m == 0x7u) {
        return 0.0;
    }
    var magnitude = f32(m) / 512.0; // subnormal: m steps of 2^-9
    if (e != 0u) {
        // (1 + m/8) · 2^(e - 7): the f32 with exponent e + 120, mantissa m.
        magnitude = bitcast<f32>(((e + 120u) << 23u) | (m << 20u));
    }
    if ((code & 0x80u) != 0u) {
        return -magnitude;
    }
    return magnitude;
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let k = global_id.x; // the word of packed this invocation writes, if there is one
    let words = (params.n + 3u) / 4u;
    if (k >= words) {
        return; // past the last word: the dispatch rounds up to whole workgroups
    }
    var word = 0u;
    for (var j = 0u; j < 4u; j++) {
        let i = 4u * k + j;
        // The last word may hold fewer than four values: its missing bytes stay 0.
        if (i < params.n) {
            let code = to_e4m3(x[i]);
            back[i] = value_of(code);
            word |= code << (8u * j);
        }
    }
    packed[k] = word;
}
