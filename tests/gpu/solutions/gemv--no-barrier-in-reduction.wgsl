// expect: memory-error in some cases
// message: (workgroup memory)
// Wrong on purpose: one barrier after the partial sums are stored, none in
// the rounds that add them up. Round 2 reads smem[i + half], which another
// invocation wrote in round 1, and nothing says that invocation has finished:
// a race in workgroup memory, which the judge reports (on a GPU the sum may
// also come out wrong). From 4 invocations up every case has such a read.
// With 1 to 3 invocations every read in the rounds is of a value stored
// before the one barrier, so those cases pass.
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
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        // (missing: workgroupBarrier() here)
    }
    if (i == 0u) {
        y[row] = smem[0];
    }
}
