// expect: over-budget in some cases
// message: over budget: workgroup
// Right answer, wrong method: no merge path. Each invocation takes one key
// and finds its place by a binary search of the other array: a[i] goes to
// i plus the number of b keys below it (lower bound), b[j] to j plus the
// number of a keys at or below it (upper bound), which keeps the merge
// stable. Correct, but every key costs 1 + log2(n) reads of the other
// array, T · (1 + log2 n) per workgroup, where a merge-path tile reads its
// T keys once plus two searches. Over the budget (2 · T + 96) on the cases
// with 32 invocations per workgroup and more; the smaller workgroups and
// arrays pass.
const wgs = vec3({{workgroupSize}});
const T = u32(wgs.x);

struct Sizes {
    na: u32,
    nb: u32,
}

@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> src: array<u32>;
@group(0) @binding(4) var<uniform> sizes: Sizes;

// How many keys of b are below x.
fn lower_bound_b(x: u32) -> u32 {
    var lo = 0u;
    var hi = sizes.nb;
    while (lo < hi) {
        let mid = (lo + hi) / 2u;
        if (b[mid] < x) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// How many keys of a are at or below y.
fn upper_bound_a(y: u32) -> u32 {
    var lo = 0u;
    var hi = sizes.na;
    while (lo < hi) {
        let mid = (lo + hi) / 2u;
        if (a[mid] <= y) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let g = workgroup_id.x * T + local_id.x;
    if (g < sizes.na) {
        let x = a[g];
        let at = g + lower_bound_b(x);
        out[at] = x;
        src[at] = g;
    } else if (g < sizes.na + sizes.nb) {
        let j = g - sizes.na;
        let y = b[j];
        let at = j + upper_bound_a(y);
        out[at] = y;
        src[at] = g;
    }
}
