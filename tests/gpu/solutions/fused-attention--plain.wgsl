// expect: passed
// One query per invocation, online softmax over tiles of wgs.x keys/values staged in workgroup
// memory, rescaling l and acc when a tile raises the maximum. Written from the statement alone.
// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Dims {
    n: u32, // rows of q, k, v and out
    d: u32, // columns of q, k, v and out, at most 64
}

@group(0) @binding(0) var<storage, read> q: array<f32>;         // n × d, row-major
@group(0) @binding(1) var<storage, read> k: array<f32>;         // n × d, row-major
@group(0) @binding(2) var<storage, read> v: array<f32>;         // n × d, row-major
@group(0) @binding(3) var<storage, read_write> out: array<f32>; // n × d, row-major
@group(0) @binding(4) var<uniform> dims: Dims;

// 2 · wgs.x · d floats: a tile of wgs.x rows of k from tiles[0], the same
// rows of v from tiles[wgs.x * d].
var<workgroup> tiles: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = workgroup_id.x * u32(wgs.x) + local_id.x; // this invocation's query row; may be ≥ dims.n
    let W = u32(wgs.x);
    let t = local_id.x;
    let n = dims.n;
    let d = dims.d;
    let scale = inverseSqrt(f32(d));
    let has_query = i < n;

    var qi: array<f32, 64>;
    var acc: array<f32, 64>;
    var s: array<f32, 64>; // this tile's scores (a tile has at most 64 keys)
    for (var c = 0u; c < d; c++) {
        acc[c] = 0.0;
        qi[c] = 0.0;
        if (has_query) {
            qi[c] = q[i * d + c];
        }
    }
    var m = -3.0e38;
    var l = 0.0;

    for (var start = 0u; start < n; start += W) {
        let rows = min(W, n - start);
        // Copy this tile's rows of k and v: rows · d consecutive floats of each.
        for (var e = t; e < rows * d; e += W) {
            tiles[e] = k[start * d + e];
            tiles[W * d + e] = v[start * d + e];
        }
        workgroupBarrier();

        if (has_query) {
            var tile_max = -3.0e38;
            for (var j = 0u; j < rows; j++) {
                var sc = 0.0;
                for (var c = 0u; c < d; c++) {
                    sc += qi[c] * tiles[j * d + c];
                }
                s[j] = sc * scale;
                tile_max = max(tile_max, s[j]);
            }
            if (tile_max > m) {
                let r = exp(m - tile_max);
                l *= r;
                for (var c = 0u; c < d; c++) {
                    acc[c] *= r;
                }
                m = tile_max;
            }
            for (var j = 0u; j < rows; j++) {
                let p = exp(s[j] - m);
                l += p;
                for (var c = 0u; c < d; c++) {
                    acc[c] += p * tiles[W * d + j * d + c];
                }
            }
        }
        workgroupBarrier();
    }

    if (has_query) {
        for (var c = 0u; c < d; c++) {
            out[i * d + c] = acc[c] / l;
        }
    }
}
