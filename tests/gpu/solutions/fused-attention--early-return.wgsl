// expect: compile-error at 67:9
// message: taken by only some invocations
// Wrong on purpose: invocations without a query row (i >= n, in the last
// workgroup when wgs.x does not divide n) return at once. They also stop
// copying their share of the tiles, and above all never reach the
// workgroupBarrier() calls that the rest of their workgroup waits at: a
// barrier must be reached by every invocation of the workgroup or by none.
// Browsers refuse to compile such a shader (the barrier is not in uniform
// control flow); naga accepts it, so the native judge's check of the
// barriers reports it, at the first barrier's line.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // queries per workgroup, and keys per tile

struct Dims {
    n: u32, // rows of q, k, v and out
    d: u32, // columns of q, k, v and out, at most 64
}

@group(0) @binding(0) var<storage, read> q: array<f32>;         // n × d, row-major
@group(0) @binding(1) var<storage, read> k: array<f32>;         // n × d, row-major
@group(0) @binding(2) var<storage, read> v: array<f32>;         // n × d, row-major
@group(0) @binding(3) var<storage, read_write> out: array<f32>; // n × d, row-major
@group(0) @binding(4) var<uniform> dims: Dims;

// 2 · W · d floats: the tile's rows of k from tiles[0], the same rows of v
// from tiles[W * d], each row d floats long.
var<workgroup> tiles: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = dims.n;
    let d = dims.d;
    let t = local_id.x;
    let i = workgroup_id.x * W + t; // this invocation's query row
    if (i >= n) {
        return; // no query: nothing to do here?
    }
    let has_query = true; // every invocation still here has a query
    let v_base = W * d;              // where the tile of v starts in `tiles`
    let scale = inverseSqrt(f32(d)); // 1 / √d

    // Private to the invocation: its query, the running state, and the
    // scores of the current tile (d and W are at most 64).
    var qi: array<f32, 64>;
    if (has_query) {
        for (var c = 0u; c < d; c++) {
            qi[c] = q[i * d + c];
        }
    }
    var m = -3.0e38;         // running maximum: below any score, so the first tile replaces it
    var l = 0.0;             // running Σ exp(s - m)
    var acc: array<f32, 64>; // running Σ exp(s - m) · (row of v); starts at 0
    var s: array<f32, 64>;   // the current tile's scores

    for (var start = 0u; start < n; start += W) {
        let rows = min(W, n - start); // keys in this tile; the last may have fewer
        // Rows start … start + rows - 1 of k (and of v) are rows · d
        // consecutive floats: the W invocations copy them in turn, so
        // neighbouring invocations read neighbouring floats.
        for (var e = t; e < rows * d; e += W) {
            tiles[e] = k[start * d + e];
            tiles[v_base + e] = v[start * d + e];
        }
        workgroupBarrier(); // the whole tile is in place

        if (has_query) {
            // The tile's scores, and the largest score seen so far.
            var tile_max = m;
            for (var j = 0u; j < rows; j++) {
                var dot = 0.0;
                for (var c = 0u; c < d; c++) {
                    dot += qi[c] * tiles[j * d + c];
                }
                s[j] = dot * scale;
                tile_max = max(tile_max, s[j]);
            }
            // A larger maximum: l and acc hold terms weighted by exp(s - m);
            // multiplying them by exp(m - tile_max) makes every one of them
            // exp(s - tile_max). On the first tile the factor is exp of a
            // huge negative number, 0, and l and acc are still 0 anyway.
            if (tile_max > m) {
                let rescale = exp(m - tile_max);
                l *= rescale;
                for (var c = 0u; c < d; c++) {
                    acc[c] *= rescale;
                }
                m = tile_max;
            }
            // The tile's own terms, relative to the same maximum: each
            // exp(s - m) is at most 1, so nothing overflows.
            for (var j = 0u; j < rows; j++) {
                let p = exp(s[j] - m);
                l += p;
                for (var c = 0u; c < d; c++) {
                    acc[c] += p * tiles[v_base + j * d + c];
                }
            }
        }
        workgroupBarrier(); // every query is done with the tile before the next overwrites it
    }

    // l ≥ 1: it holds exp(s - m) for every key, and the key with the
    // largest score adds exp(0) = 1.
    if (has_query) {
        for (var c = 0u; c < d; c++) {
            out[i * d + c] = acc[c] / l;
        }
    }
}
