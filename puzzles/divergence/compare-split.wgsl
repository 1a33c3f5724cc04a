// Comparison kernel: the obvious mapping, invocation i handles element i.
// Correct, but every group of invocations runs both mixers.
const ROUNDS = 64u;
fn mix_even(x: u32) -> u32 {
    var h = x;
    for (var r = 0u; r < ROUNDS; r++) {
        h = h * 1664525u + 1013904223u;
    }
    return h;
}
fn mix_odd(x: u32) -> u32 {
    var h = x;
    for (var r = 0u; r < ROUNDS; r++) {
        h ^= h << 13u;
        h ^= h >> 17u;
        h ^= h << 5u;
    }
    return h;
}
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let i = global_id.x;
    if (i >= arrayLength(&a)) {
        return;
    }
    if (i % 2u == 0u) {
        out[i] = mix_even(a[i]);
    } else {
        out[i] = mix_odd(a[i]);
    }
}
