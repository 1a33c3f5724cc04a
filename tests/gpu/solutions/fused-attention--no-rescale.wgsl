// expect: failed
// Wrong on purpose: the online softmax without the rescale. When a tile
// brings a larger maximum, m moves up but l and acc keep the terms they
// summed as exp(s - m_old): next to the new terms, exp(s - m_new), the old
// keys weigh exp(m_new - m_old) times too much. The result is still an
// average of v's rows, with the wrong weights. It is right only when no later
// tile beats the first tile's maximum: one tile (n ≤ wgs.x), or luck. In
// "large scores: exp(s) alone overflows f32" the maximum of rows 1 and 4
// grows by 4 in the second tile (old keys weigh e^4 ≈ 55 times too much), and
// in "scores that grow along the keys" it grows in every tile.
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
    // The last workgroup may hang past row n - 1: its invocations without a
    // query still copy their share of every tile and reach every barrier.
    let has_query = i < n;
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

    // The loop's bounds are the same for the whole workgroup, so every
    // invocation reaches both barriers of every tile.
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
            // The new maximum, but l and acc keep their old weights.
            m = tile_max;
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
