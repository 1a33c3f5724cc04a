// expect: failed
// Wrong on purpose: one column per invocation, as if every row fitted in the
// workgroup. Invocation i reads column i only, so columns wgs.x and beyond are
// left out of every y. In "ragged: rows longer than the workgroup, 5 × 37, 8
// invocations" only the first 8 of 37 columns count. Cases whose rows fit in
// the workgroup (the worked example, "rows shorter than the workgroup", one
// column) pass.
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

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    var product = 0.0;
    if (i < dims.k) {
        product = a[row * dims.k + i] * x[i];
    }
    smem[i] = product;
    workgroupBarrier();
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        y[row] = smem[0];
    }
}
