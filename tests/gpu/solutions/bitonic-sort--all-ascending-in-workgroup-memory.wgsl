// expect: passed
// Correct, another way. sort_blocks uses the all-ascending form of the network too, the form
// merge_step needs across blocks: each stage starts with a flip, which pairs place lo with its
// mirror in its run of `size` (lo XOR (size - 1)) and turns two sorted runs into a bitonic
// pair, and goes on with half-cleaners, every comparison ascending. Both entry points find a
// pair's lower place by inserting a 0 bit into the pair's number at the bit `dist` (at the bit
// size / 2 for the flip); the flip's upper place is then lo XOR (size - 1), a half-cleaner's
// lo | dist. The block's padding takes part in sort_blocks, but merge_step skips the pairs
// that reach past the end of out, as the reference does.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);
const P = u32({{smemSize}});

struct Step {
    size: u32,
    dist: u32,
}

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> step: Step;

var<workgroup> tile: array<u32, {{smemSize}}>;

// Pair t's lower place in a step where pairs are `d` apart (d a power of
// two): t with a 0 bit inserted at the bit d.
fn lower(t: u32, d: u32) -> u32 {
    return ((t & ~(d - 1u)) << 1u) | (t & (d - 1u));
}

// The two places of pair t of the step (size, dist), all ascending.
fn pair(t: u32, size: u32, dist: u32) -> vec2<u32> {
    let lo = lower(t, dist);
    if (dist * 2u == size) {
        return vec2(lo, lo ^ (size - 1u));
    }
    return vec2(lo, lo | dist);
}

fn compare_exchange(lo: u32, hi: u32) {
    let a = tile[lo];
    let b = tile[hi];
    if (a > b) {
        tile[lo] = b;
        tile[hi] = a;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn sort_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = arrayLength(&keys);
    let first = workgroup_id.x * P;
    for (var i = local_id.x; i < P; i += W) {
        var key = 0xffffffffu;
        if (first + i < n) {
            key = keys[first + i];
        }
        tile[i] = key;
    }
    workgroupBarrier();
    for (var size = 2u; size <= P; size *= 2u) {
        for (var dist = size / 2u; dist > 0u; dist /= 2u) {
            for (var t = local_id.x; t < P / 2u; t += W) {
                let p = pair(t, size, dist);
                compare_exchange(p.x, p.y);
            }
            workgroupBarrier();
        }
    }
    for (var i = local_id.x; i < P; i += W) {
        if (first + i < n) {
            out[first + i] = tile[i];
        }
    }
}

@compute @workgroup_size({{workgroupSize}})
fn merge_step(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = arrayLength(&out);
    for (var t = local_id.x; t < P / 2u; t += W) {
        let p = pair(workgroup_id.x * (P / 2u) + t, step.size, step.dist);
        if (p.y < n) {
            let a = out[p.x];
            let b = out[p.y];
            if (a > b) {
                out[p.x] = b;
                out[p.y] = a;
            }
        }
    }
}
