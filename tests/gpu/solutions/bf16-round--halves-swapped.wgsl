// expect: failed
// Wrong on purpose: each value is rounded right, but element 2k goes to the
// high half of packed[k] and element 2k + 1 to the low half, the order a
// big-endian reading of the bytes would suggest. A bfloat16 tensor stored
// as u32 words on a little-endian machine (every GPU WebGPU runs on) has
// element 2k in the low half. In the worked example packed[1] is
// 0x3F823F81 instead of 0x3F813F82; `back` is right.
const wgs = vec3({{workgroupSize}});

struct Params {
    n: u32, // values in x and back
}

@group(0) @binding(0) var<storage, read> x: array<u32>;            // n words: the bits of n f32 values
@group(0) @binding(1) var<storage, read_write> packed: array<u32>; // (n + 1) / 2 words: two bfloat16 each
@group(0) @binding(2) var<storage, read_write> back: array<f32>;   // n: each bfloat16 as an f32
@group(0) @binding(3) var<uniform> params: Params;

// The bfloat16 nearest to the f32 whose bits are `bits`, in the low 16 bits.
fn to_bf16(bits: u32) -> u32 {
    // A NaN: exponent all ones and a fraction that is not 0. Keep the sign
    // and the top of the payload and set the quiet bit, so that a payload
    // held only in the low half does not vanish and leave an infinity.
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u) {
        return (bits >> 16u) | 0x0040u;
    }
    // Round to nearest, ties to even: 0x7FFF carries into bit 16 when the
    // low half is above 0x8000, and at 0x8000 the kept part's lowest bit
    // decides. No overflow: the largest word here is 0xFF800000 (-inf).
    return (bits + 0x7FFFu + ((bits >> 16u) & 1u)) >> 16u;
}

// A bfloat16 as an f32 (exact: its bits followed by 16 zeros), or 0 for a
// NaN, which the judge cannot compare.
fn widen(h: u32) -> f32 {
    if ((h & 0x7FFFu) > 0x7F80u) {
        return 0.0;
    }
    return bitcast<f32>(h << 16u);
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let k = global_id.x;
    let words = (params.n + 1u) / 2u;
    if (k >= words) {
        return;
    }
    let i = 2u * k;
    let first = to_bf16(x[i]);
    back[i] = widen(first);
    var second = 0u;
    if (i + 1u < params.n) {
        second = to_bf16(x[i + 1u]);
        back[i + 1u] = widen(second);
    }
    packed[k] = (first << 16u) | second;
}
