// expect: failed
// Wrong on purpose: the merge adds up the splits' l and acc as they are,
// without the factor exp(m_s - M). Each split measured its weights against
// its own maximum, so the keys of a split whose maximum is below the head's
// weigh exp(M - m_s) times too much. It is right where a head has one split
// ("a single split", "t = 1", the smallest sizes), or where every split's
// maximum is the same; in the worked example head 0 comes out as
// [3.0515, -0.3454, 1.3868, 0.5979] instead of [2.7311, -0.1243, 1.1797,
// 0.4621].
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations per workgroup, at most 64

struct Params {
    heads: u32,    // query heads
    kv_heads: u32, // key/value heads: divides heads
    d: u32,        // elements per head vector
    t: u32,        // keys in the cache: rows 0 to t - 1 of each kv head
    capacity: u32, // rows the cache has room for per kv head (t or more)
    split: u32,    // keys per split
}

@group(0) @binding(0) var<storage, read> q: array<f32>;             // heads × d
@group(0) @binding(1) var<storage, read> k_cache: array<f32>;       // kv_heads × capacity × d
@group(0) @binding(2) var<storage, read> v_cache: array<f32>;       // kv_heads × capacity × d
@group(0) @binding(3) var<storage, read_write> scratch: array<f32>; // heads × splits × (d + 2)
@group(0) @binding(4) var<storage, read_write> out: array<f32>;     // heads × d
@group(0) @binding(5) var<uniform> params: Params;

var<workgroup> p: array<f32, {{smemSize}}>; // one per key of the split: its score, then its weight
var<workgroup> red: array<f32, 64>;         // one partial max or sum per invocation

// Splits per head: t / split, rounded up (the dispatch's workgroups along x).
fn splits() -> u32 {
    return (params.t + params.split - 1u) / params.split;
}

// Where split s of head h keeps its partial result in scratch: m, then l,
// then the d elements of acc.
fn slot(h: u32, s: u32) -> u32 {
    return (h * splits() + s) * (params.d + 2u);
}

// The largest (is_max) or the sum of every invocation's `value`, returned to
// all of them. Called by the whole workgroup: the loop's bounds depend on W
// alone, so every invocation passes every barrier.
fn reduce(i: u32, value: f32, is_max: bool) -> f32 {
    red[i] = value;
    workgroupBarrier();
    // Fold the upper half (rounded down) onto the lower until one is left.
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            if (is_max) {
                red[i] = max(red[i], red[i + half]);
            } else {
                red[i] += red[i + half];
            }
        }
        workgroupBarrier();
    }
    let result = red[0];
    workgroupBarrier(); // everyone has read red[0] before the next reduction overwrites it
    return result;
}

@compute @workgroup_size({{workgroupSize}})
fn attend_split(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let s = workgroup_id.x;
    let h = workgroup_id.y;
    let d = params.d;
    let kv = h / (params.heads / params.kv_heads); // the kv head this query head reads
    let start = s * params.split;                  // the split's first key
    let n = min(params.split, params.t - start);   // its keys: never a row from t on
    let rows = kv * params.capacity + start;       // the split's first row in the caches
    let scale = inverseSqrt(f32(d));

    // Scores: invocation i takes the split's keys i, i + W, i + 2W, …
    var local_max = -3.0e38; // below any score
    for (var j = i; j < n; j += W) {
        var dot = 0.0;
        for (var c = 0u; c < d; c++) {
            dot += q[h * d + c] * k_cache[(rows + j) * d + c];
        }
        p[j] = dot * scale;
        local_max = max(local_max, p[j]);
    }
    let m = reduce(i, local_max, true);

    // Weights relative to the split's maximum: each exp(score - m) ≤ 1.
    var local_sum = 0.0;
    for (var j = i; j < n; j += W) {
        p[j] = exp(p[j] - m);
        local_sum += p[j];
    }
    // The barriers in `reduce` also make every weight in p visible to all.
    let l = reduce(i, local_sum, false);

    // The weighted sum of v's rows: invocation i takes columns i, i + W, …,
    // so that neighbouring invocations read neighbouring floats of a row.
    let base = slot(h, s);
    for (var c = i; c < d; c += W) {
        var acc = 0.0;
        for (var j = 0u; j < n; j++) {
            acc += p[j] * v_cache[(rows + j) * d + c];
        }
        scratch[base + 2u + c] = acc;
    }
    if (i == 0u) {
        scratch[base] = m;
        scratch[base + 1u] = l;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn combine(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // One workgroup per head merges its splits; the others have nothing to
    // do (and no barrier to reach).
    if (workgroup_id.x != 0u) {
        return;
    }
    let h = workgroup_id.y;
    let d = params.d;
    let count = splits();
    for (var c = local_id.x; c < d; c += W) {
        var big_m = -3.0e38;
        for (var s = 0u; s < count; s++) {
            big_m = max(big_m, scratch[slot(h, s)]);
        }
        // Split s summed its terms as exp(score - m_s); times exp(m_s - M)
        // they become exp(score - M), the same for every split.
        var l = 0.0;
        var acc = 0.0;
        for (var s = 0u; s < count; s++) {
            let at = slot(h, s);
            let rescale = 1.0; // the mistake: exp(scratch[at] - big_m) left out
            l += scratch[at + 1u] * rescale;
            acc += scratch[at + 2u + c] * rescale;
        }
        out[h * d + c] = acc / l;
    }
}
