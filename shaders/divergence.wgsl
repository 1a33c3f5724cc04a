// Divergence: whole workgroups take the same branch.
const wgs = vec3({{workgroupSize}});

const ROUNDS = 64u;

// Even elements: a linear congruential step (the constants of Numerical Recipes).
fn mix_even(x: u32) -> u32 {
    var h = x;
    for (var r = 0u; r < ROUNDS; r++) {
        h = h * 1664525u + 1013904223u;
    }
    return h;
}

// Odd elements: Marsaglia's xorshift.
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
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let pair = workgroup_id.x / 2u;
    let parity = workgroup_id.x % 2u;
    let i = 2u * (pair * u32(wgs.x) + local_id.x) + parity;
    if (i >= arrayLength(&a)) {
        return;
    }
    if (parity == 0u) {
        out[i] = mix_even(a[i]);
    } else {
        out[i] = mix_odd(a[i]);
    }
}
