// expect: passed
// Right, in another style: no `if` in the rounding. Both results are
// computed for every word, the rounded one and the quiet NaN, and `select`
// picks one; the same for `back`'s 0 at a NaN. The elements come as a
// vec2<u32>, the missing one of an odd n replaced by +0 (0x00000000, which
// rounds to 0 and leaves the high half 0) and never written to `back`.
const wgs = vec3({{workgroupSize}});

struct Params {
    n: u32,
}

@group(0) @binding(0) var<storage, read> x: array<u32>;            // n words
@group(0) @binding(1) var<storage, read_write> packed: array<u32>; // (n + 1) / 2 words
@group(0) @binding(2) var<storage, read_write> back: array<f32>;   // n
@group(0) @binding(3) var<uniform> params: Params;

// Both halves at once: round to nearest even where the word is not a NaN
// (the add is done on every lane, its wrapped result discarded for NaNs).
fn to_bf16x2(bits: vec2<u32>) -> vec2<u32> {
    let rounded = (bits + vec2(0x7FFFu) + ((bits >> vec2(16u)) & vec2(1u))) >> vec2(16u);
    let quiet = (bits >> vec2(16u)) | vec2(0x0040u);
    let nan = (bits & vec2(0x7FFFFFFFu)) > vec2(0x7F800000u);
    return select(rounded, quiet, nan);
}

fn widen(h: u32) -> f32 {
    return select(bitcast<f32>(h << 16u), 0.0, (h & 0x7FFFu) > 0x7F80u);
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let k = global_id.x;
    if (2u * k >= params.n) {
        return;
    }
    let i = 2u * k;
    let has_second = i + 1u < params.n;
    let second = select(0u, x[min(i + 1u, params.n - 1u)], has_second);
    let h = to_bf16x2(vec2(x[i], second));
    back[i] = widen(h.x);
    if (has_second) {
        back[i + 1u] = widen(h.y);
    }
    packed[k] = h.x | (h.y << 16u);
}
