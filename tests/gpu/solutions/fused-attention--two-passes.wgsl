// expect: passed
// Correct but slow, on purpose: the comparison kernel's approach. One
// invocation per query row and no workgroup memory: a first pass over all n
// keys, read from device memory, finds the largest score; a second computes
// every score again, its weight exp(s - max), their sum and the weighted sum
// of v's rows. Nothing n × n is stored, so it is fused too, but each score is
// computed twice and every query fetches all of k (twice) and v from device
// memory. It passes every case; on a hardware GPU it is timed against the
// tiled kernel and the performance target.
struct Dims {
    n: u32,
    d: u32,
}

@group(0) @binding(0) var<storage, read> q: array<f32>;
@group(0) @binding(1) var<storage, read> k: array<f32>;
@group(0) @binding(2) var<storage, read> v: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<uniform> dims: Dims;

fn score(i: u32, j: u32) -> f32 {
    var dot = 0.0;
    for (var c = 0u; c < dims.d; c++) {
        dot += q[i * dims.d + c] * k[j * dims.d + c];
    }
    return dot / sqrt(f32(dims.d));
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let i = global_id.x;
    if (i >= dims.n) {
        return; // this kernel has no barrier, so leaving early is fine
    }
    var m = score(i, 0u);
    for (var j = 1u; j < dims.n; j++) {
        m = max(m, score(i, j));
    }
    var l = 0.0;
    var acc: array<f32, 64>;
    for (var j = 0u; j < dims.n; j++) {
        let p = exp(score(i, j) - m);
        l += p;
        for (var c = 0u; c < dims.d; c++) {
            acc[c] += p * v[j * dims.d + c];
        }
    }
    for (var c = 0u; c < dims.d; c++) {
        out[i * dims.d + c] = acc[c] / l;
    }
}
