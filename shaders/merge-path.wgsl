// Merge Path: workgroup k writes the tile out[k·T … k·T + T - 1] of the
// stable merge of a and b. Its first invocation finds where the tile's
// first diagonal splits between a and b, its last invocation where the
// tile's end does (two binary searches over the whole arrays); the tile's
// keys, a[i0 .. i1) and b[j0 .. j1), are loaded once into workgroup memory,
// and each invocation finds its own diagonal's split there and writes one
// output.
const wgs = vec3({{workgroupSize}});
const T = u32(wgs.x); // outputs per tile: one per invocation

struct Sizes {
    na: u32, // keys in a (a holds one unused element when 0)
    nb: u32, // keys in b (likewise)
}

@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> src: array<u32>;
@group(0) @binding(4) var<uniform> sizes: Sizes;

// The tile's keys: a's part first (la of them), then b's part (lb).
var<workgroup> tile: array<u32, {{smemSize}}>;
// The co-ranks of the tile's first diagonal and of its end.
var<workgroup> splits: array<u32, 2>;

// The co-rank of diagonal d of the whole merge: how many of the first d
// outputs come from a. The smallest i in [max(0, d - nb), min(d, na)] with
// a[i] > b[d - i - 1] (or the upper bound if none): a[i] <= b[d - i - 1]
// means a[i] comes before that b key, ties included, so the split is past i.
// Two reads a step, about log2(min(na, nb)) steps.
fn co_rank(d: u32) -> u32 {
    var lo = select(0u, d - sizes.nb, d > sizes.nb);
    var hi = min(d, sizes.na);
    while (lo < hi) {
        // lo <= mid < hi: a[mid] exists, and d - mid - 1 is in 0 … nb - 1.
        let mid = (lo + hi) / 2u;
        if (a[mid] <= b[d - mid - 1u]) {
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
    let n = sizes.na + sizes.nb;
    let t = local_id.x;
    // The tile's diagonals: d0 up to d1 (the last tile may be short).
    let d0 = workgroup_id.x * T;
    let d1 = min(d0 + T, n);
    // One search each (one invocation does both when T is 1).
    if (t == 0u) {
        splits[0] = co_rank(d0);
    }
    if (t == T - 1u) {
        splits[1] = co_rank(d1);
    }
    workgroupBarrier();
    let i0 = splits[0];
    let i1 = splits[1];
    let j0 = d0 - i0;
    let j1 = d1 - i1;
    let la = i1 - i0;
    let lb = j1 - j0;
    let count = d1 - d0; // la + lb
    // Each of the tile's keys read once: T reads at most.
    if (t < la) {
        tile[t] = a[i0 + t];
    } else if (t < count) {
        tile[t] = b[j0 + t - la];
    }
    workgroupBarrier();
    if (t < count) {
        // The co-rank of the tile's own diagonal t, in workgroup memory:
        // the same search, with a = tile[0 .. la) and b = tile[la .. count).
        var lo = select(0u, t - lb, t > lb);
        var hi = min(t, la);
        while (lo < hi) {
            let mid = (lo + hi) / 2u;
            if (tile[mid] <= tile[la + t - mid - 1u]) {
                lo = mid + 1u;
            } else {
                hi = mid;
            }
        }
        let i = lo;
        let j = t - lo;
        // Output d0 + t is the smaller of the next a key and the next b key,
        // a's on a tie (|| skips tile[la + j] when b's part is used up).
        if (j == lb || (i < la && tile[i] <= tile[la + j])) {
            out[d0 + t] = tile[i];
            src[d0 + t] = i0 + i;
        } else {
            out[d0 + t] = tile[la + j];
            src[d0 + t] = sizes.na + j0 + j;
        }
    }
}
