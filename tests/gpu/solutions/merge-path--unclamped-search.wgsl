// expect: memory-error in some cases
// message: out-of-bounds
// Wrong on purpose: the co-rank searched over 0 … d instead of
// max(0, d - nb) … min(d, na). On a diagonal past the end of a (d > na),
// mid can reach na or more and a[mid] reads past the end of a; on one past
// the end of b (d > nb), a small mid makes d - mid - 1 nb or more and reads
// past the end of b. The tile's own search, unclamped the same way, reads
// past the tile's keys. Every case with two keys or more has such a
// diagonal: the last tile ends at na + nb, past the end of a or of b (of
// both unless one is empty). The cases with one key in all (0 + 1, 1 + 0)
// have none, and pass.
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
// outputs come from a. The smallest i in [0, d] (not clamped!) with
// a[i] > b[d - i - 1] (or the upper bound if none): a[i] <= b[d - i - 1]
// means a[i] comes before that b key, ties included, so the split is past i.
// Two reads a step, about log2(min(na, nb)) steps.
fn co_rank(d: u32) -> u32 {
    var lo = 0u;
    var hi = d;
    while (lo < hi) {
        // Nothing keeps mid below na, nor d - mid - 1 below nb.
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
        var lo = 0u;
        var hi = t;
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
