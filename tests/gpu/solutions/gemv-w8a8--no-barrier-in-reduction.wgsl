// expect: memory-error in some cases
// message: (workgroup memory)
// Wrong on purpose: one barrier after the partial sums are stored, none in
// the rounds that add them up. From 4 invocations on, round 2 reads
// smem[i + half], which another invocation wrote in round 1 with nothing to
// say it has finished: a race in workgroup memory, which the judge reports.
// With 1 to 3 invocations every read in the rounds is of a value stored
// before the one barrier, so "one invocation per workgroup" passes.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> w: array<u32>;         // rows × cols / 4 words
@group(0) @binding(1) var<storage, read> xq: array<u32>;        // cols / 4 words
@group(0) @binding(2) var<storage, read> w_scale: array<f32>;   // rows
@group(0) @binding(3) var<storage, read> x_scale: array<f32>;   // 1
@group(0) @binding(4) var<storage, read_write> acc: array<i32>; // rows
@group(0) @binding(5) var<storage, read_write> y: array<f32>;   // rows
@group(0) @binding(6) var<uniform> dims: Dims;

var<workgroup> smem: array<i32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 4u;
    var sum = 0i;
    for (var k = i; k < words; k += W) {
        sum += dot4I8Packed(w[row * words + k], xq[k]);
    }
    smem[i] = sum;
    workgroupBarrier();
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        // no barrier here
    }
    if (i == 0u) {
        acc[row] = smem[0];
        y[row] = f32(smem[0]) * w_scale[row] * x_scale[0];
    }
}
