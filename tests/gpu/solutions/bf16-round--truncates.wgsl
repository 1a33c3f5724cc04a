// expect: failed
// Wrong on purpose: the low half is cut off, `bits >> 16`, which rounds
// towards zero instead of to nearest. Every value whose low half is 0x8000
// or more comes out one bfloat16 step too small in magnitude: in the worked
// example 1.01171875 (0x3F818000) becomes 0x3F81, 1.0078125, instead of
// 0x3F82, and the signalling NaN 0x7F800001, whose payload is only in the
// low half, becomes 0x7F80, infinity.
const wgs = vec3({{workgroupSize}});

struct Params {
    n: u32, // values in x and back
}

@group(0) @binding(0) var<storage, read> x: array<u32>;            // n words: the bits of n f32 values
@group(0) @binding(1) var<storage, read_write> packed: array<u32>; // (n + 1) / 2 words: two bfloat16 each
@group(0) @binding(2) var<storage, read_write> back: array<f32>;   // n: each bfloat16 as an f32
@group(0) @binding(3) var<uniform> params: Params;

fn to_bf16(bits: u32) -> u32 {
    return bits >> 16u;
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
        return; // past the last word: the dispatch rounds up to whole workgroups
    }
    let i = 2u * k;
    let lo = to_bf16(x[i]);
    back[i] = widen(lo);
    // With n odd, the last word has no element 2k + 1: its high half stays 0.
    var hi = 0u;
    if (i + 1u < params.n) {
        hi = to_bf16(x[i + 1u]);
        back[i + 1u] = widen(hi);
    }
    packed[k] = lo | (hi << 16u);
}
