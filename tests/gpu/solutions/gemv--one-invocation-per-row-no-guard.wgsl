// expect: memory-error in some cases
// message: out-of-bounds
// Wrong on purpose: one invocation per row without the guard `row < dims.m`.
// The dispatch has m · wgs.x invocations, so with more than one invocation per
// workgroup those from row m on read past the end of a and write past the end
// of y: a memory error. With one invocation per workgroup there are exactly m
// invocations and those cases pass.
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
    var sum = 0.0;
    for (var c = 0u; c < dims.k; c++) {
        sum += a[row * dims.k + c] * x[c];
    }
    y[row] = sum;
}
