// Comparison kernel: fused as well (no n × n matrix, one invocation per query
// row), but without tiles in workgroup memory. Invocation i of the dispatch
// walks all n keys twice, reading k and v straight from device memory: first
// for the largest score of its row, then for the exponentials, their sum and
// the weighted sum of v's rows. It is correct, and on a GPU it does more
// work: every score is computed twice (3·n²·d multiply-adds instead of 2),
// and every element of k and v is fetched from device memory (or its caches)
// by every query, where the tiled kernel fetches it once per workgroup and
// then reads workgroup memory.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    n: u32, // rows of q, k, v and out
    d: u32, // columns of q, k, v and out, at most 64
}

@group(0) @binding(0) var<storage, read> q: array<f32>;         // n × d, row-major
@group(0) @binding(1) var<storage, read> k: array<f32>;         // n × d, row-major
@group(0) @binding(2) var<storage, read> v: array<f32>;         // n × d, row-major
@group(0) @binding(3) var<storage, read_write> out: array<f32>; // n × d, row-major
@group(0) @binding(4) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = dims.n;
    let d = dims.d;
    let i = workgroup_id.x * W + local_id.x;
    if (i < n) { // no barrier in this kernel, so an early exit is harmless
        let scale = inverseSqrt(f32(d));
        var qi: array<f32, 64>;
        for (var c = 0u; c < d; c++) {
            qi[c] = q[i * d + c];
        }
        // Pass 1: the row's largest score.
        var m = -3.0e38;
        for (var j = 0u; j < n; j++) {
            var dot = 0.0;
            for (var c = 0u; c < d; c++) {
                dot += qi[c] * k[j * d + c];
            }
            m = max(m, dot * scale);
        }
        // Pass 2: every score again, its weight exp(s - m) ≤ 1, their sum,
        // and the weighted sum of v's rows.
        var l = 0.0;
        var acc: array<f32, 64>;
        for (var j = 0u; j < n; j++) {
            var dot = 0.0;
            for (var c = 0u; c < d; c++) {
                dot += qi[c] * k[j * d + c];
            }
            let p = exp(dot * scale - m);
            l += p;
            for (var c = 0u; c < d; c++) {
                acc[c] += p * v[j * d + c];
            }
        }
        for (var c = 0u; c < d; c++) {
            out[i * d + c] = acc[c] / l;
        }
    }
}
