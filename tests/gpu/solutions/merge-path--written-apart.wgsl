// expect: passed
// A merge path written apart from the reference, from the statement alone: the
// tile's two co-ranks by invocations 0 and 1, the tile's keys staged side by
// side in workgroup memory, each output placed by a search inside the tile.
struct Sizes { na: u32, nb: u32 }

@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> src: array<u32>;
@group(0) @binding(4) var<uniform> sizes: Sizes;

const T = {{smemSize}}u;
var<workgroup> keys: array<u32, {{smemSize}}>;
var<workgroup> bounds: array<u32, 2>;

fn corank(d: u32) -> u32 {
    var lo = select(0u, d - sizes.nb, d > sizes.nb);
    var hi = min(d, sizes.na);
    while (lo < hi) {
        let mid = (lo + hi) / 2u;
        if (a[mid] <= b[d - mid - 1u]) { lo = mid + 1u; } else { hi = mid; }
    }
    return lo;
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let t = lid.x;
    let total = sizes.na + sizes.nb;
    let d0 = wid.x * T;
    let d1 = min(d0 + T, total);
    if (t == 0u) { bounds[0] = corank(d0); }
    if (t == 1u || (T == 1u && t == 0u)) { bounds[1] = corank(d1); }
    workgroupBarrier();
    let i0 = bounds[0];
    let i1 = bounds[1];
    let j0 = d0 - i0;
    let la = i1 - i0;
    let lb = (d1 - i1) - j0;
    if (t < la) {
        keys[t] = a[i0 + t];
    } else if (t < la + lb) {
        keys[t] = b[j0 + t - la];
    }
    workgroupBarrier();
    if (t < la + lb) {
        // Co-rank of diagonal t inside the tile: keys[0..la) is a's part,
        // keys[la..la+lb) b's.
        var lo = select(0u, t - lb, t > lb);
        var hi = min(t, la);
        while (lo < hi) {
            let mid = (lo + hi) / 2u;
            if (keys[mid] <= keys[la + t - mid - 1u]) { lo = mid + 1u; } else { hi = mid; }
        }
        let i = lo;
        let j = t - i;
        var take_a = false;
        if (i < la && j < lb) {
            take_a = keys[i] <= keys[la + j];
        } else {
            take_a = i < la;
        }
        if (take_a) {
            out[d0 + t] = keys[i];
            src[d0 + t] = i0 + i;
        } else {
            out[d0 + t] = keys[la + j];
            src[d0 + t] = sizes.na + j0 + j;
        }
    }
}
