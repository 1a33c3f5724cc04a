// expect: failed
// Wrong on purpose: the reduction of Tree Reduction, halving a stride from
// wgs.x / 2. That pairs every partial sum only when wgs.x is a power of two.
// With 7 invocations ("edge: sizes that are not powers of two, 7 × 19, 7
// invocations") the strides are 3 and 1: smem[6] is never read, and smem[2]
// (which by then holds invocation 5's sum too) never reaches smem[0], so every
// y leaves out columns 2, 5, 6, 9, 12, 13 and 16. Cases whose workgroup size
// is a power of two pass, and so does a case whose lost partial sums are 0.
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
    let base = row * dims.k;
    var sum = 0.0;
    for (var c = i; c < dims.k; c += W) {
        sum += a[base + c] * x[c];
    }
    smem[i] = sum;
    workgroupBarrier();
    for (var stride = W / 2u; stride > 0u; stride /= 2u) {
        if (i < stride) {
            smem[i] += smem[i + stride];
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        y[row] = smem[0];
    }
}
