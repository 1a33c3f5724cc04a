// expect: passed
// Correct but slow, on purpose: the comparison kernel's mapping. Invocation
// global_id.x (which is workgroup_id.x * wgs.x + local_id.x) takes row
// global_id.x and adds up the whole row alone, left to right; the dispatch
// has m · wgs.x ≥ m invocations, and those past the last row do nothing. It
// passes every case on a software adapter, where the target is not enforced;
// on an NVIDIA H100 it reached 37 % (tall) and 1 % (wide) of the reference's
// rate and failed the 50 % target (below-target): its reads a row apart do
// not coalesce, and only m invocations have work.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    m: u32,
    k: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;       // m × k, row-major
@group(0) @binding(1) var<storage, read> x: array<f32>;       // k
@group(0) @binding(2) var<storage, read_write> y: array<f32>; // m
@group(0) @binding(3) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let row = global_id.x;
    if (row < dims.m) {
        var sum = 0.0;
        for (var c = 0u; c < dims.k; c++) {
            sum += a[row * dims.k + c] * x[c];
        }
        y[row] = sum;
    }
}
