// expect: failed
// Wrong on purpose: the reduction of Tree Reduction's first draft, halving a
// stride from wgs.x / 2. With wgs.x a power of two it adds every partial; with
// any other workgroup size the odd one out of a round is dropped: with 7
// invocations the strides are 3 and 1, and smem[2] and smem[6] never reach
// smem[0]. "the statement's example" (3 invocations) and "edge: sizes that are
// not powers of two" (7) fail; workgroups of 4, 8, 16 and 64 pass.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> y: array<f32>;
@group(0) @binding(1) var<storage, read> dy: array<f32>;
@group(0) @binding(2) var<storage, read_write> dx: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let cols = dims.cols;
    let base = workgroup_id.x * cols;
    let parts = min(W, cols);

    var p = 0.0;
    for (var c = i; c < cols; c += W) {
        p += dy[base + c] * y[base + c];
    }
    smem[i] = p;
    workgroupBarrier();
    for (var stride = W / 2u; stride > 0u; stride /= 2u) {
        if (i < stride) {
            smem[i] += smem[i + stride];
        }
        workgroupBarrier();
    }
    let s = smem[0];

    for (var c = i; c < cols; c += W) {
        dx[base + c] = y[base + c] * (dy[base + c] - s);
    }
}
