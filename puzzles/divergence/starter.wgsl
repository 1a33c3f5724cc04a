// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

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
    // TODO: pick this invocation's element so that every invocation of a
    // workgroup has the same parity, then write mix_even or mix_odd of a[i]
    // to out[i].
}
