// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)
const T = u32(wgs.x);                  // outputs per tile: one per invocation

struct Sizes {
    na: u32, // keys in a (a holds one unused element when na is 0)
    nb: u32, // keys in b (likewise)
}

@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> src: array<u32>;
@group(0) @binding(4) var<uniform> sizes: Sizes;

var<workgroup> tile: array<u32, {{smemSize}}>; // T elements
var<workgroup> splits: array<u32, 2>;

// How many of the first d outputs of the merge come from a.
fn co_rank(d: u32) -> u32 {
    // TODO: binary search for the smallest i in max(0, d - nb) … min(d, na)
    // with a[i] > b[d - i - 1] (the upper bound if there is none).
    return 0u;
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = sizes.na + sizes.nb;
    let d0 = workgroup_id.x * T;  // this tile's first output
    let d1 = min(d0 + T, n);      // one past its last
    // TODO: find the co-ranks of d0 and d1 (one invocation each) and share
    // them; load the tile's keys of a and of b into tile; then invocation t
    // finds its own split inside the tile and writes out[d0 + t] and
    // src[d0 + t] (the key's index in a, or na + its index in b).
}
