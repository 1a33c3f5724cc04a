// Comparison kernel: the naive mapping, one invocation per row. Invocation
// number `row`, counted over the whole dispatch, adds up its whole row alone,
// left to right. It is correct (the dispatch has m · wgs.x ≥ m invocations),
// and slow on a GPU two ways: neighbouring invocations read addresses a whole
// row (k floats) apart, so their reads do not coalesce; and only m invocations
// do any work, in the first ceil(m / wgs.x) workgroups, which leaves most of
// the GPU idle when m is small.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    m: u32, // rows of a, elements of y
    k: u32, // columns of a, elements of x
}

@group(0) @binding(0) var<storage, read> a: array<f32>;       // m × k, row-major
@group(0) @binding(1) var<storage, read> x: array<f32>;       // k
@group(0) @binding(2) var<storage, read_write> y: array<f32>; // m
@group(0) @binding(3) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let row = workgroup_id.x * W + local_id.x;
    if (row < dims.m) {
        let base = row * dims.k;
        var sum = 0.0;
        for (var c = 0u; c < dims.k; c++) {
            sum += a[base + c] * x[c];
        }
        y[row] = sum;
    }
}
